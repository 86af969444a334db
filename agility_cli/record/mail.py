"""Mailed lines: game lines found in pasted or mailed text (quoting, wrapping, re-spacing undone), and
``apply`` of those that continue the file's tip (R41: never a line in the recipient's name)."""

from __future__ import annotations

import os
import quopri
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable
import msgspec

from . import armour, gamefile, keys, mailread
from ..engine import rules
from .gamefile import Game, GameFileError, Pending, line_hash
from ..engine.moves import ENCODER, LINE_DECODER, Header, Move, line_summary, summary
from ..engine.state import State
from ..text import quoted, safe, shell_command
from ..engine.notation import Refused, UsageError


# ----------------------------------------------------------------------------------------------
# apply (lines received by mail)


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


def _refuse(message: str, code: str) -> Refused:
    return Refused(message, [], None, code)  # the CLI's boundary adds "the game file is unchanged"


@dataclass
class ApplyReport:
    applied: list[tuple[int, Move]] = field(default_factory=list)  # (n, move)
    keys: list[int] = field(default_factory=list)  # n of mailed keys lines of a sealed game (R44): no decision
    #: the lines this machine's tool wrote at once after the mailed ones (a sealed game's keys or
    #: passes it owes, a forced decision, R44): (n, what the line is)
    own: list[tuple[int, str]] = field(default_factory=list)
    #: the applied lines as verified: (line number, bytes, move, state before, state after), to narrate
    steps: list[tuple[int, bytes, Move, State, State]] = field(default_factory=list)
    already: list[int] = field(default_factory=list)  # n of lines the file held already
    normalised: list[int] = field(default_factory=list)  # n of lines re-encoded canonically
    ignored: list[str] = field(default_factory=list)  # text lines that are not game lines
    game: Game | None = None
    handshake: list[str] = field(default_factory=list)  # "join" / "reveal" lines added (R40)
    reveal: bytes | None = None  # the reveal line this machine made (to send to the other player)
    notes: list[str] = field(default_factory=list)  # what the mail program changed, and was mended or ignored
    from_block: bool = False  # the lines came in an armoured block: the prose around it is the summary


@dataclass
class Incoming:
    """What a mail (or pasted text) holds for ``apply``: its game lines, in order, from armoured
    blocks and plain lines alike; the other text lines; and what the mail reader noticed."""

    found: list[str]
    ignored: list[str]
    notes: list[str]
    blocks: int = 0  # armoured blocks read


_BLOCK_TEXT = re.compile(r"^[^\n]*BEGIN AGILITY LINES.*?END AGILITY LINES[^\n]*$", re.M | re.S)


def read_mail(data: bytes) -> Incoming:
    """The game lines of ``data``: a raw message (any MIME structure, transfer encoding, charset,
    format=flowed, HTML, text attachments), an mbox of several, or pasted text (``mailread``).
    Armoured blocks (what ``agility send`` prints) are checked and unpacked first; a block cut
    short or changed is refused (:class:`UsageError`, saying so) unless a whole copy is there too."""
    found: list[str] = []
    ignored: list[str] = []
    notes: list[str] = []
    blocks_read = 0
    for part in mailread.read_input(data):
        notes += [f"{part.origin}: {note}" for note in part.notes]
        try:
            blocks = armour.find_blocks(part.text)
        except armour.ArmourError as exc:
            raise UsageError(f"{exc}; or ask for the lines as `agility send FILE --raw` prints them") from None
        blocks_read += len(blocks)
        for block in blocks:
            found += [raw.decode("utf-8", "replace") for raw in block.lines]
        lines, other = mailed_lines(_BLOCK_TEXT.sub("", part.text))
        found += lines
        ignored += other
    unique = list(dict.fromkeys(found))  # a reply quotes the lines again: each once, in order
    return Incoming(unique, ignored, notes, blocks_read)


