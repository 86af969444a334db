"""A verdict is a result (R42, issue 30): a finished sealed game whose winner published a seal
secret that does not make its own passes is lost by that player, and every view says so — never
"invalid game file", never an internal error, and never "bob wins" without qualification.

The check runs at the audit line, on every machine (a verifier too): the published secret must make
its writer's setup passes (``Deck.secret_mismatch``).  A game whose audit still waits for a
player's secret says "pending" by name in the same places.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import msgspec
import pytest
from sealing import play, read
from test_hostile import run

from agility_cli.record import gamefile
from agility_cli.table import render, session
from agility_cli.table.screen import show_board

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "sealed-by-mail.jsonl"


@pytest.fixture(scope="module")
def game():
    return play(11, "greedy")


def test_R42_an_honest_audit_forfeits_nobody(game) -> None:
    *_, (line, before, sealed, state) = list(read(game, {}))
    assert state.winner is not None and not getattr(sealed, "forfeits", {})
    assert sealed.audit_pending(state) == []


def test_R42_a_wrong_published_secret_forfeits_its_writer_at_its_line(game) -> None:
    """A modified client's audit line: the finisher publishes a secret other than its own.  The
    verifier (no secret of its own) reads the line without an error and records the forfeit; the
    wrong secret is never used to read the game."""
    index = next(i for i, line in enumerate(game.lines) if line.seal.audit is not None)
    cheat = game.lines[index]
    forged = dataclasses.replace(cheat, seal=msgspec.structs.replace(cheat.seal, audit=os.urandom(32).hex()))
    lines = game.lines[:index] + [forged] + game.lines[index + 1:]
    *_, (line, before, sealed, state) = list(read(game, {}, lines))
    assert sealed.forfeits == {cheat.author: sealed.forfeits[cheat.author]}
    assert "does not make" in sealed.forfeits[cheat.author]
    assert cheat.author not in sealed.audits  # never used to open a card


def _forfeited(path: Path, seat: int):
    """The golden sealed game as a machine that found ``seat``'s published secret wrong sees it."""
    loaded = gamefile.load_bytes(path.read_bytes(), str(path))
    name = loaded.header.players[seat]
    loaded.sealed.forfeits = {seat: f"audit failed: the seal secret it published does not make its cards deal-2 pass, by {name}"}
    loaded.sealed.audits.pop(seat)
    return loaded


def test_R42_the_verdict_is_in_show_json_and_names_the_other_player_the_winner() -> None:
    game = _forfeited(GOLDEN, 1)
    names = list(game.header.players)
    state = session.state_json(game, None)
    assert state["verdict"]["kind"] == "forfeit" and state["verdict"]["player"] == names[1]
    assert state["winner"] == names[0] and state["sealed"]["audit_pending"] == []
    assert "audit failed" in state["verdict"]["reason"]


def test_R42_the_board_says_who_forfeits(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    game = _forfeited(GOLDEN, 1)
    names = list(game.header.players)
    show_board(str(GOLDEN), game.state, session.Viewer("spectator", None, True, "no key"), [],
               verdict=session.verdict_of(game))
    out = capsys.readouterr().out
    assert f"{names[0]} wins" in out and f"{names[1]} forfeits the game" in out
    line = render.plain_text([render.status_text(game.state, session.verdict_of(game))])
    assert line.startswith("Game over") and f"{names[0]} wins" in line


def test_R42_a_pending_audit_is_said_by_name() -> None:
    game = gamefile.load_bytes(GOLDEN.read_bytes(), str(GOLDEN))
    game.sealed.audits.pop(0)
    found = gamefile.verdict(game)
    assert found is not None and found.kind == "pending" and found.player == game.header.players[0]
    state = session.state_json(game, None)
    assert state["verdict"] == {"kind": "pending", "player": game.header.players[0], "reason": found.reason}
    assert state["winner"] == json.loads(run("show", GOLDEN, "--json").stdout)["winner"]


def test_R42_an_audited_game_has_no_verdict() -> None:
    state = json.loads(run("show", GOLDEN, "--json").stdout)
    assert "verdict" not in state and state["sealed"]["audit_pending"] == []


def test_show_of_a_finished_sealed_game_from_its_checkpoint_decodes_no_deck(tmp_path: Path) -> None:
    """Start-up (R42's checkpoint): the verdict of a finished game is read from the summary the
    checkpoint keeps beside the deck, so ``show`` of a game it covers imports none of the sealed
    deck's modules nor PyNaCl (the verdict once decoded the deck on every show)."""
    import subprocess
    import sys

    home = tmp_path / "home"
    env = {**os.environ, "AGILITY_HOME": str(home)}
    env.pop("AGILITY_PLAYER", None)
    probe = ("import sys, runpy; sys.argv = ['agility', 'show', sys.argv[1]]\n"
             "try:\n    runpy.run_module('agility_cli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "print('LOADED', sorted(m for m in sys.modules if m.startswith(('nacl', 'agility_cli.record.sealed.'))),"
             " file=sys.stderr)")
    first = subprocess.run([sys.executable, "-c", probe, str(GOLDEN)], capture_output=True, text=True, env=env)
    again = subprocess.run([sys.executable, "-c", probe, str(GOLDEN)], capture_output=True, text=True, env=env)
    assert "LOADED" in first.stderr and "nacl" in first.stderr  # the first read verifies the deck
    loaded = again.stderr.split("LOADED", 1)[1]
    assert loaded.strip() == "[]", loaded
    assert again.stdout == first.stdout
