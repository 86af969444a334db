"""The first mail of a game is a turn like any other (issue 52, R40): ``new --to`` mails the
invitation, the invitee's ``play FILE --mail MAILBOX`` (or with ``AGILITY_MAILBOX``) finds it,
creates the file, joins and mails the join back, the creator's next ``play`` picks the join up,
reveals and goes on.  Two machines (two homes, a Maildir each, no ``--as``/``AGILITY_PLAYER``),
the mail delivered by ``AGILITY_MAIL_COMMAND`` into the other's Maildir; the commands counted."""

from __future__ import annotations

import mailbox
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from agility_cli.cli import app
from agility_cli.record import gamefile
from test_handshake_tty import short_path  # noqa: F401 (a fixture)
from test_mail_servers import cert, imap  # noqa: F401 (fixtures: dovecot on the loopback)

runner = CliRunner()

DELIVER = """\
import mailbox, os, sys
from email.message import EmailMessage
msg = EmailMessage()
msg["To"] = os.environ["AGILITY_MAIL_TO"]
msg["From"] = os.environ["AGILITY_MAIL_FROM"]
msg["Subject"] = os.environ["AGILITY_MAIL_SUBJECT"]
msg.set_content(sys.stdin.read())
name = msg["To"].split("@")[0]
mailbox.Maildir(os.path.join(sys.argv[1], name + "-Maildir")).add(mailbox.MaildirMessage(msg))
"""

TURN = "1\n" * 40  # the first choice at every decision, until the other player must act


class Player:
    """One player's machine: a folder, a home (key store, history), a Maildir, an address."""

    def __init__(self, root: Path, name: str, deliver: Path):
        self.name = name
        self.dir = root / name
        self.dir.mkdir()
        self.home = root / f"{name}-home"
        self.maildir = root / f"{name}-Maildir"
        mailbox.Maildir(str(self.maildir))  # created
        self.address = f"{name}@example.org"
        self.file = self.dir / "game.jsonl"
        self.env: dict[str, str | None] = {
            "AGILITY_HOME": str(self.home), "AGILITY_PLAYER": None, "AGILITY_MAILBOX": None,
            "AGILITY_SMTP_HOST": None, "AGILITY_MAIL_FROM": self.address,
            "AGILITY_MAIL_COMMAND": f"{sys.executable} {deliver} {root}"}
        self.commands = 0

    def run(self, *args: Any, input: str = "", env: dict[str, str | None] | None = None, code: int = 0) -> Any:
        self.commands += 1
        result = runner.invoke(app, [str(a) for a in args], input=input, env={**self.env, **(env or {})})
        said = result.output + (result.stderr or "")
        assert result.exit_code == code, (args, result.exit_code, said)
        assert "Traceback" not in said
        return result

    def mails(self) -> int:
        return len(mailbox.Maildir(str(self.maildir), create=False))


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Player, Player]:
    deliver = tmp_path / "deliver.py"
    deliver.write_text(DELIVER)
    return Player(tmp_path, "alice", deliver), Player(tmp_path, "bob", deliver)


def _to_act(p: Player) -> str | None:
    state = gamefile.load(p.file).state
    return None if state.to_act is None else state.players[state.to_act].name


@pytest.mark.parametrize("deck", ["seed", "sealed"])
def test_from_nothing_to_the_first_turn_alice_three_commands_bob_two(pair: tuple[Player, Player], deck: str) -> None:
    alice, bob = pair
    made = alice.run("new", alice.file, "--players", "alice", "bob", "--deck", deck,
                     "--to", bob.address, "--mail", alice.maildir)
    assert '"kind":"header"' not in made.stdout and len(made.stdout) < 2000  # not the ~20 KB header
    assert "handed the invitation to bob" in made.stderr
    assert bob.mails() == 1

    joined = bob.run("play", bob.file, "--mail", bob.maildir)  # bob's 1: the file, the join, mailed
    assert " as bob" in joined.stdout and "handed your join" in joined.stderr
    assert alice.mails() == 1

    # then one command each time a mail arrives, in turn, until alice's first decision is mailed
    decided = False
    while not decided and alice.commands + bob.commands < 8:
        alice.run("play", alice.file, input=TURN)
        decided = _started(alice) and _to_act(alice) == "bob"
        if not decided:
            bob.run("play", bob.file, input=TURN)
    assert decided
    assert alice.commands <= 3 and bob.commands <= 2, (alice.commands, bob.commands)
    took = bob.run("play", bob.file, input="quit\n")  # the first turn exchanged: bob sees it
    assert "applied" in took.stdout
    assert gamefile.read_bytes(bob.file).startswith(gamefile.read_bytes(alice.file))


