"""Raw input as the text a person would read: the candidate text for the game-line extractor.

``agility apply FILE -`` is given whatever the player had to hand: lines pasted from a mail
program, a saved mail (``.eml``: headers, MIME parts, base64 or quoted-printable, any charset),
a whole mailbox (mbox), or a game file attached to a mail.  :func:`read_input` turns any of these
into a list of :class:`Part`, each the text of one readable part in reading order, with where it
came from and what was noticed on the way:

* **Pasted text** (anything that does not start like a mail) is one part, decoded as UTF-8 and
  otherwise unchanged (invalid bytes are replaced and noted; a UTF-16 byte-order mark is honoured).
* **A mail** (RFC 5322 header fields, then a blank line) is parsed with the standard library
  :mod:`email` package (``policy=email.policy.default``).  Every MIME part is visited in order; the
  transfer encoding (base64, quoted-printable, 8bit) is undone and the charset decoded; in a
  ``multipart/alternative`` the ``text/plain`` alternative is read (even when HTML comes first), an
  HTML-only mail is turned into text (:func:`html_to_text`); text attachments (``text/*``,
  ``application/json``, ``application/x-ndjson``, or a name ending ``.jsonl``, ``.ndjson``, ``.json``,
  ``.txt``) are read too, other attachments are skipped with a note; ``format=flowed`` text is
  unwrapped (:func:`unflow`, RFC 3676, which the standard library does not implement).
* **A mailbox** (lines beginning ``From `` before each message) gives the parts of every message,
  in order; ``>From `` lines are unescaped (mboxrd).

Nothing here is safe to print as it is: the text, the notes and the origins can hold whatever the
sender put in the mail (control characters, bidi overrides, an attachment's file name).  The caller
escapes them (:func:`agility_cli.text.safe`) before they reach a terminal.

The work is linear in the size of the input: lines are split once and joined once, no regular
expression here can backtrack, and HTML is defused (:func:`html_to_text`) before the standard
library parser, whose handling of some malformed markup is quadratic in Python 3.11.  The
:mod:`email` package is linear but slow on some inputs (it parses a ``Content-*`` field anew each
time it is read), so the MIME work one input may ask of it is capped (:data:`MAX_MIME_PARTS`,
:data:`MAX_MIME_FIELD_BYTES`): past that a message is given as it came, as text.  The caller caps
the input's size.

This module walks the input: pasted text, mailboxes, messages and their MIME parts.  What turns
one part's bytes into text (charsets, ``format=flowed``, HTML) is :mod:`agility_cli.record.mail.text`;
:func:`decode_text`, :func:`unflow` and :func:`html_to_text` are importable from here too.

Stdlib only.
"""

from __future__ import annotations

import email
import email.errors
import email.policy
import re
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

from ...i18n import N_
from ...said import Said, said
from .text import decode_text, html_to_text, unflow

__all__ = ["Part", "read_input", "is_mail", "is_mbox", "unflow", "html_to_text", "decode_text"]


@dataclass
class Part:
    """One readable piece of the input, as text.

    ``text`` is what a person would read (line breaks as ``\\n`` for a mail; pasted text as given);
    ``origin`` says where it came from, for messages such as ``message 2, text/plain part`` or
    ``pasted text``; ``notes`` are what was noticed on the way, in plain sentences (a charset that
    did not decode, an attachment skipped, a part cut short).  None of the three is safe to print
    unescaped: they can hold whatever the mail held.
    """

    text: str
    origin: str  # a :class:`~agility_cli.said.Said` where the reader made it (told where shown)
    notes: list[str] = field(default_factory=list)  # likewise


# ----------------------------------------------------------------------------------------------
# What kind of input


#: Header fields that a mail (or a mail program's "show original" / "save as") starts with.  A
#: header block must name at least one of them, so that prose such as ``Note: …`` is not a mail.
_MAIL_FIELDS = frozenset(
    name.encode()
    for name in (
        "received", "return-path", "delivered-to", "x-original-to", "envelope-to", "from", "sender",
        "to", "cc", "bcc", "reply-to", "subject", "date", "message-id", "in-reply-to", "references",
        "mime-version", "content-type", "content-transfer-encoding", "content-disposition",
        "dkim-signature", "arc-seal", "arc-message-signature", "arc-authentication-results",
        "authentication-results", "received-spf", "x-mailer", "user-agent", "x-received",
        "x-google-smtp-source", "x-gm-message-state", "thread-topic", "thread-index", "list-id",
        "x-mozilla-status", "x-mozilla-status2", "x-uid", "status", "x-status", "x-keywords",
    )
)
# A field name as mail programs write them (RFC 5322 allows more, but then `{"kind":` would be one).
_FIELD_NAME = re.compile(rb"([A-Za-z0-9][A-Za-z0-9_-]{0,75})[ \t]*:")
_UTF8_BOM = b"\xef\xbb\xbf"


