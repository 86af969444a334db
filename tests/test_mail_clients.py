"""Mail as people really use it: messages built with the standard library's ``email`` exactly as
mail clients send them, applied raw (``agility apply FILE - < message``), in both directions,
with a player name that is not ASCII and holds a space.  The game goes on and both copies stay
byte-identical.  And what ``send`` prints survives any mail client: lines of at most 76
characters, and a block cut short or changed is refused, saying so.
"""

from __future__ import annotations

import html
import io
import json
import mailbox
import re
import textwrap
from email.message import EmailMessage
from pathlib import Path

import pytest

from agility_cli.record.mail import armour
from agility_cli.table import mailing
from agility_cli.table.replay import story as replaying
from machines import Machine, mail, start

ALICE = "Zoë Brontë"


def flowed(text: str, delsp: bool) -> str:
    """RFC 3676 as Thunderbird writes it: lines over 72 broken, a trailing space marks the soft
    break; with DelSp=yes a break may fall inside a word (the added space is deleted on reading)."""
    out = []
    for line in text.split("\n"):
        if line.startswith((" ", ">", "From ")):
            line = " " + line  # space-stuffing
        while len(line) > 72:
            if delsp:
                cut = 71
                out.append(line[:cut] + " ")
                line = line[cut:]
                continue
            cut = line.rfind(" ", 0, 72)
            if cut <= 0:
                break  # no space to break at: the line stays long (as clients do)
            out.append(line[: cut + 1])  # the space stays at the end: a soft break
            line = line[cut + 1 :]
        out.append(line)
    return "\n".join(out)


def message(kind: str, text: str, sender: str, older: str = "") -> bytes:
    """A message as a mail client sends it."""
    msg = EmailMessage()
    msg["From"] = f"{sender} <player@example.org>"
    msg["To"] = "opponent@example.org"
    msg["Subject"] = "agility: my turn"
    if kind == "base64":
        msg.set_content(text, cte="base64")
    elif kind == "quoted-printable":
        msg.set_content(text, cte="quoted-printable")
    elif kind == "latin-1":
        msg.set_content(text, charset="iso-8859-1", cte="8bit")
    elif kind in ("flowed-delsp-no", "flowed-delsp-yes"):
        delsp = kind.endswith("yes")
        msg.set_content(flowed(text, delsp))
        msg.set_param("format", "flowed")
        msg.set_param("delsp", "yes" if delsp else "no")
    elif kind == "html-only":
        body = "<html><body><div>" + html.escape(text).replace("\n", "<br>\n") + "</div></body></html>"
        msg.set_content(body, subtype="html")
    elif kind == "alternative-html-first":
        msg.set_content("<html><body><pre>" + html.escape(text) + "</pre></body></html>", subtype="html")
        msg.add_alternative(text)
    elif kind == "attachment":
        msg.set_content("My turn: the lines are attached.")
        msg.add_attachment(text.encode(), maintype="application", subtype="x-ndjson", filename="moves.jsonl")
    elif kind == "reply":
        quoted = "".join(f"> {line}\n" for line in older.splitlines())
        msg.set_content(text + "\n\nOn Monday you wrote:\n" + quoted)
    else:
        raise AssertionError(kind)
    return msg.as_bytes()


# Which output of `send` each client gets: the block, or the plain lines (`--raw`, what an older
# agility mails), whose long lines a client wraps or re-encodes.
VARIANTS = [
    ("base64", []), ("quoted-printable", ["--raw"]), ("latin-1", ["--raw"]),
    ("flowed-delsp-no", ["--raw"]), ("flowed-delsp-yes", ["--raw"]), ("html-only", ["--raw"]),
    ("alternative-html-first", []), ("attachment", ["--raw"]), ("reply", []), ("quoted-printable", []),
    ("html-only", []), ("flowed-delsp-no", []),
]


def to_act(m: Machine) -> str | None:
    return json.loads(m.run("show", m.file, "--json").stdout)["to_act"]


def play_turn(m: Machine, name: str, seed: int) -> None:
    """``m``'s player makes their decisions until the other player must act."""
    while to_act(m) == name:
        r = m.run("bot", m.file, "--moves", "1", "--seed", str(seed), "-q")
        assert r.exit_code == 0, r.output