def _started(p: Player) -> bool:
    return gamefile.pending_of(gamefile.read_bytes(p.file), str(p.file)) is None


def test_the_invitee_with_agility_mailbox_set(pair: tuple[Player, Player], tmp_path: Path) -> None:
    alice, bob = pair
    alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "--to", bob.address)
    # a bare `play FILE` with AGILITY_MAILBOX: the invitation is found and joined, the join mailed
    bob.run("play", bob.file, env={"AGILITY_MAILBOX": str(bob.maildir)})
    assert bob.file.read_bytes().count(b"\n") == 2 and alice.mails() == 1
    # joined here now: the same invitation is not offered again
    again = bob.run("play", tmp_path / "third.jsonl", "--mail", bob.maildir, code=2)
    assert "no invitation" in again.stderr and not (tmp_path / "third.jsonl").exists()
    # alice's play with her mailbox picks the join up and the game starts
    started = alice.run("play", alice.file, "--mail", alice.maildir, input="quit\n")
    assert "waits" not in started.stderr and "the game has started" in started.stdout


def test_apply_of_a_maildir_creates_the_copy_and_play_joins_it(pair: tuple[Player, Player]) -> None:
    alice, bob = pair
    alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "--to", bob.address)
    made = bob.run("apply", bob.file, bob.maildir)  # a new game from the invitation found there
    assert "invitation" in made.stdout and bob.file.read_bytes() == alice.file.read_bytes()
    assert "agility play" in made.stderr
    joined = bob.run("play", bob.file)  # the mailbox and alice's address were remembered
    assert "joined" in joined.stdout and "handed your join" in joined.stderr
    assert bob.file.read_bytes().count(b"\n") == 2 and alice.mails() == 1


def test_before_the_other_mail_comes_play_says_what_it_waits_for(pair: tuple[Player, Player]) -> None:
    alice, bob = pair
    alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "--to", bob.address,
              "--mail", alice.maildir)
    waited = alice.run("play", alice.file)  # the join is not there yet: exit 0, said, nothing written
    assert "waits for bob's join" in waited.stderr
    bob.run("play", bob.file, "--mail", bob.maildir)
    early = bob.run("play", bob.file)  # the reveal is not there yet
    assert "waits for alice's reveal" in early.stderr and "agility play" in early.stderr
    assert bob.file.read_bytes().count(b"\n") == 2


def test_no_invitation_and_a_failed_send_are_said_in_80_columns(pair: tuple[Player, Player]) -> None:
    alice, bob = pair
    nothing = bob.run("play", bob.file, "--mail", bob.maildir, code=2)
    assert "no invitation" in nothing.stderr and not bob.file.exists()
    failed = alice.run("new", alice.file, "--players", "alice", "bob", "--to", bob.address,
                       env={"AGILITY_MAIL_COMMAND": "false"}, code=2)
    assert "agility send" in failed.stderr and alice.file.exists()
    bad = alice.run("new", alice.dir / "x.jsonl", "--players", "alice", "bob", "--to", "bob at home", code=2)
    assert "not a mail address" in bad.stderr and not (alice.dir / "x.jsonl").exists()


