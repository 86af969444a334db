"""Game lines found in mailed or pasted text: armoured blocks checked and unpacked first, then plain
lines with the mail program's quoting, wrapping, re-spacing and quoted-printable undone, and a line a
mail program visibly damaged mended where it can be.  Every scan here is linear in the input."""

from __future__ import annotations

import quopri
import re
from dataclasses import dataclass, field
from typing import AbstractSet, Any

import msgspec

from ...i18n import N_
from ...said import listing, said
from . import armour, read as mailread
from ..lines import GameFileError, decode_line



# A line of a game file as agility writes it starts with `{"kind":`; a mail program may re-space it.
_GAME_LINE_START = re.compile(r'\{\s*"kind"\s*:')


_QP_SOFT_BREAK = re.compile(r"=\r?\n")


_QP_ESCAPE = re.compile(r"=(?:3D|22|20|09|0D|0A|[89A-F][0-9A-F])", re.I)


def _undo_quoted_printable(text: str) -> str:
    """The mail decoded from quoted-printable, if it was sent so and not decoded on the way: a
    header says so, or a line ends in a soft break ``=`` (no game line has ``=`` at its end), or
    ``=3D``/``=22``-style escapes are there.  Else the text as it is."""
    marked = re.search(r"content-transfer-encoding:\s*quoted-printable", text, re.I) is not None
    if not (marked or _QP_SOFT_BREAK.search(text) or _QP_ESCAPE.search(text)):
        return text
    return quopri.decodestring(text.replace("\r\n", "\n").encode("utf-8")).decode("utf-8", "replace")


_QUOTING = re.compile(r"(?:>\s*)+")  # mail quoting at a line's start: `>`, `> >`, `>>`


_ESCAPE_PAIR = re.compile(r"\\.", re.DOTALL)  # a backslash and the character it escapes


_NOT_MARKS = re.compile(r'[^"\\{}\[\]]+')  # all but what JSON nesting depends on: quotes, backslashes, brackets


class _Joined:
    """A game line being joined from the physical lines a mail program wrapped it over.

    Linear in the text however it is cut: the pieces are kept in a list (joined once), and the
    JSON nesting is followed as they come (brackets outside strings), so the whole is decoded only
    where it can be complete — a piece that ends where the object it began closes.  Once the
    object has closed without being valid JSON (or a bracket closed more than was open), nothing
    appended can make it a game line, and it is never decoded again: a mail of one unfinished line
    followed by a hundred thousand short ones costs what reading them costs.
    """

    def __init__(self, first: str):
        self.parts = [first]
        self.depth = 0
        self.in_string = False
        self.escaped = False
        self.closed = False  # the object the text began has closed
        self.dead = False  # … and it was not a whole JSON object, or text followed it
        self.done = self._scan(first)

    def _scan(self, piece: str) -> bool:
        """Follow the nesting through ``piece``; whether the object closed at its very end.
        Only quotes, backslashes and brackets matter: the rest is dropped first, in C."""
        if self.closed:
            self.dead = self.dead or bool(piece)  # nothing may follow the object
            return False
        if self.escaped and piece:
            piece, self.escaped = piece[1:], False  # a backslash ended the last piece: it escapes this character
        # An escape and the character it escapes never open or close anything: drop the pairs first
        # (a backslash escapes any character, not only the marks kept below).
        unescaped = _ESCAPE_PAIR.sub("", piece)
        trailing = unescaped.endswith("\\")
        marks = _NOT_MARKS.sub("", unescaped[:-1] if trailing else unescaped)
        depth, in_string, escaped = self.depth, self.in_string, trailing
        at_close = closed = False
        for k, ch in enumerate(marks):
            if in_string:
                if ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    closed = True
                    # the object closed: at the piece's very end, or with something after it
                    at_close = k == len(marks) - 1 and piece.endswith(ch)
                    self.dead = not at_close
                    break
        self.depth, self.in_string, self.escaped, self.closed = depth, in_string, escaped, closed
        return at_close

    def add(self, piece: str) -> bool:
        """Append a physical line; whether the text is now a whole JSON object."""
        self.parts.append(piece)
        return self._scan(piece)

    def complete(self) -> bool:
        """Whether the text is a whole JSON object (decoded once, where it can be); a text that
        closed without being one is dead from then on."""
        if self.dead:
            return False
        if _is_json("".join(self.parts)):
            return True
        self.dead = True
        return False

    def text(self) -> str:
        return "".join(self.parts)