def apply_lines(path: str | Path, texts: list[str], as_player: str | None = None,
                recipient: str | None = None, incoming: Incoming | None = None) -> ApplyReport:
    """Append mailed lines that continue the file's tip; skip those it holds; refuse the rest.

    ``texts`` is raw mail text (one or more strings).  Raises :class:`UsageError` if it holds no
    game line, :class:`Refused` (exit 1, file unchanged) if a line does not fit or does not verify.

    Nobody can move for you, signed or not: a mailed line that is the recipient's own decision
    (not forced by the rules) is refused (R41).  The recipient is ``recipient`` (the viewer, found
    by the caller: the seat whose key is held here, or in an unsigned game the seat this machine
    has played), else ``as_player``, else ``AGILITY_PLAYER``, else the one seat whose key this
    machine holds.  A mail whose new lines decide for both seats is refused whoever receives it.
    A mailed ``join`` line of a game waiting for it is added, and the creator's reveal follows at
    once when this machine holds the creator's secret (R40).
    """
    name = str(path)
    found, ignored = (incoming.found, incoming.ignored) if incoming is not None else mailed_lines("\n".join(texts))
    if not found:
        raise UsageError(
            "no game line in the input: paste the lines your opponent mailed (JSON objects starting with "
            "{\"kind\": …}), as arguments or on standard input"
        )
    report = ApplyReport(ignored=ignored, from_block=incoming is not None and incoming.blocks > 0)

    def change(data: bytes) -> tuple[int, bytes] | None:
        report.applied.clear()
        report.keys.clear()
        report.own.clear()
        report.steps.clear()
        report.already.clear()
        report.normalised.clear()
        report.handshake.clear()
        report.reveal = None
        game: Game | Pending
        try:
            game = report.game = gamefile.load_bytes(data, name)
        except gamefile.HandshakePending as exc:  # R40: the join (or the reveal) is still to come
            game = exc.pending
        ours = data.split(b"\n")[:-1]
        incoming: dict[int, tuple[bytes, Any]] = {}
        stale: list[tuple[int, str]] = []  # copies of lines the file holds, changed on the way
        for index, text in enumerate(found, 1):
            decoded = _decode_mailed(text, index)
            if decoded is None:
                continue  # a damaged line, kept for the message if the rest does not chain (below)
            text, raw, record = decoded
            if isinstance(record, Header):
                if ENCODER.encode(record) == ours[0] or raw == ours[0]:
                    continue  # the header of this very game: nothing to add
                raise _refuse(
                    f"the mail holds the header of a different game ({_game_words(record)}); {safe(name)} is "
                    f"{_game_words(game.header)}",
                    "apply/other_game",
                )
            n = record.n
            if not isinstance(n, int) or n < 1:
                raise _refuse(f"the {_ordinal(index)} mailed line has n={n}; decisions count from 1", "apply/malformed")
            canon = ENCODER.encode(record)
            if n < game.next_n:
                mine = ours[n]
                if mine in (raw, canon):
                    report.already.append(n)
                    continue
                stale.append((n, text))
                continue
            if n in incoming:
                if ENCODER.encode(incoming[n][1]) != canon:
                    raise _refuse(f"the mail holds two different lines n={n}", "apply/duplicate")
                continue
            incoming[n] = (raw, record)
        if not incoming or incoming[min(incoming)][1].prev != game.tip:
            if stale:  # nothing new chains to the tip: the copies differ for a reason
                n, text = stale[0]
                damage = _mail_damage(text)
                yours = safe(line_summary(LINE_DECODER.decode(ours[n])))
                if damage:
                    raise _refuse(
                        f"mailed line n={n} (line {n + 1}) is a copy of your line {n + 1} ({yours}) that your mail program "
                        f"changed ({damage}), and the mail holds no new line after it: nothing to add.  Ask for "
                        f"`agility send` again: its block reaches you intact", "apply/damaged")
                raise _refuse(
                    f"mailed line n={n} differs from your line {n + 1} (yours: {yours}; mailed: {safe(quoted(text, 60))}): "
                    f"the two copies of the game have diverged at line {n + 1}; compare them with "
                    f"`{shell_command(['agility', 'log', name])}` and agree which is right — a game cannot fork",
                    "apply/diverged")
        if stale:
            report.notes.append(
                f"ignored {len(stale)} quoted cop{'ies' if len(stale) > 1 else 'y'} of line"
                f"{'s' if len(stale) > 1 else ''} {', '.join(str(n + 1) for n, _ in stale)} that the mail program "
                "changed (your file holds them already)")
        if not incoming:
            if not found or all(_decode_mailed(t, i) is None for i, t in enumerate(found, 1)):
                _raise_malformed(found)
            if isinstance(game, Pending):
                raise gamefile.HandshakePending(game)
            return None
        order = sorted(incoming)
        tip_n = game.next_n - 1
        expected = game.next_n
        for n in order:
            if n != expected:
                missing = f"{expected + 1}" if n == expected + 1 else f"{expected + 1}–{n}"
                raise _refuse(
                    f"the mail's line {n + 1} does not follow your file, whose last line is line {tip_n + 1}: "
                    f"line{'s' if n > expected + 1 else ''} {missing} "
                    f"{'are' if n > expected + 1 else 'is'} missing (a lost mail, or a line the mail program "
                    f"damaged) — ask your opponent for `agility send` again, or for the whole game file",
                    "apply/gap",
                )
            expected += 1
        first = incoming[order[0]][1]
        if first.prev != game.tip:
            raise _refuse(_tip_mismatch(first, ours, tip_n), "apply/diverged")
        to = recipient or _recipient(as_player, data)
        deciders: set[str] = set()

        def checked() -> bytes:
            """The payload of ``incoming`` after the tip, verified (raises at a bad line)."""
            report.steps.clear()
            report.applied.clear()
            report.keys.clear()
            report.normalised.clear()
            report.handshake.clear()
            deciders.clear()
            # The bytes to write: as sent if canonical (or if the next mailed line chains to them).
            chosen: list[bytes] = []
            for i, n in enumerate(order):
                raw, record = incoming[n]
                canon = ENCODER.encode(record)
                nxt = incoming[order[i + 1]][1] if i + 1 < len(order) else None
                if raw == canon or (nxt is not None and nxt.prev == line_hash(raw) != line_hash(canon)):
                    chosen.append(raw)
                else:
                    chosen.append(canon)
                    report.normalised.append(n)
            payload = b"".join(raw + b"\n" for raw in chosen)
            if isinstance(game, Pending):
                payload = _complete_handshake(data, payload, name, game, report)
            # One verifying pass; the states are copied only around the new lines (for the checks
            # below and for the narration the CLI prints), not at every line of the file.
            before: State | None = None
            sealed = None
            for item in gamefile.verify(data + payload, name):
                if isinstance(item, gamefile.Start):
                    before = item.state.copy() if item.line >= game.lines else None
                    sealed = item.sealed
                    continue
                if item.line < game.lines:
                    continue
                if item.line == game.lines:
                    before = item.after.copy()
                    continue
                assert before is not None
                after = item.after.copy()
                if item.move is None:  # a sealed game's keys line (R44): no decision
                    report.keys.append(item.record.n)
                    before = after
                    continue
                report.steps.append((item.line, item.raw, item.move, before, after))
                if sealed is not None:  # R42: what the line itself opened, as its writer decided
                    from . import sealverify

                    forced = len(rules.legal_moves(sealverify.as_decided(sealed, before))) == 1
                else:
                    forced = len(rules.legal_moves(before)) == 1
                if not forced:
                    deciders.add(item.move.player)
                if len(deciders) == 2:
                    raise _refuse(
                        f"the mail decides for both {safe(' and '.join(sorted(deciders)))} (mailed line n={item.record.n} "
                        "is the second player's own decision): a mail holds one player's decisions, and nobody can "
                        "move for the other (R41) — ask the sender for their own lines only",
                        "apply/both_seats",
                    )
                if item.move.player == to and not forced:
                    raise _refuse(
                        f"mailed line n={item.record.n} is {safe(to)}'s own decision ({safe(summary(item.move))}): "
                        f"nobody can move for you, signed or not (R41) — {safe(to)} makes it here with "
                        f"`{shell_command(['agility', 'move', name])} …`.  Ask the sender for their own lines only "
                        "(up to their last decision before yours)",
                        "apply/your_decision",
                    )
                report.applied.append((item.record.n, item.move))
                before = after
            return payload

        try:
            payload = checked()
        except GameFileError as exc:
            if exc.line is None or exc.line <= game.lines:
                raise
            payload = _mended(exc, incoming, checked, report) or b""
            if not payload:
                n = exc.line - 1
                hint = f"; {exc.hint}" if exc.hint else ""
                raise _refuse(
                    f"mailed line n={n} (it would be line {exc.line} of {safe(name)}) does not verify: {exc.message}{hint}",
                    "apply/invalid",
                ) from None
        # R44: what this machine's tool owes now (keys, a reshuffle's pass, a forced decision) is
        # written at once, in the same locked write, so the reply is ready for `agility send`.
        own = gamefile.sealed_followups(data + payload, name)
        for raw in own.splitlines():
            record = LINE_DECODER.decode(raw)
            report.own.append((record.n, line_summary(record)))
        return len(data), payload + own

    # The game as it is after the change, or as it was when every mailed line was already in it.
    report.game = gamefile.update(path, change) or report.game
    return report


