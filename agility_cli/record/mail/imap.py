"""An IMAP mailbox as a mail source: ``imaps://user@host[:port]/INBOX``, read over TLS, read-only.

The standard library's :mod:`imaplib` over TLS (port 993 unless the address says another); the
mailbox is opened with ``EXAMINE`` (read-only: no flag is set, nothing is moved or deleted) and
messages are fetched with ``BODY.PEEK[]``.  Certificates are verified against the system's
authorities; ``AGILITY_MAIL_CA_FILE`` names another file of authorities (a test server's own, a
company's).  Only the messages the server finds holding ``AGILITY`` or ``kind`` (its own
``SEARCH``, which decodes MIME) are fetched, each at most ``box.MAX_MESSAGE_BYTES``, and what each
holds goes to the same index as a local mailbox (keyed by the address and the mailbox's
``UIDVALIDITY``), so a second scan fetches only the messages that arrived since.

**The password** comes from ``AGILITY_IMAP_PASSWORD`` or from the system keyring (the optional
``keyring`` package: service ``agility-imap``, user ``user@host``) — never from the command line,
the game file, the data directory or a log; no message here holds it.
"""

from __future__ import annotations

import os
import re
import socket
import ssl
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import unquote, urlsplit

from ...i18n import N_
from ...said import Said, said
from ...text import quoted
from . import box, deadline as whole

PASSWORD_VAR = "AGILITY_IMAP_PASSWORD"
CA_FILE_VAR = "AGILITY_MAIL_CA_FILE"
KEYRING_SERVICE = "agility-imap"
TIMEOUT = 60


@dataclass(frozen=True)
class Address:
    """An ``imaps://`` address: who logs in where, and the mailbox."""

    user: str
    host: str
    port: int
    mailbox: str

    def __str__(self) -> str:
        return f"imaps://{self.user}@{self.host}:{self.port}/{self.mailbox}"


def parse(url: str) -> Address:
    """The parts of ``imaps://user@host[:port]/MAILBOX`` (the mailbox INBOX when none is given);
    a password in the address is refused (it would be in the shell's history and in ``ps``)."""
    try:
        parts = urlsplit(url)
        port = parts.port or 993
    except ValueError as exc:  # urllib's words (a port out of range, not a number; a broken IPv6 host)
        raise box.MailboxError(said(N_("the IMAP address cannot be read (its port is no number from 1 to 65535): "
                                       "write imaps://user@host/INBOX")) if "Port" in str(exc) else
                               said(N_("the IMAP address cannot be read: write imaps://user@host/INBOX"))) from None
    if parts.scheme.lower() != "imaps" or not parts.hostname or not parts.username:
        raise box.MailboxError(said(N_("an IMAP address is imaps://user@host[:port]/MAILBOX (the user is needed)")))
    if parts.password is not None:
        raise box.MailboxError(said(N_("an IMAP address never holds the password: set {var} or keep it in the "
                                       "system keyring"), var=PASSWORD_VAR))
    mailbox = unquote(parts.path.lstrip("/")) or "INBOX"
    if not re.fullmatch(r"[^\x00-\x1f\x7f\"\\]{1,200}", mailbox):
        raise box.MailboxError(said(N_("the IMAP mailbox's name holds characters that cannot be sent")))
    return Address(unquote(parts.username), parts.hostname, port, mailbox)


def password(user: str, host: str, var: str = PASSWORD_VAR, service: str = KEYRING_SERVICE) -> str:
    """The password from ``var`` or the system keyring, else an error saying how to give it."""
    secret = os.environ.get(var)
    if secret:
        return secret
    try:
        import keyring  # type: ignore[import-not-found,unused-ignore]  # the optional extra
    except ImportError:
        keyring = None
    if keyring is not None:
        try:
            found = keyring.get_password(service, f"{user}@{host}")
        except Exception:  # a keyring backend's own failure (locked, absent): said below
            found = None
        if found:
            return str(found)
    raise box.MailboxError(said(
        N_("no password for {user}@{host}: set {var} in the environment, or keep it in the system keyring "
           "(`keyring set {service} {user}@{host}`, with `pip install 'agility-cli[keyring]'`)"),
        user=user, host=host, var=var, service=service))


