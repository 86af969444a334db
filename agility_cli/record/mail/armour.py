"""Game lines armoured for mail: a self-checking ASCII block that survives mail programs.

A game line is 200–560 characters of JSON (a header line 10 KB), with spaces and quotes inside
values; mail programs wrap, re-flow, quote, re-indent and re-encode such text, and one changed or
lost character breaks the line's signature.  ``agility send`` can print the lines as a block
instead, every line of it at most 76 characters of plain ASCII (here line 5 of game 1a2b3c4d,
``{"kind":"done","n":4,"player":"alice"}``)::

    -----BEGIN AGILITY LINES game 1a2b3c4d lines 5-5-----
    eNqrVsrOzEtRslJKyc9LVdJRylOyMtFRKshJrEwtAoom5mQmpyrVAgDi2gvM
    =np3tL7N3HuYwqLFl
    -----END AGILITY LINES game 1a2b3c4d lines 5-5-----

The lines joined with ``\\n`` are zlib-compressed, base64-encoded (standard alphabet, padded) and
cut into rows of 64 characters; the row that starts with ``=`` is a checksum (the first 12 bytes
of SHA-256 over the markers' words and the lines).  docs/mail-format.md gives the exact format, a
worked example and the limits.

:func:`find_blocks` finds every block anywhere in a text, however the mail program treated it:
quoted (``> ``, ``>> ``), indented, CRLF, blank lines added, rows re-wrapped at another width or
joined — inside a block every blank and every ``>`` is ignored, since base64 uses neither.  What
it refuses is content that is missing or altered (a block cut short, a changed character, an END
line that does not match its BEGIN line), with an :class:`ArmourError` that says so in the
player's terms.

The decoded lines are bytes as the sender's file holds them: nothing here checks that they are
game lines, and nothing in them is safe to print (the caller verifies and escapes them).  The
messages of :class:`ArmourError` are safe to print: they hold only numbers, the game id (letters
and digits) and characters shown by their code point.

Stdlib only.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import textwrap
import zlib
from dataclasses import dataclass, field

from ...i18n import N_
from ...said import Said, listing, said
from ...text import has_unsafe

__all__ = [
    "Block", "ArmourError", "armour", "find_blocks", "with_summary", "checksum",
    "MAX_LINES_BYTES", "WIDTH",
]

#: Columns of a base64 row: 64, as PEM and OpenPGP armour, so that a row stays under 72 columns
#: even quoted four times (``>>>> ``) and no mail program re-wraps it.
WIDTH = 64
#: The longest a printed line of the block may be (the markers are the longest; RFC 5322 advises 78).
MAX_COLUMNS = 76
#: The most bytes of lines all the blocks of one text may unpack to (8 MiB): a block whose
#: compressed data would unpack to more is refused (a zlib bomb), as is a call to :func:`armour`
#: with more.  A game file is some 100 KB.
MAX_LINES_BYTES = 8 * 1024 * 1024
#: A game id in the markers: 1 to 16 letters or digits (the caller's short id of the game).
GAME_ID = re.compile(r"[A-Za-z0-9]{1,16}")
#: The largest line number the markers hold (7 digits keep every marker within 76 columns).
MAX_LINE_NUMBER = 9_999_999
#: Bytes of SHA-256 kept in the checksum row (12: 96 bits, 16 base64 characters without padding).
CHECKSUM_BYTES = 12

_CHECKSUM_CHARS = 4 * CHECKSUM_BYTES // 3  # 16
# A marker, found anywhere in a text: its words may be separated by any blanks and quote marks
# (a mail program that re-flowed it), but not changed.  Every separator is followed by a literal
# that it cannot match, so the expression does not backtrack.
_SEP = r"[\s>]+"
_MARKER = re.compile(
    r"-----(BEGIN|END)" + _SEP + "AGILITY" + _SEP + "LINES" + _SEP + "game" + _SEP
    + r"([A-Za-z0-9]{1,16})" + _SEP + "lines" + _SEP + r"([0-9]{1,7})-([0-9]{1,7})-----"
)
# What a mail program may put inside a block without changing it: blanks, line breaks, quote
# marks, and the invisible characters some insert into long words (soft hyphen, zero-width
# spaces and joiners, word joiner, byte-order mark).
_IGNORED = re.compile("[\\s>\u00ad\u200b\u200c\u200d\u2060\ufeff]+")
# A character that is neither base64, nor "=", nor what _IGNORED takes away: the block was changed.
_FOREIGN = re.compile("[^A-Za-z0-9+/=\\s>\u00ad\u200b\u200c\u200d\u2060\ufeff]")


@dataclass
class Block:
    """One armoured block found in a text: the lines it holds, as the markers name them.

    ``game`` is the game id of the markers; ``first`` and ``last`` the line range they name
    (``last - first + 1 == len(lines)``); ``where`` the line of the text its BEGIN marker is on
    (from 1).  ``lines`` are the bytes of each line, without newline, not yet verified as game
    lines and not safe to print.
    """

    game: str
    first: int
    last: int
    lines: list[bytes]
    where: int = 0


class ArmourError(Exception):
    """A block that is cut short or was changed on the way.

    ``str(error)`` says what is wrong in the player's terms, for the first :data:`SHOWN` such
    blocks of the text (``problems`` lists them all, one by one); ``blocks`` holds the blocks of
    the same text that were whole, for a caller that wants to say which ones could be read.
    """

    SHOWN = 5

    def __init__(self, problems: list[Said], blocks: list[Block] | None = None,
                 named: list[tuple[str, int, int]] | None = None) -> None:
        self.problems = problems
        self.blocks = blocks if blocks is not None else []
        #: the (game, first, last) each problem's markers name, in the order of ``problems``: a
        #: caller whose file holds those lines already passes the damaged block over
        self.named = named if named is not None else []
        more = len(problems) - self.SHOWN
        shown = listing(problems[: self.SHOWN], N_("; "))
        super().__init__(shown if more <= 0 else said(
            N_("{problems}; and {n} more block cut short or changed") if more == 1 else
            N_("{problems}; and {n} more blocks cut short or changed"), problems=shown, n=more))


# ----------------------------------------------------------------------------------------------
# Writing


def _words(game: str, first: int, last: int) -> str:
    return f"game {game} lines {first}-{last}"


def checksum(lines: list[bytes], *, game: str, first: int, last: int) -> str:
    """The checksum row's 16 characters: the first 12 bytes of SHA-256 over the markers' words,
    a newline and the lines joined with newlines (``game G lines A-B\\nLINE\\nLINE``), in base64."""
    digest = hashlib.sha256(_words(game, first, last).encode("ascii") + b"\n" + b"\n".join(lines)).digest()
    return base64.b64encode(digest[:CHECKSUM_BYTES]).decode("ascii")


def armour(lines: list[bytes], *, game: str, first: int, last: int) -> str:
    """The lines as an armoured block (ending with a newline), to be printed and mailed.

    ``lines`` are whole lines of the game file without their newline; ``first`` and ``last`` are
    the numbers the markers give them (the caller's numbering, e.g. the file's line numbers), so
    ``last - first + 1 == len(lines)``; ``game`` is a short id of the game (1–16 letters or
    digits).  Every line of the result is ASCII and at most 76 characters.  Raises
    :class:`ValueError` for arguments that do not make a block (a line holding a newline, a
    range that does not count the lines, more than :data:`MAX_LINES_BYTES`).
    """
    if not GAME_ID.fullmatch(game):
        raise ValueError(f"the game id must be 1 to 16 letters or digits, not {game!r}")
    if not lines:
        raise ValueError("a block holds at least one line")
    if not 1 <= first <= last <= MAX_LINE_NUMBER:
        raise ValueError(f"the line range {first}-{last} must be ascending, from 1 to {MAX_LINE_NUMBER}")
    if last - first + 1 != len(lines):
        raise ValueError(f"the line range {first}-{last} counts {last - first + 1} lines, not {len(lines)}")
    if any(b"\n" in line for line in lines):
        raise ValueError("a line of a block cannot hold a newline")
    content = b"\n".join(lines)
    if len(content) > MAX_LINES_BYTES:
        raise ValueError(f"the lines are {len(content)} bytes long; a block holds at most {MAX_LINES_BYTES}")
    data = base64.b64encode(zlib.compress(content, 9)).decode("ascii")
    words = _words(game, first, last)
    rows = [f"-----BEGIN AGILITY LINES {words}-----"]
    rows.extend(data[i : i + WIDTH] for i in range(0, len(data), WIDTH))
    rows.append("=" + checksum(lines, game=game, first=first, last=last))
    rows.append(f"-----END AGILITY LINES {words}-----")
    assert all(len(row) <= MAX_COLUMNS for row in rows)
    return "\n".join(rows) + "\n"


def with_summary(paragraphs: list[str], block: str) -> str:
    """What ``send`` prints: the caller's paragraphs for the reader, wrapped at 72 columns and
    separated by blank lines, then a blank line and the block.

    The paragraphs may hold any letters (player names), but no control or bidi characters
    (:class:`ValueError`); a word longer than 72 characters is broken, so that no line of the
    result is longer than 76.  Only the block is needed to apply the lines: the summary may be
    lost or changed on the way.
    """
    out: list[str] = []
    for paragraph in paragraphs:
        if has_unsafe(paragraph.replace("\n", " ").replace("\t", " ")):
            raise ValueError("a summary paragraph holds control or bidi characters")
        text = textwrap.fill(paragraph, 72, break_long_words=True, break_on_hyphens=False)
        if text:
            out.append(text + "\n\n")
    out.append(block)
    return "".join(out)


# ----------------------------------------------------------------------------------------------
# Reading


@dataclass
class _Open:
    game: str
    first: int
    last: int
    where: int
    body_start: int


@dataclass
class _Reading:
    blocks: list[Block] = field(default_factory=list)
    problems: list[tuple[tuple[str, int, int], Said]] = field(default_factory=list)  # (lines named, message)
    budget: int = MAX_LINES_BYTES  # bytes left to unpack, charged for every block, whole or not
    seen: set[tuple[str, int, int, str]] = field(default_factory=set)  # (game, first, last, checksum)


def _name(where: int, game: str, first: int, last: int) -> Said:
    return said(N_("the block from line {where} (game {game}, lines {first}–{last})"), where=where, game=game,
                first=first, last=last)


def _shown(ch: str) -> str:
    """A character for a message: itself when printable ASCII, always its code point."""
    return f"'{ch}' (U+{ord(ch):04X})" if " " < ch < "\x7f" else f"U+{ord(ch):04X}"




def find_blocks(text: str) -> list[Block]:
    """Every armoured block in ``text``, in order; identical copies (a reply quoting the block
    again) are given once.

    Raises :class:`ArmourError` if any block is cut short or was changed: an END marker missing
    (or a BEGIN marker before it: "two BEGIN lines without an END"), an END marker without its
    BEGIN marker, markers that name different lines, characters that are not base64, a checksum
    that does not match, or more than :data:`MAX_LINES_BYTES` of lines in all.  The error names
    each such block and keeps the whole ones (``ArmourError.blocks``).  A text with no block gives
    an empty list.  Linear in the length of ``text``.
    """
    reading = _Reading()
    open_block: _Open | None = None
    line, counted = 1, 0  # the text's line number at offset ``counted``
    for match in _MARKER.finditer(text):
        line += text.count("\n", counted, match.start())
        counted = match.start()
        kind, game, first, last = match.group(1), match.group(2), int(match.group(3)), int(match.group(4))
        if kind == "BEGIN":
            if open_block is not None:
                reading.problems.append((
                    (open_block.game, open_block.first, open_block.last),
                    said(N_("{name} was cut short (its END line is missing: two BEGIN lines without an END); ask "
                            "for it to be sent again"),
                         name=_name(open_block.where, open_block.game, open_block.first, open_block.last)),
                ))
            open_block = _Open(game, first, last, line, match.end())
            continue
        if open_block is None:
            reading.problems.append((
                (game, first, last),
                said(N_("the END line on line {line} (game {game}, lines {first}–{last}) has no BEGIN line: the "
                        "start of its block is missing; ask for it to be sent again"),
                     line=line, game=game, first=first, last=last),
            ))
            continue
        if (game, first, last) != (open_block.game, open_block.first, open_block.last):
            reading.problems.append((
                (open_block.game, open_block.first, open_block.last),
                said(N_("{name} ends with the END line of another block (game {game}, lines {first}–{last}, on "
                        "line {line}): the mail program changed it or part of it is missing; ask for it to be sent "
                        "again"), name=_name(open_block.where, open_block.game, open_block.first, open_block.last),
                     game=game, first=first, last=last, line=line),
            ))
        else:
            _decode(text[open_block.body_start : match.start()], open_block, reading)
        open_block = None
    if open_block is not None:
        reading.problems.append((
            (open_block.game, open_block.first, open_block.last),
            said(N_("{name} was cut short (its END line is missing); ask for it to be sent again"),
                 name=_name(open_block.where, open_block.game, open_block.first, open_block.last)),
        ))
    # A damaged copy of lines that a whole block of the text holds loses nothing: it is let go.
    whole = {(b.game, b.first, b.last) for b in reading.blocks}
    left = [(named, message) for named, message in reading.problems if named not in whole]
    if left:
        raise ArmourError([message for _, message in left], reading.blocks, [named for named, _ in left])
    return reading.blocks


def _decode(body: str, block: _Open, reading: _Reading) -> None:
    """Decode one block's body into ``reading`` (a block, or a problem)."""
    name = _name(block.where, block.game, block.first, block.last)
    named = (block.game, block.first, block.last)

    def refuse(message: Said) -> None:
        reading.problems.append((named, message))

    qp = "=3D" in body  # the text is still quoted-printable: said so

    def changed() -> None:
        refuse(said(N_("{name} was changed on the way (its checksum does not match): the mail program changed or "
                       "lost part of it (the text is still quoted-printable: =3D stands for =; paste the mail as the "
                       "mail program shows it); ask for it to be sent again") if qp else
                    N_("{name} was changed on the way (its checksum does not match): the mail program changed or "
                       "lost part of it; ask for it to be sent again"), name=name))

    foreign = _FOREIGN.search(body)
    if foreign is not None:
        at = block.where + body.count("\n", 0, foreign.start())
        refuse(said(N_("{name} holds a character that is not part of it, {char} on line {line}: the mail "
                       "program changed it; ask for it to be sent again"), name=name, char=_shown(foreign.group()),
                    line=at))
        return
    clean = _IGNORED.sub("", body)
    if len(clean) <= _CHECKSUM_CHARS or clean[-_CHECKSUM_CHARS - 1] != "=" or "=" in clean[-_CHECKSUM_CHARS:]:
        refuse(said(N_("{name} has lost its checksum line (the one that starts with '='): the mail program "
                       "changed or cut it (the text is still quoted-printable: =3D stands for =; paste the mail as "
                       "the mail program shows it); ask for it to be sent again") if qp else
                    N_("{name} has lost its checksum line (the one that starts with '='): the mail program "
                       "changed or cut it; ask for it to be sent again"), name=name))
        return
    data, check = clean[: -_CHECKSUM_CHARS - 1], clean[-_CHECKSUM_CHARS:]
    key = (block.game, block.first, block.last, check)
    if key in reading.seen:
        return  # a copy of a block already read (a reply quoting it): the same lines
    try:
        packed = base64.b64decode(data, validate=True)  # refuses a "=" inside, or a length cut
    except binascii.Error:
        changed()
        return
    inflater = zlib.decompressobj()
    try:
        content = inflater.decompress(packed, reading.budget + 1)
    except zlib.error:
        changed()
        return
    if len(content) > reading.budget:
        limit = MAX_LINES_BYTES // (1024 * 1024)
        refuse(said(N_("{name} unpacks to more than {limit} MiB of lines with the blocks before it: that is not "
                       "what agility sends, and it was not read") if reading.budget < MAX_LINES_BYTES else
                    N_("{name} unpacks to more than {limit} MiB of lines: that is not what agility sends, and it "
                       "was not read"), name=name, limit=limit))
        reading.budget = 0
        return
    reading.budget -= len(content)
    lines = content.split(b"\n")
    whole = inflater.eof and not inflater.unused_data
    if not whole or checksum(lines, game=block.game, first=block.first, last=block.last) != check:
        changed()
        return
    if len(lines) != block.last - block.first + 1 or block.first < 1:
        refuse(said(N_("{name} holds {n} lines, not the {named} its markers name: it was not made by agility "
                       "send; ask for the lines to be sent again") if block.last >= block.first >= 1 else
                    N_("{name} holds {n} lines, not what its markers name: it was not made by agility send; ask "
                       "for the lines to be sent again"), name=name, n=len(lines), named=block.last - block.first + 1))
        return
    reading.seen.add(key)
    reading.blocks.append(Block(block.game, block.first, block.last, lines, block.where))
