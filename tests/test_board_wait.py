"""``play --mail MAILBOX --wait`` and ``play --git --wait`` inside the full-screen board (issue 51).

Two machines (two AGILITY_HOMEs).  The board of alice is up while bob's turn is awaited: its
status line says what it waits for, with the elapsed time and the checks made; bob's mail is
written into alice's Maildir from the test's thread (or bob pushes to the bare remote) while the
board waits; the board then shows what arrived and alice decides in it; her reply goes out (the
status line says "mailed to" / "pushed") and the board waits again; Ctrl-C stops the wait between
two checks, and the words it leaves (the reply, whose turn, how to go on) come after it, with the
line mode's exit 130.  The wait runs in a worker thread: the board answers meanwhile.
"""

from __future__ import annotations

import asyncio
import mailbox
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
import typer
from machines import Machine, mail, start
from test_mailbox import a_turn, to_act

from agility_cli.cli import boardwait
from agility_cli.record import gamefile
from agility_cli.table import session
from agility_cli.table.board import app as board
from agility_cli.table.board import match
from agility_cli.table.screen import catch_up

DELIVER = """\
import sys
with open(sys.argv[1], "a", encoding="utf-8") as out:
    out.write(sys.stdin.read() + "\\n=====\\n")
"""


def turn_of(m: Machine, name: str) -> None:
    """``m``'s player makes their decisions (the first row each time) until the other must act."""
    while to_act(m) == name:
        assert m.run("bot", m.file, "--moves", "1", "-q").exit_code == 0


def alices_board(alice: Machine, far: Any) -> tuple[board.Board, match.Match]:
    news = session.since_last(alice.file)
    viewer = session.resolve_viewer(news.game)
    by = "git" if far.by == "git" else "mailbox"
    m = match.Match(alice.file, news.game, viewer, False, catch_up(news, viewer.name), news.heading(viewer.name), by)
    m.distance = far
    return board.Board(m), m


def flat(text: str) -> str:
    return " ".join(text.split())


async def until(pilot: Any, ok: Callable[[], bool], seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if ok():
            return
        await pilot.pause(0.05)
    raise AssertionError("never came")


def bobs_turn_awaited(tmp_path: Path) -> tuple[Machine, Machine]:
    """A game by mail (the handshake done) where alice's copy awaits bob's turn."""
    alice, bob = start(tmp_path)
    if to_act(alice) == "alice":
        turn_of(alice, "alice")
        mail(alice, bob)
    assert to_act(alice) == "bob" and to_act(bob) == "bob"
    return alice, bob


def at_home(monkeypatch: pytest.MonkeyPatch, m: Machine, **env: str) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(m.home))
    monkeypatch.delenv("AGILITY_PLAYER", raising=False)
    for key in ("AGILITY_MAILBOX", "AGILITY_SMTP_HOST"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)


def alices_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, alice: Machine) -> tuple[Path, Path]:
    """Alice's machine with a Maildir and a mail command that appends what it sends to a file:
    (the Maildir, the file of what was mailed to bob)."""
    maildir = tmp_path / "alice-Maildir"
    mailbox.Maildir(str(maildir))
    deliver, sent = tmp_path / "deliver.py", tmp_path / "sent-to-bob.txt"
    deliver.write_text(DELIVER)
    at_home(monkeypatch, alice, AGILITY_MAIL_COMMAND=f"{sys.executable} {deliver} {sent}",
            AGILITY_MAIL_FROM="alice@example.org")
    return maildir, sent


