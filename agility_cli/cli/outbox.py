"""Sending the reply of ``play --mail``: the mail program's own command, the local ``sendmail``, or
SMTP — so that a mail turn is one command.

The ways, first that applies:

1. ``AGILITY_MAIL_COMMAND`` (a command, split as the shell would, never run by a shell): the reply
   on its standard input, and the address and the subject in ``AGILITY_MAIL_TO`` and
   ``AGILITY_MAIL_SUBJECT`` of its environment (``sh -c 's-nail -s "$AGILITY_MAIL_SUBJECT"
   "$AGILITY_MAIL_TO"'``);
2. SMTP when ``AGILITY_SMTP_HOST`` is set (``smtplib``, port ``AGILITY_SMTP_PORT`` or 587, always
   STARTTLS with the certificate verified — the system's authorities or ``AGILITY_MAIL_CA_FILE``'s
   — and a login when ``AGILITY_SMTP_USER`` is set, its password from ``AGILITY_SMTP_PASSWORD`` or
   the system keyring, service ``agility-smtp``: never the command line, a file or a log);
3. the local ``sendmail`` (``sendmail -t -oi``), when there is one.

SMTP comes before ``sendmail`` when its settings are there: they say what the player wants. The
sender is ``AGILITY_MAIL_FROM`` (needed by SMTP; ``sendmail`` fills it in otherwise).  The subject
names the game: ``Agility game 1a2b3c4d: alice vs bob, lines 12-14``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from typing import Any

from ..engine.notation import UsageError
from ..i18n import _
from ..record.mail import deadline
from ..said import message_of, tell
from ..text import safe

MAIL_COMMAND = "AGILITY_MAIL_COMMAND"
SMTP_HOST, SMTP_PORT, SMTP_USER = "AGILITY_SMTP_HOST", "AGILITY_SMTP_PORT", "AGILITY_SMTP_USER"
SMTP_PASSWORD, MAIL_FROM = "AGILITY_SMTP_PASSWORD", "AGILITY_MAIL_FROM"
TIMEOUT = 60


class SendError(UsageError):
    """The reply could not be sent (the decisions are saved: the caller says so)."""


def way() -> str | None:
    """How the reply would go: ``command``, ``smtp``, ``sendmail``, or None (printed only)."""
    if os.environ.get(MAIL_COMMAND):
        return "command"
    if os.environ.get(SMTP_HOST):
        return "smtp"
    return "sendmail" if _sendmail() else None


def _sendmail() -> str | None:
    return shutil.which("sendmail") or next((p for p in ("/usr/sbin/sendmail", "/usr/lib/sendmail")
                                             if os.access(p, os.X_OK)), None)


def is_address(text: str) -> bool:
    """A mail address as the reply's ``To:`` takes it (name@domain, no spaces or controls)."""
    import re

    return re.fullmatch(r"[A-Za-z0-9._%+=-]{1,64}@[A-Za-z0-9.-]{1,253}", text) is not None


def subject(game: str, players: list[str], first: int, last: int) -> str:
    span = f"line {first}" if first == last else f"lines {first}-{last}"
    return f"Agility game {game}: {players[0]} vs {players[1]}, {span}"


def message(text: str, to: str, title: str) -> EmailMessage:
    """The reply as a plain-text mail (UTF-8, 7bit-safe: the block is ASCII)."""
    mail = EmailMessage()
    mail["To"] = to
    mail["Subject"] = title
    if os.environ.get(MAIL_FROM):
        mail["From"] = os.environ[MAIL_FROM]
    mail["Date"] = formatdate(localtime=True)
    mail["Message-ID"] = make_msgid(domain="agility.invalid")
    mail.set_content(text)
    return mail


def send(text: str, to: str, title: str, what: str | None = None) -> str:
    """Send the reply (or ``what`` else: the invitation, the join, said in the language in use);
    what was done, in words (raises :class:`SendError`)."""
    what = _("the reply") if what is None else what
    how = way()
    if how == "command":
        return _by_command(text, to, title, what)
    if not to:
        raise SendError(_("no address to send {what} to").format(what=what))
    if how == "smtp":
        return _by_smtp(message(text, to, title), what)
    if how == "sendmail":
        return _by_sendmail(message(text, to, title), what)
    raise SendError(_("no way to send mail here: set AGILITY_SMTP_HOST (and AGILITY_MAIL_FROM) or "
                      "AGILITY_MAIL_COMMAND, or install a sendmail"))


