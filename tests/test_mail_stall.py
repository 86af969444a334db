"""No mail stalls a game (issue 52): lines a mail carries that the file holds are dropped before the
block around them is judged; a damaged block is judged only on the lines it adds — passed over
when the file (or a whole block of the same or a later mail) holds them, else said once, naming
the message and the lines, while every other message is still read.  Quoted old blocks
(top-posted, bottom-posted, HTML-quoted, forwarded inline or as an attachment) never matter."""

from __future__ import annotations

import email
import mailbox
from email.message import EmailMessage
from pathlib import Path

from machines import Machine, start
from test_mail_clients import message, play_turn, to_act


def _sent(m: Machine) -> str:
    out = m.run("send", m.file)
    assert out.exit_code == 0, out.output
    return str(out.stdout)


def _changed(block: str) -> str:
    """A block with one base64 character changed (its checksum no longer matches)."""
    rows = block.splitlines()
    body = next(i for i, r in enumerate(rows) if "BEGIN AGILITY" in r) + 1
    rows[body] = rows[body][:10] + ("A" if rows[body][10] != "A" else "B") + rows[body][11:]
    return "\n".join(rows) + "\n"


def _html_quoted(block: str) -> str:
    """A block as a client quotes an HTML mail in its plain part: every row inside a <div>."""
    return "".join(f"> <div>{row}</div>\n" for row in block.splitlines())


def _top_posted(new: str, old: str, sender: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{sender} <{sender}@example.org>"
    msg["Subject"] = "Re: agility: my turn"
    msg.set_content(new + "\n\nOn Monday you wrote:\n" + _html_quoted(old))
    return msg.as_bytes()


def _bottom_posted(new: str, old: str, sender: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{sender} <{sender}@example.org>"
    msg["Subject"] = "Re: agility: my turn"
    msg.set_content("On Monday you wrote:\n" + _html_quoted(old) + "\n" + new)
    return msg.as_bytes()


def _forwarded(raw: bytes, sender: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = f"{sender} <{sender}@example.org>"
    msg["Subject"] = "Fwd: agility: my turn"
    msg.set_content("Forwarding the old one, in case.")
    msg.add_attachment(email.message_from_bytes(raw))  # message/rfc822
    return msg.as_bytes()


def _maildir(path: Path, messages: list[bytes]) -> Path:
    folder = mailbox.Maildir(str(path))
    for raw in messages:
        folder.add(mailbox.MaildirMessage(raw))
    return path


def _turns(tmp_path: Path) -> tuple[Machine, Machine, str, str, list[str]]:
    """mover and reader, their names, and the mover's blocks of three turns (the reader applied
    the first, by hand, before; it answers each turn by a plain `send` the mover applies)."""
    alice, bob = start(tmp_path)
    mover, reader = (alice, bob) if to_act(alice) == "alice" else (bob, alice)
    mname, rname = mover.name, reader.name
    blocks: list[str] = []
    for turn in range(3):
        play_turn(mover, mname, turn)
        blocks.append(_sent(mover))
        if turn < 2:
            assert reader.run("apply", reader.file, "-", input=blocks[-1]).exit_code == 0
            play_turn(reader, rname, turn + 10)
            assert mover.run("apply", mover.file, "-", input=_sent(reader)).exit_code == 0
    return mover, reader, mname, rname, blocks


def test_damaged_quoted_and_forwarded_old_blocks_never_stall_the_game(tmp_path: Path) -> None:
    mover, reader, mname, rname, blocks = _turns(tmp_path)
    old_reply = blocks[0]  # an old block of the mover's, which the reader holds
    inbox = _maildir(tmp_path / "Maildir", [
        message("quoted-printable", blocks[0], mname),                 # applied long ago
        message("quoted-printable", _changed(blocks[1]), mname),       # damaged, its lines held
        _forwarded(message("html-only", blocks[0], mname), mname),     # forwarded old block
        _bottom_posted("thanks", old_reply, mname),                    # HTML-quoted old block
        _top_posted(blocks[2], blocks[1], mname),                      # the new turn, quoting the last one
    ])
    got = reader.run("apply", reader.file, inbox)
    assert got.exit_code == 0, got.output
    assert reader.file.read_bytes() == mover.file.read_bytes()
    assert "damaged" not in got.stderr and "changed on the way" not in got.stderr, got.stderr
    # the next read of the same mailbox: nothing new, and no error either
    again = reader.run("apply", reader.file, inbox)
    assert again.exit_code == 0 and "no new mail of this game" in again.stderr, again.output


def test_a_damaged_new_block_is_said_once_and_a_resend_frees_the_game(tmp_path: Path) -> None:
    mover, reader, mname, rname, blocks = _turns(tmp_path)
    folder = tmp_path / "Maildir"
    _maildir(folder, [message("quoted-printable", _changed(blocks[2]), mname)])
    before = reader.file.read_bytes()
    got = reader.run("apply", reader.file, folder)
    assert got.exit_code == 2, got.output  # nothing to add: the damage is the error, naming the message
    assert got.stderr.count("changed on the way") == 1, got.stderr
    assert "the message " in got.stderr and "ask for it to be sent again" in got.stderr, got.stderr
    assert reader.file.read_bytes() == before
    # play reads on: the damaged mail is said once, the game is not stopped (the reader waits)
    waiting = reader.run("play", reader.file, "--mail", folder, input="quit\n")
    assert waiting.exit_code == 0, waiting.output
    assert waiting.stderr.count("changed on the way") == 1, waiting.stderr
    # the sender mails again (a top-posted reply quoting the damaged one): the game goes on
    _maildir(folder, [_top_posted(blocks[2], _changed(blocks[2]), mname)])
    freed = reader.run("apply", reader.file, folder)
    assert freed.exit_code == 0, freed.output
    assert reader.file.read_bytes() == mover.file.read_bytes()
    assert "changed on the way" not in freed.stderr, freed.stderr  # its lines are held now: passed over
    later = reader.run("apply", reader.file, folder)
    assert later.exit_code == 0 and "changed on the way" not in later.stderr, later.output


def test_a_damaged_block_beside_a_whole_copy_in_the_same_mail_is_passed_over(tmp_path: Path) -> None:
    mover, reader, mname, rname, blocks = _turns(tmp_path)
    raw = message("quoted-printable", blocks[2] + "\n\n" + _changed(blocks[2]), mname)
    got = reader.run("apply", reader.file, "-", input=raw)
    assert got.exit_code == 0, got.output
    assert reader.file.read_bytes() == mover.file.read_bytes()


def test_a_damaged_copy_of_the_invitation_says_what_the_game_waits_for(tmp_path: Path) -> None:
    """R40: bob holds the invitation and has not joined; a damaged copy of it (its lines held) adds
    nothing, and apply says what the game waits for (exit 1, the file unchanged), never a bug."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed").exit_code == 0
    block = _sent(alice)
    assert bob.run("apply", bob.file, "-", input=block).exit_code == 0
    before = bob.file.read_bytes()
    got = bob.run("apply", bob.file, "-", input=_changed(block))
    assert got.exit_code == 1, got.output
    assert "bob has not joined it yet" in got.stderr and "agility join" in got.stderr, got.stderr
    assert bob.file.read_bytes() == before