def test_every_message_of_the_first_mail_fits_80_columns_on_a_terminal(short_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command on a pseudo-terminal of 80 columns (issue 52: the refusal after ``join`` was
    one line of ~330 columns, the header line ~20 KB): nothing wider but a command to copy."""
    from test_fits_80 import on_a_terminal, too_wide

    deliver = short_path / "d.py"
    deliver.write_text(DELIVER)
    monkeypatch.setenv("AGILITY_MAIL_COMMAND", f"{sys.executable} {deliver} {short_path}")
    for var in ("AGILITY_MAILBOX", "AGILITY_SMTP_HOST"):
        monkeypatch.delenv(var, raising=False)
    printed: list[str] = []

    def run(who: str, *args: str, typed: str = "", codes: tuple[object, ...] = (0, None)) -> str:
        monkeypatch.setenv("AGILITY_MAIL_FROM", f"{who}@example.org")
        folder = short_path / who
        folder.mkdir(exist_ok=True)
        out = on_a_terminal(list(args), short_path / f"{who}-h", folder, typed, codes)
        printed.append(out)
        return out

    for who in ("alice", "bob"):
        mailbox.Maildir(str(short_path / f"{who}-Maildir"))
    run("bob", "play", "g.jsonl", "--mail", str(short_path / "bob-Maildir"), codes=(2,))  # no invitation
    run("alice", "new", "x.jsonl", "--players", "alice", "bob", "--to", "bob@example.org", "--deck", "seed",
        "--mail", "nowhere", codes=(2,))
    made = run("alice", "new", "g.jsonl", "--players", "alice", "bob", "--to", "bob@example.org", "--deck", "seed",
               "--mail", str(short_path / "alice-Maildir"))
    assert "BEGIN AGILITY" not in made and '"kind"' not in made
    monkeypatch.setenv("AGILITY_MAILBOX", str(short_path / "bob-Maildir"))
    assert "invites bob" in run("bob", "games")  # the invitation, and the command that joins it
    run("alice", "play", "g.jsonl")  # the join is not there yet
    assert "joining it as" in run("bob", "play")  # no FILE: the one invitation, joined
    monkeypatch.delenv("AGILITY_MAILBOX")
    mine = next((short_path / "bob").glob("alice-*.jsonl")).name
    run("bob", "play", mine)  # the reveal is not there yet
    run("alice", "play", "g.jsonl", typed=TURN)
    run("bob", "play", mine, typed="quit\n")
    run("alice", "games")
    run("bob", "games")
    wide = [line for out in printed for line in too_wide(out)]
    assert not wide, wide


def test_games_shows_the_invitation_and_play_without_file_joins_it(
        pair: tuple[Player, Player], monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    alice, bob = pair
    monkeypatch.chdir(bob.dir)
    alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "--to", bob.address)
    env = {"AGILITY_MAILBOX": str(bob.maildir)}
    listed = json.loads(bob.run("games", bob.dir, "--json", env=env).stdout)
    assert listed["games"] == [] and len(listed["invitations"]) == 1
    invitation = listed["invitations"][0]
    assert invitation["creator"] == "alice" and invitation["you"] == "bob" and invitation["from"] == alice.address
    assert len(invitation["game"]) == 8 and invitation["game_id"].startswith(invitation["game"])
    listed_text = bob.run("games", bob.dir, env=env).stdout
    assert f"agility play GAME.jsonl --mail {bob.maildir}" in listed_text
    said = bob.run("play", env=env)  # no FILE, no game: the one invitation joined, named after it
    name = f"alice-{invitation['game']}.jsonl"
    assert f"joining it as {name}" in said.stderr and "handed your join" in said.stderr
    assert (bob.dir / name).read_bytes().count(b"\n") == 2 and alice.mails() == 1
    listed = json.loads(bob.run("games", bob.dir, "--json", env=env).stdout)
    assert listed["invitations"] == [] and listed["games"][0]["status"] == "their_reveal"
    # alice's listing, with bob's join in her mailbox: awaiting her
    mine = json.loads(alice.run("games", alice.dir, "--json", env={"AGILITY_MAILBOX": str(alice.maildir)}).stdout)
    assert mine["games"][0]["status"] == "mail" and mine["games"][0]["awaiting_you"]


def test_play_wait_waits_for_the_join_then_reveals_and_plays(pair: tuple[Player, Player],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``play FILE --wait`` right after ``new --to``: it reads the mailbox every --every seconds
    until bob's join comes, then reveals and plays (issue 52: no dead end before the first mail)."""
    import time as clock

    alice, bob = pair
    alice.run("new", alice.file, "--players", "alice", "bob", "--deck", "seed", "--to", bob.address,
              "--mail", alice.maildir)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        if seconds < 1:
            return  # a lock's short retry, not a check of --wait
        slept.append(seconds)
        if len(slept) == 2:  # bob joins while alice waits (his own process: a runner is not re-entrant)
            env = {k: v for k, v in {**os.environ, **bob.env}.items() if v is not None}
            done = subprocess.run([sys.executable, "-m", "agility_cli", "play", str(bob.file), "--mail",
                                   str(bob.maildir)], env=env, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
        assert len(slept) < 10

    monkeypatch.setattr(clock, "sleep", sleep)
    got = alice.run("play", alice.file, "--wait", "--every", "5", input=TURN)
    assert slept[:2] == [5.0, 5.0]
    assert got.exit_code == 0 and _to_act(alice) == "bob"
    assert bob.mails() == 2  # the invitation, then the reveal with her first turn


APPEND = """\
import imaplib, os, ssl, sys
from email.message import EmailMessage
msg = EmailMessage()
msg["To"] = os.environ["AGILITY_MAIL_TO"]
msg["From"] = os.environ["AGILITY_MAIL_FROM"]
msg["Subject"] = os.environ["AGILITY_MAIL_SUBJECT"]
msg.set_content(sys.stdin.read())
conn = imaplib.IMAP4_SSL("127.0.0.1", int(sys.argv[1]), ssl_context=ssl.create_default_context(cafile=sys.argv[2]))
conn.login("alice", sys.argv[3])
conn.append("INBOX", None, None, msg.as_bytes().replace(b"\\r\\n", b"\\n").replace(b"\\n", b"\\r\\n"))
conn.logout()
"""


def test_the_invitation_found_over_imap_and_the_first_turns_one_command_each(
        pair: tuple[Player, Player], tmp_path: Path, imap: Any, cert: tuple[Path, Path]) -> None:
    """bob reads an IMAP inbox (dovecot on the loopback), alice a Maildir; a sealed game from
    ``new --to`` to alice's first turn read by bob: alice 3 commands, bob 3 (the last reads it)."""
    from test_mail_servers import IMAP_PASSWORD

    alice, bob = pair
    append = tmp_path / "append.py"
    append.write_text(APPEND)
    alice.env["AGILITY_MAIL_COMMAND"] = f"{sys.executable} {append} {imap.port} {cert[0]} {IMAP_PASSWORD}"
    inbox = f"imaps://alice@127.0.0.1:{imap.port}/INBOX"
    bob.env.update({"AGILITY_IMAP_PASSWORD": IMAP_PASSWORD, "AGILITY_MAIL_CA_FILE": str(cert[0])})
    alice.run("new", alice.file, "--players", "alice", "bob", "--to", bob.address, "--mail", alice.maildir)
    bob.run("play", bob.file, "--mail", inbox)  # the invitation over IMAP: created, joined, mailed
    assert alice.mails() == 1
    alice.run("play", alice.file, input=TURN)  # the reveal (a sealed deck: bob's keys come next)
    bob.run("play", bob.file, input=TURN)  # the reveal read over IMAP; his keys mailed
    alice.run("play", alice.file, input=TURN)  # her first decision, mailed
    assert _to_act(alice) == "bob"
    got = bob.run("play", bob.file, input="quit\n")
    assert "applied" in got.stdout and (alice.commands, bob.commands) == (3, 3)
    assert gamefile.read_bytes(bob.file) == gamefile.read_bytes(alice.file)


def test_a_forged_or_seeded_header_in_the_mailbox_is_no_invitation(pair: tuple[Player, Player],
                                                                  tmp_path: Path) -> None:
    """Hostile mail: a fair game's header changed on the way (its signature no longer holds), and
    a header whose seed its creator chose (no join to make), are never taken as an invitation."""
    from email.message import EmailMessage

    alice, bob = pair
    made = tmp_path / "made.jsonl"
    alice.run("new", made, "--players", "alice", "bob", "--deck", "seed", "--to", "nobody@example.org")
    forged = made.read_text().splitlines()[0].replace('"bob"', '"bobby"')
    seeded = tmp_path / "seeded.jsonl"
    alice.run("new", seeded, "--players", "alice", "bob", "--seed", "7")
    for body in (forged, seeded.read_text().splitlines()[0]):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "mallory@example.org", bob.address, "agility"
        msg.set_content(body + "\n")
        mailbox.Maildir(str(bob.maildir)).add(mailbox.MaildirMessage(msg))
    got = bob.run("play", bob.file, "--mail", bob.maildir, code=2)
    assert "no invitation" in got.stderr and not bob.file.exists()


def test_two_invitations_are_listed_and_nothing_is_written_without_a_terminal(pair: tuple[Player, Player],
                                                                           tmp_path: Path) -> None:
    alice, bob = pair
    for name in ("one.jsonl", "two.jsonl"):
        alice.run("new", alice.dir / name, "--players", "alice", "bob", "--deck", "seed", "--to", bob.address)
    got = bob.run("play", bob.file, "--mail", bob.maildir, code=2)
    said = got.stderr
    assert "2 invitations" in said and said.count("alice invites bob") == 2, said
    assert "at a terminal" in said and not bob.file.exists()
    assert "agility: " in said and all(len(row) <= 80 for row in said.splitlines() if "invites" in row)


def test_play_wait_with_no_file_joins_the_invitation_then_waits_and_plays(
        pair: tuple[Player, Player], monkeypatch: pytest.MonkeyPatch) -> None:
    """bob's one command for the whole start, ``agility play --wait`` with no FILE: it joins the
    invitation into a file of its own, says it waits for alice's reveal (not how to go on: it goes
    on), takes the reveal in, sends his sealed deck's keys (R44), waits for alice's turn and plays
    his; it once stopped after the join."""
    import time as clock

    alice, bob = pair
    alice.run("new", alice.file, "--players", "alice", "bob", "--to", bob.address, "--mail", alice.maildir)
    monkeypatch.chdir(bob.dir)
    env = {k: v for k, v in {**os.environ, **alice.env}.items() if v is not None}
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        if seconds < 1:
            return  # a lock's short retry, not a check of --wait
        slept.append(seconds)
        if len(slept) in (1, 3):  # alice's play (her own process): the reveal; then her first turn
            done = subprocess.run([sys.executable, "-m", "agility_cli", "play", str(alice.file)], env=env,
                                  input=TURN, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
        assert len(slept) < 10

    monkeypatch.setattr(clock, "sleep", sleep)
    got = bob.run("play", "--wait", "--every", "5", input=TURN, env={"AGILITY_MAILBOX": str(bob.maildir)})
    said = " ".join((got.output + (got.stderr or "")).split())
    joined = next(bob.dir.glob("alice-*.jsonl"))
    assert "joined " in said and "reading it again every 5 s" in said, said
    ours = gamefile.load(joined)
    assert ours.state.turn >= 2 and ours.state.players[ours.state.to_act or 0].name == "alice", said  # bob's turn played
    assert ours.lines > gamefile.load(alice.file).lines  # and mailed, not yet read on alice's machine
    assert (bob.mails(), alice.mails()) == (3, 3)  # invitation, reveal, alice's turn; join, bob's keys, his turn