def _limit() -> float:
    """The mail command's or ``sendmail``'s whole time: ``AGILITY_MAIL_TIMEOUT`` (default 60 s)."""
    try:
        return deadline.seconds()
    except UsageError as exc:
        raise SendError(tell(message_of(exc))) from None


def _by_command(text: str, to: str, title: str, what: str) -> str:
    command = os.environ[MAIL_COMMAND]
    env = {**os.environ, "AGILITY_MAIL_TO": to, "AGILITY_MAIL_SUBJECT": title}
    try:
        done = subprocess.run(shlex.split(command), input=text, text=True, timeout=_limit(), check=False, env=env)
    except (OSError, ValueError, subprocess.TimeoutExpired) as exc:
        raise SendError(_("{variable} (`{command}`) could not be run: {error}").format(
            variable=MAIL_COMMAND, command=safe(command), error=exc)) from None
    if done.returncode != 0:  # the command as the player wrote it: to copy, never translated
        raise SendError(_("{variable} (`{command}`) failed (exit {code})").format(
            variable=MAIL_COMMAND, command=safe(command), code=done.returncode))
    return _("handed {what} to `{command}`").format(what=what, command=command)


def _by_sendmail(mail: EmailMessage, what: str) -> str:
    program = _sendmail()
    assert program is not None
    try:
        done = subprocess.run([program, "-t", "-oi"], input=mail.as_bytes(), timeout=_limit(), check=False,
                              capture_output=True)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SendError(_("{program} could not be run: {error}").format(program=program, error=exc)) from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip()[:200]
        raise SendError(_("{program} failed (exit {code}): {error}").format(program=program, code=done.returncode,
                                                                           error=repr(said)) if said else
                        _("{program} failed (exit {code})").format(program=program, code=done.returncode))
    return _("sent {what} to {to} by {program}").format(what=what, to=mail['To'], program=program)


def _by_smtp(mail: EmailMessage, what: str) -> str:
    import smtplib

    from ..record.mail import imap

    host = os.environ[SMTP_HOST]
    try:
        port = int(os.environ.get(SMTP_PORT) or 587)
    except ValueError:
        raise SendError(_("{variable} is a port number, not {value}").format(
            variable=SMTP_PORT, value=repr(os.environ.get(SMTP_PORT)))) from None
    if "From" not in mail:
        raise SendError(_("set {variable} to your address: SMTP needs the sender").format(variable=MAIL_FROM))
    user = os.environ.get(SMTP_USER)
    try:
        secret = imap.password(user, host, SMTP_PASSWORD, "agility-smtp") if user else None
        context = imap.tls_context()
    except UsageError as exc:
        raise SendError(tell(message_of(exc))) from None
    limit = deadline.Deadline()  # the whole exchange (issue 52): a drip-fed greeting cannot hang it

    class Watched(smtplib.SMTP):
        def _get_socket(self, host: str, port: int, timeout: float) -> Any:
            sock = super()._get_socket(host, port, min(timeout, limit.left()))  # type: ignore[misc]
            limit.watch(sock)
            return sock

    try:
        with Watched(host, port, timeout=TIMEOUT) as server:
            server.starttls(context=context)
            if user and secret:
                server.login(user, secret)
            server.send_message(mail)
    except (OSError, smtplib.SMTPException, ValueError) as exc:
        if limit.over():
            raise SendError(_("the SMTP server {server} did not take {what}: {why}").format(
                server=f"{host}:{port}", what=what, why=tell(limit.words()))) from None
        raise SendError(_("the SMTP server {server} did not take {what} ({why})").format(
            server=f"{host}:{port}", what=what, why=tell(imap.why(imap.Address(user or "", host, port, ""), exc,
                                                                 login=isinstance(exc, smtplib.SMTPAuthenticationError),
                                                                 var=SMTP_PASSWORD)))) from None
    finally:
        limit.stop()
    return _("sent {what} to {to} by SMTP ({host})").format(what=what, to=mail['To'], host=host)
