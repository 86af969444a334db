"""Audit pending: your keys are not sent (R42, issue 49).  At the end of a sealed game the finisher's
last line carries their seal secret and the other player's tool writes theirs at once; until that
line has left this machine (mailed by ``play --mail``, printed by ``send``, on the git remote, or
followed by a line of the opponent's), the opponent's machine says "audit pending (X's keys)".  A
player who withholds it must not see "audited" on their own machine: ``show``, ``show --json``
(``verdict``, ``sealed.keys_unsent``), ``play``, ``games`` and ``replay`` say "audit pending: your
keys are not sent", and a picture or page made there says the audit waits for that player's keys by
name.  Two machines (two key stores, no ``--as``), the default sealed game (format 4)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adversary import joined_pair, seed_secrets, send, status
from machines import Machine

UNSENT = "audit pending: your keys are not sent"


def _to_the_end(root: Path, seed: int) -> tuple[Machine, Machine, str]:
    """A sealed game by mail, bots deciding, until the finisher's last line is applied on the other
    machine, whose tool writes its own audit keys at once — and sends nothing.  Returns both
    machines and the name of the player whose keys are not sent (the one who did not finish)."""
    alice, bob = joined_pair(root)
    machines = {"alice": alice, "bob": bob}
    current = alice
    for turn in range(900):
        st = status(current)
        if st["status"] != "playing":
            break
        m = machines[st["to_act"]]
        if m is not current:
            send(current, m)
            current = m
            continue
        if "awaiting_keys" not in st:
            r = m.run("bot", m.file, "--moves", "1", "--seed", str(seed * 1000 + turn))
            assert r.exit_code == 0, r.output
        else:
            other = machines["bob" if m is alice else "alice"]
            send(m, other)
            current = other
    # the game is over on `current` (the finisher's machine): its last line goes to the other
    other = machines["bob" if current is alice else "alice"]
    send(current, other)
    return alice, bob, other.name


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> tuple[Machine, Machine, str]:
    with pytest.MonkeyPatch.context() as m:
        seed_secrets(m, 4)
        return _to_the_end(tmp_path_factory.mktemp("unsent"), 4)


def _copy(ended: tuple[Machine, Machine, str], tmp_path: Path) -> tuple[Machine, Machine, Machine, Machine]:
    """Both machines copied (each test changes them), as (withholder, finisher)."""
    alice, bob, who = ended
    copies = {}
    for m in (alice, bob):
        c = Machine.__new__(Machine)
        c.name, c.dir, c.home, c.file = m.name, tmp_path / m.name, tmp_path / f"{m.name}-home", tmp_path / m.name / "game.jsonl"
        shutil.copytree(m.dir, c.dir)
        shutil.copytree(m.home, c.home)
        copies[m.name] = c
    mine, theirs = copies[who], copies["bob" if who == "alice" else "alice"]
    return mine, theirs, copies["alice"], copies["bob"]


def test_R42_a_player_whose_keys_are_not_sent_never_sees_audited(ended, tmp_path: Path) -> None:
    mine, theirs, *_ = _copy(ended, tmp_path)
    # the withholder's file holds both seal secrets: without the record of what was sent it would
    # read "audited"; it says the keys are not sent
    st = status(mine)
    assert st["status"] == "finished" and st["winner"] == theirs.name
    assert st["sealed"]["keys_unsent"] is True
    assert st["verdict"] == {"kind": "pending", "player": mine.name, "reason": UNSENT}
    shown = mine.run("show", mine.file)
    assert UNSENT in " ".join(shown.stdout.split())
    assert f"agility send {mine.file}" in shown.stdout  # how they go
    games = mine.run("games", mine.dir)
    assert UNSENT in " ".join(games.stdout.split())
    played = mine.run("play", mine.file, "--plain", input="")
    assert UNSENT in " ".join(played.stdout.split())
    replayed = mine.run("replay", mine.file)
    assert replayed.exit_code == 0 and "Sealed deck: audit pending: your keys are not sent" in replayed.stdout
    assert "audited" not in replayed.stdout.split("Sealed deck:")[-1]
    # the finisher's machine: pending by name, its own keys sent (send printed them)
    other = status(theirs)
    assert other["sealed"]["audit_pending"] == [mine.name] and other["sealed"]["keys_unsent"] is False
    assert other["verdict"]["kind"] == "pending" and mine.name in other["verdict"]["reason"]


def test_R42_a_picture_or_page_made_there_says_whose_keys_the_audit_waits_for(ended, tmp_path: Path) -> None:
    mine, theirs, *_ = _copy(ended, tmp_path)
    svg = mine.run("export", mine.file, "--svg")
    assert svg.exit_code == 0
    assert f"audit pending ({mine.name}&#x27;s keys)" in svg.stdout or f"audit pending ({mine.name}'s keys)" in svg.stdout
    assert "your keys" not in svg.stdout
    page = mine.run("export", mine.file, "--html", "-o", tmp_path / "game.html")
    assert page.exit_code == 0
    html = (tmp_path / "game.html").read_text()
    assert f"audit pending ({mine.name}" in html and "your keys are not sent" not in html


def test_R42_once_sent_the_keys_are_audited_on_both_machines(ended, tmp_path: Path) -> None:
    mine, theirs, *_ = _copy(ended, tmp_path)
    send(mine, theirs)  # `send` prints the keys to mail; the finisher applies them
    for m in (mine, theirs):
        st = status(m)
        assert "verdict" not in st and st["sealed"]["keys_unsent"] is False, m.name
        assert st["sealed"]["audit_pending"] == []
        replayed = m.run("replay", m.file)
        assert "Sealed deck: audited" in replayed.stdout


def test_R42_keys_on_the_git_remote_or_followed_by_the_opponent_are_sent(ended, tmp_path: Path) -> None:
    """The git remote holding the line counts as sent (``history.note_upstream``)."""
    from adversary import at_home
    from agility_cli.record import gamefile, history

    mine, theirs, *_ = _copy(ended, tmp_path)
    data = mine.file.read_bytes()
    with at_home(mine):
        game = gamefile.load_bytes(data, str(mine.file))
        assert gamefile.keys_unsent(game) is not None
        history.note_upstream(game.game_id, game.hashes)
        assert gamefile.keys_unsent(game) is None
    assert status(mine)["sealed"]["keys_unsent"] is False and "verdict" not in status(mine)


def test_R42_the_keys_mailed_after_the_end_are_found_by_games_and_taken_in_by_play(ended, tmp_path: Path) -> None:
    """The finisher's game is over, its audit waiting for the other's keys; their mail with the keys
    lies in the finisher's mailbox: ``games`` says a mail of the game waits, and ``play`` with no
    FILE goes to it, takes it in and the audit passes (it once said no game awaited you)."""
    import mailbox
    from email.message import EmailMessage

    mine, theirs, *_ = _copy(ended, tmp_path)
    sent = mine.run("send", mine.file)
    assert sent.exit_code == 0 and "BEGIN AGILITY" in sent.stdout, sent.output
    box = mailbox.Maildir(tmp_path / "Maildir")
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = f"{mine.name}@example.org", "me@example.org", "agility"
    message.set_content(sent.stdout)
    box.add(message)
    env = {"AGILITY_MAILBOX": str(tmp_path / "Maildir")}
    before = status(theirs)
    assert before["sealed"]["audit_pending"] == [mine.name], before
    listed = theirs.run("games", theirs.dir, "--json", env=env)
    row, = json.loads(listed.stdout)["games"]
    assert row["status"] == "mail" and row["awaiting_you"] is True, row
    played = theirs.run("play", "--plain", input="", env=env)
    assert played.exit_code == 0, played.output
    assert status(theirs)["sealed"]["audit_pending"] == [] and "verdict" not in status(theirs)
    assert "Sealed deck: audited" in theirs.run("replay", theirs.file).stdout
    again = theirs.run("games", theirs.dir, "--json", env=env)
    assert json.loads(again.stdout)["games"][0]["status"] == "finished"


def test_R42_play_says_the_keys_are_sent_once_mailed(ended, tmp_path: Path) -> None:
    """The closing words of ``play`` say "your keys are not sent"; once its mail has gone, the
    last line says they are and what the audit waits for (the finisher's keys are in: it passed)."""
    import sys

    mine, theirs, *_ = _copy(ended, tmp_path)
    for part in ("cur", "new", "tmp"):
        (tmp_path / "Maildir" / part).mkdir(parents=True)
    outgoing = tmp_path / "sent.txt"
    command = f"{sys.executable} -c \"import sys; open({str(outgoing)!r}, 'wb').write(sys.stdin.buffer.read())\""
    env = {"AGILITY_MAIL_COMMAND": command}
    played = mine.run("play", mine.file, "--plain", "--mail", tmp_path / "Maildir", "--to", "them@example.org",
                      input="", env=env)
    assert played.exit_code == 0, played.output
    said = " ".join(played.stderr.split())
    assert "BEGIN AGILITY" in outgoing.read_text() and UNSENT in " ".join(played.stdout.split())
    assert said.endswith("your keys are sent; the audit passed: every pass, key and face-down card checks (R42)"), said
    assert status(mine)["sealed"]["keys_unsent"] is False and "verdict" not in status(mine)
    again = mine.run("play", mine.file, "--plain", "--mail", tmp_path / "Maildir", input="", env=env)
    assert "your keys are sent" not in again.stderr  # said once, when they go


def test_R42_the_send_by_git_says_the_keys_are_sent_once_pushed(ended, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """By git: the line of the keys, written by the tool during ``play --git`` (after the closing
    words said "your keys are not sent"), is committed and pushed by its send; the last line then
    says the keys are sent and the audit passed (``distance.send_out``, the end of ``play --git``)."""
    import subprocess

    from adversary import at_home
    from agility_cli.cli import distance

    mine, theirs, *_ = _copy(ended, tmp_path)

    def git(*args: object, cwd: Path = mine.dir) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *map(str, args)], cwd=cwd,
                       check=True, capture_output=True)

    remote = tmp_path / "remote.git"
    git("init", "-q", "--bare", remote, cwd=tmp_path)
    whole = mine.file.read_bytes()
    mine.file.write_bytes(whole[:whole.rstrip(b"\n").rfind(b"\n") + 1])  # the file before the keys' line
    git("init", "-q", "-b", "main")
    git("add", "game.jsonl")
    git("commit", "-qm", "the game before the keys")
    git("remote", "add", "origin", remote)
    git("push", "-q", "-u", "origin", "main")
    mine.file.write_bytes(whole)  # the keys' line, as the tool wrote it: not committed yet
    assert status(mine)["sealed"]["keys_unsent"] is True
    capsys.readouterr()
    with at_home(mine):
        distance.send_out(mine.file, True, False, None, None)
    said = " ".join(capsys.readouterr().err.split())
    assert "committed and pushed" in said, said
    assert said.endswith("your keys are sent; the audit passed: every pass, key and face-down card checks (R42)"), said
    assert status(mine)["sealed"]["keys_unsent"] is False


def test_R42_the_board_s_last_words_with_a_verdict_fit_80_columns(ended, tmp_path: Path, monkeypatch) -> None:
    """The full-screen board's closing words of a game whose audit is pending (a long reason) are
    wrapped at their words within 80 columns (the terminal once cut "audit pendin|g")."""
    from agility_cli.table import session
    from agility_cli.table.board import match
    from agility_cli.table.screen import catch_up

    mine, *_ = _copy(ended, tmp_path)
    monkeypatch.setenv("AGILITY_HOME", str(mine.home))
    news = session.since_last(mine.file)
    viewer = session.resolve_viewer(news.game)
    m = match.Match(mine.file, news.game, viewer, False, catch_up(news, viewer.name), news.heading(viewer.name), "mailbox")
    m.close(match.OVER)
    rows = m.closing.rstrip("\n").split("\n")
    assert len(rows) > 1 and all(len(row) <= 80 for row in rows), rows
    assert rows[0].startswith("The game is over: ") and UNSENT in " ".join(m.closing.split())