def mailed_lines(text: str) -> tuple[list[str], list[str]]:
    """The game lines in a mail, and the other (ignored) non-blank text lines.

    Strips quoting (``>``, ``> >``, ``>>``), surrounding whitespace, CR and byte-order marks; undoes
    quoted-printable encoding; skips blank lines and prose; joins a JSON line that the mail program
    wrapped over several lines.  A game line starts with ``{"kind":``; a prose line that merely
    starts with ``{`` (``{cheers}``) is prose, and so is text that never became a whole JSON object
    — unless it began like a game line, which is then reported as a damaged one.  Time and memory
    are linear in the mail's length (:class:`_Joined`).
    """
    found: list[str] = []
    ignored: list[str] = []
    buf: _Joined | None = None

    def flush() -> None:
        nonlocal buf
        if buf is not None:
            found.append(buf.text())  # it began like a game line
        buf = None

    for physical in _undo_quoted_printable(text.replace("\ufeff", "")).splitlines():
        s = physical.strip()
        if s.startswith(">"):
            s = s[_QUOTING.match(s).end():]  # type: ignore[union-attr]  # it matches at a ">"
        if not s:
            flush()
            continue
        starts = _GAME_LINE_START.match(s) is not None
        if buf is not None and starts:
            flush()  # a new game line begins: what came before it never became one
        if buf is None:
            if not starts:
                ignored.append(s)
                continue
            if s.endswith("}") and _is_json(s):
                found.append(s)  # the usual case: a whole game line on one line
                continue
            buf = _Joined(s)
            closed = buf.done
        else:
            closed = buf.add(s)
        if closed and buf.complete():
            flush()
    flush()
    return found, ignored


def _is_json(text: str) -> bool:
    try:
        msgspec.json.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return False
    return True


@dataclass
class Incoming:
    """What a mail (or pasted text) holds for ``apply``: its game lines, in order, from armoured
    blocks and plain lines alike; the other text lines; and what the mail reader noticed."""

    found: list[str]
    ignored: list[str]
    notes: list[str]
    blocks: int = 0  # armoured blocks read
    #: blocks cut short or changed on the way, that no whole block of the mail covers: judged by
    #: the caller on the lines they add (:func:`unheld`), never before
    damaged: list[Damaged] = field(default_factory=list)

    def unread(self, most: int = 3) -> str:
        """What the mail reader could not read, for a refusal of a mail that holds no game line
        (parts nested past ``read.MAX_DEPTH``, a part that is no text …): the first ``most``
        notes, ``""`` when there are none."""
        if not self.notes:
            return ""
        more = len(self.notes) - most
        shown = listing(self.notes[:most], N_("; "))
        return said(N_("{notes}; and {n} more"), notes=shown, n=more) if more > 0 else shown


@dataclass(frozen=True)
class Damaged:
    """An armoured block cut short or changed on the way: the lines its markers name (``game`` is
    the block's game id, ``first``–``last`` lines of the file, from 1) and what is wrong, in
    words safe to print.  The block is never read: only the lines it names count."""

    game: str
    first: int
    last: int
    problem: str

    def held(self, game: str, lines: int, also: AbstractSet[tuple[str, int]] = frozenset()) -> bool:
        """Whether losing this block loses nothing: every line it names is one of the file's
        ``lines`` (the file of game id ``game``), or is in ``also`` (``(game id, line)`` pairs
        that a whole block or plain line of this mail or of a later one carries)."""
        return all((self.game == game and line <= lines) or (self.game, line) in also
                   for line in range(self.first, min(self.last, self.first + 100_000) + 1))


def unheld(damaged: list[Damaged], game: str, lines: int, also: AbstractSet[tuple[str, int]] = frozenset()
           ) -> list[Damaged]:
    """The damaged blocks that would lose lines (not :meth:`Damaged.held`), each problem once:
    lines already held are dropped before a block is judged, and a block is judged only on the
    lines it adds — a quoted old block, however the reply mangled it, never matters."""
    out: list[Damaged] = []
    said: set[str] = set()  # each problem once, looked up in a set: a mail of 100,000 damaged
    checked = 0             # blocks was quadratic here (issue 50: the scan stays linear)
    for block in damaged:
        if block.problem in said:
            continue
        # a budget of lines looked at over all the blocks: past it a block counts as losing lines
        # (it is reported, never applied), so a hostile mail cannot make this slow
        checked += min(block.last, block.first + 100_000) - block.first + 1
        if checked > _HELD_BUDGET or not block.held(game, lines, also):
            out.append(block)
            said.add(block.problem)
    return out


#: How many named lines :func:`unheld` looks at in one mail, at most (a real mail names a few dozen).
_HELD_BUDGET = 1_000_000


def damage_message(damaged: list[Damaged]) -> Any:
    """One sentence for the damaged blocks that lose lines: which lines, and what to ask for (a
    :class:`~agility_cli.said.Said` where the problem is one)."""
    first = damaged[0]
    more = len(damaged) - 1
    if not more:
        return first.problem
    return said(N_("{problem}; and {n} more damaged block") if more == 1 else
                N_("{problem}; and {n} more damaged blocks"), problem=first.problem, n=more)


_BEGIN, _END = "BEGIN AGILITY LINES", "END AGILITY LINES"