# ----------------------------------------------------------------------------------------------
# What mail programs do to a line, and how it is mended (a line that verifies once mended is taken)

_MOJIBAKE = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u2018-\u203a\u20ac\u0152\u0153\u0160\u0161\u017d\u017e\u0178]")
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))


def _mail_damage(text: str) -> str:
    """What a mail program visibly did to a line (empty when nothing shows)."""
    signs = []
    if "\ufffd" in text:
        signs.append("a character it could not show became \u201c\ufffd\u201d")
    if _MOJIBAKE.search(text):
        signs.append("it read the line in the wrong character set (\u201c\u00c3\u00ab\u201d for \u201c\u00eb\u201d)")
    if text != text.rstrip():
        signs.append("it added spaces at the end")
    if "\u00a0" in text or any(ord(ch) in _INVISIBLE for ch in text):
        signs.append("it put in invisible or non-breaking spaces")
    return "; ".join(signs)


def _mail_repairs(text: str) -> list[tuple[str, str]]:
    """Candidate originals of a line a mail program changed, each with what was undone."""
    out: list[tuple[str, str]] = []
    plain = text.rstrip().replace("\u00a0", " ").translate(_INVISIBLE)
    if plain != text:
        out.append((plain, "spaces it added"))
    for charset in ("cp1252", "latin-1"):
        try:
            fixed = plain.encode(charset).decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        if fixed != plain:
            out.append((fixed, f"the characters it read as {charset}"))
    return out


