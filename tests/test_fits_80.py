"""Every line a command prints to a terminal of 80 columns fits it (issue 31), over a whole game by
mail and a whole game by git between two machines (two homes, no ``--as``, no
``AGILITY_PLAYER``), each command as the README gives it with standard output and error on a
pseudo-terminal of 80 columns, the player's choices typed on standard input.  Only a command to
copy, alone on its line, may be wider.  Both games draw their deck from the joint seed
(``--deck seed``): whole sealed games through the CLI take minutes, and the messages are the same.
"""

from __future__ import annotations

import fcntl
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

from agility_cli.cli import app
from agility_cli.record import gamefile
from test_handshake_tty import read_until_closed, short_path  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal"),
              pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")]

TURN = "1\n" * 40  # the first choice at every decision, until the other player must act
COMMAND = re.compile(r"\s*(`[^`]+`[.,;:]?|agility \S.*)\s*")  # a command to copy, alone on its line


def on_a_terminal(args: list[str], home: Path, cwd: Path, typed: str = "", codes: tuple[object, ...] = (0, None)) -> str:
    """``agility ARGS`` run in this process with standard output and error on a pseudo-terminal of
    80 columns (a real one: ``isatty``, its size) and ``typed`` on standard input; what it printed
    (the exit code must be 0).  In this process: a whole game of commands, each a new Python,
    takes minutes."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(read_until_closed(master)), daemon=True)
    reader.start()
    terminal = open(slave, "w", encoding="utf-8", buffering=1, closefd=False)
    saved = sys.stdin, sys.stdout, sys.stderr, os.getcwd(), dict(os.environ)
    os.environ.pop("AGILITY_PLAYER", None)
    os.environ.pop("LINES", None)
    os.environ.update({"AGILITY_HOME": str(home), "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80"})
    sys.stdin = io.TextIOWrapper(io.BytesIO(typed.encode()), encoding="utf-8")
    sys.stdout = sys.stderr = terminal
    os.chdir(cwd)
    try:
        result = app(args, prog_name="agility", standalone_mode=False)
        code = result if isinstance(result, int) else 0  # click returns an Exit's code here
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        terminal.flush()
        sys.stdin, sys.stdout, sys.stderr = saved[:3]
        os.chdir(saved[3])
        os.environ.clear()
        os.environ.update(saved[4])
        terminal.close()
        os.close(slave)
        reader.join(10)
        os.close(master)
    text = b"".join(out).decode().replace("\r\n", "\n")
    assert code in codes, (args, code, text)
    return text


def too_wide(out: str) -> list[str]:
    """The lines wider than 80 columns that are not a command to copy on its own line."""
    return [line for line in out.split("\n") if len(line) > 80 and not COMMAND.fullmatch(line)]


class Player:
    def __init__(self, root: Path, name: str):
        self.name, self.dir, self.home = name, root / name, root / f"{name}-home"
        self.file = self.dir / "game.jsonl"
        self.printed: list[tuple[str, str]] = []

    def run(self, *args: str, typed: str = "") -> str:
        out = on_a_terminal(list(args), self.home, self.dir, typed)
        self.printed.append((" ".join(args), out))
        return out

    def wide(self) -> list[tuple[str, str]]:
        return [(command, line) for command, out in self.printed for line in too_wide(out)]


def to_act(p: Player) -> str | None:
    state = gamefile.load(p.file).state
    return None if state.to_act is None else state.players[state.to_act].name


@pytest.mark.slow  # a whole game of some 60 commands, each a process on a terminal
def test_a_whole_game_by_mail_prints_nothing_wider_than_80_columns(short_path: Path) -> None:
    alice, bob = Player(short_path, "alice"), Player(short_path, "bob")
    for p in (alice, bob):
        p.dir.mkdir()
    made = alice.run("new", "game.jsonl", "--players", "alice", "bob", "--deck", "seed")
    bob.run("apply", "game.jsonl", "-", typed=made)
    joined = bob.run("join", "game.jsonl")
    (bob.dir / "out.txt").write_text(joined)
    alice.run("apply", "game.jsonl", "-", typed=joined)
    (alice.dir / "out.txt").write_text(alice.run("send", "game.jsonl"))  # the reveal
    players = {"alice": alice, "bob": bob}
    other = {"alice": bob, "bob": alice}
    current = players[to_act(alice) or ""]
    for _ in range(200):
        mail = other[current.name].dir / "out.txt"
        current.run("play", "game.jsonl", "--mail", str(mail), "--reply", "out.txt", typed=TURN)
        if gamefile.load(current.file).state.winner is not None:
            break
        current = players[to_act(current) or ""]
    else:
        raise AssertionError("the game did not end")
    last = other[current.name]
    last.run("apply", "game.jsonl", str(current.dir / "out.txt"))
    assert last.file.read_bytes() == current.file.read_bytes()
    last.run("show", "game.jsonl")
    wide = alice.wide() + bob.wide()
    assert wide == [], sorted({line for _, line in wide})


@pytest.mark.slow  # a whole game of some 40 commands, each a process on a terminal
def test_a_whole_game_by_git_prints_nothing_wider_than_80_columns(short_path: Path) -> None:
    def git(folder: Path, *args: str) -> str:
        return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout

    remote = short_path / "game.git"
    subprocess.run(["git", "init", "--bare", "--quiet", str(remote)], check=True)
    git(remote, "config", "receive.denyNonFastForwards", "true")
    alice, bob = Player(short_path, "alice"), Player(short_path, "bob")
    for p in (alice, bob):
        subprocess.run(["git", "clone", "--quiet", str(remote), str(p.dir)], check=True, capture_output=True)
        git(p.dir, "config", "user.name", p.name)
        git(p.dir, "config", "user.email", f"{p.name}@example.org")
        git(p.dir, "config", "pull.ff", "only")
    (alice.dir / ".gitattributes").write_text("*.jsonl -merge\n")
    alice.run("new", "game.jsonl", "--players", "alice", "bob", "--deck", "seed")
    git(alice.dir, "add", ".gitattributes", "game.jsonl")
    git(alice.dir, "commit", "--quiet", "-m", "new game")
    git(alice.dir, "push", "--quiet", "-u", "origin", "HEAD")
    git(bob.dir, "pull", "--quiet")
    bob.run("join", "game.jsonl")
    git(bob.dir, "commit", "--quiet", "-am", "join")
    git(bob.dir, "push", "--quiet")
    players = {"alice": alice, "bob": bob}
    current = alice
    for _ in range(200):
        current.run("play", "game.jsonl", "--git", typed=TURN)
        if gamefile.load(current.file).state.winner is not None:
            break
        current = players[to_act(current) or ""]
    else:
        raise AssertionError("the game did not end")
    last = bob if current is alice else alice
    last.run("play", "game.jsonl", "--git")
    assert last.file.read_bytes() == current.file.read_bytes()
    wide = alice.wide() + bob.wide()
    assert wide == [], sorted({line for _, line in wide})


#: Every error path of `play`, `move`, `new` and `rules` (issue 51): the command line, and what is
#: typed at the prompt of `play` (in its line mode: TERM=dumb).
TYPED_WRONG = "t99\nasdf\nadopt golden\nplay 9\n9\n0\n1 purple\nrules bost\nrules\nundo\n1\n1\n1\nundo\ndone\nquit\n"
ERRORS = [
    ["play", "nosuch.jsonl"], ["play", "solo.jsonl", "--every", "0"], ["play", "solo.jsonl", "--restore"],
    ["play", "solo.jsonl", "--wait"], ["play", "solo.jsonl", "--mail", "nosuch-box"], ["play", "solo.jsonl", "--as", "carol"],
    ["move", "solo.jsonl", "fly"], ["move", "solo.jsonl", "play", "99"], ["move", "solo.jsonl", "adopt", "golden"],
    ["move", "nosuch.jsonl", "play", "1"], ["move", "solo.jsonl", "take", "t99"],
    ["move", "solo.jsonl", "play", "1", "--reward", "purple"], ["move", "solo.jsonl", "done"],
    ["new", "solo.jsonl", "--players", "alice", "bob"], ["new", "x.jsonl", "--players", "alice", "alice"],
    ["new", "x.jsonl", "--players", "alice", "bot:strnog"], ["new", "x.jsonl", "--players", "alice", "bob", "--first", "carol"],
    ["new", "x.jsonl", "--players", "alice", "bob", "--seed", "-1"], ["new", "x.jsonl", "--players", "alice", "bob", "--window", "9"],
    ["new", "x.jsonl", "--players", "alice", "bob", "--deck", "nope"],
    ["rules", "bost"], ["rules", "xyzzy"], ["rules", "boost", "--all"], ["rules", "R999"],
]


def test_every_error_of_play_move_new_and_rules_fits_80_columns(tmp_path: Path) -> None:
    home = tmp_path / "home"
    on_a_terminal(["new", "solo.jsonl", "--players", "alice", "bot:greedy", "--seed", "7"], home, tmp_path)
    printed = [(["play", "solo.jsonl"], on_a_terminal(["play", "solo.jsonl"], home, tmp_path, TYPED_WRONG))]
    printed += [(args, on_a_terminal(args, home, tmp_path, codes=(0, 1, 2, 3, 130, None))) for args in ERRORS]
    wide = [(" ".join(args), line) for args, out in printed for line in too_wide(out)]
    assert wide == [], wide
    said = "\n".join(out for _, out in printed)
    assert "did you mean boost?" in said and "did you mean bot:strong?" in said  # a close name is suggested
    assert "agility move FILE" not in printed[0][1]  # inside play: what to type at the prompt
    assert "agility new nosuch.jsonl --players YOU THEM" in printed[1][1]  # a command to copy stays whole