def tls_context() -> ssl.SSLContext:
    """Certificates verified (the system's authorities, or those of ``AGILITY_MAIL_CA_FILE``)."""
    cafile = os.environ.get(CA_FILE_VAR) or None
    try:
        return ssl.create_default_context(cafile=cafile)
    except ssl.SSLError:  # read, but no certificate in it
        raise box.MailboxError(said(N_("{var}={file}: the file of authorities holds no certificate (PEM) to trust"),
                                    var=CA_FILE_VAR, file=cafile)) from None
    except FileNotFoundError:
        raise box.MailboxError(said(N_("{var}={file}: there is no such file of authorities"), var=CA_FILE_VAR,
                                    file=cafile)) from None
    except OSError as exc:  # the system's words, quoted
        raise box.MailboxError(said(N_("{var}={file}: cannot read the file of authorities ({error})"),
                                    var=CA_FILE_VAR, file=cafile, error=quoted(exc.strerror or str(exc)))) from None


#: What a certificate's verification says (OpenSSL's words), said in the words of the catalog.
_CERTIFICATE = {
    "self-signed certificate": N_("it is self-signed"),
    "self signed certificate": N_("it is self-signed"),
    "self-signed certificate in certificate chain": N_("its chain ends in a self-signed certificate"),
    "self signed certificate in certificate chain": N_("its chain ends in a self-signed certificate"),
    "certificate has expired": N_("it has expired"),
    "certificate is not yet valid": N_("it is not valid yet"),
    "unable to get local issuer certificate": N_("its authority is not known here"),
}


def why(where: Address, exc: BaseException, login: bool, var: str = PASSWORD_VAR) -> Said:
    """What went wrong, in words a person can act on (the system's or the server's own words quoted)."""
    if isinstance(exc, _NoMessage):
        return said(N_("the server gave no message for UID {uid}"), uid=exc.uid)
    if isinstance(exc, ssl.SSLCertVerificationError):
        text = str(exc.verify_message or "")
        reason: Any = said(N_("it is for another host name")) if "Hostname mismatch" in text else \
            said(_CERTIFICATE[text]) if text in _CERTIFICATE else quoted(text or str(exc), 80)
        return said(N_("the certificate of the server is not trusted ({reason}); {var} names a file of other "
                       "authorities"), reason=reason, var=CA_FILE_VAR)
    if isinstance(exc, ssl.SSLError):
        return said(N_("the TLS connection failed ({reason}): does {host}:{port} speak IMAP over TLS (imaps)?"),
                    reason=exc.reason or type(exc).__name__, host=where.host, port=where.port)
    if isinstance(exc, ConnectionRefusedError):
        return said(N_("the connection was refused: nothing answers on {host} port {port}"), host=where.host,
                    port=where.port)
    if isinstance(exc, socket.gaierror):
        return said(N_("the host {host} cannot be found (its name, or the network)"), host=where.host)
    if isinstance(exc, TimeoutError):
        return said(N_("the server did not answer within {n} s"), n=TIMEOUT)
    import imaplib

    text = getattr(exc, "smtp_error", None) or (exc.args[0] if exc.args else "")
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    if login and not isinstance(exc, (OSError, imaplib.IMAP4.abort)):  # IMAP's NO, SMTP's 535
        return said(N_("the server refused the login of {user} (the server said {reply}): check the password "
                       "in {var} or the system keyring"), user=where.user, reply=quoted(text, 80), var=var)
    if isinstance(exc, (imaplib.IMAP4.abort, ConnectionError, EOFError)):
        return said(N_("the server closed the connection ({error})"), error=quoted(text or type(exc).__name__, 80))
    return said(N_("the server answered {kind}: {error}"), kind=type(exc).__name__,
                error=quoted(text.replace("\r", " ").replace("\n", " "), 200))


def _failed(where: Address, exc: BaseException, limit: "whole.Deadline | None" = None,
            login: bool = False) -> box.MailboxError:
    if limit is not None and limit.over():
        return box.MailboxError(said(N_("cannot read {where}: {why}"), where=str(where), why=limit.words()))
    return box.MailboxError(said(N_("cannot read {where}: {why}"), where=str(where), why=why(where, exc, login)))