def _decode_mailed(text: str, index: int) -> tuple[str, bytes, Any] | None:
    """A mailed line decoded (``text``, bytes, record), mended if a mail program changed it so that
    it no longer parses; ``None`` when it is no game line even mended."""
    for candidate in [text, *(fixed for fixed, _ in _mail_repairs(text))]:
        raw = candidate.encode()
        try:
            return candidate, raw, gamefile.decode_line(raw, "mail", index)
        except GameFileError:
            continue
    return None


def _raise_malformed(found: list[str]) -> None:
    """The first mailed line that is no game line, said as what it is."""
    for index, text in enumerate(found, 1):
        try:
            gamefile.decode_line(text.encode(), "mail", index)
        except GameFileError as exc:
            damage = _mail_damage(text)
            why = (f"your mail program changed it ({damage}); ask for `agility send` again (its block reaches you "
                   "intact) or for the file as an attachment" if damage else exc.message)
            raise _refuse(f"the {_ordinal(index)} mailed line ({quoted(text, 50)}) is not a valid game line: {why}",
                          "apply/malformed") from None


def _mended(exc: GameFileError, incoming: dict[int, tuple[bytes, Any]], checked: Callable[[], bytes],
            report: ApplyReport) -> bytes | None:
    """The payload with the mailed line that failed mended as mail programs damage lines, if a
    mended form verifies (signature and chain: then it is the sender's line, noted); else ``None``,
    or a refusal that blames the mail program when the damage shows (never "edited" or "forged")."""
    assert exc.line is not None
    n = exc.line - 1
    if n not in incoming:
        return None
    raw, record = incoming[n]
    text = raw.decode("utf-8", "replace")
    for fixed, what in _mail_repairs(text):
        try:
            mended = gamefile.decode_line(fixed.encode(), "mail", n)
        except GameFileError:
            continue
        incoming[n] = (fixed.encode(), mended)
        try:
            payload = checked()
        except GameFileError as later:
            # This line verifies now and a later one does not: mend that one too (a mail program
            # treats every line alike).
            rest = _mended(later, incoming, checked, report) if (later.line or 0) > exc.line else None
            if rest is None:
                continue
            payload = rest
        report.notes.append(f"your mail program changed line {exc.line} ({what}); mended, it verifies")
        return payload
    incoming[n] = (raw, record)
    damage = _mail_damage(text)
    if damage:
        raise _refuse(
            f"your mail program changed the mail's line {exc.line} ({damage}), and it no longer verifies: "
            "this is the mail program, not an edit of the game.  Ask for `agility send` again (its block reaches you "
            "intact), or for the game file as an attachment", "apply/damaged") from None
    return None