def test_by_mail_bobs_mail_comes_during_the_wait_alice_decides_and_her_reply_goes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = bobs_turn_awaited(tmp_path)
    bobs_mail = a_turn(bob, "bob")  # bob's machine: his turn, the message his mail program sends
    maildir, sent = alices_mail(tmp_path, monkeypatch, alice)
    before = alice.file.read_bytes()
    far = boardwait.make(alice.file, None, 0.2, False, False, str(maildir), None, "bob@example.org", "", "alice")
    app, m = alices_board(alice, far)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "waiting for bob's mail" in flat(app.drawn["status"]))
            await until(pilot, lambda: far.checks >= 2)  # the wait goes on: checked again and again
            assert "checked" in flat(app.drawn["status"]) and "0:0" in flat(app.drawn["status"])
            assert app.moment == match.OTHER and app.drawn["choices"] == ""
            assert alice.file.read_bytes() == before  # nothing written while nothing came
            await pilot.press("h", "i", "enter")  # the board answers while it waits
            assert "quit or Ctrl-C stops the wait" in app.drawn["say"]
            mailbox.Maildir(str(maildir)).add(mailbox.MaildirMessage(bobs_mail))  # bob's mail arrives
            await until(pilot, lambda: app.moment == match.DECIDE)
            assert alice.file.read_bytes().startswith(bob.file.read_bytes())
            assert "bob" in app.drawn["story"] and app.drawn["choices"].startswith(" 1)")
            for _ in range(40):  # alice's turn, the first choice each time
                if app.moment != match.DECIDE:
                    break
                await pilot.press("1", "enter")
                await pilot.pause(0.05)
            await until(pilot, lambda: "mailed to bob@example.org" in flat(app.drawn["status"]))
            assert "waiting for bob's mail" in flat(app.drawn["status"])
            assert "=====" in sent.read_text()  # the reply went to bob's side, once
            assert sent.read_text().count("=====") == 1
            await pilot.press("ctrl+c")
        assert far.stopped == "ctrl+c"

    try:
        asyncio.run(drive())
    finally:
        far.stop.set()
    assert to_act(alice) == "bob" and to_act(alice) is not None
    words = boardwait.ended(far, m.closing)
    assert "bob must act now" in " ".join(words.split())
    with pytest.raises(typer.Exit) as stopped:
        boardwait.after(far, alice.file, False, str(maildir))
    assert stopped.value.exit_code == 130  # as the line mode's wait stopped by Ctrl-C
    gamefile.load(alice.file)  # whole


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_by_git_bobs_push_comes_during_the_wait_and_alices_turn_is_pushed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_git_play import joined

    alice, bob = joined(tmp_path)
    assert alice.run("play", alice.file, "--git", input="").exit_code == 0  # her machine reveals
    git(bob.dir, "pull", "--quiet", "--ff-only")
    if to_act(alice) == "alice":
        turn_of(alice, "alice")
        assert alice.run("play", alice.file, "--git", input="").exit_code == 0  # pushed
        git(bob.dir, "pull", "--quiet", "--ff-only")
    assert to_act(alice) == "bob"
    at_home(monkeypatch, alice)
    far = boardwait.make(alice.file, None, 0.2, False, True, None, None, None, "", "alice")
    app, m = alices_board(alice, far)

    async def drive() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: far.checks >= 1)  # bob's push, or his keys (R44), awaited
            assert "waiting for" in flat(app.drawn["status"]), app.drawn["status"]
            env = {**os.environ, "AGILITY_HOME": str(bob.home)}
            for _ in range(3):  # bob plays and pushes (his keys, then his turn) while alice's board waits
                done = subprocess.run([sys.executable, "-m", "agility_cli", "play", str(bob.file), "--git", "--plain"],
                                      env=env, input="1\n" * 40, capture_output=True, text=True, timeout=120)
                assert done.returncode == 0, done.stderr
                if "must act now" in done.stdout:
                    break
            await until(pilot, lambda: app.moment == match.DECIDE)
            for _ in range(40):
                if app.moment != match.DECIDE:
                    break
                await pilot.press("1", "enter")
                await pilot.pause(0.05)
            await until(pilot, lambda: "pushed" in flat(app.drawn["status"]))
            await pilot.press("q", "u", "i", "t", "enter")
        assert far.stopped == "quit"

    try:
        asyncio.run(drive())
    finally:
        far.stop.set()
    words = boardwait.ended(far, m.closing)
    assert "pushed" in words and "bob must act now" in " ".join(words.split())
    boardwait.after(far, alice.file, True, None)  # `quit`: no error, exit 0
    git(bob.dir, "pull", "--quiet", "--ff-only")
    assert bob.file.read_bytes() == alice.file.read_bytes()  # her turn reached the remote


