"""A whole sealed game by mail, from ``new --to`` to the audit, one command each time a mail arrives
(issue 52).  Two machines (two homes, no ``--as``/``AGILITY_PLAYER``): alice reads a Maildir, bob
an IMAP inbox (dovecot on the loopback, TLS with a self-signed certificate); every mail
the tool hands to ``AGILITY_MAIL_COMMAND`` is composed as a real client composes it, in turn:
base64, quoted-printable, 8bit, format=flowed (DelSp=yes, breaks inside words), HTML-only, a
top-posted and a bottom-posted reply quoting the previous mail's HTML (``<div>`` tags in the quoted
old block), a forward inline and a forward as an attached message.  The test
counts the commands per mail received (1), the mails saved by hand (0), and ends with both files
byte-identical and audited."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from agility_cli.record import gamefile
from test_mail_first import Player, TURN
from test_mail_servers import IMAP_PASSWORD, Imap, cert, imap  # noqa: F401 (fixtures: dovecot on the loopback)

COMPOSE = r'''
import html, mailbox, os, sys
from email.message import EmailMessage

root = sys.argv[1]
text = sys.stdin.read()
to = os.environ["AGILITY_MAIL_TO"]
name = to.split("@")[0]
count_file = os.path.join(root, "sent-count")
n = int(open(count_file).read()) if os.path.exists(count_file) else 0
open(count_file, "w").write(str(n + 1))
last_file = os.path.join(root, "last-" + name)  # the last mail this player got: what a reply quotes
older = open(last_file).read() if os.path.exists(last_file) else ""
KINDS = ["base64", "quoted-printable", "8bit", "flowed", "html", "top-posted-html-quote",
         "bottom-posted", "forward-inline", "forward-attached"]
kind = KINDS[n % len(KINDS)]


def flowed(body):
    out = []
    for line in body.split("\n"):
        if line.startswith((" ", ">", "From ")):
            line = " " + line
        while len(line) > 60:
            out.append(line[:59] + " ")
            line = line[59:]
        out.append(line)
    return "\n".join(out)


msg = EmailMessage()
if kind in ("base64", "quoted-printable", "8bit"):
    msg.set_content(text, cte=kind if kind != "8bit" else "8bit")
elif kind == "flowed":
    msg.set_content(flowed(text), cte="8bit")
    msg.set_param("format", "flowed")
    msg.set_param("delsp", "yes")
elif kind == "html":
    msg.set_content("<html><body><div>" + html.escape(text).replace("\n", "<br>\n") + "</div></body></html>",
                    subtype="html")
elif kind == "top-posted-html-quote":
    quoted = "".join("> <div>" + html.escape(line) + "<br></div>\n" for line in older.splitlines())
    msg.set_content(text + "\n\nOn Monday you wrote:\n" + quoted)
elif kind == "bottom-posted":  # below the quote of the previous mail as its HTML showed it
    quoted = "".join("> <div>" + html.escape(line) + "<br></div>\n" for line in older.splitlines())
    msg.set_content("On Monday you wrote:\n" + quoted + "\n" + text)
elif kind == "forward-inline":
    msg.set_content("---------- Forwarded message ---------\nFrom: me\n\n" + text)
else:
    inner = EmailMessage()
    inner["Subject"] = os.environ["AGILITY_MAIL_SUBJECT"]
    inner.set_content(text, cte="quoted-printable")
    msg.set_content("Forwarding my turn.")
    msg.add_attachment(inner)
msg["To"] = to
msg["From"] = os.environ["AGILITY_MAIL_FROM"]
msg["Subject"] = os.environ["AGILITY_MAIL_SUBJECT"]
if name == "bob":  # bob's mail goes to his IMAP inbox (the server's one user is called alice)
    import imaplib, ssl
    port, ca, password = sys.argv[2:5]
    conn = imaplib.IMAP4_SSL("127.0.0.1", int(port), ssl_context=ssl.create_default_context(cafile=ca))
    conn.login("alice", password)
    conn.append("INBOX", None, None, msg.as_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    conn.logout()
else:
    mailbox.Maildir(os.path.join(root, name + "-Maildir")).add(mailbox.MaildirMessage(msg))
open(last_file, "w").write(text)
open(os.path.join(root, "kinds"), "a").write(kind + "\n")
'''


class ImapPlayer(Player):
    """bob: his mail in the IMAP inbox."""

    server: Imap

    def mails(self) -> int:
        conn = self.server.connect()
        try:
            conn.select("INBOX", readonly=True)
            _, found = conn.search(None, "ALL")
            return len(found[0].split())
        finally:
            conn.logout()


@pytest.mark.slow
@pytest.mark.soak  # a minute of CPU, by hand: CI plays a whole sealed game by mail in test_i18n_mail_pair
def test_a_whole_sealed_game_by_mail_one_command_a_mail_every_client_encoding(
        tmp_path: Path, imap: Imap, cert: tuple[Path, Path]) -> None:
    compose = tmp_path / "compose.py"
    compose.write_text(COMPOSE)
    alice, bob = Player(tmp_path, "alice", compose), ImapPlayer(tmp_path, "bob", compose)
    bob.server = imap
    assert bob.mails() == 0, "the inbox is this test's alone"
    for p in (alice, bob):
        p.env["AGILITY_MAIL_COMMAND"] = f"{sys.executable} {compose} {tmp_path} {imap.port} {cert[0]} {IMAP_PASSWORD}"
        p.env["AGILITY_MAILBOX"] = str(p.maildir)  # every game by mail reads it: no --mail to type
    bob.env.update({"AGILITY_MAILBOX": f"imaps://alice@127.0.0.1:{imap.port}/INBOX",
                    "AGILITY_IMAP_PASSWORD": IMAP_PASSWORD, "AGILITY_MAIL_CA_FILE": str(cert[0])})
    alice.run("new", alice.file, "--players", "alice", "bob", "--to", bob.address, "--mail", alice.maildir)
    assert alice.file.exists() and not bob.file.exists()

    seen = {"alice": 0, "bob": 0}  # mails each player's commands have been given
    for _ in range(400):
        moved = False
        for p in (bob, alice):
            if p.mails() > seen[p.name]:
                seen[p.name] = p.mails()
                p.run("play", p.file, input=TURN)  # the one command for the mail that came
                moved = True
        if not moved:
            break
    assert bob.file.exists()
    a, b = gamefile.read_bytes(alice.file), gamefile.read_bytes(bob.file)
    assert a == b, (a.count(b"\n"), b.count(b"\n"))
    game = gamefile.load(alice.file)
    assert game.state.winner is not None
    # one command a mail received (alice's `new` besides), no mail saved by hand: the Maildirs are
    # only ever written by the other player's mail command
    assert bob.commands == bob.mails(), (bob.commands, bob.mails())
    assert alice.commands == alice.mails() + 1, (alice.commands, alice.mails())
    kinds = set((tmp_path / "kinds").read_text().split())
    assert len(kinds) == 9, kinds  # every way of composing a mail was used
    for p in (alice, bob):
        shown = p.run("show", p.file, "--json")
        seen_json = json.loads(shown.stdout)
        assert seen_json["status"] == "finished", seen_json["status"]
        assert seen_json["sealed"]["audit_pending"] == [] and not seen_json["sealed"]["keys_unsent"]
    lines = a.count(b"\n")
    print(f"\nmails: alice got {alice.mails()}, bob {bob.mails()}; commands: alice {alice.commands}, "
          f"bob {bob.commands}; {lines} lines")
