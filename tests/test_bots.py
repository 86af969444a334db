"""Bots (``agility_cli.players.bots``): legal, deterministic, and greedy plays sensibly and wins.

Scenario tests build a position with ``tests/builders.py`` and check one greedy decision against the
rule it applies (R14, R15, R17, R20, R21, R25, R27, R32); the playout tests run whole games.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agility_cli.players import bots
from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.cli import app
from agility_cli.engine.moves import Adopt, Advance, Distract, Done, Exchange, Move, Play, Prize, Rush
from agility_cli.engine.rng import Rng
from agility_cli.engine.state import State, digest

from builders import AFRAME, HURDLE, OPEN, PAUSE, TUNNEL, WEAVE, A, B, course, cubes, give, hand, new_game, to_phase

runner = CliRunner()


def _game(seed: int, strategies: tuple[str, str], board: str = "recommended") -> tuple[State, list[Move]]:
    """A whole game between two strategies; checks every choice is legal as it goes."""
    layout = rules.RECOMMENDED_BOARD if board == "recommended" else rules.random_board(seed, board[-1])
    s = new_game(seed, board=layout, first="alice" if seed % 2 else "bob")
    moves: list[Move] = []
    while s.winner is None and len(moves) < 20_000:
        legal = rules.legal_moves(s)
        m = bots.choose(strategies[s.to_act], s, Rng.for_purpose(seed, f"bot:{len(moves) + 1}"))  # type: ignore[index]
        assert m in legal
        rules.apply_in_place(s, m)
        moves.append(m)
    return s, moves


# ------------------------------------------------------------------------------------------------
# API


def test_strategies_are_random_greedy_and_the_search_levels() -> None:
    assert set(bots.STRATEGIES) == {"random", "greedy", "strong", "strong1", "strong2", "strong3"}


@pytest.mark.parametrize("strategies", [("random", "random"), ("greedy", "random"), ("greedy", "greedy")])
@pytest.mark.parametrize("board", ["recommended", "random-a", "random-b"])
def test_bots_choose_only_legal_moves_and_finish(strategies: tuple[str, str], board: str) -> None:
    for seed in range(4):
        s, moves = _game(seed, strategies, board)
        assert s.winner is not None, "a bot game ends"
        assert len(moves) < 2_000


def test_choose_refuses_an_unknown_strategy_and_a_finished_game() -> None:
    s = new_game(3)
    with pytest.raises(ValueError, match="unknown strategy"):
        bots.choose("clever", s, Rng(1))
    s, _ = _game(3, ("greedy", "greedy"))
    with pytest.raises(ValueError, match="game is over"):
        bots.choose("greedy", s, Rng(1))


def test_random_is_uniform_over_legal_moves_with_the_game_prng() -> None:
    s = new_game(5)
    legal = rules.legal_moves(s)
    seen = {repr(bots.choose("random", s, Rng.for_purpose(5, f"t{i}"))) for i in range(400)}
    assert seen == {repr(m) for m in legal}


def test_same_seed_same_moves_different_seed_different_moves() -> None:
    s = new_game(11)
    for strategy in ("random", "greedy"):
        assert bots.play_out(s, strategy, 7, 60) == bots.play_out(s, strategy, 7, 60)
    assert bots.play_out(s, "random", 7, 60) != bots.play_out(s, "random", 8, 60)
    # Different games (seeds of the game itself) give different greedy games.
    assert bots.play_out(new_game(12), "greedy", 7, 60) != bots.play_out(s, "greedy", 7, 60)


def test_play_out_respects_the_limit_and_leaves_the_state_alone() -> None:
    s = new_game(2)
    before = digest(s)
    for k in (1, 5, 17):
        moves = bots.play_out(s, "greedy", 0, k)
        assert len(moves) == k
    assert digest(s) == before
    # Replaying the moves gives a valid continuation (each is legal in turn).
    t = s.copy()
    for m in bots.play_out(s, "random", 3, 40):
        rules.apply_in_place(t, m)


def test_play_out_stops_at_the_end_of_the_game() -> None:
    s = new_game(4)
    moves = bots.play_out(s, "greedy", 0, 100_000)
    t = s.copy()
    for m in moves:
        rules.apply_in_place(t, m)
    assert t.winner is not None
    assert bots.play_out(t, "greedy", 0, 10) == []


def test_play_out_refuses_an_unknown_strategy() -> None:
    with pytest.raises(ValueError):
        bots.play_out(new_game(1), "clever", 0, 1)


@pytest.mark.parametrize(
    ("name", "strategy"),
    [
        ("bot:greedy", "greedy"),
        ("bot:random", "random"),
        ("bot:greedy:2", "greedy"),
        ("bot:random-b", "random"),
        ("bot:rand", "random"),
        ("bot:Random", "random"),
        ("bot:", "greedy"),
        ("bot:whatever", "greedy"),
    ],
)
def test_seat_names_pick_a_strategy(name: str, strategy: str) -> None:
    assert bots.strategy_of_seat(name) == strategy


def test_choose_for_seat_is_deterministic_per_decision_number() -> None:
    s = new_game(9)
    a = [bots.choose_for_seat("bot:random", s, 9, n) for n in range(1, 30)]
    b = [bots.choose_for_seat("bot:random", s, 9, n) for n in range(1, 30)]
    assert a == b
    assert len({repr(m) for m in a}) > 1  # a new stream per decision number
    assert bots.choose_for_seat("bot:greedy", s, 9, 1) in rules.legal_moves(s)


# ------------------------------------------------------------------------------------------------
# Greedy scenarios


def _only_these_courses(s: State, keep: dict[int, list]) -> None:
    """Every unclaimed course without hurdles, except the slots given."""
    for slot in range(len(s.courses)):
        if slot in keep:
            course(s, slot, keep[slot])
        elif s.courses[slot].owner is None:
            course(s, slot, [TUNNEL, WEAVE, PAUSE, AFRAME, OPEN])


def test_r25_greedy_adopts_the_dog_whose_features_fit_a_free_course() -> None:
    s = to_phase(new_game(1), "dogs")
    assert "golden-retriever" in s.dog_display  # pass on hurdles (R4)
    _only_these_courses(s, {3: [HURDLE, HURDLE, PAUSE, HURDLE, TUNNEL]})
    cubes(s, A, blue=4, black=1)
    m = bots.choose("greedy", s, Rng(0))
    assert m == Adopt(player="alice", dog="golden-retriever", course=s.courses[3].id)


def test_r17_greedy_plays_the_card_whose_clear_tile_moves_several_dogs() -> None:
    s = new_game(1)
    course(s, 0, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=A, dog="labrador-retriever")
    course(s, 1, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=A, dog="mighty-mutt")
    hand(s, A, 3, 5, 6)  # space 3 is Clear Tunnels on the recommended board (R8)
    m = bots.choose("greedy", s, Rng(0))
    assert isinstance(m, Play)
    assert s.cat.cards[m.card].number == 3 and m.flex == 0


def test_r14_greedy_spends_flex_to_reach_a_clear_tile() -> None:
    s = new_game(1)
    course(s, 0, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=A, dog="mighty-mutt")
    course(s, 1, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=A, dog="siberian-husky")
    hand(s, A, 4, 4, 4)  # lands on Exchange (4); one Flex back reaches Clear Tunnels (3)
    give(s, A, flex=1)
    m = bots.choose("greedy", s, Rng(0))
    assert isinstance(m, Play) and m.flex == -1


def test_r27_greedy_advances_feature_obstacles_before_paid_ones() -> None:
    s = to_phase(new_game(1), "dogs")
    s.moved = True  # past adopting
    course(s, 0, [TUNNEL, HURDLE, PAUSE, WEAVE, AFRAME], owner=A, dog="mighty-mutt", position=0)
    course(s, 1, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="golden-retriever", position=0)
    cubes(s, A, green=2, red=1)
    m = bots.choose("greedy", s, Rng(0))
    assert m == Advance(player="alice", course=s.courses[1].id)  # the free hurdle first


def test_r15_greedy_exchanges_only_to_enable_an_advance() -> None:
    s = to_phase(new_game(1), "dogs")
    s.moved = s.adopted = True  # a dog adopted this turn: no cubes are kept back for the next one
    course(s, 0, [("hurdle", {"blue": 3}), TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="labrador-retriever")
    give(s, A, exchange=1)
    cubes(s, A, yellow=3)
    assert bots.choose("greedy", s, Rng(0)) == Exchange(player="alice", from_="yellow", to="blue")
    cubes(s, A, yellow=1, green=1)  # no exchange can pay 3 blue: keep the token
    assert bots.choose("greedy", s, Rng(0)) == Done(player="alice")


def test_r25_greedy_keeps_cubes_back_for_a_dog_it_nearly_affords() -> None:
    s = to_phase(new_game(1), "dogs")
    s.moved = True
    course(s, 0, [("hurdle", {"blue": 2}), TUNNEL, PAUSE, WEAVE, AFRAME], owner=A, dog="labrador-retriever")
    _only_these_courses(s, {})
    cubes(s, A, blue=2, yellow=2)  # Shetland Sheepdog (3 yellow, 2 blue) is one cube away
    assert "shetland-sheepdog" in s.dog_display
    assert bots.choose("greedy", s, Rng(0)) == Done(player="alice")
    s.adopted = True  # once this turn's adoption is over, nothing is kept back this turn
    assert bots.choose("greedy", s, Rng(0)) == Advance(player="alice", course=s.courses[0].id)


def test_r20_greedy_distracts_the_opponents_most_advanced_dog() -> None:
    s = to_phase(new_game(1), "distract")
    s.card, s.reward = s.players[A].hand[0], None
    course(s, 0, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=B, dog="mighty-mutt", position=0)
    course(s, 1, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=B, dog="labrador-retriever", position=3)
    m = bots.choose("greedy", s, Rng(0))
    assert isinstance(m, Distract)
    assert m.course == s.courses[1].id and m.obstacle == 3


def test_r21_greedy_rushes_the_opponents_most_advanced_dog() -> None:
    s = to_phase(new_game(1), "rush")
    course(s, 0, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=B, dog="mighty-mutt", position=1)
    course(s, 1, [HURDLE, TUNNEL, PAUSE, WEAVE, AFRAME], owner=B, dog="labrador-retriever", position=4)
    assert bots.choose("greedy", s, Rng(0)) == Rush(player="alice", course=s.courses[1].id)


def test_r32_greedy_takes_an_exchange_token_first_then_flex() -> None:
    s = new_game(1)
    s.prizes = [(A, "three_dogs")]
    assert bots.choose("greedy", s, Rng(0)) == Prize(player="alice", token="exchange")
    give(s, A, exchange=1)
    assert bots.choose("greedy", s, Rng(0)) == Prize(player="alice", token="flex")


# ------------------------------------------------------------------------------------------------
# Strength and speed


def _match(n: int, board: str = "recommended") -> tuple[int, list[int]]:
    """Greedy vs random over ``n`` seeded games, seats alternating; (greedy wins, by greedy's seat)."""
    wins, by_seat = 0, [0, 0]
    for seed in range(n):
        strategies = ("greedy", "random") if seed % 2 == 0 else ("random", "greedy")
        s, _ = _game(seed, strategies, board)
        if strategies[s.winner] == "greedy":  # type: ignore[index]
            wins += 1
            by_seat[s.winner] += 1  # type: ignore[index]
    return wins, by_seat


def test_greedy_beats_random_in_at_least_90_percent_of_200_games() -> None:
    wins, by_seat = _match(200)
    assert wins >= 180, (wins, by_seat)
    assert min(by_seat) >= 85  # from either seat


@pytest.mark.slow
@pytest.mark.parametrize("board", ["random-a", "random-b"])
def test_greedy_beats_random_on_random_boards(board: str) -> None:
    wins, _ = _match(400, board)
    assert wins >= 360


def test_greedy_finishes_20_seeded_games() -> None:
    # The rate (>= 20 games/s) is a benchmark figure (`agility bench`), never a timed test.
    for seed in range(20):
        s, _ = _game(seed, ("greedy", "greedy"))
        assert s.winner is not None


# ------------------------------------------------------------------------------------------------
# The CLI: `agility bot` and solo play against a bot seat


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_bot_command_appends_k_decisions_then_plays_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    assert runner.invoke(app, ["new", str(path), "--seed", "5", "-q"]).exit_code == 0
    before = len(_lines(path))
    r = runner.invoke(app, ["bot", str(path), "--strategy", "greedy", "--seed", "7", "--moves", "3", "-q"])
    assert r.exit_code == 0, r.stderr
    assert len(_lines(path)) == before + 3
    r = runner.invoke(app, ["bot", str(path), "--strategy", "random", "--seed", "7", "--until-end", "-q"])
    assert r.exit_code == 0, r.stderr
    game = gamefile.load(path)
    assert game.state.winner is not None


def test_bot_command_is_deterministic(tmp_path: Path) -> None:
    outs = []
    for name in ("a.jsonl", "b.jsonl"):
        path = tmp_path / name
        runner.invoke(app, ["new", str(path), "--seed", "5", "-q"])
        runner.invoke(app, ["bot", str(path), "--strategy", "random", "--seed", "3", "--moves", "25", "-q"])
        outs.append(path.read_bytes())
    assert outs[0] == outs[1]


def test_solo_play_the_bot_seat_answers_each_move(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    r = runner.invoke(app, ["new", str(path), "--seed", "4", "--players", "alice", "bot:greedy", "-q"])
    assert r.exit_code == 0, r.stderr
    bot_lines = 0
    for _ in range(400):
        game = gamefile.load(path)
        s = game.state
        if s.winner is not None:
            break
        assert s.players[s.to_act].name == "alice"  # the bot never leaves a decision waiting
        legal = json.loads(runner.invoke(app, ["legal", str(path), "--json"]).output)
        argv = legal[Rng.for_purpose(4, f"alice:{game.lines}").below(len(legal))]["argv"]
        r = runner.invoke(app, ["move", str(path), *argv, "--as", "alice", "-q"])
        assert r.exit_code == 0, r.stderr
        bot_lines = sum(1 for x in _lines(path)[1:] if x["player"] == "bot:greedy")
        if bot_lines > 30:
            break
    assert bot_lines > 0
    s = gamefile.load(path).state
    assert s.to_act is None or s.players[s.to_act].name == "alice"
