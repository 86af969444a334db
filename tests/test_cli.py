"""The command line (INTERFACE.md): commands, exit codes 0/1/2/3, stdout/stderr, JSON output.

A refused move must leave the game file byte-for-byte unchanged (R35); no traceback ever shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.cli import app
from agility_cli.engine.moves import line_schema
from agility_cli.engine.components import components_schema
from agility_cli.engine.rng import Rng
from agility_cli.engine.state import public_state
from agility_cli.engine.view import seat_view

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None):
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert "Traceback" not in result.output
    assert "Traceback" not in (result.stderr or "")
    return result


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.jsonl"
    r = run("new", path, "--seed", "42", "--quiet")
    assert r.exit_code == 0, r.stderr
    return path


def test_every_command_has_help_with_an_example():
    group = typer.main.get_command(app)
    names = sorted(group.commands)  # type: ignore[attr-defined]
    assert {"new", "show", "legal", "move", "replay", "bot", "schema"} <= set(names)
    for name in names:
        r = run(name, "--help")
        assert r.exit_code == 0, name
        assert "Example" in r.output, f"`agility {name} --help` has no example"


def test_new_writes_the_header_and_refuses_to_overwrite(game: Path):
    header = json.loads(game.read_text().splitlines()[0])
    assert header["kind"] == "game" and header["seed"] == 42
    assert header["players"] == ["alice", "bob"] and header["first"] == "alice"
    assert header["board"] == list(rules.RECOMMENDED_BOARD)
    before = game.read_bytes()
    r = run("new", game, "--seed", "1")
    assert r.exit_code == 2
    assert "already exists" in r.stderr
    assert game.read_bytes() == before


def test_new_random_first_and_boards_are_seeded(tmp_path: Path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run("new", a, "--seed", "7", "--first", "random", "--board", "random-a", "-q").exit_code == 0
    assert run("new", b, "--seed", "7", "--first", "random", "--board", "random-a", "-q").exit_code == 0
    assert a.read_text().splitlines()[0] == b.read_text().splitlines()[0]
    header = json.loads(a.read_text().splitlines()[0])
    assert header["first"] == rules.random_first(7, ("alice", "bob"))
    assert tuple(header["board"]) == rules.random_board(7, "a")


def test_new_explicit_layout_and_bad_layout(tmp_path: Path):
    layout = "rush,flex,clear_tunnels,exchange,clear_hurdles,inspiration,clear_a_frames,slip,clear_weave"
    r = run("new", tmp_path / "l.jsonl", "--seed", "3", "--board", layout, "-q")
    assert r.exit_code == 0, r.stderr
    assert json.loads(r.stdout.splitlines()[0])["board"][9] == "clear_weave_poles"
    r = run("new", tmp_path / "bad.jsonl", "--seed", "3", "--board", "flex,flex")
    assert r.exit_code == 2
    assert "nine tiles" in r.stderr
    assert not (tmp_path / "bad.jsonl").exists()


def test_new_usage_errors_exit_2(tmp_path: Path):
    assert run("new", tmp_path / "x.jsonl", "--players", "ann", "ann").exit_code == 2
    assert run("new", tmp_path / "x.jsonl", "--first", "zed").exit_code == 2
    assert run("new", tmp_path / "x.jsonl", "--seed", "abc").exit_code == 2
    assert run("frobnicate").exit_code == 2
    assert not (tmp_path / "x.jsonl").exists()


def _legal(path: Path) -> list[dict]:
    r = run("legal", path, "--json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_legal_json_entries_make_exactly_that_decision(game: Path):
    legal = _legal(game)
    assert legal and all(set(e) == {"player", "argv", "text"} for e in legal)
    assert {e["player"] for e in legal} == {"alice"}
    choice = legal[3]
    r = run("move", game, *choice["argv"], "-q")
    assert r.exit_code == 0, r.stderr
    line = json.loads(r.stdout.splitlines()[0])
    assert line["kind"] == "play" and line["n"] == 1 and line["player"] == "alice"
    state = gamefile.load(game).state
    assert line["card"] not in state.players[0].hand


def test_move_narrates_the_line_and_shows_the_board_q_prints_the_line(game: Path, tmp_path: Path):
    twin = tmp_path / "twin.jsonl"
    twin.write_bytes(game.read_bytes())
    argv = _legal(game)[0]["argv"]
    r = run("move", game, *argv)
    assert r.exit_code == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == "Turn 1 — alice"
    assert out[1].startswith("     2. alice plays ")
    assert "[alice's view]" in r.stdout and "alice" in r.stdout and "bob" in r.stdout
    q = run("move", twin, *argv, "-q")
    assert q.exit_code == 0, q.stderr
    first = q.stdout.splitlines()[0]
    assert json.loads(first)["kind"] == "play"
    assert twin.read_text().splitlines()[1] == first == game.read_text().splitlines()[1]


def test_refused_move_exit_1_file_unchanged_and_lists_legal(game: Path):
    before = game.read_bytes()
    r = run("move", game, "play", "t01", "--reward", "red")
    hand = gamefile.load(game).state.players[0].hand
    if "t01" in hand:  # pragma: no cover - seed 42 does not deal t01 to alice
        pytest.skip("t01 is in hand")
    assert r.exit_code == 1
    assert "refused" in r.stderr and "not in your hand" in r.stderr
    assert "legal now:" in r.stderr and f"agility move {game} play" in r.stderr
    assert "unchanged" in r.stderr
    assert game.read_bytes() == before


def test_wrong_phase_and_wrong_player_refused(game: Path):
    before = game.read_bytes()
    r = run("move", game, "done")
    assert r.exit_code == 1 and "waits for alice to play a training card" in r.stderr
    r = run("move", game, *_legal(game)[0]["argv"], "--as", "bob")
    assert r.exit_code == 1 and "alice's decision, not bob's" in r.stderr
    r = run("move", game, *_legal(game)[0]["argv"], env={"AGILITY_PLAYER": "bob"})
    assert r.exit_code == 1
    assert game.read_bytes() == before
    r = run("move", game, *_legal(game)[0]["argv"], "--as", "alice", "-q")
    assert r.exit_code == 0


def test_malformed_move_exit_2_file_unchanged(game: Path):
    before = game.read_bytes()
    for argv in (["fly"], ["play"], ["play", "x", "--reward", "red"], ["play", "3", "--reward", "pink"],
                 ["break", "two"], ["adopt"], ["advance", "99"]):
        r = run("move", game, *argv)
        assert r.exit_code == 2, (argv, r.stderr)
        assert r.stderr.startswith("agility: ")
    assert game.read_bytes() == before


def test_invalid_file_exit_3(tmp_path: Path, game: Path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(game.read_bytes().replace(b'"seed":42', b'"seed":"x"'))
    for cmd in (["show", bad], ["legal", bad], ["replay", bad], ["move", bad, "done"]):
        r = run(*cmd)
        assert r.exit_code == 3, cmd
        assert "line 1" in r.stderr
    r = run("show", tmp_path / "missing.jsonl")
    assert r.exit_code == 3 and "no such game file" in r.stderr


def test_show_json_has_the_interface_fields(game: Path):
    r = run("show", game, "--json")
    assert r.exit_code == 0
    s = json.loads(r.stdout)
    for key in ("status", "winner", "to_act", "active", "turn", "phase", "marker", "board", "display", "deck_size",
                "discard_size", "dog_display", "tiebreak", "players", "courses"):
        assert key in s, key
    assert s["status"] == "playing" and s["to_act"] == "alice" and s["marker"] == 0
    assert len(s["board"]) == 10 and s["board"][0] == "sweep"
    assert len(s["courses"]) == 6 and all(len(c["obstacles"]) == 5 for c in s["courses"])
    p = s["players"][0]
    assert set(p["cubes"]) == {"red", "green", "black", "yellow", "blue"} and p["hand_size"] == 3
    assert len(p["hand"]) == 3 and set(p["hand"][0]) == {"id", "number", "rewards"}


def test_schema_command_and_files_are_current():
    r = run("schema")
    assert r.exit_code == 0
    assert json.loads(r.stdout) == line_schema()
    assert json.loads((ROOT / "schemas" / "line.schema.json").read_text()) == line_schema(), (
        "schemas/line.schema.json is stale: run `agility schema > schemas/line.schema.json`"
    )
    assert json.loads((ROOT / "schemas" / "components.schema.json").read_text()) == components_schema(), (
        "schemas/components.schema.json is stale: run `agility schema --components > schemas/components.schema.json`"
    )


def _play_whole_game(path: Path, seed: int) -> None:
    """Both players decide only through `agility move`, choosing among `legal --json`."""
    rng = Rng.for_purpose(seed, "test-cli")
    for _ in range(3000):
        legal = _legal(path)
        if not legal:
            return
        choice = legal[rng.below(len(legal))]
        r = run("move", path, *choice["argv"], "--as", choice["player"], "-q")
        assert r.exit_code == 0, (choice, r.stderr)
    raise AssertionError("the game did not end")


@pytest.mark.slow  # a whole game or a long git exchange: the slow suite (the fast one stays under 5 minutes)
def test_scripted_two_player_game_reaches_the_end_and_replays(tmp_path: Path):
    path = tmp_path / "full.jsonl"
    assert run("new", path, "--seed", "11", "-q").exit_code == 0
    _play_whole_game(path, 11)
    live = json.loads(run("show", path, "--json").stdout)
    assert live["status"] == "finished" and live["winner"] in ("alice", "bob")
    r = run("replay", path, "--json")
    assert r.exit_code == 0
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert records[0]["line"] == 1 and "move" not in records[0]
    assert [rec["line"] for rec in records] == list(range(1, len(records) + 1))
    assert live.pop("viewer") in ("alice", "bob") and live.pop("complete_view") is True  # R39: game over
    assert records[-1]["state"] == live
    assert records[5]["move"] == json.loads(path.read_text().splitlines()[5])
    narrated = run("replay", path)
    assert narrated.exit_code == 0
    assert f"Result: {live['winner']} wins. Every line verified." in narrated.stdout
    r = run("move", path, "done")
    assert r.exit_code == 1 and "game is over" in r.stderr
    assert _legal(path) == []


def test_replay_to_and_show_at(game: Path):
    for _ in range(4):
        e = _legal(game)[0]
        assert run("move", game, *e["argv"], "-q").exit_code == 0
    lines = game.read_text().splitlines()
    r = run("replay", game, "--json", "--to", "3", "--as", "alice")
    assert [json.loads(x)["line"] for x in r.stdout.splitlines()] == [1, 2, 3]
    at3 = json.loads(run("show", game, "--json", "--at", "3", "--as", "alice").stdout)
    assert (at3.pop("viewer"), at3.pop("complete_view")) == ("alice", False)
    assert at3 == json.loads(r.stdout.splitlines()[-1])["state"]
    assert len(lines) > 3


def test_real_subprocess_run(tmp_path: Path):
    path = tmp_path / "sub.jsonl"
    env = {**os.environ, "NO_COLOR": "1"}
    cmd = [sys.executable, "-m", "agility_cli"]
    p = subprocess.run([*cmd, "new", str(path), "--seed", "5"], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "\x1b[" not in p.stdout  # piped: plain text
    p = subprocess.run([*cmd, "move", str(path), "advance", "1"], capture_output=True, text=True, env=env)
    assert p.returncode == 1
    assert "refused" in p.stderr and "Traceback" not in p.stderr
    p = subprocess.run([*cmd, "legal", str(path), "--json"], capture_output=True, text=True, env=env)
    assert p.returncode == 0 and json.loads(p.stdout)
    p = subprocess.run([*cmd, "move", str(path)], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_show_board_fits_80_columns(game: Path):
    r = run("show", game)
    assert r.exit_code == 0
    assert max(len(line) for line in r.stdout.splitlines()) <= 80


def test_json_state_matches_engine_through_the_viewers_view(game: Path):
    """R39: `show --json` is public_state of the viewer's view (alice acts first: her view)."""
    s = gamefile.load(game).state
    shown = json.loads(run("show", game, "--json").stdout)
    assert (shown.pop("viewer"), shown.pop("complete_view")) == ("alice", False)
    assert shown == json.loads(json.dumps(public_state(seat_view(s, 0))))
    revealed = run("show", game, "--json", "--reveal")
    full = json.loads(revealed.stdout)
    assert (full.pop("viewer"), full.pop("complete_view")) == ("alice", True)
    assert full == json.loads(json.dumps(public_state(s)))
    assert "--reveal shows every hidden card" in revealed.stderr


def test_exact_messages_for_usage_refusal_and_invalid_file(game: Path, tmp_path: Path):
    """Typer-style testing of exact stderr (the one error boundary formats every message)."""
    r = run("move", game, "fly")
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr == (
        "agility: unknown verb 'fly'; choose from play, reward, discard, break, return, put-back, draw, take, "
        "boost-action, boost-cube, distract, rush, slip, inspire, exchange, adopt, advance, done, prize\n"
    )
    r = run("move", game, "done")
    assert r.exit_code == 1
    assert r.stdout == ""
    legal = [f"  agility move {game} {' '.join(e['argv'])}" for e in _legal(game)]
    assert r.stderr == "\n".join(
        [
            "agility: refused: that is not possible now: the game waits for alice to play a training card (agility rules R12)",
            "legal now:",
            *legal,
            "the game file is unchanged",
        ]
    ) + "\n"
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    r = run("replay", empty)
    assert r.exit_code == 3
    assert r.stdout == ""
    assert r.stderr.startswith(f"agility: invalid game file: {empty}, line 1: the file is empty")
