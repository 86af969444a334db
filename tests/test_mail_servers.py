"""Correspondence play with real mail parts (issue 34): an SMTP server on the loopback (``aiosmtpd``,
STARTTLS with a self-signed certificate), a real IMAP server (Debian's ``dovecot``, configured in a
temporary folder with a test user), and a real mail program (``s-nail``) that sends one player's
replies.  alice reads her mail by IMAP and sends by SMTP; bob reads a Maildir and sends with
s-nail (``AGILITY_MAIL_COMMAND``).  A whole sealed game where every turn is one ``agility play
--mail`` on each side; both files identical and audited at the end.  The servers listen on the
loopback only and are started and stopped by the fixtures (DECISIONS "Credentials")."""

from __future__ import annotations

import imaplib
import json
import mailbox
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from storytext import unwrapped

from machines import Machine

pytestmark = pytest.mark.slow

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)
IMAP_PASSWORD, SMTP_PASSWORD = "imap-test-secret", "smtp-test-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (it makes the test servers' certificate)")
    d = tmp_path_factory.mktemp("cert")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", d / "key.pem", "-out",
                    d / "cert.pem", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    os.chmod(d, 0o755)
    os.chmod(d / "key.pem", 0o644)  # dovecot reads it as its own user; a test key, for the loopback only
    return d / "cert.pem", d / "key.pem"


