"""Issue 30: a format-3 sealed game still being played checks its shuffle proofs only as a sum, so
every view of it (show, legal, play, replay, the exports) says so in one line on stderr, once a
command; a finished format-3 game (audited) and a format-4 game say nothing.

The golden sealed game is format 3: cut before its end it is a game in progress."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agility_cli.cli import app

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "sealed-by-mail.jsonl"
WARNING = ("sum-only proofs: a modified client could change the deck, caught only when a changed card opens (the game "
           "is then aborted) or at the audit; start a new game (format 4) to be protected")
runner = CliRunner()

VIEWS = [["show"], ["show", "--json"], ["show", "--at", "40"], ["legal"], ["legal", "--json"], ["replay"],
         ["replay", "--json"], ["export", "--svg"], ["play"], ["log"]]


def run(*args: Any, input: str | None = None) -> Any:
    r = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in r.output and "Traceback" not in (r.stderr or "")
    assert r.exit_code in (0, 1, 2), (r.exit_code, r.output, r.stderr)
    return r


def warnings(r: Any) -> list[str]:
    return [line for line in r.stderr.splitlines() if WARNING in line]


@pytest.fixture(scope="module")
def in_progress(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("format3") / "cut.jsonl"
    path.write_bytes(b"".join(GOLDEN.read_bytes().splitlines(keepends=True)[:100]))
    return path


@pytest.mark.parametrize("view", VIEWS, ids=" ".join)
def test_a_format3_game_in_progress_warns_once_on_stderr(in_progress: Path, view: list[str]):
    r = run(view[0], in_progress, *view[1:], input="quit\n" if view[0] == "play" else None)
    found = warnings(r)
    assert len(found) == 1, r.stderr
    assert found[0].startswith("agility: warning: ") and "\n" not in found[0]
    assert WARNING not in r.stdout  # stdout (the JSON, the picture) stays clean


def test_every_command_warns_again(in_progress: Path):
    assert [len(warnings(run("show", in_progress))) for _ in range(2)] == [1, 1]


@pytest.mark.parametrize("view", [v for v in VIEWS if v[0] != "play"], ids=" ".join)
def test_a_finished_format3_game_does_not_warn(tmp_path: Path, view: list[str]):
    path = tmp_path / "whole.jsonl"
    path.write_bytes(GOLDEN.read_bytes())
    assert warnings(run(view[0], path, *view[1:])) == []


def test_new_help_says_sealed_games_are_format_4():
    r = run("new", "--help")
    text = " ".join(r.stdout.split())
    assert "format 4, binding shuffle proofs" in text and "format 3" not in text


def test_a_format4_game_in_progress_does_not_warn(tmp_path: Path):
    from machines import start

    alice, bob = start(tmp_path, deck="sealed")
    assert b'"format":4' in alice.file.read_bytes().split(b"\n")[0]
    for m in (alice, bob):
        for view in (["show"], ["legal"], ["replay", "--json"], ["play"]):
            r = m.run(view[0], m.file, *view[1:], input="quit\n" if view[0] == "play" else None)
            assert WARNING not in r.stderr and WARNING not in r.stdout, (m.name, view)
