"""Concurrent writers on one game file: no lost, doubled or forked line.

Many real ``agility move`` processes start at the same moment on one file — the same decision, or
all different ones.  ``gamefile.append_moves`` holds an exclusive ``flock`` while it replays the
file, checks the decision and appends, so each process either lands its line(s) on the tip it
verified (exit 0) or is refused because the game moved on (exit 1).  Afterwards the file must be a
valid chain whose new lines are exactly the successful processes' lines.  ``agility apply`` of the
same mailed lines by many processes at once adds them exactly once.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from gamefiles import new_game, one_player, play_random
from typer.testing import CliRunner

from agility_cli.record import gamefile
from agility_cli.engine import rules, notation

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
ENV = {k: v for k, v in os.environ.items() if k != "AGILITY_PLAYER"}


def spawn(args_list: list[list[str]]) -> list[tuple[int, str, str]]:
    """Start every command at once, then wait for all: (exit code, stdout, stderr) each."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "agility_cli", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV,
        )
        for args in args_list
    ]
    out = []
    for p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append((p.returncode, stdout, stderr))
    return out


def check_round(path: Path, before: bytes, results: list[tuple[int, str, str]]) -> int:
    """Every process exited 0 or 1, without a traceback; the file grew by exactly the winners' lines."""
    appended: list[str] = []
    for code, stdout, stderr in results:
        assert code in (0, 1), (code, stderr)
        assert "Traceback" not in stdout + stderr
        if code == 0:
            appended.extend(stdout.splitlines())
        else:
            assert stdout == "" and "refused" in stderr
    after = path.read_bytes()
    assert after.startswith(before)
    new_lines = after[len(before):].decode().splitlines()
    # The same lines, each exactly once (the order they landed in need not be the order of the list).
    assert sorted(new_lines) == sorted(appended)
    assert len(set(new_lines)) == len(new_lines)
    game = gamefile.load(path)
    assert game.lines == before.count(b"\n") + len(appended)
    return sum(1 for code, _, _ in results if code == 0)


def current(path: Path) -> Any:
    return gamefile.load(path).state


def test_many_processes_make_the_same_decision(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    new_game(path, 3)
    state = current(path)
    move = rules.legal_moves(state)[0]
    words = notation.argv(state, move)
    before = path.read_bytes()
    results = spawn([["move", str(path), *words, "--quiet", "--as", move.player] for _ in range(12)])
    assert check_round(path, before, results) == 1


def test_many_processes_make_different_decisions(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    new_game(path, 4)
    play_random(path, 9, 1)
    for _ in range(4):
        state = current(path)
        if state.winner is not None:
            break
        legal = rules.legal_moves(state)
        picks = [legal[i % len(legal)] for i in range(12)]
        before = path.read_bytes()
        results = spawn([["move", str(path), *notation.argv(state, m), "--quiet", "--as", m.player] for m in picks])
        # Usually one wins and the game moves on; two can both land when the second is still legal
        # after the first (taking two cards in a row, an exchange).
        assert check_round(path, before, results) >= 1


def test_processes_for_both_players_at_once(tmp_path: Path):
    """Both players (and impostors) race; only decisions of the player to act can land."""
    path = tmp_path / "g.jsonl"
    new_game(path, 5)
    play_random(path, 4, 2)
    total = 0
    start = path.read_bytes()
    for round_ in range(3):
        state = current(path)
        if state.winner is not None:
            break
        legal = rules.legal_moves(state)
        args = []
        for i in range(16):
            m = legal[(i * 7 + round_) % len(legal)]
            who = m.player if i % 3 else ("alice" if m.player == "bob" else "bob")
            args.append(["move", str(path), *notation.argv(state, m), "--quiet", "--as", who])
        before = path.read_bytes()
        total += check_round(path, before, spawn(args))
    assert total >= 1
    game = gamefile.load(path)
    assert game.lines - start.count(b"\n") >= total


def test_many_processes_apply_the_same_mail(tmp_path: Path):
    source = tmp_path / "source.jsonl"
    new_game(source, 6)
    play_random(source, 30, 4)
    lines = source.read_bytes().split(b"\n")[:-1]
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in lines[:20]))
    mail = tmp_path / "mail.txt"
    mailed = one_player(lines[20:])
    mail.write_text("".join(f"> {line.decode()}\n" for line in mailed))
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "agility_cli", "apply", str(path)],
            stdin=open(mail, "rb"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV,
        )
        for _ in range(10)
    ]
    outputs = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    for stdout, stderr, code in outputs:
        assert code == 0, stderr
        assert "Traceback" not in stdout + stderr
    applied = [stdout for stdout, _, _ in outputs if "applied" in stdout]
    assert len(applied) == 1
    assert sum("nothing new" in stdout for stdout, _, _ in outputs) == 9
    assert path.read_bytes() == b"".join(line + b"\n" for line in lines[:20] + mailed)
    gamefile.load(path)
