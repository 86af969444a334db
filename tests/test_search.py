"""The search bot (``strong``, ``strong1`` …): ISMCTS over what its seat may know (R39).

* it chooses only among ``rules.legal_moves`` in every phase of random games under both rules
  versions (R38), prize choices and the opponent's Intimidation discard included (R32/R33/R36);
* it is deterministic for (view, PRNG stream, budget in simulations), and a seeded game against it
  replays identically from its file;
* ``search.analyse`` ranks the decisions with visit counts and win rates in [0, 1];
* ``agility hint`` prints the command to type, from the acting player's view only.

The bot-information test (same decision on states differing only in what the seat cannot know)
runs for ``strong`` in tests/test_view.py, with a small budget, and for every level at its own
budget in tests/test_search_levels.py.  Budgets here are tiny: strength
is measured by the benchmark (docs/bots.md), not by tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agility_cli.players import bots, search
from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.players import selfplay as sp
from agility_cli.cli import app
from agility_cli.engine.components import standard_components
from agility_cli.engine.rng import Rng
from agility_cli.engine.state import State, canonical, digest
from agility_cli.engine.view import seat_view
import builders
from builders import board_with, new_game

runner = CliRunner()
TINY = search.Budget(sims=6)
BOARDS = (
    rules.RECOMMENDED_BOARD,
    board_with(s5="intimidation", s4="inspiration"),
    board_with(s1="rush", s9="slip", s2="intimidation"),
)


@pytest.fixture
def tiny_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every search level at a tiny budget and a short rollout (behaviour, not strength)."""
    for level in search.LEVELS:
        monkeypatch.setitem(search.LEVELS, level, TINY)
    monkeypatch.setattr(search, "SETTINGS", search.Settings(horizon=1))


def random_states(version: int, games: int, seed0: int = 0) -> Iterator[tuple[int, State]]:
    """Mostly greedy games, so that they reach prizes, mini-turns and the final turn."""
    return builders.random_states(version, games, BOARDS, seed0=seed0, greedy=0.7)


@pytest.mark.parametrize("version", [1, 2])
def test_strong_chooses_only_legal_moves_in_every_phase(version: int, tiny_levels: None) -> None:
    phases: set[str] = set()
    chosen = 0
    for n, (seed, s) in enumerate(random_states(version, 6, seed0=40)):
        legal = rules.legal_moves(s)
        if len(legal) == 1 or n % 2:
            continue
        phase = "prize" if s.prizes else ("mini" if s.in_mini and s.phase == "play" else s.phase)
        move = bots.choose("strong", s, Rng.for_purpose(seed, f"bot:{n}"))
        assert move in legal, f"seed {seed}, decision {n}: {move}"
        phases.add(phase)
        chosen += 1
    assert chosen > 100
    assert {"play", "dogs", "refill", "prize"} <= phases, phases
    if version == 2:
        assert "reward" in phases


def test_analyse_ranks_legal_moves_with_visits_and_win_rates() -> None:
    s = midgame(2)
    seat = s.to_act
    assert seat is not None
    a = search.analyse(s, seat, Rng(3), search.Budget(sims=40))
    legal = rules.legal_moves(s)
    assert a.simulations == 40 and a.seat == seat
    assert len(a.moves) >= 2
    assert all(st.move in legal for st in a.moves)
    assert all(0.0 <= st.win_rate <= 1.0 for st in a.moves)
    visits = [st.visits for st in a.moves]
    assert visits == sorted(visits, reverse=True)
    assert sum(visits) == 40  # every simulation passes through one root decision
    assert a.best is a.moves[0] and a.runner_up is a.moves[1]


def test_analyse_is_deterministic_for_the_view_stream_and_budget() -> None:
    s = midgame(1)
    seat = s.to_act
    assert seat is not None
    runs = [search.analyse(s, seat, Rng(11), search.Budget(sims=30)) for _ in range(2)]
    assert [(m.move, m.visits, m.win_rate) for m in runs[0].moves] == [(m.move, m.visits, m.win_rate) for m in runs[1].moves]
    other = search.analyse(s, seat, Rng(12), search.Budget(sims=30))
    assert other.moves  # another stream: a valid ranking too (possibly another one)


def test_r39_analyse_reads_only_the_seat_view() -> None:
    s = midgame(2)
    seat = s.to_act
    assert seat is not None
    t = s.copy()  # another truth behind the same view: the deck reversed, the PRNG changed
    t.deck = t.deck[::-1]
    t.rng ^= 0xABCDEF
    assert canonical(seat_view(t, seat)) == canonical(seat_view(s, seat)) and canonical(t) != canonical(s)
    a = search.analyse(s, seat, Rng(5), search.Budget(sims=25))
    b = search.analyse(t, seat, Rng(5), search.Budget(sims=25))
    assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]


def test_a_time_budget_stops_and_still_answers() -> None:
    s = midgame(2)
    seat = s.to_act
    assert seat is not None
    a = search.analyse(s, seat, Rng(1), search.Budget(seconds=0.05))
    assert a.simulations >= 1 and a.moves[0].move in rules.legal_moves(s)