def _header_block_end(data: bytes, start: int) -> int | None:
    """Where the header block of a mail starting at ``start`` ends (just after its blank line, or
    the end of the input), or ``None`` if the text there is not a header block naming a mail field.

    Every line up to the first blank one must be ``Name: value`` or the continuation of one (it
    starts with a blank).  The scan stops at the first line that is neither.
    """
    pos = start
    known = False
    first = True
    size = len(data)
    while pos < size:
        nl = data.find(b"\n", pos)
        end = size if nl == -1 else nl
        line = data[pos:end]
        if line.endswith(b"\r"):
            line = line[:-1]
        nxt = size if nl == -1 else nl + 1
        if not line:
            return nxt if known else None
        if line[:1] in (b" ", b"\t"):
            if first:
                return None
        else:
            match = _FIELD_NAME.match(line)
            if match is None:
                return None
            known = known or match.group(1).lower() in _MAIL_FIELDS
        first = False
        pos = nxt
    return size if known else None


def _skip_bom(data: bytes) -> int:
    return len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0


def is_mbox(data: bytes) -> bool:
    """Whether ``data`` is a mailbox: a ``From `` line, then a mail's header block."""
    start = _skip_bom(data)
    if not data.startswith(b"From ", start):
        return False
    nl = data.find(b"\n", start)
    return nl != -1 and _header_block_end(data, nl + 1) is not None


def is_mail(data: bytes) -> bool:
    """Whether ``data`` starts with the header block of a mail (RFC 5322 fields, then a blank
    line), such as a saved ``.eml`` or a mail program's "show original"."""
    return _header_block_end(data, _skip_bom(data)) is not None


# ----------------------------------------------------------------------------------------------
# Entry point


def read_input(data: bytes) -> list[Part]:
    """The readable parts of ``data`` (pasted text, a mail, or an mbox), in reading order.

    Never raises for malformed input: what cannot be parsed as a mail is given as text with a note.
    Always returns at least one part.  A message with no readable part gives one part with empty
    text and a note saying what it held; notes about a message as a whole (parts skipped, a
    damaged structure) are on its first part.
    """
    start = _skip_bom(data)
    if is_mbox(data):
        messages = _split_mbox(data[start:])
    elif is_mail(data):
        messages = [data[start:]]
    else:
        return [_pasted(data)]
    parts: list[Part] = []
    budget = _Budget()
    for number, raw in enumerate(messages, 1):
        parts.extend(_read_message(raw, said(N_("message {n}"), n=number), budget))
    return parts


def _pasted(data: bytes) -> Part:
    notes: list[str] = []
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16", "replace")
        notes.append(said(N_("the input starts with a UTF-16 byte-order mark and was read as UTF-16")))
        if "\ufffd" in text:
            notes.append(said(N_("some of it is not valid UTF-16: those bytes were replaced by U+FFFD")))
        return Part(text, said(N_("pasted text")), notes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "replace")
        notes.append(said(N_("the input is not all valid UTF-8: the bytes that are not were replaced by U+FFFD")))
    return Part(text, said(N_("pasted text")), notes)


# ----------------------------------------------------------------------------------------------
# mbox


def _split_mbox(data: bytes) -> list[bytes]:
    """The messages of an mbox, each without its ``From `` line, ``>From `` lines unescaped.

    A ``From `` line separates messages when it is the first line or follows a blank line, and a
    mail's header block follows it; any other ``From `` line is part of the message (mboxo files
    do not always escape them).  ``>From ``, ``>>From `` … lose one ``>`` (mboxrd; for an mboxo
    file this also changes a quoted ``>From `` line of a body, which no game line is).

    Linear: the header block after a candidate ``From `` line is scanned up to its first blank
    line, and the next candidate comes after a blank line, so no line is scanned twice.
    """
    messages: list[bytes] = []
    current: list[bytes] | None = None
    after = 0  # offset just after the current line
    previous_blank = True
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()  # what follows the last newline is no line
    for line in lines:
        after += len(line) + 1
        if (
            previous_blank
            and line.startswith(b"From ")
            and _header_block_end(data, min(after, len(data))) is not None
        ):
            if current is not None:
                messages.append(_mbox_message(current))
            current = []
            previous_blank = False
            continue
        previous_blank = not line.rstrip(b"\r")
        if current is None:
            continue
        if line.startswith(b">") and line.lstrip(b">").startswith(b"From "):
            line = line[1:]
        current.append(line)
    if current is not None:
        messages.append(_mbox_message(current))
    return messages


def _mbox_message(lines: list[bytes]) -> bytes:
    if lines and not lines[-1].rstrip(b"\r"):
        lines = lines[:-1]  # the blank line that separates it from the next ``From `` line
    return b"\n".join(lines) + b"\n"


