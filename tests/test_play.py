"""`agility play`: the interactive loop, driven by a pipe (one choice a line on standard input).

A complete game against bot:greedy; words, help and bad input; end of input leaving the file
whole; and a game by mail between two directories until the first reply (`send`, `apply` creating
the second copy from the mailed header line).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from gamefiles import run_cli, solo

from agility_cli.record import gamefile
from agility_cli.cli import app
from agility_cli.table import render

run = run_cli


def test_play_a_complete_game_against_bot_greedy_from_a_pipe(tmp_path: Path):
    path = solo(tmp_path)
    r = run("play", path, input="1\n" * 3000)
    assert r.exit_code == 0, r.stderr
    assert "The game is over: " in r.stdout
    state = gamefile.load(path).state
    assert state.winner is not None
    last = r.stdout.rstrip()[r.stdout.rfind("The game is over: "):]  # issue 32: who won and how, last
    assert " ".join(part.strip() for part in last.splitlines()) == (
        f"The game is over: {state.players[state.winner].name} wins ({render.why_won(state)}).")
    assert all(len(part) <= 80 for part in last.splitlines())  # wrapped to the terminal's 80 columns
    assert "Turn 2 — bot:greedy" in r.stdout  # the bot's turns are told
    assert "  1) play " in r.stdout  # a play is one row per card
    replay = run("replay", path)
    assert replay.exit_code == 0 and "Every line verified." in replay.stdout


def test_play_in_a_real_pipe_subprocess(tmp_path: Path):
    path = solo(tmp_path, seed=9)
    env = {**os.environ, "NO_COLOR": "1"}
    p = subprocess.run(
        [sys.executable, "-m", "agility_cli", "play", str(path)],
        input="1\n" * 3000, capture_output=True, text=True, env=env, timeout=300,
    )
    assert p.returncode == 0, p.stderr
    assert "The game is over" in p.stdout and "\x1b[" not in p.stdout
    assert gamefile.load(path).state.winner is not None


def test_play_menu_rows_options_words_and_help(tmp_path: Path):
    path = solo(tmp_path)
    before = path.read_bytes()
    r = run("play", path, input="?\nhelp\nboard\n0\n9\nfly\nhint\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert path.read_bytes() == before  # nothing but decisions changes the file
    assert "More: agility rules turn" in r.stdout  # help explains the step (the guide)
    assert "there is no decision 0" in r.stdout and "there is no decision 9" in r.stdout
    # issue 32: an unknown word says every word that works, hint, board and news too
    assert "'fly' is no decision" in r.stdout and "help, hint, board, news, undo, quit" in r.stdout
    assert "The game is saved. Go on with: agility play" in r.stdout
    assert "hint for alice (" in r.stdout and re.search(r"(?:best|either):\s+type ", r.stdout)  # R39: alice's view
    rows = [line for line in r.stdout.splitlines() if line.startswith("  ") and ") play " in line]
    assert len({line.split(")")[0] for line in rows}) == 3  # three cards, three rows


def test_play_by_number_with_options_and_by_words(tmp_path: Path):
    path = solo(tmp_path)
    # Row 2 is t10 (a 2: 3 red | 2 green); "2 red" plays it with the red reward.
    r = run("play", path, input="2 red\nquit\n")
    assert r.exit_code == 0, r.stderr
    line = json.loads(path.read_text().splitlines()[1])
    assert (line["kind"], line["card"], line["reward"], line["flex"]) == ("play", "t10", "red", 0)
    other = tmp_path / "other.jsonl"
    assert run("new", other, "--seed", 4, "--players", "alice", "bot:greedy", "-q").exit_code == 0
    r = run("play", other, input="play 2 red\nquit\n")
    assert r.exit_code == 0, r.stderr
    assert other.read_text().splitlines()[1] == path.read_text().splitlines()[1]


def test_play_end_of_input_leaves_the_file_whole(tmp_path: Path):
    path = solo(tmp_path)
    r = run("play", path, input="1\n1\n")
    assert r.exit_code == 0, r.stderr
    game = gamefile.load(path)  # verifies every line
    assert game.lines >= 3 and game.state.winner is None
    assert path.read_bytes().endswith(b"\n")
    again = run("play", path, input="")
    assert again.exit_code == 0 and "The game is saved" in again.stdout


def test_a_mailed_game_between_two_directories_until_the_first_reply(tmp_path: Path):
    home_a, home_b = tmp_path / "alice", tmp_path / "bob"
    home_a.mkdir()
    home_b.mkdir()
    a, b = home_a / "game.jsonl", home_b / "game.jsonl"
    created = run("new", a, "--seed", 15, "--players", "alice", "bob")
    assert created.exit_code == 0, created.stderr
    assert "agility send" in created.stderr and "bob" in created.stderr  # `new` says what to send
    # alice plays her turn until bob must act.
    mine = run("play", a, "--as", "alice", input="1\n" * 40)
    assert mine.exit_code == 0, mine.stderr
    assert "bob must act now" in mine.stdout and "agility send" in mine.stdout
    mail = run("send", a, "--as", "alice")
    assert mail.exit_code == 0 and "BEGIN AGILITY LINES" in mail.stdout and " lines 1-" in mail.stdout
    quoted = "Your move!\n\n" + "".join(f"> {line}\n" for line in mail.stdout.splitlines())
    got = run("apply", b, "-", "--as", "bob", input=quoted)  # b does not exist: the header starts it
    assert got.exit_code == 0, got.stderr
    assert f"created {b}" in got.stdout
    assert b.read_bytes() == a.read_bytes()
    assert "[bob's view]" in got.stdout
    # bob answers; his reply is applied in alice's directory.
    theirs = run("play", b, "--as", "bob", input="1\n" * 40)
    assert theirs.exit_code == 0, theirs.stderr
    assert "alice must act now" in theirs.stdout or "The game is over" in theirs.stdout
    reply = run("send", b, "--as", "bob")
    assert reply.exit_code == 0 and reply.stdout
    assert " lines 1-" not in reply.stdout  # only what alice has not seen
    back = run("apply", a, "-", "--as", "alice", input=reply.stdout)
    assert back.exit_code == 0, back.stderr
    assert a.read_bytes() == b.read_bytes()
    assert "applied " in back.stdout and "bob " in back.stdout


def test_apply_to_a_missing_file_without_a_header_is_a_usage_error(tmp_path: Path):
    path = tmp_path / "nothing.jsonl"
    r = run("apply", path, '{"kind":"done","n":1,"prev":"x","player":"alice","digest":"y"}')
    assert r.exit_code == 2 and "no header line" in r.stderr
    assert not path.exists()
