"""Golden recorded games (STYLE.md habit 5): every ``games/*.jsonl`` replays to its expected state.

Each game was written by the bots through the real file format (see ``games/README.md``).  Replay
verifies every line (schema, chain, legality, digest); the final ``public_state`` must equal
``NAME.expected.json``.  Beyond that, each game must still show what it is kept for: the R34 final
turn both ways, the four extra tiles (R21–R24) on random boards (R9), an embedded component set (R6).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner
from storytext import unwrapped

from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.cli import app
from agility_cli.engine.components import Components, EXTRA_TILES, load_components
from agility_cli.engine.moves import ChooseReward, Discard, Draw, Inspire, Play, Rush, Slip
from agility_cli.engine.state import public_state

from gamefiles import assert_state_matches

GAMES = Path(__file__).resolve().parents[1] / "games"
FILES = sorted(GAMES.glob("*.jsonl"))
EXTRA_MOVE = {"rush": Rush, "slip": Slip, "inspiration": Inspire, "intimidation": Discard}


def _replay(path: Path) -> tuple[gamefile.Game, list]:
    data = path.read_bytes()
    moves = [item.move for item in gamefile.iter_game(data, str(path)) if isinstance(item, gamefile.Step)]
    return gamefile.load(path), moves


def test_there_are_at_least_six_golden_games_each_with_its_expected_state() -> None:
    assert len(FILES) >= 6
    for path in FILES:
        assert (GAMES / f"{path.stem}.expected.json").exists(), f"{path.name} has no expected state"
    assert (GAMES / "README.md").exists()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_replays_to_its_expected_final_state(path: Path) -> None:
    game = gamefile.load(path)  # raises GameFileError at the first bad line
    expected = json.loads((GAMES / f"{path.stem}.expected.json").read_text())
    actual = json.loads(msgspec.json.encode(public_state(game.state)))
    assert_state_matches(expected, actual)
    assert game.state.winner is not None, "a golden game is a complete game"
    assert rules.legal_moves(game.state) == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_game_is_listed_in_the_readme(path: Path) -> None:
    assert f"`{path.name}`" in (GAMES / "README.md").read_text()


def test_recommended_board_game() -> None:
    game, _ = _replay(GAMES / "recommended-greedy-vs-random.jsonl")
    assert game.header.board == rules.RECOMMENDED_BOARD  # R8
    assert game.header.components == "standard"
    assert game.state.players[game.state.winner].name == "bot:greedy"


def test_r34_final_turn_opponent_wins_on_the_tiebreak() -> None:
    s = gamefile.load(GAMES / "tiebreak-opponent-wins.jsonl").state
    assert s.final_turn, "the start player finished first without the Tiebreak marker"
    assert s.finisher == s.start and s.tiebreak == 1 - s.start
    assert s.winner == 1 - s.start == s.tiebreak
    assert sum(c.finished for c in s.courses if c.owner == s.winner) == 3
    assert s.players[0].turns == s.players[1].turns  # R34: the same number of turns


def test_r34_final_turn_first_finisher_wins_after_it() -> None:
    s = gamefile.load(GAMES / "tiebreak-finisher-wins.jsonl").state
    assert s.final_turn
    assert s.finisher == s.start == s.winner
    assert s.tiebreak == 1 - s.start  # the opponent held the Tiebreak marker (R33) …
    assert sum(c.finished for c in s.courses if c.owner == s.tiebreak) < 3  # … but did not finish all three
    assert s.players[0].turns == s.players[1].turns


def test_random_boards_cover_each_extra_tile_resolved_with_effect() -> None:
    covered: set[str] = set()
    for path in FILES:
        game, moves = _replay(path)
        if game.header.board == rules.RECOMMENDED_BOARD:
            continue
        kinds = {type(m) for m in moves}
        for tile in EXTRA_TILES:
            if tile in game.header.board and EXTRA_MOVE[tile] in kinds:
                covered.add(tile)
    assert covered == set(EXTRA_TILES)


def test_random_b_game_holds_and_uses_all_four_extra_tiles() -> None:
    game, moves = _replay(GAMES / "random-b-all-extras.jsonl")
    board = game.header.board
    assert set(EXTRA_TILES) <= set(board)
    assert {"flex", "exchange"} <= set(board)
    assert rules.random_board(game.header.seed, "b") == board  # R9 variant B, from the seed
    kinds = {type(m) for m in moves}
    assert {Rush, Slip, Inspire, Discard} <= kinds
    assert game.state.inspiration == []  # R23: every cube taken


def test_custom_components_are_embedded_in_the_header() -> None:
    game, _ = _replay(GAMES / "custom-components.jsonl")
    assert isinstance(game.header.components, Components)
    variant = load_components(GAMES / "variant-components.json")
    assert game.header.components == variant
    assert variant.name == "variant-example"
    adopted = {d for p in game.state.players for d in p.dogs}
    assert adopted and adopted <= {d.id for d in variant.dogs}
    standard_ids = {d.id for d in gamefile.header_components(gamefile.make_header(
        seed=0, players=("a", "b"), first="a", board=rules.RECOMMENDED_BOARD, components=None)).dogs}
    assert not adopted & standard_ids


def test_golden_game_replays_through_the_cli() -> None:
    r = CliRunner().invoke(app, ["replay", str(GAMES / "tiebreak-opponent-wins.jsonl")])
    assert r.exit_code == 0, r.stderr
    assert "Every line verified" in r.output


NARRATION = Path(__file__).resolve().parent / "golden" / "replay-v1"


def _sentences(text: str) -> list[str]:
    """The narrated decisions of a replay, without their numbering, and its verdict."""
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        head, dot, rest = stripped.partition(". ")
        if dot and head.isdigit():
            out.append(rest)
        elif stripped.startswith(("Result:", "Turn ")):
            out.append(stripped)
    return out


V1_FILES = [p for p in FILES if json.loads(p.read_bytes().split(b"\n", 1)[0])["rules"] == 1]


@pytest.mark.parametrize("path", V1_FILES, ids=[p.stem for p in V1_FILES])
def test_r38_version_1_games_narrate_and_verify_as_they_always_did(path: Path) -> None:
    """R38: `agility replay` of a version-1 game tells the same story, decision by decision, with
    the same verdict, as the tool did when it was recorded (tests/golden/replay-v1, made then)."""
    assert gamefile.load(path).header.rules == 1
    r = CliRunner().invoke(app, ["replay", str(path)])
    assert r.exit_code == 0, r.output
    expected = _sentences((NARRATION / f"{path.stem}.txt").read_text())
    assert len(expected) > 50
    assert _sentences(unwrapped(r.stdout)) == expected  # the story to a pipe is wrapped at 80 (issue 52)


# --------------------------------------------------------------------------------------------
# Rules version 2 (R38): what each version-2 game is kept for


def _steps(name: str) -> Iterator[gamefile.Step]:
    """The verified steps of a game; each ``after`` is the live state, so read it as it comes."""
    path = GAMES / f"{name}.jsonl"
    for item in gamefile.verify(path.read_bytes(), str(path), keep_before=True):
        if isinstance(item, gamefile.Step):
            yield item


def test_r38_the_version_2_games_are_version_2() -> None:
    v2 = [p for p in FILES if p.stem.startswith("v2-")]
    assert len(v2) >= 3
    for path in v2:
        assert gamefile.load(path).header.rules == 2


def test_r12_version_2_golden_game_chooses_rewards_after_boost_and_after_break() -> None:
    after: dict[str, int] = {}
    for step in _steps("v2-deferred-reward-boost-break"):
        if isinstance(step.move, ChooseReward):
            assert step.before is not None and step.before.phase == "reward"
            tile = step.before.last_tile or ""
            after[tile] = after.get(tile, 0) + 1
        if isinstance(step.move, Play) and step.move.reward is None:
            assert step.after.phase != "dogs" or step.after.sweep is False
    assert after.get("boost", 0) >= 1 and after.get("break", 0) >= 1


def test_r22_r36_version_2_golden_game_has_intimidation_discards_made_at_once_by_the_opponent() -> None:
    seen = 0
    for step in _steps("v2-intimidation-discard-at-once"):
        before = step.before
        assert before is not None
        intimidated = [
            seat for seat in (0, 1) if step.after.players[seat].must_discard and not before.players[seat].must_discard
        ]
        if intimidated:
            seen += 1
            (seat,) = intimidated
            assert seat != step.after.active and step.after.to_act == seat  # the very next decision is theirs
        if isinstance(step.move, Discard):
            assert step.move.player != before.players[before.active].name
    assert seen >= 1


def test_r13_version_2_golden_game_reshuffles_at_once_before_a_break_draw() -> None:
    rebuilt = False
    draws_from_rebuilt = 0
    for step in _steps("v2-reshuffle-before-break-draw"):
        before = step.before
        assert before is not None
        assert step.after.deck or not step.after.discard  # R13 v2: never an empty deck beside discards
        if len(step.after.deck) > len(before.deck) + 1:
            rebuilt = True  # the discard pile became the deck in this decision
        if isinstance(step.move, Draw) and rebuilt:
            draws_from_rebuilt += 1
    assert draws_from_rebuilt >= 1


def test_R42_the_sealed_game_by_mail_replays_and_its_audit_passes() -> None:
    """A sealed game (format 3) played by mail between two machines through the CLI, whose reveal
    and reshuffle steps give no keys ``ahead`` (as every sealed file did before they existed): it
    replays and audits as it was played, those keys arriving a line later (docs/sealed-deck.md,
    sections 4 and 7)."""
    path = GAMES / "sealed-by-mail.jsonl"
    data = path.read_bytes()
    game = gamefile.load(path)
    assert game.header.format == 3 and game.sealed is not None
    lines = [json.loads(raw) for raw in data.splitlines()]
    steps = [line for line in lines if "reshuffle" in line.get("seal", {})]
    assert len(steps) >= 4 and not any("ahead" in line.get("seal", {}) for line in lines)
    verdict = gamefile.audit(data, str(path), game)
    assert verdict is not None and verdict.verdict.startswith("audited:") and verdict.culprit is None, verdict
    assert verdict.state is not None and verdict.state.winner == game.state.winner