def without_blocks(text: str) -> str:
    """``text`` less its armoured blocks' lines: each line holding ``BEGIN AGILITY LINES`` up to and
    including the next line holding ``END AGILITY LINES`` (what :mod:`.armour` has read already),
    so that the plain-line reader does not see them again.  A BEGIN with no END after it leaves
    the rest of the text as it is.

    One pass over the lines, each looked at once (this was a regular expression that scanned to
    the end of the text from every BEGIN line: quadratic on a mail of BEGIN lines with no END).
    The last END's offset is found first, so a BEGIN after it is known at once to open nothing.
    """
    if _BEGIN not in text:
        return text
    last_end = text.rfind(_END)
    kept: list[str] = []
    block_start: int | None = None  # index in ``kept`` where the open block's lines begin
    offset = 0
    for line in text.splitlines(keepends=True):
        at, offset = offset, offset + len(line)
        if block_start is None:
            begin = line.find(_BEGIN)
            if begin < 0 or at + begin > last_end:
                kept.append(line)
                continue
            block_start = len(kept)
            kept.append(line)
            if _END in line[begin + len(_BEGIN):]:
                del kept[block_start:]
                block_start = None
            continue
        kept.append(line)
        if _END in line:
            del kept[block_start:]
            block_start = None
    return "".join(kept)


def read_mail(data: bytes) -> Incoming:
    """The game lines of ``data``: a raw message (any MIME structure, transfer encoding, charset,
    format=flowed, HTML, text attachments), an mbox of several, or pasted text (``record.mail.read``).
    Armoured blocks (what ``agility send`` prints) are checked and unpacked first; a block cut
    short or changed is kept aside (``Incoming.damaged``) unless whole blocks of the same mail
    hold every line it names: the caller judges it on the lines it adds to the file."""
    found: list[str] = []
    ignored: list[str] = []
    notes: list[str] = []
    damaged: list[Damaged] = []
    whole: set[tuple[str, int]] = set()
    blocks_read = 0
    for part in mailread.read_input(data):
        notes += [said(N_("{origin}: {note}"), origin=part.origin, note=note) for note in part.notes]
        try:
            blocks = armour.find_blocks(part.text)
        except armour.ArmourError as exc:
            blocks = exc.blocks
            damaged += [Damaged(*named, problem) for named, problem in zip(exc.named, exc.problems)]
        blocks_read += len(blocks)
        for block in blocks:
            found += [raw.decode("utf-8", "replace") for raw in block.lines]
            whole.update((block.game, line) for line in range(block.first, block.last + 1))
        lines, other = mailed_lines(without_blocks(part.text))
        found += lines
        ignored += other
    unique = list(dict.fromkeys(found))  # a reply quotes the lines again: each once, in order
    return Incoming(unique, ignored, notes, blocks_read, unheld(damaged, "", 0, whole))


# ----------------------------------------------------------------------------------------------
# What mail programs do to a line, and how it is mended (a line that verifies once mended is taken)

_MOJIBAKE = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u2018-\u203a\u20ac\u0152\u0153\u0160\u0161\u017d\u017e\u0178]")
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))


def mail_damage(text: str) -> str:
    """What a mail program visibly did to a line (empty when nothing shows)."""
    signs = []
    if "\ufffd" in text:
        signs.append(said(N_("a character it could not show became {char}"), char="\u201c\ufffd\u201d"))
    if _MOJIBAKE.search(text):
        signs.append(said(N_("it read the line in the wrong character set ({seen} for {meant})"),
                          seen="\u201c\u00c3\u00ab\u201d", meant="\u201c\u00eb\u201d"))
    if text != text.rstrip():
        signs.append(said(N_("it added spaces at the end")))
    if "\u00a0" in text or any(ord(ch) in _INVISIBLE for ch in text):
        signs.append(said(N_("it put in invisible or non-breaking spaces")))
    return listing(signs, N_("; ")) if signs else ""


def mail_repairs(text: str) -> list[tuple[str, str]]:
    """Candidate originals of a line a mail program changed, each with what was undone."""
    out: list[tuple[str, str]] = []
    plain = text.rstrip().replace("\u00a0", " ").translate(_INVISIBLE)
    if plain != text:
        out.append((plain, said(N_("spaces it added"))))
    for charset in ("cp1252", "latin-1"):
        try:
            fixed = plain.encode(charset).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        if fixed != plain:
            out.append((fixed, said(N_("the characters it read as {charset}"), charset=charset)))
    return out


def decode_mailed(text: str, index: int) -> tuple[str, bytes, Any] | None:
    """A mailed line decoded (``text``, bytes, record), mended if a mail program changed it so that
    it no longer parses; ``None`` when it is no game line even mended."""
    for candidate in [text, *(fixed for fixed, _ in mail_repairs(text))]:
        raw = candidate.encode()
        try:
            return candidate, raw, decode_line(raw, "mail", index)
        except GameFileError:
            continue
    return None