@dataclass
class Imap:
    port: int
    cert: Path

    def connect(self) -> imaplib.IMAP4_SSL:
        conn = imaplib.IMAP4_SSL("127.0.0.1", self.port, ssl_context=ssl.create_default_context(cafile=str(self.cert)))
        conn.login("alice", IMAP_PASSWORD)
        return conn

    def deliver(self, raw: bytes) -> None:
        conn = self.connect()
        try:
            conn.append("INBOX", None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
        finally:
            conn.logout()


@pytest.fixture(scope="module")
def imap(cert: tuple[Path, Path]) -> Iterator[Imap]:
    """Dovecot in a temporary folder: one user (alice), her mail a Maildir, IMAPS on the loopback."""
    if DOVECOT is None:
        pytest.skip("dovecot is not installed (Debian: apt-get install dovecot-imapd)")
    # outside pytest's own temporary folders (0700): dovecot's processes run as its own users
    d = Path(tempfile.mkdtemp(prefix="agility-dovecot-"))
    os.chmod(d, 0o755)
    shutil.copy(cert[0], d / "cert.pem")
    shutil.copy(cert[1], d / "key.pem")
    cert = (d / "cert.pem", d / "key.pem")
    root = os.geteuid() == 0
    # as root, dovecot's own users run its processes (a login process never runs as root)
    internal, login = ("dovecot", "dovenull") if root else ((me := os.environ.get("USER") or "nobody"), me)
    owner = "dovecot" if root else str(os.getuid())
    home = d / "home"
    home.mkdir()
    if root:
        shutil.chown(home, "dovecot", "dovecot")
    port = free_port()
    (d / "passwd").write_text(f"alice:{{PLAIN}}{IMAP_PASSWORD}::::::\n")
    (d / "dovecot.conf").write_text(f"""
base_dir = {d}/run
state_dir = {d}/state
log_path = {d}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{cert[0]}
ssl_key = <{cert[1]}
auth_mechanisms = plain
default_internal_user = {internal}
default_internal_group = {internal if root else os.getgid()}
default_login_user = {login}
first_valid_uid = 0
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {d}/passwd
}}
userdb {{
  driver = static
  args = uid={owner} gid={owner} home={home}/%u
}}
mail_location = maildir:{home}/%u/Maildir
service imap-login {{
  chroot =
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {port}
  }}
}}
service anvil {{
  chroot =
}}
""")
    proc = subprocess.Popen([DOVECOT, "-F", "-c", str(d / "dovecot.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    server = Imap(port, cert[0])
    try:
        for _ in range(100):
            try:
                server.connect().logout()
                break
            except (OSError, imaplib.IMAP4.error):
                if proc.poll() is not None:
                    log = (d / "dovecot.log").read_text() if (d / "dovecot.log").exists() else ""
                    pytest.fail(f"dovecot did not start: {log[-800:]}")
                time.sleep(0.1)
        else:
            pytest.fail("dovecot did not answer on the loopback")
        yield server
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        shutil.rmtree(d, ignore_errors=True)


@dataclass
class Smtp:
    port: int
    routes: dict[str, Callable[[bytes], None]]
    received: list[bytes]


@pytest.fixture(scope="module")
def smtp(cert: tuple[Path, Path]) -> Iterator[Smtp]:
    """aiosmtpd on the loopback with STARTTLS and a login (for alice's tool); each recipient's mail
    is handed to the route the test sets (a Maildir, or the IMAP server's INBOX)."""
    pytest.importorskip("aiosmtpd", reason="aiosmtpd is a test extra: pip install -e '.[test]'")
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    server = Smtp(free_port(), {}, [])

    class Handler:
        async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
            server.received.append(envelope.content)
            for rcpt in envelope.rcpt_tos:
                server.routes[rcpt](envelope.content)
            return "250 OK"

    def authenticate(_server: Any, _session: Any, _envelope: Any, mechanism: str, data: Any) -> AuthResult:
        ok = isinstance(data, LoginPassword) and data.login == b"alice" and data.password == SMTP_PASSWORD.encode()
        return AuthResult(success=ok)

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert[0]), str(cert[1]))
    controller = Controller(Handler(), hostname="127.0.0.1", port=server.port, tls_context=context,
                            authenticator=authenticate, auth_require_tls=True)
    controller.start()
    try:
        yield server
    finally:
        controller.stop()


def state(m: Machine) -> dict[str, Any]:
    r = m.run("show", m.file, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)  # type: ignore[no-any-return]


@dataclass
class Players:
    alice: Machine
    bob: Machine
    envs: dict[str, dict[str, str | None]]
    sources: dict[str, str]

    def turn(self, k: int) -> Any:
        """Command ``k`` (1, 2, …): alice on odd ones, bob on even ones — one ``agility play --mail``,
        the opponent's address given on each player's first command only (then remembered)."""
        name = "alice" if k % 2 else "bob"
        m = self.alice if name == "alice" else self.bob
        flags = ["--to", "bob@example.org" if name == "alice" else "alice@example.org"] if k <= 2 else []
        done = m.run("play", m.file, "--mail", self.sources[name], *flags, input="1\n" * 80, env=self.envs[name])
        assert done.exit_code == 0, (k, name, done.output, done.stderr)
        assert "Traceback" not in done.stderr
        return done


def players(tmp_path: Path, imap: Imap, smtp: Smtp, cert: tuple[Path, Path]) -> Players:
    """alice reads by IMAP and sends by SMTP; bob reads a Maildir and sends with s-nail; the
    handshake done as the README tells it (new, apply, join, apply)."""
    if shutil.which("s-nail") is None:
        pytest.skip("s-nail is not installed (Debian: apt-get install s-nail)")
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    bob_box = tmp_path / "bob-Maildir"
    mailbox.Maildir(str(bob_box)).close()
    smtp.routes["bob@example.org"] = lambda raw: mailbox.Maildir(str(bob_box)).add(mailbox.MaildirMessage(raw))
    smtp.routes["alice@example.org"] = imap.deliver
    envs: dict[str, dict[str, str | None]] = {
        "alice": {"AGILITY_IMAP_PASSWORD": IMAP_PASSWORD, "AGILITY_MAIL_CA_FILE": str(cert[0]),
                  "AGILITY_SMTP_HOST": "127.0.0.1", "AGILITY_SMTP_PORT": str(smtp.port), "AGILITY_SMTP_USER": "alice",
                  "AGILITY_SMTP_PASSWORD": SMTP_PASSWORD, "AGILITY_MAIL_FROM": "alice@example.org",
                  "AGILITY_MAIL_COMMAND": None},
        "bob": {"MAILRC": "/dev/null", "HOME": str(tmp_path), "AGILITY_SMTP_HOST": None, "AGILITY_MAIL_COMMAND": (
            "sh -c 's-nail -n -S v15-compat -S mta=smtp://localhost:" + str(smtp.port) + " -S smtp-use-starttls "
            "-S smtp-auth=none -S tls-ca-file=" + str(cert[0]) + " -S from=bob@example.org "
            "-s \"$AGILITY_MAIL_SUBJECT\" \"$AGILITY_MAIL_TO\"'")},
    }
    assert alice.run("new", alice.file, "--players", "alice", "bob", env=envs["alice"]).exit_code == 0
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text(), env=envs["bob"]).exit_code == 0
    joined = bob.run("join", bob.file, env=envs["bob"])
    assert alice.run("apply", alice.file, "-", input=joined.stdout, env=envs["alice"]).exit_code == 0
    return Players(alice, bob, envs, {"alice": f"imaps://alice@127.0.0.1:{imap.port}/INBOX", "bob": str(bob_box)})


def test_sealed_turns_by_imap_smtp_s_nail_and_a_maildir_one_command_each(tmp_path: Path, imap: Imap, smtp: Smtp,
                                                                          cert: tuple[Path, Path]) -> None:
    """The start of a sealed game (the deal's keys, the first decisions) where every turn is one
    ``agility play --mail`` per side; alice's copy then catches up with ``apply`` of her IMAP
    mailbox, and the two files are identical.  Her mailbox was only read (nothing marked seen), every
    mail's subject names the game, and no password is in either data directory."""
    p = players(tmp_path, imap, smtp, cert)
    for k in range(1, 7):
        p.turn(k)
    caught = p.alice.run("apply", p.alice.file, p.sources["alice"], env=p.envs["alice"])
    assert caught.exit_code == 0, caught.output
    assert p.alice.file.read_bytes() == p.bob.file.read_bytes()
    assert len(p.alice.file.read_bytes().splitlines()) > 6
    conn = imap.connect()
    try:
        conn.select("INBOX", readonly=True)
        _, unseen = conn.search(None, "UNSEEN")
        _, every = conn.search(None, "ALL")
        assert unseen[0].split() == every[0].split() and every[0].split()
    finally:
        conn.logout()
    assert smtp.received and all(b"Subject: Agility game " in raw for raw in smtp.received)
    assert not any(IMAP_PASSWORD.encode() in f.read_bytes() or SMTP_PASSWORD.encode() in f.read_bytes()
                   for home in (p.alice.home, p.bob.home) for f in home.rglob("*") if f.is_file())


@pytest.mark.skipif(os.environ.get("AGILITY_WHOLE_MAIL_GAME") != "1",
                    reason="the whole sealed game by mail servers takes some 5 minutes of CPU: set "
                           "AGILITY_WHOLE_MAIL_GAME=1 to run it")
def test_a_whole_sealed_game_by_imap_and_a_maildir_one_command_a_turn(tmp_path: Path, imap: Imap, smtp: Smtp,
                                                                      cert: tuple[Path, Path]) -> None:
    """The whole sealed game, one ``agility play --mail`` a turn on each side, to the audit: both
    files identical and audited on both machines."""
    p = players(tmp_path, imap, smtp, cert)
    for k in range(1, 400):
        p.turn(k)
        if p.alice.file.read_bytes() == p.bob.file.read_bytes():
            st = state(p.alice)
            if st["status"] == "finished" and not st["sealed"]["audit_pending"]:
                break
    assert p.alice.file.read_bytes() == p.bob.file.read_bytes()
    for m in (p.alice, p.bob):
        told = m.run("replay", m.file)
        assert "Sealed deck: audited" in unwrapped(told.stdout), told.stdout[-400:]
