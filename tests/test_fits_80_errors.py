"""Every refusal and error of ``new``, ``join``, ``apply``, ``send``, ``play --mail``/``--git``,
``games`` and ``replay`` fits a terminal of 80 columns (issue 52), and so do their closing words:
each path driven on a pseudo-terminal of 80 columns (standard output and error on it), two
machines (two homes, no ``--as``/``AGILITY_PLAYER``).  Prose is wrapped; only a command to copy,
alone on its line, may be wider.  A test fails on the first wide line, naming the command."""

from __future__ import annotations

import mailbox
import re
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from agility_cli import i18n
from test_fits_80 import on_a_terminal, too_wide as wide_lines
from test_i18n_errors import leftover
from test_handshake_tty import short_path  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal"),
              pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")]

TURN = "1\n" * 40  # the first choice at every decision, until the other player must act
ERROR = (1, 2, 3)  # refused, usage, invalid: never 0 on an error path, never 4 (a bug)
GOLDEN = Path(__file__).resolve().parents[1] / "games" / "sealed-by-mail.jsonl"  # a finished game


def closed_port() -> int:
    """A loopback port nothing listens on: a connection is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def too_wide(out: str) -> list[str]:
    """The lines wider than 80 columns, not a command to copy alone on its line; a line rewritten
    in place (a progress line: a carriage return) counts each of its states."""
    return wide_lines(out.replace("\r", "\n"))


def damage(printed: str) -> str:
    """The block ``printed`` with a character of its third line changed to ``<`` (an HTML tag)."""
    rows = printed.split("\n")
    at = next(i for i, row in enumerate(rows) if row.startswith("-----BEGIN AGILITY")) + 3
    rows[at] = rows[at][:10] + "<" + rows[at][11:]
    return "\n".join(rows)


_ARMOUR = re.compile(r"-----BEGIN AGILITY[^\n]*-----\n.*?-----END AGILITY[^\n]*-----", re.S)
# what stays as it is in any language: commands, variables, typed words, addresses, file names, the
# mailbox formats' names, and what this table's player typed (an address, a mailbox, a name, a seat,
# a mail program), and the one name the glossary keeps in English (Mighty Mutt)
_ALSO = re.compile(r"`[^`]*`|\b(?:AGILITY|SMTP|IMAP)_[A-Z_]+\b|\b(?:help|hint|board|undo|quit|colours|imaps?)\b"
                   r"|\b[\w.-]+@[\w.-]+\b|\b[\w.-]+\.(?:txt|jsonl)\b|\bMaildir\b|\bmbox\b|\b(?:cur|new|tmp)/"
                   r"|\bMighty Mutt\b|\bbob at home\b|\bnowhere\b|\bcarol\b|\bbot:greedy\b|\bfalse\b")


def english(out: str) -> list[str]:
    """The English words left in what a command printed in zh or qps: its armoured blocks (ASCII
    by design), the commands to copy (a command wrapped over lines too), the variables, the words
    a player types, addresses and file names taken out first."""
    text = _ARMOUR.sub("", out)
    text = re.sub(r"`[^`]*`", "", text.replace("\n", " "))  # a command to copy wrapped over lines
    return leftover(_ALSO.sub("", text))


def context(out: str, words: list[str]) -> str:
    """Where the first few of ``words`` stand in ``out`` (a failure's evidence)."""
    spots = []
    for word in dict.fromkeys(words[:3]):
        at = out.find(word)
        spots.append(repr(out[max(0, at - 30): at + 30]) if at >= 0 else word)
    return " … ".join(spots)


def show(wide: list[tuple[str, str]]) -> str:
    return "\n".join(f"{command}\n  [{len(line)}] {line}" for command, line in wide)


def piped_replay(name: str, cwd: Path, home: Path) -> tuple[str, str]:
    """``agility replay NAME`` with standard output to a pipe and standard error on an 80-column
    pseudo-terminal: what each printed."""
    import fcntl
    import struct
    import termios

    from test_handshake_tty import read_until_closed

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "AGILITY_HOME": str(home), "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80"}
    proc = subprocess.Popen([sys.executable, "-m", "agility_cli", "replay", name], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    story = proc.stdout.read().decode() if proc.stdout else ""
    said = read_until_closed(master).decode()
    os.close(master)
    assert proc.wait(60) in (0, 1, 2, 3), said
    return story, said.replace("\r\n", "\n")


class Table:
    """Two machines in a short folder; each command on an 80-column pseudo-terminal, its output kept."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch, lang: str = "en"):
        self.root, self.monkeypatch, self.lang = root, monkeypatch, lang
        monkeypatch.setenv("AGILITY_LANG", lang)
        self.printed: list[tuple[str, str]] = []
        for name in ("alice", "bob"):
            (root / name).mkdir()
            mailbox.Maildir(str(root / f"{name}-Maildir"))
        for var in ("AGILITY_MAILBOX", "AGILITY_SMTP_HOST", "AGILITY_MAIL_COMMAND", "AGILITY_IMAP_PASSWORD"):
            monkeypatch.delenv(var, raising=False)

    def run(self, who: str, *args: str, typed: str = "", codes: tuple[object, ...] = (0, None),
            env: dict[str, str] | None = None) -> str:
        with self.monkeypatch.context() as m:
            m.setenv("AGILITY_MAIL_FROM", f"{who}@example.org")
            for key, value in (env or {}).items():
                m.setenv(key, value)
            i18n.reset()
            try:
                out = on_a_terminal(list(args), self.root / f"{who}-home", self.root / who, typed, codes)
            finally:
                i18n.reset()
        self.printed.append((f"{who}: agility {' '.join(args)}", out))
        return out

    def wide(self) -> list[tuple[str, str]]:
        return [(command, line) for command, out in self.printed for line in too_wide(out)]

    def driven(self, *words: str) -> None:
        """Each of ``words`` was said (in English: the evidence that each error path was driven);
        in another language, nothing English is left in what any command printed (issue 54)."""
        said = " ".join("\n".join(out for _, out in self.printed).split())
        if self.lang == "en":
            for word in words:
                assert word in said, word
            return
        i18n.set_language(self.lang)
        try:
            left = [(command, found) for command, out in self.printed if (found := english(out))]
        finally:
            i18n.set_language(None)
        assert left == [], "\n".join(f"{command}\n  {found}\n  {context(out, found)}" for command, found in left
                                      for out in [dict(self.printed)[command]])


@pytest.fixture(params=["en", "zh", "qps"])
def table(short_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Table:  # noqa: F811
    """The table in English, in Chinese and in the pseudo-locale (issue 54: every error path)."""
    return Table(short_path, monkeypatch, request.param)


def test_every_error_of_new_join_apply_and_send_fits_80_columns(table: Table) -> None:
    root = table.root
    run = table.run
    made = run("alice", "new", "game.jsonl", "--players", "alice", "bob", "--deck", "seed")
    (root / "invite.txt").write_text(made)
    # new: bad arguments, a file that exists, a folder missing, a bad address, a send that fails
    run("alice", "new", "x.jsonl", "--players", "alice", "alice", codes=ERROR)
    run("alice", "new", "game.jsonl", "--players", "alice", "bob", codes=ERROR)
    run("alice", "new", "nodir/x.jsonl", "--players", "alice", "bob", codes=ERROR)
    run("alice", "new", "x.jsonl", "--players", "alice", "bob", "--to", "bob at home", codes=ERROR)
    run("alice", "new", "y.jsonl", "--players", "alice", "bob", "--to", "bob@example.org",
        env={"AGILITY_MAIL_COMMAND": "false"}, codes=ERROR)
    run("alice", "new", "z.jsonl", "--players", "alice", "bob", "--to", "bob@example.org",
        "--mail", "nowhere", codes=ERROR)
    # join: no file, the creator's own game, a game with a bot, a name not in the game
    run("bob", "join", "nosuch.jsonl", codes=ERROR)
    run("alice", "join", "game.jsonl", codes=ERROR)
    run("alice", "new", "solo.jsonl", "--players", "alice", "bot:greedy", "--seed", "7")
    run("alice", "join", "solo.jsonl", codes=ERROR)
    # apply: no message, a folder that is no mailbox, an empty message, no block, a damaged block,
    # a block cut short, another game's block, a new file from a message that invites nobody
    run("bob", "apply", "game.jsonl", str(root / "nosuch.txt"), codes=ERROR)
    (root / "folder").mkdir()
    run("bob", "apply", "game.jsonl", str(root / "folder"), codes=ERROR)
    (root / "empty.txt").write_text("")
    run("bob", "apply", "game.jsonl", str(root / "empty.txt"), codes=ERROR)
    (root / "prose.txt").write_text("Hi bob, here is my move. " * 20 + "\n")
    run("bob", "apply", "game.jsonl", str(root / "prose.txt"), codes=ERROR)
    damaged = damage(made)
    body = made.split("\n")
    cut = "\n".join(body[: len(body) // 2]) + "\n"
    (root / "damaged.txt").write_text(damaged)
    (root / "cut.txt").write_text(cut)
    run("bob", "apply", "game.jsonl", str(root / "damaged.txt"), codes=ERROR)
    run("bob", "apply", "game.jsonl", str(root / "cut.txt"), codes=ERROR)
    run("bob", "apply", "game.jsonl", str(root / "invite.txt"))  # bob's copy, made
    run("bob", "apply", "game.jsonl", str(root / "invite.txt"), codes=(0,) + ERROR)  # again: said
    other = run("alice", "new", "other.jsonl", "--players", "alice", "bob", "--deck", "seed")
    (root / "other.txt").write_text(other)
    run("bob", "apply", "game.jsonl", str(root / "other.txt"), codes=ERROR)
    # join twice, send before the game starts, send as nobody of the game, send of no file
    joined = run("bob", "join", "game.jsonl")
    (root / "join.txt").write_text(joined)
    run("bob", "join", "game.jsonl", codes=(0,) + ERROR)
    run("bob", "send", "game.jsonl", codes=(0,) + ERROR)
    run("bob", "send", "game.jsonl", "--as", "carol", codes=ERROR)
    run("bob", "send", "nosuch.jsonl", codes=ERROR)
    run("alice", "send", "solo.jsonl", codes=(0,) + ERROR)
    run("alice", "apply", "game.jsonl", str(root / "join.txt"))
    run("alice", "apply", "game.jsonl", str(root / "join.txt"), codes=(0,) + ERROR)  # twice: said
    # send of a finished game
    shutil.copy(GOLDEN, root / "alice" / "done.jsonl")
    run("alice", "send", "done.jsonl", "--as", "alice", codes=(0,) + ERROR)
    run("alice", "send", "done.jsonl", codes=(0,) + ERROR)
    table.driven("already exists", "not a mail address", "failed (exit 1)", "no mailbox", "needs no join",
                 "not a Maildir", "holds no game line", "'<' (U+003C)", "was cut short", "different game",
                 "has joined already", "If you are bob, join it", "no key of carol's seat", "nothing new for bob")
    wide = table.wide()
    assert wide == [], show(wide)


def test_every_error_of_play_by_mail_and_by_git_fits_80_columns(table: Table) -> None:
    root = table.root
    run = table.run
    alice_box, bob_box = str(root / "alice-Maildir"), str(root / "bob-Maildir")
    made = run("alice", "new", "game.jsonl", "--players", "alice", "bob", "--deck", "seed")
    (root / "invite.txt").write_text(made)
    # the invitee's play before any invitation came; a mail source that is nothing; a bad address
    run("bob", "play", "game.jsonl", "--mail", bob_box, codes=ERROR)
    run("bob", "play", "game.jsonl", "--mail", str(root / "nowhere"), codes=ERROR)
    run("alice", "play", "game.jsonl", "--mail", alice_box, "--to", "bob at home", codes=(0,) + ERROR)
    # an IMAP server that does not answer (a closed port), by --mail and by AGILITY_MAILBOX
    imap = f"imaps://alice@127.0.0.1:{closed_port()}/INBOX"
    run("alice", "play", "game.jsonl", "--mail", imap, env={"AGILITY_IMAP_PASSWORD": "x"}, codes=ERROR)
    run("alice", "play", "game.jsonl", env={"AGILITY_MAILBOX": imap, "AGILITY_IMAP_PASSWORD": "x"},
        codes=(0,) + ERROR)
    run("alice", "play", "game.jsonl", "--mail", imap, codes=ERROR)  # no password
    # a damaged mail block in a file: said
    damaged = damage(made)
    (root / "damaged.txt").write_text(damaged)
    run("bob", "play", "game.jsonl", "--mail", str(root / "damaged.txt"), codes=(0,) + ERROR)
    # the game by saved messages: bob's copy, his join, her reveal and first turn, his wrong moves
    run("bob", "apply", "game.jsonl", str(root / "invite.txt"))
    run("bob", "play", "game.jsonl", "--mail", str(root / "invite.txt"), "--reply", "join.txt", codes=(0,) + ERROR)
    joined = run("bob", "join", "game.jsonl", codes=(0,) + ERROR)
    if "BEGIN AGILITY" in joined:
        (root / "bob" / "join.txt").write_text(joined)
    run("alice", "play", "game.jsonl", "--mail", str(root / "bob" / "join.txt"), "--reply", "turn.txt", typed=TURN,
        env={"AGILITY_MAIL_COMMAND": "false"}, codes=(0,) + ERROR)  # a send that fails: the closing words
    run("alice", "play", "game.jsonl", "--mail", alice_box, typed=TURN, codes=(0,) + ERROR)  # not her turn
    run("bob", "play", "game.jsonl", "--mail", alice_box, "--as", "alice", typed="quit\n", codes=(0,) + ERROR)
    run("bob", "play", "game.jsonl", "--mail", str(root / "alice" / "turn.txt"), typed="quit\n",
        codes=(0,) + ERROR)
    # by git: a file in no repository, a repository without a remote, --restore without --git
    run("alice", "play", "game.jsonl", "--git", typed="quit\n", codes=ERROR)
    subprocess.run(["git", "init", "--quiet", str(root / "alice")], check=True)
    run("alice", "play", "game.jsonl", "--git", typed="quit\n", codes=(0,) + ERROR)
    run("alice", "play", "game.jsonl", "--git", "--restore", typed="quit\n", codes=(0,) + ERROR)
    run("alice", "play", "game.jsonl", "--restore", codes=ERROR)
    run("alice", "play", "game.jsonl", "--local", "--git", codes=ERROR)
    table.driven("no invitation", "is no mailbox", "cannot read imaps://", "no password for alice",
                 "failed (exit 1)", "not in a git repository", "not pushed", "--local plays here only")
    wide = table.wide()
    assert wide == [], show(wide)


def test_every_error_of_games_and_replay_fits_80_columns(table: Table) -> None:
    root = table.root
    run = table.run
    run("alice", "games", str(root / "nosuch"), codes=(0,) + ERROR)
    run("alice", "new", "game.jsonl", "--players", "alice", "bob", "--deck", "seed")
    run("alice", "new", "solo.jsonl", "--players", "alice", "bot:greedy", "--seed", "7")
    (root / "alice" / "broken.jsonl").write_text('{"kind":"game"}\nnot json\n')
    run("alice", "games", str(root / "alice"))
    imap = f"imaps://alice@127.0.0.1:{closed_port()}/INBOX"
    run("alice", "games", str(root / "alice"), env={"AGILITY_MAILBOX": imap, "AGILITY_IMAP_PASSWORD": "x"},
        codes=(0,) + ERROR)
    run("alice", "games", "--offline")
    run("alice", "play", env={"AGILITY_MAILBOX": imap, "AGILITY_IMAP_PASSWORD": "x"}, typed="quit\n",
        codes=(0,) + ERROR)
    run("alice", "replay", "nosuch.jsonl", codes=ERROR)
    run("alice", "replay", "broken.jsonl", codes=ERROR)
    shutil.copy(GOLDEN, root / "alice" / "done.jsonl")
    run("alice", "replay", "done.jsonl", codes=(0,) + ERROR)
    doubled = (root / "alice" / "done.jsonl").read_bytes().split(b"\n")
    (root / "alice" / "doubled.jsonl").write_bytes(b"\n".join(doubled[:12] + doubled[10:]))
    run("alice", "replay", "doubled.jsonl", codes=(0,) + ERROR)
    wide = table.wide()
    # replay piped (`agility replay FILE | less`): its story on the pipe, its errors on the terminal
    for name in ("done.jsonl", "doubled.jsonl", "broken.jsonl"):
        story, said = piped_replay(name, root / "alice", root / "alice-home")
        wide += [(f"agility replay {name} | cat", line) for line in too_wide(story + said)]
        table.printed.append((f"agility replay {name} | cat", story + said))
    assert wide == [], show(wide)
    table.driven("cannot be read", "does not match the format", "appears twice")