def test_a_game_goes_on_through_every_kind_of_message_both_ways(tmp_path: Path):
    alice, bob = start(tmp_path, (ALICE, "bob"))
    machines = {ALICE: alice, "bob": bob}
    older = ""
    for turn, (kind, flags) in enumerate(VARIANTS * 2):
        who = to_act(alice)
        if who is None:
            break
        src, dst = machines[who], machines["bob" if who == ALICE else ALICE]
        play_turn(src, who, turn)
        sent = src.run("send", src.file, *flags)
        assert sent.exit_code == 0, sent.output
        raw = message(kind, sent.stdout, who, older)
        got = dst.run("apply", dst.file, "-", input=raw)
        assert got.exit_code == 0, (kind, flags, got.output)
        assert "edited" not in got.stderr and "forged" not in got.stderr
        assert src.file.read_bytes() == dst.file.read_bytes(), kind
        older = sent.stdout
    assert len(alice.file.read_bytes().splitlines()) > 40


def test_a_mailbox_of_three_messages_applies_what_chains_in_order(tmp_path: Path):
    alice, bob = start(tmp_path, (ALICE, "bob"))
    box_path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(str(box_path))
    sent = 0
    while to_act(alice) == ALICE and sent < 3:
        assert alice.run("bot", alice.file, "--moves", "1", "-q").exit_code == 0
        out = alice.run("send", alice.file).stdout
        box.add(mailbox.mboxMessage(message("quoted-printable", out, ALICE)))
        sent += 1
    box.flush()
    box.close()
    assert sent >= 2
    got = bob.run("apply", bob.file, "-", input=box_path.read_bytes())
    assert got.exit_code == 0, got.output
    assert alice.file.read_bytes() == bob.file.read_bytes()


def test_a_damaged_quoted_copy_of_an_old_line_does_not_stop_the_new_lines(tmp_path: Path):
    alice, bob = start(tmp_path, (ALICE, "bob"))
    play_turn(alice, ALICE, 1)
    mail(alice, bob)
    play_turn(bob, "bob", 2)
    old = alice.file.read_text().splitlines()[3]  # alice's first decision, which bob's copy holds
    damaged = old.replace('"kind"', '"kïnd"', 1)  # what a careless charset does to a quoted line
    new = bob.run("send", bob.file, "--raw").stdout
    got = alice.run("apply", alice.file, "-", input=f"> {damaged}\n\n{new}")
    assert got.exit_code == 0, got.output
    assert alice.file.read_bytes() == bob.file.read_bytes()


def test_a_line_a_mail_program_changed_is_mended_when_it_then_verifies(tmp_path: Path):
    alice, bob = start(tmp_path, (ALICE, "bob"))
    play_turn(alice, ALICE, 1)
    raw = alice.run("send", alice.file, "--raw").stdout
    # Read as latin-1 although it was UTF-8 ("Zoë" becomes "ZoÃ«"), trailing spaces added.
    mangled = "\n".join(line.encode().decode("latin-1") + "  " for line in raw.splitlines()) + "\n"
    got = bob.run("apply", bob.file, "-", input=mangled)
    assert got.exit_code == 0, got.output
    assert "your mail program changed" in got.stderr and "mended" in got.stderr
    assert alice.file.read_bytes() == bob.file.read_bytes()


def test_a_line_damaged_beyond_mending_blames_the_mail_program_not_the_player(tmp_path: Path):
    alice, bob = start(tmp_path, (ALICE, "bob"))
    play_turn(alice, ALICE, 1)
    raw = alice.run("send", alice.file, "--raw").stdout
    lost = raw.replace("ë", "\ufffd")  # the charset could not carry it
    before = bob.file.read_bytes()
    got = bob.run("apply", bob.file, "-", input=lost)
    assert got.exit_code == 1
    assert "your mail program changed" in got.stderr
    assert "edited" not in got.stderr and "forged" not in got.stderr
    assert bob.file.read_bytes() == before


GAMES = sorted((Path(__file__).resolve().parents[1] / "games").glob("*.jsonl"))


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_what_send_prints_has_no_line_over_76_characters_and_the_block_is_ascii(path: Path):
    # Every golden game whole (the custom-components one has a 10 KB header line), with its story
    # as the summary: what `send` prints at its largest.
    rows = path.read_bytes().splitlines()
    story = [line for line in replaying.story(path.read_bytes(), str(path), None)]
    out = mailing.Outgoing("alice", "bob", rows, 1, "0123abcd", mailing.summary_lines(story))
    lines = out.text().splitlines()
    assert max(len(line) for line in lines) <= 76
    begin = next(i for i, line in enumerate(lines) if "BEGIN AGILITY LINES" in line)
    assert all(line.isascii() for line in lines[begin:])
    assert [b.lines for b in armour.find_blocks(out.text())] == [rows]