def test_wait_turn_given_a_stop_event_and_a_progress_callback_says_nothing_and_stops(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The board's ``wait_turn``: the status goes to the callback (who, checks), not to stderr, and a
    set stop event ends the wait before any check more (False); the file is left as it was."""
    import threading

    from agility_cli.cli import distance

    alice, _ = bobs_turn_awaited(tmp_path)
    maildir = tmp_path / "alice-Maildir"
    mailbox.Maildir(str(maildir))
    at_home(monkeypatch, alice)
    before = alice.file.read_bytes()
    capsys.readouterr()
    told: list[tuple[str, int]] = []
    stop = threading.Event()

    def progress(who: str, checks: int) -> None:
        told.append((who, checks))
        stop.set()  # Ctrl-C on the board, after the first check

    assert distance.wait_turn(alice.file, None, 30.0, False, str(maildir), stop, lambda *a: progress(*a)) is False
    assert told == [("bob", 1)]
    assert capsys.readouterr().err == ""
    assert alice.file.read_bytes() == before


def test_R44_the_reveal_written_before_the_wait_is_mailed_at_its_first_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sealed game by mail: alice's tool wrote her reveal when bob's join was applied, and her
    board waits for bob's keys, which his tool writes only once it has the reveal (R40, R44).  The
    wait's first check mails what she owes; it once mailed only lines written during the wait, and
    both sides waited for ever."""
    import threading

    from adversary import joined_pair
    from agility_cli.cli import distance

    alice, bob = joined_pair(tmp_path)  # the join applied on alice's machine: her reveal written there
    maildir, sent = alices_mail(tmp_path, monkeypatch, alice)
    assert session.since_last(alice.file).game.lines > bob.file.read_bytes().count(b"\n")  # what bob lacks
    stop = threading.Event()
    assert distance.wait_turn(alice.file, None, 30.0, False, str(maildir), stop,
                              lambda who, checks: stop.set()) is False
    assert sent.read_text().count("=====") == 1 and "BEGIN AGILITY" in sent.read_text()
    got = bob.run("apply", bob.file, "-", input=sent.read_text().split("=====")[0])
    assert got.exit_code == 0, got.output
    assert bob.file.read_bytes().startswith(alice.file.read_bytes()[:-1])  # bob has all of alice's lines
    stop.clear()
    assert distance.wait_turn(alice.file, None, 30.0, False, str(maildir), stop,
                              lambda who, checks: stop.set()) is False
    assert sent.read_text().count("=====") == 1  # mailed once: nothing owed now


def _keys_on_apply(root: Path) -> tuple[Machine, Machine, str]:
    """A sealed game by mail, bots deciding, up to a mail of bob's whose apply makes alice's tool
    write keys it owes (R44) while the decision stays away from her: both machines as they are just
    before, and bob's block."""
    from adversary import joined_pair, status

    alice, bob = joined_pair(root)
    mail(alice, bob)  # the reveal
    machines = {"alice": alice, "bob": bob}
    current = bob
    for turn in range(300):
        st = status(current)
        m = machines[st["to_act"]]
        if m is not current or "awaiting_keys" in st:
            other = machines["bob" if current is alice else "alice"]
            block = current.run("send", current.file).stdout
            if current is bob and block.strip():
                trial = root / f"trial-{turn}"
                shutil.copytree(alice.dir, trial / "alice")
                shutil.copytree(alice.home, trial / "alice-home")
                got = alice.run("apply", trial / "alice" / "game.jsonl", "-", input=block, home=trial / "alice-home")
                wrote = (trial / "alice" / "game.jsonl").read_bytes().count(b"\n") > bob.file.read_bytes().count(b"\n")
                tried = Machine.__new__(Machine)
                tried.name, tried.dir, tried.home, tried.file = "alice", trial / "alice", trial / "alice-home", trial / "alice" / "game.jsonl"
                after = status(tried)
                if got.exit_code == 0 and wrote and after["status"] == "playing" and \
                        (after["to_act"] != "alice" or "awaiting_keys" in after):
                    return alice, bob, block
            if block.strip():
                assert other.run("apply", other.file, "-", input=block).exit_code == 0
            current = other
            continue
        assert m.run("bot", m.file, "--moves", "1", "--seed", str(turn)).exit_code == 0
    raise AssertionError("no mail of bob's made alice's tool write keys")


def test_R44_keys_written_by_a_check_s_apply_are_mailed_at_the_next_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board waits, alice's turn mailed; bob's mail comes, and applying it makes alice's tool
    write keys it owes him (R44) while the decision stays his: the next check mails them.  It once
    mailed only lines written within one check, so both boards waited for each other's keys."""
    import threading
    from adversary import status

    from agility_cli.cli import distance

    from adversary import seed_secrets

    seed_secrets(monkeypatch, 44)  # the same deal every run (the bots are seeded too)
    alice, bob, block = _keys_on_apply(tmp_path)
    maildir, sent = alices_mail(tmp_path, monkeypatch, alice)
    stop = threading.Event()
    checks: list[int] = []

    def progress(who: str, count: int) -> None:
        checks.append(count)
        if count == 1:  # bob's mail arrives while alice waits
            from email.message import EmailMessage

            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = "bob@example.org", "alice@example.org", "agility"
            message.set_content(block)
            mailbox.Maildir(str(maildir)).add(mailbox.MaildirMessage(message))
        elif count >= 2:
            stop.set()

    assert distance.wait_turn(alice.file, None, 0.05, False, str(maildir), stop, progress) is False
    assert checks[:2] == [1, 2]
    assert sent.exists() and "BEGIN AGILITY" in sent.read_text(), "the keys were never mailed"
    got = bob.run("apply", bob.file, "-", input=sent.read_text().split("=====")[0])
    assert got.exit_code == 0, got.output
    assert bob.file.read_bytes().startswith(alice.file.read_bytes())  # bob has alice's keys: his tool goes on
    assert status(bob)["status"] == "playing"