# ----------------------------------------------------------------------------------------------
# One message


_TEXT_TYPES = frozenset({
    "application/json", "application/x-ndjson", "application/ndjson", "application/jsonl",
    "application/x-jsonl", "application/jsonlines", "application/x-jsonlines", "application/x-json",
})
_TEXT_SUFFIXES = (".jsonl", ".ndjson", ".json", ".txt", ".log")
_DEFECTS = {
    email.errors.StartBoundaryNotFoundDefect: N_("the MIME structure is damaged (a start boundary is missing)"),
    email.errors.CloseBoundaryNotFoundDefect: N_("the last MIME part has no closing boundary: the mail may have been "
                                                 "cut short"),
    email.errors.MultipartInvariantViolationDefect: N_("the mail says it has several parts but has none"),
    email.errors.MissingHeaderBodySeparatorDefect: N_("a line among the headers is not a header: what follows was "
                                                      "read as text"),
}
_BASE64_DEFECTS = (
    email.errors.InvalidBase64PaddingDefect,
    email.errors.InvalidBase64CharactersDefect,
    email.errors.InvalidBase64LengthDefect,
)
#: Nested messages and multiparts deeper than this are not read (a note says so).
MAX_DEPTH = 20
#: The MIME work one input may ask of the :mod:`email` package, whose parser costs about 0.1 ms a
#: part and re-parses a ``Content-*`` field each time it is read (some 15 µs a byte of it): at most
#: this many boundary-like lines (``--…``) …
MAX_MIME_PARTS = 1000
#: … and this many bytes of ``Content-*`` header fields, in all the messages of the input.  A
#: message that would go past what is left is given as it came (as text), with a note.  Real mails
#: carrying game lines use a few dozen parts and a few KB of such fields.
MAX_MIME_FIELD_BYTES = 32 * 1024


@dataclass
class _Budget:
    parts: int = MAX_MIME_PARTS
    field_bytes: int = MAX_MIME_FIELD_BYTES

    def take(self, raw: bytes) -> bool:
        """Whether the MIME structure of ``raw`` fits in what is left (then it is taken)."""
        parts = field_bytes = 0
        in_field = False
        for line in raw.split(b"\n"):
            if line.startswith(b"--"):
                parts += 1
            if line[:1] in (b" ", b"\t"):
                if in_field:
                    field_bytes += len(line)
                continue
            in_field = line[:8].lower() == b"content-"
            if in_field:
                field_bytes += len(line)
        if parts > self.parts or field_bytes > self.field_bytes:
            return False
        self.parts -= parts
        self.field_bytes -= field_bytes
        return True


@dataclass
class _Head:
    """What a part's MIME header fields say, each field parsed once (the email package parses a
    field again on every access)."""

    ctype: str
    params: dict[str, str]
    filename: str | None

    @classmethod
    def of(cls, part: Message) -> _Head:
        header: Any = part.get("content-type")
        if header is None:
            ctype = part.get_default_type()
            params: dict[str, str] = {}
        else:
            ctype = str(getattr(header, "content_type", "text/plain")).lower()
            if ctype.count("/") != 1:
                ctype = "text/plain"
            params = {str(k).lower(): str(v) for k, v in dict(getattr(header, "params", {})).items()}
        disposition: Any = part.get("content-disposition")
        name = dict(getattr(disposition, "params", {})).get("filename") or params.get("name")
        return cls(ctype, params, str(name) if name else None)


def _within(forwarded: int) -> Said | str:
    """Where a part is, as the start of its words: ``forwarded message, `` once for each message
    it was forwarded in (``""`` in the message itself)."""
    within: Said | str = ""
    for _ in range(forwarded):
        within = said(N_("{within}forwarded message, "), within=within)
    return within


def _inside(forwarded: int) -> Said:
    """The forwarded message a part is in (``forwarded message, forwarded message`` twice in)."""
    inside = said(N_("forwarded message"))
    for _ in range(forwarded - 1):
        inside = said(N_("forwarded message, {within}"), within=inside)
    return inside


