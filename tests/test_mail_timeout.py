"""Every mail exchange has a whole deadline (issue 52): a server that sends one byte at a time —
a drip-fed TLS handshake or greeting — never trips a timeout per socket operation, so an IMAP read
or an SMTP send would hang for ever; ``AGILITY_MAIL_TIMEOUT`` (default 60 s) bounds the whole
exchange.  Tiny hostile servers on the loopback, in a thread of the test."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Iterator

import pytest

from agility_cli.cli import outbox
from agility_cli.record.mail import box, deadline, imap
from machines import start
from test_mail_clients import to_act
from test_mailbox import maildir_with, other_mail, a_turn


class Dripper:
    """A loopback server that answers every connection with ``first``, one byte every ``pause``
    seconds, then one more byte of ``then`` forever (until stopped)."""

    def __init__(self, first: bytes, then: bytes = b" ", pause: float = 0.25):
        self.first, self.then, self.pause = first, then, pause
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.port = self.server.getsockname()[1]
        self.stopped = threading.Event()
        self.connections = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.server.settimeout(0.2)
        while not self.stopped.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        data = iter(self.first)
        with conn:
            while not self.stopped.wait(self.pause):
                byte = next(data, None)
                try:
                    conn.sendall(bytes([byte]) if byte is not None else self.then)
                except OSError:
                    return

    def stop(self) -> None:
        self.stopped.set()
        self.server.close()


@pytest.fixture
def dripping_tls() -> Iterator[Dripper]:
    # a TLS handshake record that announces 16 KB and never ends: the client waits in the handshake
    server = Dripper(b"\x16\x03\x03\x40\x00\x02\x00\x3f\xfc\x03\x03", b"\x00")
    yield server
    server.stop()


@pytest.fixture
def dripping_greeting() -> Iterator[Dripper]:
    server = Dripper(b"220 mail.example.org ESMTP at your service, one byte at a time", b".")
    yield server
    server.stop()


def test_a_drip_fed_imap_handshake_ends_at_the_whole_deadline(dripping_tls: Dripper,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_MAIL_TIMEOUT", "2")
    monkeypatch.setenv("AGILITY_IMAP_PASSWORD", "not-a-secret")
    began = time.monotonic()
    with pytest.raises(box.MailboxError) as raised:
        imap.scan(f"imaps://alice@127.0.0.1:{dripping_tls.port}/INBOX")
    took = time.monotonic() - began
    assert 1.5 < took < 10, took  # each byte came within the 60 s a socket operation may take
    assert "did not finish within 2 s" in str(raised.value) and "AGILITY_MAIL_TIMEOUT" in str(raised.value)
    assert dripping_tls.connections == 1


def test_play_by_a_drip_fed_imap_server_exits_2_in_time_with_the_file_unchanged(
        tmp_path: Path, dripping_tls: Dripper) -> None:
    alice, _ = start(tmp_path)
    before = alice.file.read_bytes()
    began = time.monotonic()
    got = alice.run("play", alice.file, "--mail", f"imaps://alice@127.0.0.1:{dripping_tls.port}/INBOX",
                    input="quit\n", env={"AGILITY_MAIL_TIMEOUT": "2", "AGILITY_IMAP_PASSWORD": "x"})
    assert time.monotonic() - began < 15
    assert got.exit_code == 2 and "did not finish within 2 s" in got.stderr, got.output
    assert alice.file.read_bytes() == before


def test_a_drip_fed_smtp_greeting_ends_at_the_whole_deadline(dripping_greeting: Dripper,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_MAIL_TIMEOUT", "1.5")
    monkeypatch.delenv("AGILITY_MAIL_COMMAND", raising=False)
    monkeypatch.delenv("AGILITY_SMTP_USER", raising=False)
    monkeypatch.setenv("AGILITY_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("AGILITY_SMTP_PORT", str(dripping_greeting.port))
    monkeypatch.setenv("AGILITY_MAIL_FROM", "alice@example.org")
    began = time.monotonic()
    with pytest.raises(outbox.SendError) as raised:
        outbox.send("the block", "bob@example.org", "Agility game 1", "your join")
    assert time.monotonic() - began < 10
    assert "did not take your join" in str(raised.value) and "within 1.5 s" in str(raised.value)


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon", "99999"])
def test_a_mail_timeout_that_is_not_seconds_is_refused(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_MAIL_TIMEOUT", value)
    with pytest.raises(deadline.UsageError) as raised:
        deadline.seconds()
    assert "AGILITY_MAIL_TIMEOUT" in str(raised.value)


def test_the_deadline_left_alone_shuts_nothing_after_it_stops() -> None:
    limit = deadline.Deadline(0.2)
    a, b = socket.socketpair()
    with a, b:
        limit.watch(a)
        limit.stop()
        time.sleep(0.4)
        assert not limit.expired
        a.sendall(b"x")  # still open both ways
        assert b.recv(1) == b"x"


def test_wait_checks_no_more_often_than_every_5_seconds_and_says_so(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = start(tmp_path)
    mover, reader, name = (alice, bob, "alice") if to_act(alice) == "alice" else (bob, alice, "bob")
    folder = maildir_with(tmp_path / "Maildir", [other_mail("hi", "text")])
    turn = a_turn(mover, name)
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        maildir_with(folder, [turn])
        assert len(slept) < 5

    monkeypatch.setattr(time, "sleep", sleep)
    got = reader.run("play", reader.file, "--mail", folder, "--wait", "--every", "1", input="quit\n")
    assert got.exit_code == 0, got.output
    assert slept == [5.0] and "checking every 5 s" in got.stderr