def test_send_of_a_fair_game_with_a_custom_component_set_fits_76_columns(tmp_path: Path):
    components = Path(__file__).resolve().parents[1] / "games" / "variant-components.json"
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--players", ALICE, "bob", "--components", components).exit_code == 0
    sent = alice.run("send", alice.file)
    assert sent.exit_code == 0 and max(len(line) for line in sent.stdout.splitlines()) <= 76
    assert len(alice.file.read_bytes()) > 4096  # a line a terminal paste would cut
    assert bob.run("apply", bob.file, "-", input=sent.stdout).exit_code == 0
    assert bob.file.read_bytes() == alice.file.read_bytes()


def test_a_block_cut_in_half_is_refused_and_a_rewrapped_one_is_read(tmp_path: Path):
    alice, bob = start(tmp_path, (ALICE, "bob"))
    play_turn(alice, ALICE, 1)
    text = alice.run("send", alice.file).stdout
    before = bob.file.read_bytes()
    half = text[: len(text) // 2]
    cut = bob.run("apply", bob.file, "-", input=half)
    assert cut.exit_code == 2 and "cut short" in cut.stderr
    assert bob.file.read_bytes() == before
    begin = text.index("-----BEGIN")
    body = text[begin:].splitlines()
    rows = "".join(body[1:-2])
    rewrapped = "\n".join([*textwrap.wrap(text[:begin], 40), body[0], *textwrap.wrap(rows, 50), body[-2], body[-1]])
    got = bob.run("apply", bob.file, "-", input="> " + rewrapped.replace("\n", "\n> "))
    assert got.exit_code == 0, got.output
    assert alice.file.read_bytes() == bob.file.read_bytes()
    changed = text.replace(body[2][:10], body[2][:9] + ("A" if body[2][9] != "A" else "B"), 1)
    bad = bob.run("apply", bob.file, "-", input=changed)
    assert bad.exit_code in (0, 2)  # already applied, or refused as changed: never taken as new lines


def test_send_works_at_every_stage_of_the_handshake(tmp_path: Path):
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--players", ALICE, "bob").exit_code == 0
    invite = alice.run("send", alice.file)
    assert invite.exit_code == 0 and "BEGIN AGILITY LINES" in invite.stdout
    assert bob.run("apply", bob.file, "-", input=invite.stdout).exit_code == 0
    assert bob.run("join", bob.file).exit_code == 0
    joined = bob.run("send", bob.file)
    assert joined.exit_code == 0 and "lines 1-2" in joined.stdout
    assert alice.run("apply", alice.file, "-", input=joined.stdout).exit_code == 0
    reveal = alice.run("send", alice.file)
    assert reveal.exit_code == 0 and "lines 3-3" in reveal.stdout
    applied = bob.run("apply", bob.file, "-", input=reveal.stdout)
    assert applied.exit_code == 0, applied.output
    # R42/R44: the reveal deals the sealed deck, and bob's tool writes its pass of the deal at once
    assert bob.file.read_bytes().startswith(alice.file.read_bytes())
    extra = bob.file.read_bytes()[len(alice.file.read_bytes()):].splitlines()
    assert extra and all(json.loads(line)["kind"] == "keys" and json.loads(line)["player"] == "bob" for line in extra)
    assert "your tool added line 4: bob: keys (sealed deck)" in applied.stdout
    answer = bob.run("send", bob.file)
    assert alice.run("apply", alice.file, "-", input=answer.stdout).exit_code == 0
    assert alice.file.read_bytes() == bob.file.read_bytes()
    assert io.StringIO(reveal.stdout).read().count("\n") > 5


def test_play_mail_applies_the_message_plays_the_turn_and_writes_the_reply(tmp_path: Path):
    alice, bob = start(tmp_path, (ALICE, "bob"))
    play_turn(alice, ALICE, 1)
    received = tmp_path / "received.eml"
    received.write_bytes(message("base64", alice.run("send", alice.file).stdout, ALICE))
    reply = tmp_path / "reply.txt"
    r = bob.run("play", bob.file, "--mail", received, "--reply", reply, input="1\n" * 40)
    assert r.exit_code == 0, r.output
    assert "mail this to" in r.stdout and reply.exists()
    assert max(len(line) for line in reply.read_text().splitlines()) <= 76
    # the mail's lines are told once, by the play screen (not first by the apply step as well)
    told = [line.strip() for line in r.stdout.splitlines() if re.match(rf" +\d+\. {ALICE} ", line)]
    assert told and len(told) == len(set(told)), told
    assert "the reply below" in r.stdout and "agility send" not in r.stdout  # play --mail's own last words
    got = alice.run("apply", alice.file, "-", input=reply.read_bytes())
    assert got.exit_code == 0, got.output
    assert alice.file.read_bytes() == bob.file.read_bytes()