class _Reader:
    """The parts of one message, gathered as the MIME tree is walked."""

    def __init__(self, label: Said | str) -> None:
        self.label = label
        self.parts: list[Part] = []
        self.notes: list[str] = []  # about the message as a whole, each said once
        self.seen: dict[str, int] = {}

    def note(self, sentence: str) -> None:
        if sentence not in self.notes:
            self.notes.append(sentence)

    def origin(self, where: Said | str) -> Said:
        count = self.seen[where] = self.seen.get(where, 0) + 1
        if count > 1:
            return said(N_("{label}, {where} {count}"), label=self.label, where=where, count=count)
        return said(N_("{label}, {where}"), label=self.label, where=where)

    def walk(self, part: Message, depth: int, forwarded: int) -> None:
        if depth > MAX_DEPTH:
            self.note(said(N_("parts nested more than {n} deep were not read"), n=MAX_DEPTH))
            return
        head = _Head.of(part)
        for defect in part.defects:
            for kind, sentence in _DEFECTS.items():
                if isinstance(defect, kind):
                    self.note(said(N_("in the {within}: {note}"), within=_inside(forwarded), note=said(sentence))
                              if forwarded else said(sentence))
        payload = part.get_payload()
        if head.ctype == "message/rfc822" and isinstance(payload, list):
            for sub in payload:
                if isinstance(sub, Message):
                    self.walk(sub, depth + 1, forwarded + 1)
            return
        if part.is_multipart() and isinstance(payload, list):
            subparts = [p for p in payload if isinstance(p, Message)]
            if head.ctype == "multipart/alternative" and subparts:
                types = [_Head.of(sub).ctype for sub in subparts]
                ranks = [_alternative_rank(t, sub.is_multipart()) for t, sub in zip(types, subparts)]
                chosen = min(range(len(subparts)), key=lambda i: (ranks[i], i))
                for i, ctype in enumerate(types):
                    if i != chosen:
                        self.note(said(N_("{within}the {ctype} alternative was not read (the {other} one was)"),
                                       within=_within(forwarded), ctype=ctype, other=types[chosen]))
                subparts = [subparts[chosen]]
            for sub in subparts:
                self.walk(sub, depth + 1, forwarded)
            return
        self.leaf(part, head, _within(forwarded))

    def leaf(self, part: Message, head: _Head, within: Said | str) -> None:
        ctype, filename = head.ctype, head.filename
        readable = (
            ctype.startswith("text/")
            or ctype in _TEXT_TYPES
            or (filename is not None and filename.lower().endswith(_TEXT_SUFFIXES))
        )
        if filename is not None:
            shown = filename if len(filename) <= 60 else filename[:60] + "…"
            where = said(N_('{within}attachment "{name}" ({ctype})'), within=within, name=shown, ctype=ctype)
        else:
            where = said(N_("{within}{ctype} part"), within=within, ctype=ctype)
        if not readable:
            self.note(said(N_("{where} was skipped: it is not text"), where=where))
            return
        raw = part.get_payload(decode=True)
        if not isinstance(raw, bytes):
            raw = b""
        notes: list[str] = []
        if any(isinstance(defect, _BASE64_DEFECTS) for defect in part.defects):
            notes.append(said(N_("its base64 encoding is damaged: some of its text may be missing or wrong")))
        charset = head.params.get("charset", "")
        if not charset and not ctype.startswith("text/"):
            charset = "utf-8"  # JSON (RFC 8259) and game files are UTF-8
        text, decode_notes = decode_text(raw, charset)
        notes.extend(decode_notes)
        text = text.replace("\r\n", "\n")
        if ctype == "text/html":
            text = html_to_text(text)
            where = said(N_("{where}, as text"), where=where)
        elif ctype == "text/plain" and head.params.get("format", "").lower() == "flowed":
            text = unflow(text, delsp=head.params.get("delsp", "").lower() == "yes")
        self.parts.append(Part(text, self.origin(where), notes))


def _alternative_rank(ctype: str, multipart: bool) -> int:
    if ctype == "text/plain":
        return 0
    if multipart:
        return 1
    if ctype == "text/html":
        return 2
    return 3


def _as_it_came(raw: bytes, label: Said | str, why: str) -> list[Part]:
    text, notes = decode_text(raw, "utf-8")
    return [Part(text.replace("\r\n", "\n"), said(N_("{label}, as it came"), label=label), [why, *notes])]


def _read_message(raw: bytes, label: Said | str, budget: _Budget) -> list[Part]:
    if not budget.take(raw):
        return _as_it_came(
            raw, label,
            said(N_("it has more MIME parts or MIME header fields than are read (at most {parts} parts and {kb} KB "
                    "of Content-* fields in all): it is given as it came"),
                 parts=MAX_MIME_PARTS, kb=MAX_MIME_FIELD_BYTES // 1024),
        )
    reader = _Reader(label)
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        reader.walk(message, 0, 0)
    except Exception as exc:  # noqa: BLE001 — the email package raises internal errors on bad input
        # (IndexError, AttributeError, AssertionError, RecursionError … from its parsers); the
        # message is then shown as it came, so that lines pasted in it can still be found.
        return _as_it_came(raw, label, said(N_("its MIME structure could not be read ({error}): it is given as it came"),
                                            error=type(exc).__name__))
    parts = reader.parts
    if not parts:  # no text part, or (the depth note says so) none within the depth read
        deep = any("nested more than" in note for note in reader.notes)
        parts = [Part("", said(N_("{label}, no text"), label=label), [] if deep else [said(N_("it has no text part to read"))])]
    parts[0].notes[:0] = reader.notes
    return parts
