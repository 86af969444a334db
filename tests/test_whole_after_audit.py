"""Issue 30, "whole after the audit" (R39/R42, docs/sealed-deck.md section 9): once both seal
secrets are published, every card of every line of a sealed game is named — in ``replay --json``
(with and without ``--reveal``), ``show --at N`` and the exports — including the cards that were
hidden at their line because they awaited a key (the display refilled after a reshuffle, the
opponent's hand before the deal's keys, a Boost card during a pause, a Break draw).

Checked on the golden sealed game, finished and audited, through the CLI in-process.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agility_cli.cli import app

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "sealed-by-mail.jsonl"
runner = CliRunner()
POSITION = re.compile(r"[#@]\d+")


def run(*args: Any) -> Any:
    r = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in r.output and "Traceback" not in (r.stderr or "")
    assert r.exit_code == 0, (r.exit_code, r.output)
    return r


def unopened(state: dict[str, Any]) -> list[str]:
    """What a state does not name: a hidden card, a position, a face-down card, a hand only counted."""
    out: list[str] = []

    def walk(o: Any, path: str) -> None:
        if isinstance(o, dict):
            if o.get("hidden") is True:
                out.append(f"{path}: hidden")
            for k, v in o.items():
                walk(v, f"{path}.{k}")
        elif isinstance(o, list):
            for i, v in enumerate(o):
                walk(v, f"{path}[{i}]")
        elif isinstance(o, str) and POSITION.fullmatch(o):
            out.append(f"{path}: position {o}")

    walk(state, "state")
    if state.get("current_card_face_down"):
        out.append("state.current_card: face down")
    for p in state["players"]:
        if len(p["hand"]) != p["hand_count"]:
            out.append(f"{p['name']}'s hand: {len(p['hand'])} of {p['hand_count']} cards named")
    return out


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("whole") / "sealed-by-mail.jsonl"
    path.write_bytes(GOLDEN.read_bytes())
    return path


@pytest.mark.parametrize("reveal", [False, True])
def test_replay_json_names_every_card_of_every_line(golden: Path, reveal: bool):
    r = run("replay", golden, "--json", *(["--reveal"] if reveal else []))
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(records) > 100
    faults = [(rec["line"], fault) for rec in records for fault in unopened(rec["state"])]
    assert faults == []
    # the lines whose cards awaited a key at their line (the deal's keys, a reshuffled display)
    by_line = {rec["line"]: rec["state"] for rec in records}
    assert all(c["id"] for c in by_line[1]["display"] + by_line[1]["dog_display"])
    assert len(by_line[4]["players"][1]["hand"]) == 3
    assert all(c["id"] for c in by_line[105]["display"])


def test_show_at_a_moment_names_both_hands(golden: Path):
    for n in (4, 40, 60, 87, 106, 120):
        out = json.loads(run("show", golden, "--at", n, "--json").stdout)
        assert out["complete_view"] is True, n
        for p in out["players"]:
            assert p["hand_count"] > 0 or n > 150
            assert len(p["hand"]) == p["hand_count"], (n, p["name"], p["hand"])
        assert unopened(out) == [], n


def test_show_at_text_board_names_the_display(golden: Path):
    out = run("show", golden, "--at", 106).stdout
    assert "complete" in out
    assert "hidden" not in out and "face down" not in out


def test_exports_name_every_card(golden: Path, tmp_path: Path):
    svg = run("export", golden, "--svg", "--at", 106).stdout
    assert "<svg" in svg
    cards = re.findall(r'data-card="([^"]*)"', svg)
    assert len(cards) == 9 and "None" not in cards  # the display's three and both hands
    page = run("export", golden, "--html").stdout
    assert "data-card=" in page and not re.search(r'data-card=\\?"None', page)  # no card drawn blank


def test_replay_to_a_handshake_line_is_refused_as_before(golden: Path):
    r = runner.invoke(app, ["replay", str(golden), "--json", "--to", "2"])
    assert r.exit_code == 1 and "part of the seed handshake" in r.output + (r.stderr or "")


def test_replay_to_a_line_stops_there_with_every_card_named(golden: Path):
    records = [json.loads(line) for line in run("replay", golden, "--json", "--to", 106).stdout.splitlines()]
    assert records[-1]["line"] == 106
    assert [fault for rec in records for fault in unopened(rec["state"])] == []


# ---------------------------------------------------------------------------------------------
# Issue 31: a finished sealed game is whole on both machines.  Recorded through the CLI (two
# machines with their own data directories, by mail, `bot` on each turn): five face-down mini-turn
# plays, the last ones alice's at lines 134 and 145, which re-keyed her hand (R31, R42) — so at the
# end each player's hand holds cards under its holder's key alone.  Each machine then showed one of
# the other's cards as "a card you cannot see" after the audit, and the two `show --json` differed.

FACE_DOWN = Path(__file__).resolve().parent / "golden" / "sealed-face-down"


def machine(tmp_path: Path, name: str) -> tuple[Path, dict[str, str]]:
    """``name``'s machine: its copy of the finished game and its own data directory (its key store)."""
    home = tmp_path / f"{name}-home"
    (home / "games").mkdir(parents=True)
    home.chmod(0o700)
    (home / "games").chmod(0o700)
    store = json.loads((FACE_DOWN / f"{name}-keys.json").read_text())
    kept = home / "games" / f"{store['game']}.json"
    kept.write_text(json.dumps(store))
    kept.chmod(0o600)
    (tmp_path / name).mkdir()
    game = tmp_path / name / "game.jsonl"
    game.write_bytes((FACE_DOWN / "game.jsonl").read_bytes())
    return game, {"AGILITY_HOME": str(home), "AGILITY_PLAYER": None}  # type: ignore[dict-item]


def test_R39_R42_a_finished_sealed_game_shows_alike_and_whole_on_both_machines(tmp_path: Path):
    rows = [json.loads(raw) for raw in (FACE_DOWN / "game.jsonl").read_bytes().splitlines()]
    blind = [k for k, row in enumerate(rows, 1) if row.get("kind") == "play" and POSITION.fullmatch(str(row.get("card")))]
    assert blind[-2:] == [134, 145] and rows[-1]["kind"] == "keys"  # face-down plays (R31); the audit's last line
    shown = {}
    for name in ("alice", "bob"):
        game, env = machine(tmp_path, name)
        r = runner.invoke(app, ["show", str(game), "--json"], env=env)
        assert r.exit_code == 0, r.output
        shown[name] = out = json.loads(r.stdout)
        assert out["viewer"] == name and out["complete_view"] is True
        assert unopened(out) == [], (name, unopened(out))
        board = runner.invoke(app, ["show", str(game)], env={**env, "NO_COLOR": "1"}).stdout  # from the checkpoint
        assert "Game over" in board and "cannot see" not in board, board
    del shown["alice"]["viewer"], shown["bob"]["viewer"]
    assert shown["alice"] == shown["bob"]