def test_budget_needs_simulations_or_seconds() -> None:
    with pytest.raises(ValueError):
        search.Budget()
    with pytest.raises(ValueError):
        search.Budget(sims=0)


def test_levels_are_strategies_and_seat_names_pick_them() -> None:
    for level in search.LEVELS:
        assert level in bots.STRATEGIES
        assert bots.strategy_of_seat(f"bot:{level}") == level
    assert bots.strategy_of_seat("bot:strong:2") == "strong"
    assert bots.strategy_of_seat("bot:strong3") == "strong3"
    assert bots.strategy_of_seat("bot:greedy:2") == "greedy"
    sims = [search.LEVELS[f"strong{k}"].sims for k in (1, 2, 3)]
    assert sims == sorted(sims) and len(set(sims)) == 3  # easy to hard


@pytest.mark.parametrize("version", [1, 2])
def test_a_seeded_game_against_strong_replays_identically(tmp_path: Path, tiny_levels: None, version: int) -> None:
    header = gamefile.make_header(
        seed=77, players=("bot:strong", "bot:greedy"), first="bot:strong", board=BOARDS[1], components=None
    )
    header = header.__class__(**{**{f: getattr(header, f) for f in header.__struct_fields__}, "rules": version})
    comps = standard_components()
    moves, live, _, _ = sp.play_header(header, comps)
    again, _, _, _ = sp.play_header(header, comps)
    assert moves == again  # deterministic for (seed, budget)
    assert live.winner is not None
    path = tmp_path / "game.jsonl"
    end = sp.write_game(path, header, moves)
    game = gamefile.load(path)
    assert digest(game.state) == digest(live) == digest(end)
    assert game.state.winner == live.winner


def test_hint_prints_the_command_of_the_best_move_and_the_runner_up(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    assert run("new", path, "--seed", "4", "--players", "alice", "bob").exit_code == 0
    r = run("hint", path, "--as", "alice", "--level", "strong1")
    assert r.exit_code == 0, r.stderr
    j = run("hint", path, "--json", "--level", "strong1")
    data = json.loads(j.stdout)
    first, second = ("either:", "or:") if data["about_equal"] else ("best:", "runner-up:")  # issue 32
    assert f"{first:<11}agility move {path} play " in r.stdout
    assert f"  {second}" in r.stdout and "win chance" in r.stdout
    assert data["player"] == "alice" and data["simulations"] == search.LEVELS["strong1"].sims
    assert data["best"]["command"].startswith(f"agility move {path} play ")
    assert 0 <= data["best"]["win_chance"] <= 1 and data["runner_up"] is not None
    # the suggested command is accepted as it is printed
    words = data["best"]["argv"]
    assert run("move", path, *words, "--as", "alice", "-q").exit_code == 0


def test_hint_refuses_another_player_and_a_finished_game(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    run("new", path, "--seed", "4", "--players", "alice", "bob")
    before = path.read_bytes()
    r = run("hint", path, "--as", "bob")
    assert r.exit_code == 1 and "alice's decision" in r.stderr
    assert path.read_bytes() == before
    done = tmp_path / "done.jsonl"
    run("new", done, "--seed", "2", "--players", "bot:greedy", "bot:random")
    r = run("hint", done)
    assert r.exit_code == 2 and "over" in r.stderr
    assert run("hint", path, "--level", "nonsense").exit_code == 2


# --------------------------------------------------------------------------------------------


def run(*args: object):
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def midgame(version: int) -> State:
    """A state some twenty greedy decisions in, where a real choice is open."""
    s = new_game(8, BOARDS[2], version=version)
    rng = Rng(8)
    n = 0
    while True:
        legal = rules.legal_moves(s)
        if n >= 20 and len(legal) > 2 and s.phase == "play" and not s.prizes:
            return s
        rules.apply_in_place(s, bots.greedy_strategy(s, legal, rng))
        n += 1


def test_selfplay_runs_strong_and_reports_its_thinking_time(tiny_levels: None) -> None:
    config = sp.Config(games=2, strategy="strong", vs="greedy", seed=5, board="mixed")
    results = sp.run(config)
    assert all(r.winner is not None for r in results)
    summary = sp.summarize(config, results)
    think = summary["thinking"]
    assert think["strong"]["decisions"] > 20 and think["greedy"]["decisions"] > 20
    assert 0 < think["strong"]["mean_ms"] <= think["strong"]["max_ms"]
    assert think["strong"]["p95_ms"] <= think["strong"]["max_ms"]
    lo, hi = summary["win_rate_95"]["strong"]
    assert 0 <= lo <= summary["win_rate"]["strong"] <= hi <= 1
    from rich.console import Console

    console = Console(record=True, width=120)
    console.print(sp.render(summary))
    text = console.export_text()
    assert "thinking time per decision" in text and "strong" in text


def test_wilson_interval() -> None:
    lo, hi = sp.wilson(150, 200)
    assert (round(lo, 3), round(hi, 3)) == (0.686, 0.805)
    assert sp.wilson(0, 10)[0] == 0.0 and sp.wilson(10, 10)[1] == 1.0