def _recipient(as_player: str | None, data: bytes) -> str | None:
    """Who receives the mail: ``as_player``, ``AGILITY_PLAYER``, or the one seat whose key is here."""
    if as_player:
        return as_player
    env = os.environ.get("AGILITY_PLAYER")
    if env:
        return env
    held = keys.held_seats(data)
    return held[0] if len(held) == 1 else None


def _complete_handshake(data: bytes, payload: bytes, name: str, before: Pending, report: ApplyReport) -> bytes:
    """Note the handshake lines a mail adds (R40); add the creator's reveal when this machine can make it."""
    after = gamefile.pending_of(data + payload, name)
    if before.join is None and (after is None or after.join is not None):
        report.handshake.append("join")
    if after is None:  # the mail held the reveal as well
        report.handshake.append("reveal")
    elif after.can_reveal_here():
        report.reveal = gamefile.reveal_line(after)
        payload += report.reveal + b"\n"
        report.handshake.append("reveal")
    return payload


def _game_words(header: Header) -> str:
    seed = "seed drawn by handshake" if header.seed is None else f"seed {header.seed}"
    return f"{seed}, {quoted(header.players[0])} vs {quoted(header.players[1])}"


def _tip_mismatch(first: Any, ours: list[bytes], tip_n: int) -> str:
    """Why the mail's first new line does not follow the file, in lines of the file (one numbering)."""
    line = first.n + 1
    for j, raw in enumerate(ours):
        if line_hash(raw) == first.prev:
            return (
                f"the mail's line {line} does not follow your file: it was written after your line {j + 1}, but your "
                f"file goes on to line {tip_n + 1}: the copies have diverged after line {j + 1}; a game cannot "
                "fork — agree which lines are right"
            )
    return (
        f"the mail's line {line} does not follow your file (your last line is line {tip_n + 1}): it follows none of "
        "your lines — it belongs to another game, or your last line or the mailed line was changed"
    )


def _ordinal(i: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(i, f"{i}th")