def scan(url: str, within: float | None = None) -> tuple[list[box.Entry], Callable[[box.Entry], bytes],
                                                         Callable[[], None]]:
    """The entries of the game-like messages of the IMAP mailbox, a reader of one message by its
    entry, and the closing of the connection (the caller closes it).  The whole exchange ends
    within ``AGILITY_MAIL_TIMEOUT`` seconds, or ``within`` when that is shorter."""
    import imaplib

    where = parse(url)
    secret = password(where.user, where.host)
    context = tls_context()
    limit = whole.Deadline(min(whole.seconds(), within) if within is not None else None)  # the whole exchange, from the connection to the logout (issue 52)

    class Watched(imaplib.IMAP4_SSL):
        def _create_socket(self, timeout: float | None) -> Any:
            sock = imaplib.IMAP4._create_socket(self, min(timeout or TIMEOUT, limit.left()))  # type: ignore[attr-defined]
            limit.watch(sock)  # before TLS: a drip-fed handshake is cut at the deadline too
            return context.wrap_socket(sock, server_hostname=self.host)

    try:
        conn = Watched(where.host, where.port, ssl_context=context, timeout=TIMEOUT)
    except (OSError, imaplib.IMAP4.error, ValueError) as exc:
        limit.stop()
        raise _failed(where, exc, limit) from None

    def close() -> None:
        try:
            conn.logout()
        except (OSError, imaplib.IMAP4.error, ValueError):
            pass
        finally:
            limit.stop()

    try:
        conn.login(where.user, secret)
    except (OSError, imaplib.IMAP4.error, ValueError) as exc:
        close()
        raise _failed(where, exc, limit, login=True) from None
    finally:
        del secret
    try:
        typ, _ = conn.select(_quoted(where.mailbox), readonly=True)  # EXAMINE
        if typ != "OK":
            raise box.MailboxError(said(N_("{where}: the server has no mailbox {mailbox} to read"),
                                        where=str(where), mailbox=quoted(where.mailbox, 80)))
        validity = _number(conn.response("UIDVALIDITY")[1])
        identity = f"{where}\0{validity}"
        typ, data = conn.uid("SEARCH", "OR", "BODY", "AGILITY", "BODY", "kind")
        uids = [u.decode() for u in (data[0] or b"").split()] if typ == "OK" and data else []
        index = box.load_index(identity)
        known = {} if index is None else {e.key: e for e in index.entries}
        fetched: dict[str, bytes] = {}
        entries = [known[u] if u in known else _fetch(conn, u, fetched) for u in uids]
        if index is None or [e.key for e in index.entries] != uids:
            box.save_index(box.Index(box.INDEX_FORMAT, identity, [len(uids)], entries))
    except box.MailboxError:
        close()
        raise
    except (OSError, imaplib.IMAP4.error, ValueError) as exc:
        close()
        raise _failed(where, exc, limit) from None

    def read(entry: box.Entry) -> bytes:
        if entry.key in fetched:
            return fetched[entry.key]
        try:
            return _body(conn, entry.key)
        except (OSError, imaplib.IMAP4.error, ValueError) as exc:
            raise _failed(where, exc, limit) from None

    return entries, read, close


def _quoted(name: str) -> str:
    return '"' + name + '"'


def _number(values: Any) -> int:
    try:
        return int(values[0]) if values and values[0] is not None else 0
    except (TypeError, ValueError):
        return 0


def _fetch(conn: Any, uid: str, fetched: dict[str, bytes]) -> box.Entry:
    typ, data = conn.uid("FETCH", uid, "(RFC822.SIZE)")
    size = 0
    if typ == "OK" and data and isinstance(data[0], bytes):
        found = re.search(rb"RFC822\.SIZE (\d+)", data[0])
        size = int(found.group(1)) if found else 0
    if size > box.MAX_MESSAGE_BYTES:
        return box.entry_of(uid, b"", size)
    body = _body(conn, uid)
    fetched[uid] = body
    return box.entry_of(uid, body)


def _body(conn: Any, uid: str) -> bytes:
    typ, data = conn.uid("FETCH", uid, "(BODY.PEEK[])")
    for item in data or []:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            return item[1][: box.MAX_MESSAGE_BYTES + 1]
    raise _NoMessage(uid)


class _NoMessage(OSError):
    """The server's answer to a message's FETCH held no message."""

    def __init__(self, uid: str) -> None:
        super().__init__(f"the server gave no message for UID {uid}")
        self.uid = uid
