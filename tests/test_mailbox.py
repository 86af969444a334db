"""A mailbox as the mail source (issue 34): a Maildir folder or an mbox file given to ``apply`` and
``play --mail``; the game's new messages found in it (by the block's game id or a line that chains
onto the file), applied in order, everything else ignored; the mailbox never changed; a hostile
one an error naming the message; a second scan read from the index, not the messages.  Two
machines, two key stores, no ``--as``, the commands the README gives."""

from __future__ import annotations

import hashlib
import json
import mailbox
import os
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from agility_cli.record import history
from agility_cli.record.mail import box
from machines import Machine, start
from test_mail_clients import message, play_turn, to_act


def tree_digest(path: Path) -> str:
    """The names, sizes, modes and bytes of everything under (or at) ``path``."""
    h = hashlib.sha256()
    items = [path] if path.is_file() else sorted(p for p in path.rglob("*"))
    for p in items:
        st = p.lstat()
        h.update(f"{p.relative_to(path.parent)} {st.st_mode} {st.st_size} {st.st_mtime_ns}\n".encode())
        if p.is_file():
            h.update(p.read_bytes())
    return h.hexdigest()


def other_mail(subject: str, body: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "friend@example.org"
    msg["Subject"] = subject
    msg.set_content(body)
    return msg.as_bytes()


def a_turn(src: Machine, name: str, kind: str = "quoted-printable") -> bytes:
    """``src``'s player makes their decisions; the message their mail program sends."""
    play_turn(src, name, 1)
    sent = src.run("send", src.file)
    assert sent.exit_code == 0, sent.output
    return message(kind, sent.stdout, name)


def maildir_with(path: Path, messages: list[bytes]) -> Path:
    folder = mailbox.Maildir(str(path))
    for raw in messages:
        folder.add(mailbox.MaildirMessage(raw))
    return path


def test_a_maildir_gives_the_games_new_mail_in_order_and_ignores_the_rest(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = start(tmp_path)
    alice_mail = tmp_path / "alice-Maildir"
    spam = [other_mail("hello", "lunch?"), other_mail("agility: my turn", '{"kind": "spam"} no game here')]
    maildir_with(alice_mail, spam)
    # bob plays two turns, mailing each; alice has not read the first when the second comes
    first = a_turn(bob, "bob") if to_act(bob) == "bob" else None
    if first is None:  # alice starts: her turn goes to bob first
        got = bob.run("apply", bob.file, "-", input=a_turn(alice, "alice"))
        assert got.exit_code == 0, got.output
        first = a_turn(bob, "bob")
    maildir_with(alice_mail, [first])
    before = tree_digest(alice_mail)
    got = alice.run("apply", alice.file, alice_mail)
    assert got.exit_code == 0, got.output
    assert alice.file.read_bytes() == bob.file.read_bytes()
    assert tree_digest(alice_mail) == before  # reading never changes the mailbox
    again = alice.run("apply", alice.file, alice_mail)
    assert again.exit_code == 0 and "no new mail of this game" in again.stderr, again.output
    assert alice.file.read_bytes() == bob.file.read_bytes()
    monkeypatch.setenv("AGILITY_HOME", str(alice.home))
    rec = history.load(json_game_id(alice))
    assert rec.mailbox == str(alice_mail)  # remembered for a bare `agility play`


def json_game_id(m: Machine) -> str:
    from agility_cli.record import keys

    return keys.game_id(m.file.read_bytes().split(b"\n", 1)[0])


def test_an_mbox_of_two_games_applies_only_this_games_messages_oldest_first(tmp_path: Path) -> None:
    alice, bob = start(tmp_path)
    (tmp_path / "other").mkdir()
    other_a, other_b = start(tmp_path / "other")
    inbox = tmp_path / "inbox.mbox"
    mb = mailbox.mbox(str(inbox))
    sent: list[bytes] = []
    mover, reader, name = (alice, bob, "alice") if to_act(alice) == "alice" else (bob, alice, "bob")
    # two messages of this game, the newer first in the mailbox; one of another game between them
    for _ in range(2):
        mover.run("bot", mover.file, "--moves", "1", "-q")
        sent.append(message("base64", mover.run("send", mover.file).stdout, name))
    oname = "alice" if to_act(other_a) == "alice" else "bob"
    omover = other_a if oname == "alice" else other_b
    omover.run("bot", omover.file, "--moves", "1", "-q")
    for raw in (sent[1], message("quoted-printable", omover.run("send", omover.file).stdout, oname), sent[0]):
        mb.add(mailbox.mboxMessage(raw))
    mb.flush()
    mb.close()
    before = tree_digest(inbox)
    got = reader.run("apply", reader.file, inbox)
    assert got.exit_code == 0, got.output
    assert reader.file.read_bytes() == mover.file.read_bytes()
    assert tree_digest(inbox) == before


def test_a_hostile_maildir_is_an_error_naming_the_message(tmp_path: Path) -> None:
    alice, bob = start(tmp_path)
    folder = maildir_with(tmp_path / "Maildir", [other_mail("hi", "text")])
    os.mkfifo(folder / "new" / "1700000000.fifo.host")
    before = alice.file.read_bytes()
    got = alice.run("apply", alice.file, folder)
    assert got.exit_code == 2, got.output
    assert "1700000000.fifo.host" in got.stderr and "named pipe" in got.stderr, got.stderr
    assert alice.file.read_bytes() == before


def test_a_damaged_block_of_this_game_is_an_error_naming_the_message(tmp_path: Path) -> None:
    alice, bob = start(tmp_path)
    mover, reader, name = (alice, bob, "alice") if to_act(alice) == "alice" else (bob, alice, "bob")
    mover.run("bot", mover.file, "--moves", "1", "-q")
    text = mover.run("send", mover.file).stdout
    rows = text.splitlines()
    body = next(i for i, r in enumerate(rows) if "BEGIN AGILITY" in r) + 1
    rows[body] = rows[body][:10] + ("A" if rows[body][10] != "A" else "B") + rows[body][11:]
    inbox = tmp_path / "mbox"
    mb = mailbox.mbox(str(inbox))
    mb.add(mailbox.mboxMessage(message("quoted-printable", "\n".join(rows) + "\n", name)))
    mb.close()
    before = reader.file.read_bytes()
    got = reader.run("apply", reader.file, inbox)
    assert got.exit_code == 2, got.output
    assert f"the message at byte 0 of the mbox {inbox}" in got.stderr, got.stderr
    assert reader.file.read_bytes() == before


def test_a_second_scan_reads_the_index_not_the_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inbox = tmp_path / "big.mbox"
    mb = mailbox.mbox(str(inbox))
    for k in range(40):
        mb.add(mailbox.mboxMessage(other_mail(f"note {k}", f"line {k} of the AGILITY club's news")))
    mb.close()
    decoded: list[int] = []
    real = box.scan_message

    def counting(data: bytes) -> Any:
        decoded.append(len(data))
        return real(data)

    monkeypatch.setattr(box, "scan_message", counting)
    kind, first = box.scan(str(inbox))
    assert kind == "mbox" and len(first) == 40 and len(decoded) == 40
    decoded.clear()
    _, second = box.scan(str(inbox))
    assert second == first and decoded == []  # unchanged: not read at all
    with open(inbox, "ab") as fh:  # one message more: only it is decoded
        fh.write(b"\nFrom friend@example.org Thu Jan  1 00:00:00 2026\n" + other_mail("late", "AGILITY news") + b"\n")
    _, third = box.scan(str(inbox))
    assert len(third) == 41 and len(decoded) == 1


def test_a_message_over_the_cap_is_not_read_and_is_named_if_it_is_the_games(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(box, "MAX_MESSAGE_BYTES", 2000)
    inbox = tmp_path / "mbox"
    mb = mailbox.mbox(str(inbox))
    mb.add(mailbox.mboxMessage(other_mail("big", "-----BEGIN AGILITY LINES game 1a2b3c4d lines 5-5-----\n" + "x" * 5000)))
    mb.close()
    _, entries = box.scan(str(inbox))
    assert entries[0].problem and "was not read" in entries[0].problem
    found = box.of_game(entries, "1a2b3c4d", [], lambda e: f"message {e.key}")
    assert found.messages == [] and found.notes == [f"message 0 was not read: {entries[0].problem}"]


def test_play_mail_with_a_maildir_reads_plays_and_remembers_the_source(tmp_path: Path) -> None:
    alice, bob = start(tmp_path)
    mover, reader, name = (alice, bob, "alice") if to_act(alice) == "alice" else (bob, alice, "bob")
    folder = maildir_with(tmp_path / f"{reader.name}-Maildir", [a_turn(mover, name)])
    got = reader.run("play", reader.file, "--mail", folder, input="quit\n")
    assert got.exit_code == 0, got.output
    assert reader.file.read_bytes().startswith(mover.file.read_bytes())
    # a bare `agility play` reads the remembered mailbox again: nothing new, no error
    again = reader.run("play", reader.file, input="quit\n")
    assert again.exit_code == 0 and "no new mail of this game" in again.stderr, again.output


def test_wait_without_git_or_a_mailbox_is_a_usage_error(tmp_path: Path) -> None:
    alice, bob = start(tmp_path)
    got = alice.run("play", alice.file, "--wait", "--mail", "-", input="")
    assert got.exit_code == 2 and "--wait works by git or a mailbox" in got.stderr, got.output


def test_wait_by_a_maildir_stops_when_the_mail_comes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --mail MAILDIR --wait``: the other player's mail arrives while it waits (ruled by
    DECISIONS "--wait": checks every --every seconds, stops at a decision)."""
    import time as clock

    alice, bob = start(tmp_path)
    mover, reader, name = (alice, bob, "alice") if to_act(alice) == "alice" else (bob, alice, "bob")
    folder = maildir_with(tmp_path / "Maildir", [other_mail("hi", "text")])
    turn = a_turn(mover, name)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 2:
            maildir_with(folder, [turn])  # the mail comes while it waits
        assert len(slept) < 10

    monkeypatch.setattr(clock, "sleep", sleep)
    got = reader.run("play", reader.file, "--mail", folder, "--wait", "--every", "5", input="quit\n")
    assert got.exit_code == 0, got.output
    assert slept == [5.0, 5.0] and "waiting for" in got.stderr
    assert reader.file.read_bytes().startswith(mover.file.read_bytes())


def test_an_old_history_record_is_still_read(tmp_path: Path) -> None:
    alice, _ = start(tmp_path)
    gid = json_game_id(alice)
    path = Path(os.environ["AGILITY_HOME"])
    assert path.exists()
    old = {"format": "agility-history/1", "tip": [3, "ab" * 32], "tip_player": "bob", "mine": [[2, "cd" * 32]],
           "theirs": 3, "played": [], "upstream": [0, ""]}
    (path / "history").mkdir(exist_ok=True, mode=0o700)
    (path / "history" / f"{gid}.json").write_text(json.dumps(old))
    rec = history.load(gid)
    assert rec.tip == (3, "ab" * 32) and rec.mine == [(2, "cd" * 32)] and rec.path == "" and rec.mailbox == ""


def _new_pair(alice: Machine, bob: Machine, name: str, deck: str = "seed") -> tuple[Path, Path]:
    """A game ``name`` made by alice and joined by bob (the handshake by copied files)."""
    a, b = alice.dir / name, bob.dir / name
    assert alice.run("new", a, "--players", "alice", "bob", *(["--deck", deck] if deck else [])).exit_code == 0
    b.write_bytes(a.read_bytes())
    joined = bob.run("join", b)
    assert joined.exit_code == 0, joined.output
    assert alice.run("apply", a, "-", input=joined.stdout).exit_code == 0
    b.write_bytes(a.read_bytes())
    return a, b


def play_turn_at(m: Machine, path: Path, name: str) -> None:
    """``m``'s player makes their decisions in the game at ``path`` until the other must act."""
    while json.loads(m.run("show", path, "--json").stdout)["to_act"] == name:
        assert m.run("bot", path, "--moves", "1", "-q").exit_code == 0


def _statuses(m: Machine, *folders: Path) -> dict[str, dict[str, Any]]:
    got = m.run("games", *folders, "--json")
    assert got.exit_code == 0, got.output
    return {Path(g["file"]).name if g["file"] else g["game"]: g for g in json.loads(got.stdout)["games"]}


def test_games_lists_a_dozen_games_in_every_state_awaiting_you_first(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``agility games`` over a data directory of a dozen games (DECISIONS "games": a game whose keys
    this machine owes awaits you; a moved or deleted file is said so, not an error)."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    mine, _ = _new_pair(alice, bob, "mine.jsonl")
    theirs, theirs_b = _new_pair(alice, bob, "theirs.jsonl")
    for path, other, want in ((mine, bob.dir / "mine.jsonl", "alice"), (theirs, theirs_b, "bob")):
        if json.loads(alice.run("show", path, "--json").stdout)["to_act"] != want:  # one turn to hand it over
            m, mfile, dst = (alice, path, other) if want == "bob" else (bob, other, path)
            play_turn_at(m, mfile, "bob" if want == "alice" else "alice")
            assert (bob if m is alice else alice).run("apply", dst, "-", input=m.run("send", mfile).stdout).exit_code == 0
    gone, _ = _new_pair(alice, bob, "gone.jsonl")
    moved, _ = _new_pair(alice, bob, "moved.jsonl")
    damaged, _ = _new_pair(alice, bob, "damaged.jsonl")
    waiting = alice.dir / "waiting.jsonl"  # alice made it; bob has not joined
    assert alice.run("new", waiting, "--players", "alice", "bob", "--deck", "seed").exit_code == 0
    to_join = alice.dir / "to-join.jsonl"  # bob made it; alice is to join
    assert bob.run("new", bob.dir / "to-join.jsonl", "--players", "bob", "alice", "--deck", "seed").exit_code == 0
    to_join.write_bytes((bob.dir / "to-join.jsonl").read_bytes())
    solo = alice.dir / "solo.jsonl"
    assert alice.run("new", solo, "--players", "alice", "bot:random").exit_code == 0
    assert alice.run("bot", solo, "--until-end", "-q").exit_code == 0
    sealed, sealed_b = _new_pair(alice, bob, "sealed.jsonl", deck="")  # sealed: waits for bob's keys of the deal
    mailed, mailed_b = _new_pair(alice, bob, "mailed.jsonl")
    if json.loads(alice.run("show", mailed, "--json").stdout)["to_act"] == "alice":
        play_turn_at(alice, mailed, "alice")
        assert bob.run("apply", mailed_b, "-", input=alice.run("send", mailed).stdout).exit_code == 0
    inbox = maildir_with(tmp_path / "Maildir", [other_mail("hi", "text")])
    assert "no new mail" in alice.run("apply", mailed, inbox).stderr  # the mailbox is remembered for the game
    play_turn_at(bob, mailed_b, "bob")
    maildir_with(inbox, [message("base64", bob.run("send", mailed_b).stdout, "bob")])  # not applied yet
    for path in (gone, moved, damaged, mailed, sealed, waiting, to_join, solo):
        alice.run("show", path)  # seen here: the history records the path
    gone.unlink()
    moved.rename(alice.dir / "renamed.jsonl")
    damaged.write_bytes(damaged.read_bytes().replace(b'"n":1,', b'"n":9,', 1))
    rows = _statuses(alice, alice.dir)
    monkeypatch.chdir(alice.dir)
    by = {k: v["status"] for k, v in rows.items()}
    assert by["mine.jsonl"] == "your_decision" and by["theirs.jsonl"] == "their_decision"
    assert by["gone.jsonl"] == "missing" and "moved or deleted" in rows["gone.jsonl"]["says"]
    assert by["renamed.jsonl"] in ("your_decision", "their_decision")  # the moved file, found in the folder
    assert by["damaged.jsonl"] == "damaged"
    assert by["waiting.jsonl"] == "their_join" and by["to-join.jsonl"] == "your_join"
    assert by["solo.jsonl"] == "finished" and rows["solo.jsonl"]["winner"] in ("alice", "bot:random")
    assert by["sealed.jsonl"] == "their_keys"
    assert by["mailed.jsonl"] == "mail" and "not applied yet" in rows["mailed.jsonl"]["says"]
    assert rows["mine.jsonl"]["opponent"] == "bob" and rows["mine.jsonl"]["last_activity"].endswith("Z")
    order = [v["awaiting_you"] for v in json.loads(alice.run("games", alice.dir, "--json").stdout)["games"]]
    assert order == sorted(order, reverse=True) and sum(order) >= 2  # awaiting you first
    # bob's machine, once alice's file reaches it: his tool owes the deal's keys, which awaits him
    sealed_b.write_bytes(sealed.read_bytes())
    assert _statuses(bob, bob.dir)["sealed.jsonl"]["status"] == "your_keys"
    text = alice.run("games", alice.dir)
    assert text.exit_code == 0 and text.stdout.startswith("awaiting you (")


def test_play_mail_sends_the_reply_by_sendmail_to_the_confirmed_address(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The reply goes out by the local ``sendmail`` (here a script on PATH that keeps what it is
    given) to ``--to``'s address, with a subject naming the game; the address is remembered, so the
    next ``play`` sends without it."""
    alice, bob = start(tmp_path)
    mover, reader, name = (alice, bob, "alice") if to_act(alice) == "alice" else (bob, alice, "bob")
    folder = maildir_with(tmp_path / "Maildir", [a_turn(mover, name)])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    kept = tmp_path / "sent.eml"
    script = bin_dir / "sendmail"
    script.write_text(f"#!/bin/sh\n[ \"$1\" = -t ] && [ \"$2\" = -oi ] || exit 9\ncat >> {kept}\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("AGILITY_MAIL_COMMAND", raising=False)
    monkeypatch.delenv("AGILITY_SMTP_HOST", raising=False)
    got = reader.run("play", reader.file, "--mail", folder, "--to", "opponent@example.org", input="1\n" * 60)
    assert got.exit_code == 0, got.output
    assert "by " in got.stderr and "sendmail" in got.stderr, got.stderr
    told = got.stdout.split("must act now", 1)[1].split("\n")  # the closing words: prose within 80 columns
    assert any("this reads your mailbox" in line for line in told), got.stdout
    assert all(len(line) <= 80 for line in told if not line.lstrip().startswith("agility ")), told
    sent = kept.read_bytes()
    gid = reader.file.read_bytes().split(b"\n", 1)[0]
    short = hashlib.sha256(gid).hexdigest()[:8]
    assert b"To: opponent@example.org" in sent and f"Subject: Agility game {short}: alice vs bob".encode() in sent
    # the mover applies what was sent: both copies equal
    applied = mover.run("apply", mover.file, "-", input=sent)
    assert applied.exit_code == 0, applied.output
    assert mover.file.read_bytes() == reader.file.read_bytes()


def test_a_password_in_an_imap_address_is_refused(tmp_path: Path) -> None:
    alice, _ = start(tmp_path)
    before = alice.file.read_bytes()
    got = alice.run("apply", alice.file, "imaps://alice:hunter2@127.0.0.1/INBOX")
    assert got.exit_code == 2 and "never holds the password" in got.stderr and "hunter2" not in got.stderr
    assert alice.file.read_bytes() == before


def test_play_with_no_file_goes_to_the_game_awaiting_you_and_asks_when_several_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    monkeypatch.chdir(alice.dir)
    none = alice.run("play", input="")
    assert none.exit_code == 0 and "no game on this machine yet" in none.stderr, none.output
    first, first_b = _new_pair(alice, bob, "first.jsonl")
    if json.loads(alice.run("show", first, "--json").stdout)["to_act"] != "alice":
        play_turn_at(bob, first_b, "bob")
        assert alice.run("apply", first, "-", input=bob.run("send", first_b).stdout).exit_code == 0
    before = first.read_bytes()
    one = alice.run("play", input="quit\n")
    assert one.exit_code == 0 and "first.jsonl: your decision" in one.stderr, one.output
    assert first.read_bytes() == before  # quit at once: nothing written
    second, second_b = _new_pair(alice, bob, "second.jsonl")
    if json.loads(alice.run("show", second, "--json").stdout)["to_act"] != "alice":
        play_turn_at(bob, second_b, "bob")
        assert alice.run("apply", second, "-", input=bob.run("send", second_b).stdout).exit_code == 0
    asked = alice.run("play", input="2\nquit\n")
    assert asked.exit_code == 0 and "2 games await you" in asked.stderr and "which one? [1-2]" in asked.stderr
    wrong = alice.run("play", input="7\n")
    assert wrong.exit_code == 2 and "answer a number from 1 to 2" in wrong.stderr
    play_turn_at(alice, first, "alice")
    play_turn_at(alice, second, "alice")
    waiting = alice.run("play", input="")
    assert waiting.exit_code == 0 and "none of your 2 games awaits you" in waiting.stderr, waiting.output


def test_R41_a_file_cut_short_is_restored_by_the_mail_that_holds_its_lines(tmp_path: Path) -> None:
    """A game file put back from an older copy (a backup, a sync tool) is this machine's history
    cut short: every command raises the rewritten-history alarm (R41).  When the mailbox holds the
    lost lines, ``apply FILE MAILBOX`` (and ``play``, which reads it) applies them — verified as
    ever — and says the history is whole again; without them the alarm stands, nothing written."""
    alice, bob = start(tmp_path)
    alice_mail = tmp_path / "alice-Maildir"
    mailbox.Maildir(str(alice_mail))
    if to_act(alice) == "alice":
        got = bob.run("apply", bob.file, "-", input=a_turn(alice, "alice"))
        assert got.exit_code == 0, got.output
    older = alice.file.read_bytes()
    maildir_with(alice_mail, [a_turn(bob, "bob")])
    assert alice.run("apply", alice.file, alice_mail).exit_code == 0
    whole = alice.file.read_bytes()
    assert whole == bob.file.read_bytes() and len(whole) > len(older)
    alice.file.write_bytes(older)  # the older copy put back
    empty = tmp_path / "empty-Maildir"
    mailbox.Maildir(str(empty))
    refused = alice.run("apply", alice.file, empty)
    assert refused.exit_code == 1 and "was rewritten" in " ".join(refused.output.split())
    assert alice.file.read_bytes() == older
    got = alice.run("apply", alice.file, alice_mail)
    assert got.exit_code == 0, got.output
    said = " ".join(got.stderr.split())
    assert "came back from the mail" in said and "its history is whole again (R41)" in said, said
    assert "was rewritten" not in said  # no alarm the mail lifts
    assert alice.file.read_bytes() == whole
    assert "was rewritten" not in " ".join(alice.run("show", alice.file).output.split())
