"""The only file I/O of the game: read and verify a game file, create one, append lines safely.

A game file is JSON Lines (R35, INTERFACE.md).  Reading it re-derives the state line by line and
verifies each line in a fixed order — JSON, schema, ``n`` sequence, ``prev`` hash chain, the
decision's owner, signature (R41), legality, ``digest`` — stopping at the first bad line with
:class:`GameFileError` (exit code 3), whose message names the line and says what is wrong and,
where it can, what would fix it.  State is never read from the file, only replayed.

The diagnostics look around the bad line where that tells more: a wrong ``n`` is named a dropped,
moved or duplicated line or a fork (two lines with one ``n``, both named, after a git merge); a
broken ``prev`` names the line likely edited (a changed header breaks line 2), or one that was
only re-formatted; git conflict markers, CRLF endings, a byte-order mark, mail quoting, two lines
glued together and an incomplete last line each get their own message and fix.

Appends (``append_moves``) hold an exclusive ``flock`` on the file while they re-read and verify
it, make the decision on the state just verified, write whole lines and fsync: two ``agility
move`` runs at the same moment are serialised — the second decides on top of the first's line (or
is refused, exit 1) — so they never land on one tip.
``update`` does the same for the other changes (``apply``, ``undo``, ``repair``): under the lock,
cut the file to a verified prefix and/or append, verify the result, fsync.

Fair play (the section at the end; bytes in docs/fair-play.md): a header with ``"seed": null``
starts with the seed handshake (R40) — line 2 the other player's ``join``, line 3 the creator's
``reveal`` — and the game is set up from the joint seed after it; until then reading the file
raises :class:`HandshakePending` (exit 1) saying what is awaited, and the creator's machine adds
the reveal by itself on its next read or append.  A header with ``keys`` makes a signed game:
every line's signature is verified (:func:`_check_signature`) and every appended line signed
(:class:`_Signer`), or refused with :class:`CannotSign` when this machine holds no fitting key.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import secrets
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterator, Sequence
from typing import Any, overload

import msgspec

from . import keys
from ..engine import rules
from ..engine.components import Components, ComponentsError, standard_components, validate
from ..engine.moves import (
    ENCODER, FORMAT_VERSION, FORMAT_VERSIONS, KINDS, LINE_DECODER, RULES_VERSION, RULES_VERSIONS, Header, JoinLine, Move,
    RevealLine, decision_text, line_summary, line_to_move, move_to_line, summary,
)
from ..engine.state import State, digest
from ..text import check_players, quoted, safe, safe_message, shell_command, shell_word
from ..engine.notation import Refused

#: The largest game file read (a finished game is about 100 KB; a header with an embedded
#: component set about 30 KB).  Anything larger is refused, as is anything not a regular file.
MAX_FILE_BYTES = 64 << 20
#: The longest line read.
MAX_LINE_BYTES = 1 << 20
#: The deepest JSON nesting a line may have (a header with a component set needs 6).
MAX_DEPTH = 32



class GameFileError(Exception):
    """The game file is invalid (exit 3).  ``line`` is the 1-based line number, when known."""

    def __init__(self, path: str, line: int | None, message: str, hint: str | None = None):
        # Field values of a hostile file reach these messages: made safe to print here, once.
        self.path = path
        self.line = line
        self.message = safe_message(message, _MESSAGE_LINE_LIMIT)
        self.hint = None if hint is None else safe_message(hint, _MESSAGE_LINE_LIMIT)
        where = f"{safe(path)}, line {line}" if line else safe(path)
        super().__init__(f"{where}: {self.message}" + (f"\n  hint: {self.hint}" if self.hint else ""))


_MESSAGE_LINE_LIMIT = 40_000  # a header restored "byte for byte" in a hint is ~30 KB


class WriteError(OSError):
    """An append, a new game or a backup could not be written (a full disk, an I/O error).

    Every byte written was taken back: the game file is as it was (exit 2, like other OS errors).
    """

    def __init__(self, path: str, what: str, cause: OSError, unchanged: bool = True, after: str | None = None):
        reason = cause.strerror or str(cause)
        if after is None:
            after = (
                "the game file is unchanged" if unchanged
                else f"the game file may hold part of it: run `{shell_command(['agility', 'repair', path])}`"
            )
        super().__init__(cause.errno or errno.EIO, f"could not write {what} ({reason}); {after}")
        self.filename = path


@dataclass
class Step:
    """One verified decision line of a replay."""

    line: int  # 1-based line number in the file
    raw: bytes
    record: Any  # the decoded line Struct
    move: Move
    before: State | None  # only when asked for (narration); costs a copy per line
    after: State


@dataclass(frozen=True)
class Trust:
    """Who may sign what in a game, and where its seed came from (R40, R41).

    ``keys`` maps each player with a key in the file (the header's and the ``join`` line's) to their
    Ed25519 public key (hex); empty for an unsigned game.  ``joint`` says the seed was drawn by the
    handshake (``creator`` committed, the other player joined) rather than chosen by the creator.
    """

    game_id: str = ""
    keys: dict[str, str] = field(default_factory=dict)
    creator: str | None = None
    joint: bool = False

    @property
    def signed(self) -> bool:
        return bool(self.keys)


@dataclass
class Game:
    """A verified game file: its header, the replayed state and the chain's tip.

    For a game started by the handshake (R40) ``header`` is the header as setup used it: the joint
    seed, and the board and start player drawn from it.
    """

    path: str
    header: Header
    components: Components
    state: State
    lines: int  # number of lines, header included
    tip: str  # SHA-256 of the last line's bytes
    trust: Trust  # who may sign what: a game is never built without it (R39's viewer is found by it)
    #: SHA-256 of every line, line 1 first, and who made each (``""`` for the header): the history
    #: this machine compares with what it saw before (``history``, R41)
    hashes: list[str] = field(default_factory=list)
    deciders: list[str] = field(default_factory=list)

    def extended(self, state: State, lines: list[bytes], moves: list[Move]) -> Game:
        """This game after ``lines`` (recording ``moves``) were appended, reaching ``state``."""
        return Game(self.path, self.header, self.components, state, self.lines + len(lines), line_hash(lines[-1]),
                    self.trust, self.hashes + [line_hash(raw) for raw in lines],
                    self.deciders + [m.player for m in moves])

    @property
    def next_n(self) -> int:
        return self.lines  # line k (k ≥ 2) holds decision n = k − 1

    @property
    def game_id(self) -> str:
        """SHA-256 (hex) of the header line: the name the key store files this game's keys under."""
        return self.trust.game_id

    @property
    def seed(self) -> int:
        """The seed setup used (chosen by the creator, or drawn jointly by the handshake)."""
        assert self.header.seed is not None
        return self.header.seed


def line_hash(raw: bytes) -> str:
    """SHA-256 (hex) of a line's bytes without its newline: the next line's ``prev``."""
    return hashlib.sha256(raw).hexdigest()


def encode_line(record: msgspec.Struct) -> bytes:
    return ENCODER.encode(record)


def header_components(header: Header, path: str = "header") -> Components:
    """The component set a header names (``"standard"``) or embeds (R6)."""
    if isinstance(header.components, str):
        if header.components != "standard":
            raise GameFileError(
                path, 1, f"unknown component set {quoted(header.components)}", "use \"standard\" or embed the set in the header"
            )
        return standard_components()
    try:
        return validate(header.components)
    except ComponentsError as exc:
        raise GameFileError(path, 1, f"the embedded component set is invalid: {exc}") from None


def make_header(
    *,
    seed: int,
    players: tuple[str, str],
    first: str,
    board: tuple[str, ...],
    components: Components | None,
    rules: int = RULES_VERSION,
) -> Header:
    """The header of a game whose seed is chosen by its creator (format 1: no keys, no handshake)."""
    return Header(
        format=1,
        rules=rules,
        seed=seed,
        players=players,
        first=first,
        board=board,
        components="standard" if components is None else components,
    )


_KIND_NAMES = ", ".join(["game", *KINDS])
_HEX64 = re.compile(r"[0-9a-f]{64}")
_CONFLICT_MARKERS = (b"<<<<<<<", b"|||||||", b"=======", b">>>>>>>")


class _Peek(msgspec.Struct):
    """The envelope of a line, read leniently (for diagnostics that look at other lines)."""

    kind: Any = None
    n: Any = None
    prev: Any = None
    player: Any = None


_PEEK_DECODER = msgspec.json.Decoder(_Peek)


def _peek(raw: bytes) -> _Peek | None:
    try:
        return _PEEK_DECODER.decode(raw)
    except msgspec.DecodeError:
        return None


def _peek_n(raw: bytes) -> Any:
    p = _peek(raw)
    return None if p is None else p.n


def _snippet(raw: bytes, limit: int = 40) -> str:
    return quoted(raw[: limit * 4].decode("utf-8", "replace"), limit)


def _describe_decode_error(exc: Exception, raw: bytes) -> tuple[str, str]:
    """What a msgspec validation error means for a game-file line, and what would fix it."""
    text = str(exc)
    m = re.fullmatch(r"(.*?)(?: - at `\$\.?(.*)`)?", text, re.S)
    core, where = (m.group(1), m.group(2)) if m else (text, None)
    peek = _peek(raw)
    kind = peek.kind if peek is not None and isinstance(peek.kind, str) else None
    what = f"a {quoted(kind)} line" if kind else "the line"
    schema = "`agility schema` prints the format"
    at = f" (at `{where}`)" if where else ""
    if mm := re.match(r"Object contains unknown field `(.*)`", core, re.S):
        field = safe(mm.group(1), 60)
        return (
            f"unknown field `{field}` in {what}{at}",
            f"the fields of each kind of line are fixed; remove `{field}` or restore the line as it was written ({schema})",
        )
    if mm := re.match(r"Object missing required field `(.*)`", core):
        return (
            f"missing field `{mm.group(1)}` in {what}{at}",
            f"every {kind or 'such'} line has `{mm.group(1)}`: the line was cut short or edited; restore it from the "
            f"opponent's copy or from git ({schema})",
        )
    if where == "kind" and core.startswith("Invalid value"):
        return (
            f"unknown kind of line {core[len('Invalid value '):]}",
            f"known kinds: {_KIND_NAMES}",
        )
    if mm := re.match(r"Expected `(.*?)`(?:, got `(.*)`)?", core):
        got = f", got {mm.group(2)}" if mm.group(2) else ""
        if where:
            return (
                f"wrong type for `{where}` in {what}: expected {mm.group(1)}{got}",
                f"the value was edited; {schema}",
            )
        return (f"wrong type: a line must be a JSON {mm.group(1)}{got}", f"each line is one JSON object; {schema}")
    if mm := re.match(r"Invalid enum value (.*)", core):
        return (f"invalid value {mm.group(1)} for `{where}` in {what}", f"the value was edited; {schema}")
    return (f"{core}{at} in {what}", f"the line was edited or damaged; {schema}")


def _conflict_error(path: str, lineno: int, lines: Sequence[bytes]) -> GameFileError:
    """A git conflict marker: name the block and both sides, and say how to keep one."""
    marker = lines[lineno - 1][:7].decode("ascii", "replace")
    start = lineno
    # Find the block this marker belongs to: from <<<<<<< to >>>>>>>.
    for k in range(lineno, 0, -1):
        if lines[k - 1].startswith(b"<<<<<<<"):
            start = k
            break
    base = mid = end = None
    for k in range(start, len(lines) + 1):
        raw = lines[k - 1]
        if raw.startswith(b"|||||||") and base is None and mid is None:
            base = k  # diff3 style: the common ancestor's lines follow, up to =======
        if raw.startswith(b"=======") and mid is None:
            mid = k
        if raw.startswith(b">>>>>>>"):
            end = k
            break
    if mid is not None and end is not None and mid > start:
        ours_end = (base if base is not None else mid) - 1
        ours = f"lines {start + 1}–{ours_end}" if ours_end > start else "nothing"
        theirs = f"lines {mid + 1}–{end - 1}" if end - 1 > mid else "nothing"
        ancestor = ""
        if base is not None:
            ancestor = (
                f", and lines {base}–{mid - 1} are the common ancestor's (diff3 style, from the `|||||||` line)"
                if mid - 1 > base else f", and line {base} marks the (empty) common ancestor"
            )
        sides = f" (the conflict spans lines {start}–{end}: one side is {ours}, the other {theirs}{ancestor})"
    else:
        sides = ""
    q = shell_word(path)
    return GameFileError(
        path,
        lineno,
        f"git conflict marker {marker!r}: a git merge of two copies of the game that went on separately left "
        f"both sides in the file{sides}",
        "a game cannot fork, so keep one side.  Check each: "
        f"`{shell_command(['git', 'show', ':2:' + path])} > ours.jsonl && agility replay ours.jsonl` and "
        f"`{shell_command(['git', 'show', ':3:' + path])} > theirs.jsonl && agility replay theirs.jsonl`; "
        f"then `git checkout --ours {q}` (or `--theirs`) and `git add {q}`.  "
        "The player whose side is dropped makes those decisions again on top of the kept side",
    )


def _decode(path: str, lineno: int, raw: bytes, lines: Sequence[bytes] | None = None) -> Any:
    """Decode one line, or raise :class:`GameFileError` saying what is wrong with its bytes."""
    if raw.startswith(_CONFLICT_MARKERS):
        raise _conflict_error(path, lineno, lines if lines is not None else [raw] * lineno)
    if len(raw) > MAX_LINE_BYTES:
        raise GameFileError(
            path, lineno, f"the line is {len(raw)} bytes long; a game line is at most {MAX_LINE_BYTES} bytes",
            "this is not a line agility wrote: restore it from the opponent's copy or from git",
        )
    if not raw.strip():
        if lineno == 1:
            raise GameFileError(path, 1, "line 1 is blank: the game header is missing",
                                "the first line of a game file is its header; restore it, or create a game with `agility new`")
        raise GameFileError(path, lineno, "blank line", f"a game file has no blank lines: delete line {lineno}")
    if raw.endswith(b"\r") and raw.lstrip().startswith(b"{"):
        raise GameFileError(
            path, lineno, "the line ends with a carriage return (Windows CRLF line endings)",
            f"the file was converted by an editor, a mail program or git (core.autocrlf); convert it back with "
            f"`sed -i 's/\\r$//' {shell_word(path)}` (or `dos2unix {shell_word(path)}`), and keep git from converting it again with "
            "`*.jsonl -text` in .gitattributes",
        )
    if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raise GameFileError(
            path, 1, "the file starts with a byte-order mark (saved as \"UTF-8 with BOM\")",
            f"remove the first three bytes: `sed -i '1s/^\\xEF\\xBB\\xBF//' {shell_word(path)}`",
        )
    if raw.lstrip().startswith(b">"):
        raise GameFileError(
            path, lineno, "the line is quoted mail text (it starts with '>')",
            "add lines from a mail with `agility apply FILE`, which removes the quoting; delete this line",
        )
    if _too_deep(raw):
        raise GameFileError(
            path, lineno, f"is not valid JSON for a game line: it is nested more than {MAX_DEPTH} levels deep",
            "this is not a line agility wrote: restore it from the opponent's copy or from git",
        )
    try:
        return LINE_DECODER.decode(raw)
    except msgspec.ValidationError as exc:
        message, hint = _describe_decode_error(exc, raw)
        raise GameFileError(path, lineno, f"does not match the format: {message}", hint) from None
    except msgspec.DecodeError as exc:
        raise _json_error(path, lineno, raw, exc) from None
    except RecursionError:  # pragma: no cover - _too_deep rejects such lines first
        raise GameFileError(path, lineno, "is not valid JSON for a game line: it is nested too deeply") from None


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"?')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _too_deep(raw: bytes) -> bool:
    """Whether the JSON in ``raw`` nests deeper than :data:`MAX_DEPTH` (msgspec would recurse
    once per level and, at about a thousand, fail with ``RecursionError``).  Cheap for ordinary
    lines: only a line with many brackets is scanned, strings removed first."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return False
    depth = deepest = 0
    for b in _STRINGS.sub(b"", raw).translate(None, _NOT_BRACKETS):
        if b in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest > MAX_DEPTH


def decode_line(raw: bytes, path: str = "line", lineno: int = 1) -> Any:
    """Decode one line (header or decision) or raise :class:`GameFileError` saying what is wrong."""
    return _decode(path, lineno, raw)


def _json_error(path: str, lineno: int, raw: bytes, exc: Exception) -> GameFileError:
    binary = b"\x00" in raw
    if not binary:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            binary = True
    if lineno == 1 and (binary or not raw.lstrip().startswith(b"{")):
        what = "binary data" if binary else f"not JSON (it starts with {_snippet(raw)})"
        return GameFileError(
            path, 1, f"this is not an agility game file: line 1 is {what}",
            "a game file is JSON Lines whose first line is the game header; create one with "
            "`agility new FILE --seed N`",
        )
    if binary:
        return GameFileError(path, lineno, "the line is not text (invalid UTF-8 or NUL bytes): the file is damaged",
                             "restore the line from the opponent's copy or from git (`git diff`)")
    if raw.count(b'{"kind":') > 1:
        return GameFileError(
            path, lineno, "is not valid JSON: it looks like two lines glued together (an interrupted write "
            "followed by another line)",
            "split the line before the second `{\"kind\"` and delete the incomplete first part",
        )
    text = str(exc)
    near = ""
    if mm := re.search(r"\(byte (\d+)\)", text):
        pos = int(mm.group(1))
        near = f" near {_snippet(raw[max(0, pos - 15):pos + 15])}"
    if "truncated" in text:
        text = "it is cut short (a bracket or quote is not closed)"
    return GameFileError(
        path, lineno, f"is not valid JSON: {text}{near}",
        "the line was damaged or edited by hand; restore it from the opponent's copy or from git (`git diff`)",
    )


def _summary(record: Any) -> str:
    """``alice: play card=t07 reward=red`` for a decoded line after the header (diagnostics), made safe."""
    return safe(line_summary(record))


def _sequence_error(path: str, lineno: int, raw: bytes, record: Any, lines: Sequence[bytes]) -> GameFileError:
    """Line ``lineno`` holds the wrong ``n``: say whether a line was dropped, moved, copied or forked."""
    expected = lineno - 1
    n = record.n
    total = len(lines)
    if isinstance(n, int) and 1 <= n < expected:
        j = n + 1  # every line before this one was verified, so decision n is on line n + 1
        if lines[j - 1] == raw and (lineno == total or _peek_n(lines[lineno]) == expected):
            return GameFileError(
                path, lineno, f"line {lineno} is an exact copy of line {j} (decision n={n}): a line was duplicated",
                f"delete line {lineno}",
            )
        k = lineno  # the second branch: lines lineno..k, numbered n, n+1, ...
        while k < total and _peek_n(lines[k]) == n + (k + 1 - lineno):
            k += 1
        first = _summary(LINE_DECODER.decode(lines[j - 1]))
        same = " (both branches begin with the same decision)" if lines[j - 1] == raw else ""
        rest = f"; lines after {k} belong to neither" if k < total else ""
        return GameFileError(
            path, lineno,
            f"decision n={n} appears twice, on line {j} ({first}) and on line {lineno} ({_summary(record)}): "
            f"the game has forked — two copies went on separately from line {j - 1} and were then joined "
            f"(e.g. by a git merge){same}",
            f"keep one branch: the first is lines {j}–{lineno - 1}, the second lines {lineno}–{k}{rest}.  To keep the "
            f"first delete lines {lineno}–{k}; to keep the second delete lines {j}–{lineno - 1}; then check with "
            f"`agility replay {shell_word(path)}`.  With git, `git checkout --ours {shell_word(path)}` or `--theirs {shell_word(path)}` keeps one "
            "side.  The player whose branch is dropped makes those decisions again",
        )
    if isinstance(n, int) and n > expected:
        later = next((L for L in range(lineno + 1, total + 1) if _peek_n(lines[L - 1]) == expected), None)
        if later is not None:
            return GameFileError(
                path, lineno,
                f"lines are out of order: line {lineno} holds decision n={n}, but n={expected} comes first and is on "
                f"line {later}",
                f"put the lines back in order of n (swap lines {lineno} and {later} if only those two moved)",
            )
        missing = f"n={expected}" if n == expected + 1 else f"n={expected}–{n - 1}"
        count = n - expected
        return GameFileError(
            path, lineno,
            f"decision {missing} is missing: {count} line{'s were' if count > 1 else ' was'} dropped between line "
            f"{lineno - 1} and line {lineno} (which holds n={n})",
            "restore the missing line(s) in their place, from git history (`git log -p`), a backup or the "
            "opponent's copy",
        )
    return GameFileError(
        path, lineno, f"expected decision n={expected}, found n={n}",
        f"decisions are numbered 1, 2, 3, … in file order: this line must hold n={expected}",
    )


def _chain_error(
    path: str, lineno: int, record: Any, lines: Sequence[bytes], prev_record: Any
) -> GameFileError:
    """Line ``lineno``'s ``prev`` is not the hash of the line before it: say which line was likely edited."""
    previous = lineno - 1
    try:
        canonical = ENCODER.encode(prev_record)
    except Exception:  # pragma: no cover
        canonical = b""
    if canonical and line_hash(canonical) == record.prev:
        what = "the header (line 1)" if previous == 1 else f"line {previous}"
        return GameFileError(
            path, lineno,
            f"broken hash chain: {what} was re-formatted — its content is unchanged but its bytes are not "
            f"(spaces, escapes or key order), so its hash no longer matches line {lineno}'s prev",
            f"restore line {previous} byte for byte as: {canonical.decode()}",
        )
    if previous == 1:
        return GameFileError(
            path, 2,
            "line 2 does not continue the header: the header was changed (line 1: seed, players, board, start "
            "player or components differ from those the game was played with)",
            "restore the original header line from git or the opponent's copy; if line 1 is right, then "
            "line 2's prev was edited",
        )
    if not isinstance(record.prev, str) or not _HEX64.fullmatch(record.prev):
        return GameFileError(
            path, lineno, f"broken hash chain: prev {_snippet(record.prev.encode())} is not a SHA-256 (64 hex digits)",
            f"line {lineno}'s prev was edited; it must be the SHA-256 of line {previous}",
        )
    for j in range(1, len(lines) + 1):
        if j != previous and line_hash(lines[j - 1]) == record.prev:
            return GameFileError(
                path, lineno,
                f"broken hash chain: line {lineno} was written after line {j}, not after line {previous}",
                "lines were moved, inserted or renumbered; restore the original order",
            )
    return GameFileError(
        path, lineno,
        f"broken hash chain: line {lineno}'s prev ({record.prev[:12]}…) is not the hash of line {previous} "
        f"({line_hash(lines[previous - 1])[:12]}…): line {previous} was likely edited after line {lineno} was "
        f"written (or line {lineno}'s prev was edited)",
        f"compare line {previous} with the opponent's copy or git history (`git diff`) and restore it",
    )


def _check_header(path: str, raw: bytes, lines: Sequence[bytes]) -> tuple[Header, Components, State | None, Trust]:
    """Verify line 1; the state is ``None`` for a handshake game (it starts after the reveal)."""
    rec = _decode(path, 1, raw, lines)
    if not isinstance(rec, Header):
        raise GameFileError(
            path, 1,
            f"the first line must be the game header (\"kind\": \"game\"), found a {rec.__struct_config__.tag!r} line "
            f"(n={rec.n})",
            "the header line was removed or the file was cut at the top; restore line 1 from git or the "
            "opponent's copy",
        )
    if rec.format not in FORMAT_VERSIONS:
        versions = ", ".join(map(str, FORMAT_VERSIONS))
        raise GameFileError(path, 1, f"format version {rec.format} is not supported (this tool reads versions {versions})",
                            "upgrade agility, or restore the header if it was edited")
    if rec.rules not in RULES_VERSIONS:  # R38: every earlier version replays for ever
        versions = ", ".join(map(str, RULES_VERSIONS))
        raise GameFileError(path, 1, f"rules version {rec.rules} is not supported (this tool plays versions {versions})",
                            "upgrade agility, or restore the header if it was edited")
    try:
        check_players(rec.players)
    except ValueError as exc:
        raise GameFileError(path, 1, f"the header's players cannot be shown safely: {exc}",
                            "`agility new` never writes such names: the header was edited") from None
    trust = _check_fair_header(path, raw, rec)
    comps = header_components(rec, path)
    if rec.seed is None:
        return rec, comps, None, trust
    try:
        state = rules.setup(rec, comps)
    except rules.RulesError as exc:
        raise GameFileError(path, 1, f"the header cannot start a game: {exc}",
                            "the header was edited; restore it from git or the opponent's copy") from None
    return rec, comps, state, trust


def _check_decision(
    path: str,
    lineno: int,
    raw: bytes,
    lines: Sequence[bytes],
    state: State,
    prev: str,
    prev_record: Any,
    ended_at: int | None,
    trust: Trust | None = None,
) -> tuple[Any, Move]:
    """Verify line ``lineno`` against ``state`` (which it advances in place); return its record and move."""
    record = _decode(path, lineno, raw, lines)
    if isinstance(record, Header):
        raise GameFileError(path, lineno, "a second game header", f"a file holds exactly one game; delete line {lineno}")
    if isinstance(record, (JoinLine, RevealLine)):
        raise _misplaced_handshake(path, lineno, record)
    if record.n != lineno - 1:
        raise _sequence_error(path, lineno, raw, record, lines)
    if record.prev != prev:
        raise _chain_error(path, lineno, record, lines, prev_record)
    move = line_to_move(record)
    to_act = state.to_act
    if to_act is None:
        winner = state.players[state.winner].name if state.winner is not None else "?"
        raise GameFileError(
            path, lineno, f"a decision after the end of the game (it ended at line {ended_at}: {winner} won)",
            f"delete line {lineno} and the lines after it",
        )
    owner = state.players[to_act].name
    if move.player != owner:
        raise GameFileError(
            path, lineno,
            f"decision by the wrong player: {quoted(move.player)} made a decision that was {quoted(owner)}'s "
            f"({safe(owner)} to {rules.awaited(state)})",
            f"only {safe(owner)} may decide here; the line was edited or written on another copy of the game",
        )
    _check_signature(path, lineno, raw, record, state, trust)
    try:
        rules.apply_in_place(state, move)
    except rules.IllegalMove as exc:
        raise _illegal_error(path, lineno, state, move, str(exc)) from None
    except (KeyError, IndexError, ValueError, TypeError):  # a reason could not be worked out for nonsense values
        raise _illegal_error(path, lineno, state, move, "it is not among the legal decisions") from None
    if record.digest != digest(state):
        raise GameFileError(
            path, lineno,
            f"state digest mismatch: the decision ({_summary(record)}) is legal, but the state it leads to is not "
            "the one the line records",
            f"line {lineno} was edited (a field value or its digest) or written by a different rules version; "
            "compare it with the opponent's copy or git history",
        )
    return record, move


def _illegal_error(path: str, lineno: int, state: State, move: Move, reason: str) -> GameFileError:
    legal = rules.legal_moves(state)
    shown = "; ".join(decision_text(m) for m in legal[:12])
    more = f"; … {len(legal) - 12} more" if len(legal) > 12 else ""
    return GameFileError(
        path, lineno, f"illegal decision ({safe(summary(move))}): {safe(reason)}",
        f"legal there: {shown}{more}.  The line was edited or written by a different rules version",
    )


def _incomplete_error(path: str, lineno: int, raw: bytes, problem: GameFileError | None) -> GameFileError:
    if problem is None:
        return GameFileError(
            path, lineno, "the last line has no newline at the end (the line itself is complete and verifies)",
            f"`{shell_command(['agility', 'repair', path])}` adds the missing newline",
        )
    if lineno == 1:
        return GameFileError(
            path, 1, f"incomplete or foreign line 1: no newline at the end, and not a valid game header ({problem.message})",
            "this is not an agility game file, or its header was cut short: restore it from git or a backup, "
            "or create a game with `agility new FILE --seed N`",
        )
    return GameFileError(
        path, lineno,
        f"incomplete last line ({len(raw)} bytes, no newline at the end): a write was interrupted or the file was "
        f"cut short ({problem.message})",
        f"`{shell_command(['agility', 'repair', path])}` removes it, keeping a backup {shell_word(path + '.bak')}; "
        "the decision it held is then made again",
    )


@dataclass
class Start:
    """The verified header line: the header, its component set and the state before any decision.

    The state is the one each later :class:`Step` advances in place, so read it before going on.
    For a handshake game (R40) it comes after the ``join`` and ``reveal`` lines: ``line`` and ``raw``
    are the last line read before the first decision (1 and the header otherwise), and ``header``
    is the header as setup used it (the joint seed; board and start player drawn from it).
    """

    header: Header
    components: Components
    state: State
    trust: Trust = field(default_factory=Trust)
    line: int = 1
    raw: bytes = b""


def iter_game(
    data: bytes,
    path: str = "game",
    *,
    upto: int | None = None,
    keep_before: bool = False,
) -> Iterator[Header | Step]:
    """Verify ``data`` line by line, yielding the header, then a :class:`Step` per decision."""
    for item in verify(data, path, upto=upto, keep_before=keep_before):
        yield item.header if isinstance(item, Start) else item


def verify(
    data: bytes,
    path: str = "game",
    *,
    upto: int | None = None,
    keep_before: bool = False,
) -> Iterator[Start | Step]:
    """Verify ``data`` line by line, yielding a :class:`Start`, then a :class:`Step` per decision.

    Stops after line ``upto`` when given.  Raises :class:`GameFileError` at the first bad line,
    saying what is wrong there and how to fix it: bad JSON, schema, a dropped, moved, copied or
    forked line, a broken hash chain (naming the line likely edited; a changed header shows at
    line 2), the wrong player, an illegal decision (with the legal ones), a digest mismatch, git
    conflict markers, CRLF endings, an incomplete last line.  Only the current state is kept.
    """
    if not data:
        raise GameFileError(path, 1, "the file is empty: line 1, the game header, is missing",
                            "create a game with `agility new FILE --seed N`, or restore the file from git or a backup")
    lines = _Lines(data)  # split only if a diagnostic must look at other lines
    complete = data.endswith(b"\n")
    end = data.find(b"\n")
    if end == -1 and b"\r" in data:
        raise GameFileError(
            path, 1, "the file has carriage returns (CR, classic Mac OS line endings) and no newline at all",
            f"convert the line endings to newlines: `tr '\\r' '\\n' < {shell_word(path)} > fixed.jsonl`, check it with "
            "`agility replay fixed.jsonl`, then put it in place of the game file",
        )
    if end == -1:
        try:
            _check_header(path, data, lines)
        except GameFileError as exc:
            raise _incomplete_error(path, 1, data, exc) from None
        raise _incomplete_error(path, 1, data, None)
    header_raw = data[:end]
    header, comps, maybe_state, trust = _check_header(path, header_raw, lines)
    prev = line_hash(header_raw)
    prev_record: Any = header
    ended_at: int | None = None
    size = len(data)
    lineno = 1
    start = end + 1
    last_raw = header_raw
    if maybe_state is None:  # R40: the join and reveal lines come first; the game starts after them
        header, maybe_state, trust, lineno, start, last_raw, prev_record = _check_handshake(
            path, data, lines, header, header_raw, comps, trust, start, upto
        )
        prev = line_hash(last_raw)
    state = maybe_state
    yield Start(header, comps, state, trust, lineno, last_raw)
    while start < size:
        lineno += 1
        if upto is not None and lineno > upto:
            return
        end = data.find(b"\n", start)
        last_incomplete = end == -1
        raw = data[start:] if last_incomplete else data[start:end]
        start = size if last_incomplete else end + 1
        before = state.copy() if keep_before else None
        if last_incomplete:
            try:
                _check_decision(path, lineno, raw, lines, state, prev, prev_record, ended_at, trust)
            except GameFileError as exc:
                raise _incomplete_error(path, lineno, raw, exc) from None
            raise _incomplete_error(path, lineno, raw, None)
        record, move = _check_decision(path, lineno, raw, lines, state, prev, prev_record, ended_at, trust)
        if ended_at is None and state.winner is not None:
            ended_at = lineno
        prev = line_hash(raw)
        prev_record = record
        yield Step(lineno, raw, record, move, before, state)
    assert complete


class _Lines(Sequence[bytes]):
    """A file's lines (without newlines), split on first use: only diagnostics look around."""

    __slots__ = ("_data", "_list")

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._list: list[bytes] | None = None

    def _split(self) -> list[bytes]:
        if self._list is None:
            self._list = self._data.split(b"\n")
            if self._data.endswith(b"\n"):
                self._list.pop()
        return self._list

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> list[bytes]: ...

    def __getitem__(self, index: int | slice) -> bytes | list[bytes]:
        return self._split()[index]

    def __len__(self) -> int:
        return len(self._split())


def _kind_of_file(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


GAME_FILE = "game file"


def _size_text(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"


def _check_regular(path: str, fd: int, what: str = GAME_FILE, limit: int = MAX_FILE_BYTES) -> os.stat_result:
    """The open file's status, if it is a regular file of a size a ``what`` (a game file, a key
    file …) can have: at most ``limit`` bytes."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        shape = "a regular file of JSON lines" if what == GAME_FILE else "a regular file"
        raise GameFileError(path, None, f"is {_kind_of_file(info.st_mode)}, not a {what}", f"a {what} is {shape}")
    if info.st_size > limit:
        raise GameFileError(
            path, None, f"is {info.st_size} bytes long; a {what} is at most {_size_text(limit)}",
            f"this is not a {what} agility wrote",
        )
    return info


def _open(path: str | Path, flags: int, what: str = GAME_FILE) -> int:
    """Open a game file (or another ``what``) without blocking on a FIFO, with a clear message for a
    missing one."""
    name = str(path)
    try:
        return os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        hint = "create one with `agility new FILE --seed N`" if what == GAME_FILE else None
        raise GameFileError(name, None, f"no such {what}", hint) from None
    except IsADirectoryError:
        raise GameFileError(name, None, f"is a directory, not a {what}") from None
    except OSError as exc:
        raise GameFileError(name, None, f"cannot open the file ({exc.strerror})") from None


def read_bytes(path: str | Path, *, what: str = GAME_FILE, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a game file: only a regular file, at most :data:`MAX_FILE_BYTES` (a FIFO would
    hang the reader, ``/dev/zero`` would fill the memory).  Key files and the key store are read
    through here too (``what`` names them in the messages, ``limit`` is their size bound)."""
    fd = _open(path, os.O_RDONLY, what)
    try:
        _check_regular(str(path), fd, what, limit)
        return _read_fd(fd, str(path), what, limit)
    except OSError as exc:
        raise GameFileError(str(path), None, f"cannot read the file ({exc.strerror})") from None
    finally:
        os.close(fd)


def load_bytes(data: bytes, path: str = "game", *, upto: int | None = None) -> Game:
    """Verify a whole game given as bytes and return it with its final (or line ``upto``) state."""
    start: Start | None = None
    lines = 1
    last = data[: data.find(b"\n")]
    for item in verify(data, path, upto=upto):
        if isinstance(item, Start):
            start = item
            lines, last = item.line, item.raw
        else:
            lines, last = item.line, item.raw
    assert start is not None
    # The steps advance the start state in place: it is now the state after the last line.
    hashes, deciders = chain_of(data, lines)
    return Game(path, start.header, start.components, start.state, lines, line_hash(last), start.trust, hashes, deciders)


def chain_of(data: bytes, lines: int) -> tuple[list[str], list[str]]:
    """The hash and the decider (``player``; ``""`` for the header) of each of the first ``lines``
    lines of a verified file."""
    rows = data.split(b"\n", lines)[:lines]
    deciders = [""]
    for raw in rows[1:]:
        peek = _peek(raw)
        deciders.append(peek.player if peek is not None and isinstance(peek.player, str) else "")
    return [line_hash(raw) for raw in rows], deciders


def load(path: str | Path, *, upto: int | None = None) -> Game:
    """Read and verify a game file (exit 3 on the first bad line).

    A handshake game waiting for its creator's reveal is revealed first when this machine holds
    the creator's secret (R40: the creator's next command reveals it); waiting for anything else,
    :class:`HandshakePending` (exit 1) says what.
    """
    return load_bytes(read_revealed(path) if upto is None else read_bytes(path), str(path), upto=upto)


def read_revealed(path: str | Path) -> bytes:
    """The file's bytes, for any command that reads a game as it stands now.

    R40: the creator's next command reveals the secret.  When the game waits for that reveal and
    this machine holds the creator's secret, the ``reveal`` line is appended first (under the lock)
    and is part of the bytes returned.
    """
    data = read_bytes(path)
    if not pending_reveal(data, str(path)):
        return data
    with locked(path) as fd:
        data = _read_fd(fd, str(path))
        reveal = pending_reveal(data, str(path))
        if reveal:
            _append(fd, str(path), len(data), reveal, "the reveal line")
    return data + reveal


def create(path: str | Path, header: Header, decide: Any = None) -> tuple[Game, bytes, list[bytes]]:
    """Write a new game file: ``header``, then the lines of ``decide(game) -> list[Move]`` (the
    decisions made at once: a bot that starts, a forced first decision).  Never overwrites.

    The whole file is written to a temporary file in the same directory, fsynced, then linked
    into place, which fails if the name exists (no overwrite, even in a race): a full disk or a
    kill leaves no empty or half-written game file behind, only at worst a hidden temporary file.
    Returns the game, the header line and the decision lines (without newlines).
    """
    name = str(path)
    comps = header_components(header, name)
    rules.setup(header, comps)  # refuse a header that cannot start a game
    head = encode_line(header)
    game = load_bytes(head + b"\n", name)
    lines: list[bytes] = []
    if decide is not None:
        moves = decide(game)
        if moves:
            lines, state = render_lines(game, moves)
            game = game.extended(state, lines, moves)
    data = b"".join(raw + b"\n" for raw in [head, *lines])
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "File exists", name)
    write_new(Path(path), data, what="the new game file")
    return game, head, lines


def _temp_name(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")


def write_new(
    target: Path, data: bytes, *, what: str, replace: bool = False, after: str = "nothing was created", mode: int = 0o644
) -> None:
    """Put a file holding ``data`` at ``target`` all at once, through a temporary file in the same
    directory.  Without ``replace`` the name must not exist (``os.link`` fails if it does, even if
    it is a dangling symlink); with ``replace`` a file or symlink there is replaced by
    ``os.replace``, which renames over the name itself and never writes through a link.  ``mode``
    is the new file's (0600 for keys: the temporary file has it from its creation on)."""
    temp = _temp_name(target)
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    except OSError as exc:
        raise WriteError(str(target), what, exc, after=after) from None
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(temp, target)
        else:
            _link_new(temp, target)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, "File exists", str(target)) from None
    except OSError as exc:
        raise WriteError(str(target), what, exc, after=after) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    _fsync_dir(target.parent)


def write_backup(target: Path, data: bytes, *, replace: bool) -> None:
    """Write a backup file all at once, never through a symlink: created only if the name is free,
    or with ``replace`` put in place of whatever is there (a symlink is replaced, not followed)."""
    write_new(target, data, what=f"the backup {target}", replace=replace, after="the game file is unchanged")


def _link_new(temp: Path, target: Path) -> None:
    """Give the finished ``temp`` the name ``target``, which must not exist.

    ``os.link`` does it atomically and refuses an existing name.  Where the file system has no
    hard links (FAT, some network shares), the name is first claimed by creating it exclusively,
    then ``temp`` renamed over it: still never an overwrite of someone else's file, with only an
    instant in which the claimed name is empty.
    """
    try:
        os.link(temp, target)
        return
    except FileExistsError:
        raise
    except (AttributeError, NotImplementedError):
        pass
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK, errno.EACCES):
            raise
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    os.close(fd)
    try:
        os.replace(temp, target)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise


def _fsync_dir(directory: Path) -> None:
    """Make a new directory entry durable (best effort: not every platform can open a directory)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` (``os.write`` may write fewer than asked), or raise."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:  # pragma: no cover - a write of nothing with no error
            raise OSError(errno.EIO, "the write made no progress")
        view = view[written:]


def _append(fd: int, path: str, old_size: int, data: bytes, what: str, restore: bytes = b"") -> None:
    """Append ``data`` (all of it, then fsync) at the end of a file ``old_size`` bytes long.

    On any error the file is cut back to ``old_size`` and ``restore`` (bytes cut from its end just
    before) is written back, so that it is as it was; then :class:`WriteError` says why.
    """
    try:
        _write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        unchanged = True
        try:
            os.ftruncate(fd, old_size)
            if restore:
                _write_all(fd, restore)
        except OSError:
            unchanged = False
        with contextlib.suppress(OSError):
            os.fsync(fd)
        raise WriteError(path, what, exc, unchanged) from None


LOCK_RETRIES = 20


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[int]:
    """An exclusive lock on the game file (advisory ``flock``), held while reading and appending.

    The lock is on the file the descriptor names.  While we waited for it, the path may have come
    to name another file (a ``git checkout``, an editor saving by rename): a line appended then
    would go to the old, unlinked file and be lost.  So once locked, the path must still name the
    locked file (same device and inode); if not, let go and start over with the new file.
    """
    name = str(path)
    for _ in range(LOCK_RETRIES):
        fd = _open(path, os.O_RDWR | os.O_APPEND)
        try:
            _check_regular(name, fd)
            _lock_exclusive(fd)
            if _same_file(path, fd):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the path names another file now: let go of this one and start over
    else:
        raise GameFileError(name, None, f"the file was replaced {LOCK_RETRIES} times while waiting for its lock",
                            "something keeps rewriting it (a sync tool?); try again when it has stopped")
    try:
        yield fd
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _same_file(path: str | Path, fd: int) -> bool:
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock_exclusive(fd: int) -> None:
        """Lock the file's first byte (msvcrt's lock is mandatory and by range), waiting for it."""
        os.lseek(fd, 0, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for about 10 s, then raises
                return
            except OSError:
                continue

else:
    import fcntl

    def _lock_exclusive(fd: int) -> None:
        """An advisory ``flock`` on the whole file, waiting for it."""
        fcntl.flock(fd, fcntl.LOCK_EX)


def _read_fd(fd: int, path: str = "game", what: str = GAME_FILE, limit: int = MAX_FILE_BYTES) -> bytes:
    """The whole file, at most ``limit`` bytes (it may have grown since it was checked)."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    size = 0
    while chunk := os.read(fd, min(1 << 20, limit + 1)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise GameFileError(path, None, f"is more than {_size_text(limit)} long; not a {what} agility wrote")
    return b"".join(chunks)


def render_lines(game: Game, moves: list[Move]) -> tuple[list[bytes], State]:
    """The encoded lines recording ``moves`` after ``game``'s tip, and the resulting state.

    Each move must be legal in turn (raises :class:`rules.IllegalMove`); ``game`` is not changed.
    In a signed game each line is signed with the key this machine holds for its signer (R41);
    :class:`CannotSign` (exit 1) refuses a line this machine cannot sign.
    """
    state = game.state.copy()
    n = game.next_n
    prev = game.tip
    out = []
    signer = _Signer(game) if game.trust.signed else None
    for index, move in enumerate(moves):
        key = signer.key_for(state, move, index) if signer is not None else None
        rules.apply_in_place(state, move)
        raw = encode_line(move_to_line(move, n, prev, digest(state)))
        if key is not None:
            raw = keys.with_signature(raw, key)  # R41
        out.append(raw)
        prev = line_hash(raw)
        n += 1
    return out, state


def append_moves(path: str | Path, decide: Any) -> tuple[Game, list[bytes]]:
    """Lock the file, replay it, call ``decide(game) -> list[Move]``, append their lines.

    ``decide`` runs under the lock, on the verified current state, so two concurrent runs are
    serialised: the second sees the first's lines.  It may raise to refuse; nothing is written.

    A handshake game waiting for the reveal is revealed first when this machine holds the creator's
    secret (R40): the ``reveal`` line is then the first of the lines returned (all of them are to be
    sent to the other player), and it is written with the decisions, or alone if there are none.
    """
    with locked(path) as fd:
        data = _read_fd(fd, str(path))
        reveal = pending_reveal(data, str(path))
        game = load_bytes(data + reveal, str(path))
        moves = decide(game)
        head = [reveal[:-1]] if reveal else []
        if not moves:
            if reveal:
                _append(fd, str(path), len(data), reveal, "the reveal line")
            return game, head
        lines, state = render_lines(game, moves)
        payload = reveal + b"".join(raw + b"\n" for raw in lines)
        _append(fd, str(path), len(data), payload, f"the new line{'s' if len(lines) > 1 else ''}")
    return game.extended(state, lines, moves), head + lines


def update(path: str | Path, change: Any) -> Game | None:
    """Change the end of a game file under its exclusive lock; return the new game, verified.

    ``change(data)`` gets the file's bytes as they are now and returns ``(keep, extra)`` — keep the
    first ``keep`` bytes, then append ``extra`` — or ``None`` to leave the file alone.  It may raise
    to refuse; nothing is written then (and ``None`` is returned when ``change`` asks for nothing).
    The new content must verify (``load_bytes``) before any byte is written; the change is flushed
    and fsynced before the lock is released.
    """
    with locked(path) as fd:
        original = _read_fd(fd, str(path))
        reveal = pending_reveal(original, str(path))  # R40: the creator's reveal goes first
        data = original + reveal
        plan = change(data)
        if plan is None:
            if reveal:
                _append(fd, str(path), len(original), reveal, "the reveal line")
            return None
        keep, extra = plan
        if reveal and keep >= len(original):
            keep, extra = len(original), data[len(original):keep] + extra
        data = original
        game = load_bytes(data[:keep] + extra, str(path))
        if keep < len(data):
            try:
                os.ftruncate(fd, keep)
            except OSError as exc:
                raise WriteError(str(path), "the change", exc) from None
        # O_APPEND: lands at the (new) end; on failure the cut bytes are written back.
        _append(fd, str(path), keep, extra, "the change", restore=data[keep:])
        return game


# ----------------------------------------------------------------------------------------------
# Fair play: the seed handshake (R40) and signed lines (R41).
#
# A handshake game's header has ``"seed": null``, the creator's commitment (``commit``) and key
# (``keys``).  Line 2 is the other player's ``join`` (their key and secret), line 3 the creator's
# ``reveal``; the seed is then derived from both secrets (keys.derive_seed) and the game starts.
# In a signed game (the header holds keys) every line carries a signature (keys.signed_message).


@dataclass
class Pending:
    """A handshake game that has not started yet: what it waits for, and its tip."""

    path: str
    header: Header
    trust: Trust
    joiner: str
    lines: int  # lines so far (1: the header; 2: the header and the join line)
    tip: str  # SHA-256 of the last line
    join: JoinLine | None

    @property
    def creator(self) -> str:
        assert self.trust.creator is not None
        return self.trust.creator

    @property
    def awaiting(self) -> str:
        """``"join"`` (the other player's part) or ``"reveal"`` (the creator's)."""
        return "join" if self.join is None else "reveal"

    @property
    def next_n(self) -> int:
        return self.lines

    def can_reveal_here(self) -> bool:
        """Whether this machine holds what the creator's reveal needs (their secret and key)."""
        return (
            self.awaiting == "reveal"
            and keys.secret(self.trust.game_id, self.creator) is not None
            and keys.signing_key(self.trust.game_id, self.creator) is not None
        )

    def message(self) -> str:
        if self.join is None:
            return (
                f"the game has not started: waiting for {self.joiner} to join the seed handshake.  "
                f"Send {self.joiner} the file {safe(self.path)} (or its first line, saved as a file); they run "
                f"`{shell_command(['agility', 'join', self.path])}` and send back the file or the line it prints"
            )
        return (
            f"the game has not started: waiting for {self.creator} to reveal the secret committed to in the "
            f"header.  {self.creator}'s next agility command on this game (e.g. "
            f"`{shell_command(['agility', 'show', self.path])}`) reveals it; this machine does not hold "
            f"{self.creator}'s secret"
        )


class HandshakePending(Refused):
    """The game has not started (exit 1): the join or the reveal of the seed handshake is awaited."""

    def __init__(self, pending: Pending):
        self.pending = pending
        super().__init__(pending.message(), [], "R40", "handshake/pending")


class CannotSign(Refused):
    """A line of a signed game that this machine holds no key to sign (exit 1, nothing written).

    ``index`` is the position of that move in the list being appended.
    """

    def __init__(self, message: str, index: int):
        self.index = index
        super().__init__(message, [], "R41", "sign/no_key")


def _uses_format_2(rec: Header) -> str | None:
    """The first format-2 feature a header uses, if any."""
    if rec.seed is None:
        return '"seed": null'
    if isinstance(rec.board, str):
        return "a board to be drawn"
    for name in ("commit", "keys", "sig"):
        if getattr(rec, name) is not msgspec.UNSET:
            return f'"{name}"'
    return None


def _check_fair_header(path: str, raw: bytes, rec: Header) -> Trust:
    """R40/R41: the header's handshake and key fields are consistent and its signature verifies."""
    gid = line_hash(raw)
    feature = _uses_format_2(rec)
    edited = "the header was edited; restore it from git or the opponent's copy"
    if feature is not None and rec.format < 2:
        raise GameFileError(path, 1, f"format 1 has no {feature} (format 2 does)", edited)
    players = tuple(rec.players)
    if rec.seed is None:
        if rec.commit is msgspec.UNSET or rec.keys is msgspec.UNSET:
            raise GameFileError(path, 1, '"seed": null (a seed drawn by handshake) needs the creator\'s "commit" and "keys"',
                                edited)
        if isinstance(rec.board, str) and rec.board not in ("random-a", "random-b"):
            raise GameFileError(path, 1, f"board {rec.board!r} is neither a layout nor random-a / random-b", edited)
        if rec.first not in players and rec.first != "random":
            raise GameFileError(path, 1, f"start player {rec.first!r} is neither a player nor \"random\"", edited)
    else:
        if rec.commit is not msgspec.UNSET:
            raise GameFileError(path, 1, 'a "commit" with a fixed seed: a handshake header has "seed": null', edited)
        if isinstance(rec.board, str):
            raise GameFileError(path, 1, f"board {rec.board!r}: with a fixed seed the header lists the ten tiles", edited)
    if rec.keys is msgspec.UNSET:
        if rec.sig is not msgspec.UNSET:
            raise GameFileError(path, 1, 'a "sig" in a header without "keys": there is no key to check it with', edited)
        return Trust(gid)
    if len(rec.keys) != 1 or next(iter(rec.keys)) not in players:
        raise GameFileError(path, 1, '"keys" in the header holds exactly one player\'s key (the creator\'s)', edited)
    creator, key = next(iter(rec.keys.items()))
    if rec.sig is msgspec.UNSET:
        raise GameFileError(path, 1, f"the header is not signed: a header with keys carries {creator}'s signature (R41)",
                            edited)
    _verify_own(path, 1, raw, creator, key, "the header")
    return Trust(gid, {creator: key}, creator if rec.seed is None else None, rec.seed is None)


def _verify_own(path: str, lineno: int, raw: bytes, player: str, key: str, what: str) -> None:
    """Raise unless ``raw``'s signature is ``player``'s (``key``)."""
    message = keys.signed_message(raw)
    if message is None:
        raise GameFileError(
            path, lineno, f"bad signature on {what}: \"sig\" must be the line's last member, written "
            f"`,\"sig\":\"<128 hex digits>\"` just before the closing brace",
            "the line was re-formatted or edited after it was signed; restore it byte for byte",
        )
    record = LINE_DECODER.decode(raw)
    if not keys.verify(key, message, record.sig):
        raise GameFileError(
            path, lineno, f"bad signature on {what}: it is not signed with {player}'s key (R41)",
            f"the line was changed after {player} signed it, or written by someone else; restore it from "
            f"{player}'s copy or from git",
        )


def _misplaced_handshake(path: str, lineno: int, record: Any) -> GameFileError:
    kind = "join" if isinstance(record, JoinLine) else "reveal"
    return GameFileError(
        path, lineno, f"a {kind!r} line here: the seed handshake (R40) is line 2 (join) and line 3 (reveal) of a game "
        "whose header has \"seed\": null, and nowhere else",
        f"delete line {lineno}, or restore the file from git or the opponent's copy",
    )


def _handshake_line(
    path: str, data: bytes, lines: Sequence[bytes], start: int, lineno: int, kind: type[Any]
) -> tuple[bytes, Any, int] | None:
    """The raw line at ``start``, decoded (must be ``kind``), and where the next line starts; None at the end."""
    size = len(data)
    if start >= size:
        return None
    end = data.find(b"\n", start)
    raw = data[start:] if end == -1 else data[start:end]
    try:
        record = _decode(path, lineno, raw, lines)
    except GameFileError as exc:
        if end == -1:
            raise _incomplete_error(path, lineno, raw, exc) from None
        raise
    if end == -1:
        raise _incomplete_error(path, lineno, raw, None)
    if not isinstance(record, kind):
        found = "the header" if isinstance(record, Header) else f"a {record.__struct_config__.tag!r} line"
        want = "the second player's `join`" if kind is JoinLine else "the creator's `reveal`"
        raise GameFileError(
            path, lineno,
            f"line {lineno} of a handshake game (\"seed\": null) must be {want} (R40), found {found}",
            "the seed handshake comes first: line 2 `join` (agility join), line 3 `reveal`; restore the file "
            "from git or the opponent's copy",
        )
    if record.n != lineno - 1:
        raise GameFileError(path, lineno, f"expected n={lineno - 1} on the {kind.__struct_config__.tag} line, found n={record.n}",
                            f"the line was edited; it must hold n={lineno - 1}")
    return raw, record, size if end == -1 else end + 1


def _check_handshake(
    path: str,
    data: bytes,
    lines: Sequence[bytes],
    header: Header,
    header_raw: bytes,
    comps: Components,
    trust: Trust,
    start: int,
    upto: int | None,
) -> tuple[Header, State, Trust, int, int, bytes, Any]:
    """Verify the join (line 2) and reveal (line 3) lines and start the game from the joint seed (R40).

    Returns the header as setup uses it, the state, the trust (with the joiner's key), the line
    number and start offset of what follows, the last raw line and its record.  Raises
    :class:`HandshakePending` when the file (or ``upto``) ends before the reveal.
    """
    creator = trust.creator
    assert creator is not None and header.commit is not msgspec.UNSET
    joiner = header.players[1] if header.players[0] == creator else header.players[0]

    def pending(join: JoinLine | None, lines_so_far: int, tip_raw: bytes) -> HandshakePending:
        t = trust if join is None else Trust(trust.game_id, {**trust.keys, join.player: join.key}, creator, True)
        return HandshakePending(Pending(path, header, t, joiner, lines_so_far, line_hash(tip_raw), join))

    def before_start() -> Refused:
        return Refused(
            f"line {upto} is part of the seed handshake (line 1 the header, 2 the join, 3 the reveal): the game "
            "starts after line 3, so there is no state to show before it", [], "R40", "handshake/before_start",
        )

    if upto is not None and upto < 2:
        raise before_start()
    got = _handshake_line(path, data, lines, start, 2, JoinLine)
    if got is None:
        raise pending(None, 1, header_raw)
    join_raw, join, start = got
    if join.prev != line_hash(header_raw):
        raise _chain_error(path, 2, join, lines, header)
    if join.player != joiner:
        raise GameFileError(path, 2, f"the join line is {join.player!r}'s, but the player who joins is {joiner!r} "
                            f"({creator} created the game)", "the line was edited; restore it")
    if join.key == trust.keys[creator]:
        raise GameFileError(path, 2, f"{joiner} joined with {creator}'s own key", "each player has a key of their own")
    if join.sig is msgspec.UNSET:
        raise GameFileError(path, 2, f"the join line is not signed: {joiner} signs it with the key it announces (R41)",
                            "restore the line from git or the joiner's copy")
    _verify_own(path, 2, join_raw, joiner, join.key, f"{joiner}'s join line")
    trust = Trust(trust.game_id, {**trust.keys, joiner: join.key}, creator, True)
    if upto is not None and upto < 3:
        if start < len(data):
            raise before_start()
        raise pending(join, 2, join_raw)
    got = _handshake_line(path, data, lines, start, 3, RevealLine)
    if got is None:
        raise pending(join, 2, join_raw)
    reveal_raw, reveal, start = got
    if reveal.prev != line_hash(join_raw):
        raise _chain_error(path, 3, reveal, lines, join)
    if reveal.player != creator:
        raise GameFileError(path, 3, f"the reveal line is {reveal.player!r}'s, but {creator} created the game and "
                            "reveals the secret", "the line was edited; restore it")
    if keys.commitment(reveal.secret) != header.commit:
        raise GameFileError(
            path, 3,
            f"the secret {creator} reveals does not match the commitment in the header (SHA-256 "
            f"{keys.commitment(reveal.secret)[:12]}…, committed {header.commit[:12]}…): the seed cannot be drawn (R40)",
            f"a reveal must disclose the very secret committed to at `agility new`; restore line 3 from {creator}'s "
            "copy or git, or start a new game",
        )
    if reveal.sig is msgspec.UNSET:
        raise GameFileError(path, 3, f"the reveal line is not signed by {creator} (R41)",
                            "restore the line from git or the creator's copy")
    _verify_own(path, 3, reveal_raw, creator, trust.keys[creator], f"{creator}'s reveal line")
    seed = keys.derive_seed(trust.game_id, reveal.secret, join.secret)
    board = rules.random_board(seed, header.board[-1]) if isinstance(header.board, str) else header.board
    first = header.first
    if first not in header.players:  # "random" (R10), checked with the header
        first = rules.random_first(seed, header.players)
    resolved = msgspec.structs.replace(header, seed=seed, board=board, first=first)
    try:
        state = rules.setup(resolved, comps)
    except rules.RulesError as exc:
        raise GameFileError(path, 3, f"the header cannot start a game: {exc}",
                            "the header was edited; restore it from git or the opponent's copy") from None
    return resolved, state, trust, 3, start, reveal_raw, reveal


def _check_signature(path: str, lineno: int, raw: bytes, record: Any, state: State, trust: Trust | None) -> None:
    """R41: a signed game's decision line is signed by the player whose decision it is.

    A line forced by the rules (a single legal option) and a bot seat's line may instead be signed
    by another player of the game (whoever's command wrote it).  ``state`` is the state before it.
    """
    player = record.player
    if trust is None or not trust.signed:
        if record.sig is not msgspec.UNSET:
            raise GameFileError(
                path, lineno, f"bad signature: {player}'s line is signed, but the game is unsigned (the header holds no keys)",
                "the header or this line was edited; restore them from git or the opponent's copy",
            )
        return
    if record.sig is msgspec.UNSET:
        raise GameFileError(
            path, lineno, f"missing signature: the game is signed (R41) but this line of {player}'s is not",
            f"every line of a signed game carries its signer's signature; the line was written by hand or edited — "
            f"restore it from {player}'s copy or git",
        )
    message = keys.signed_message(raw)
    if message is None:
        raise GameFileError(
            path, lineno, f"bad signature on {player}'s line: \"sig\" must be the line's last member, written "
            "`,\"sig\":\"<128 hex digits>\"` just before the closing brace",
            "the line was re-formatted or edited after it was signed; restore it byte for byte",
        )
    own = trust.keys.get(player)
    if own is not None and keys.verify(own, message, record.sig):
        return
    others = [name for name in trust.keys if name != player]
    if others and (player.startswith("bot:") or len(rules.legal_moves(state)) == 1):
        for name in others:
            if keys.verify(trust.keys[name], message, record.sig):
                return
        who = " or ".join([*([player] if own else []), *others])
        raise GameFileError(
            path, lineno, f"bad signature: {player}'s line ({_summary(record)}) is not signed by {who} (R41)",
            "the line was changed after it was signed, or written by someone without a key of this game; "
            "restore it from the copy of the player who wrote it, or from git",
        )
    if own is None:
        raise GameFileError(
            path, lineno, f"bad signature: {player} has no key in this signed game, so their decision "
            f"({_summary(record)}) cannot be signed (R41)",
            "the header or the join line was edited; restore the file from git or the opponent's copy",
        )
    raise GameFileError(
        path, lineno, f"bad signature: the line is {player}'s decision ({_summary(record)}) but it is not signed "
        f"with {player}'s key (R41)",
        f"the line was changed after {player} signed it, or made by someone else in {player}'s name; restore it "
        f"from {player}'s copy or from git",
    )


class _Signer:
    """Picks the key this machine signs each new line of a signed game with (R41)."""

    def __init__(self, game: Game):
        self.game = game
        self.held: dict[str, str] = {}
        for name, public in game.trust.keys.items():
            key = keys.signing_key(game.game_id, name)
            if key is not None and keys.public_key(key) == public:
                self.held[name] = key

    def key_for(self, state: State, move: Move, index: int) -> str:
        player = move.player
        if player in self.held:
            return self.held[player]
        if self.held and (player.startswith("bot:") or len(rules.legal_moves(state)) == 1):
            return self.held[sorted(self.held)[0]]
        mine = ", ".join(sorted(self.held)) or "no player"
        raise CannotSign(
            f"this is {player}'s decision and the game is signed (R41): only {player}'s key can "
            f"sign it, and this machine holds the key of {mine} for this game.  {player} makes this decision on "
            f"their machine (or imports their key here with `agility key import`)",
            index,
        )


def pending_reveal(data: bytes, path: str) -> bytes:
    """The creator's ``reveal`` line (with its newline) if the game waits for it and this machine can
    make it (R40: the creator's next command reveals the secret); else ``b""``.

    Ed25519 signatures are deterministic, so the line is the same whenever it is made.
    """
    end = data.find(b"\n")
    if end == -1 or b'"seed":null' not in data[:end]:
        return b""
    second = data.find(b"\n", end + 1)
    if second != -1 and data.find(b"\n", second + 1) != -1:
        return b""  # line 3 is there: revealed already (or something verify reports)
    try:
        for _ in verify(data, path):
            return b""  # the game has started
    except HandshakePending as exc:
        if exc.pending.can_reveal_here():
            return reveal_line(exc.pending) + b"\n"
    return b""


def reveal_line(pending: Pending) -> bytes:
    """The creator's signed ``reveal`` line (R40), from the secret and key this machine holds."""
    gid = pending.trust.game_id
    creator = pending.creator
    secret = keys.secret(gid, creator)
    key = keys.signing_key(gid, creator)
    assert secret is not None and key is not None
    record = RevealLine(n=2, prev=pending.tip, player=creator, secret=secret)
    return keys.with_signature(encode_line(record), key)


def create_signed(
    path: str | Path, header: Header, creator: str, *, handshake: bool, decide: Any = None
) -> tuple[Game | None, bytes, list[bytes]]:
    """Create a signed game file (R41): ``creator``'s new key in the header, kept in the key store.

    With ``handshake`` (R40) the header's seed is ``null`` and it commits to a new secret, kept
    beside the key until the reveal; the game (returned as ``None``) starts after the join and the
    reveal.  Without, ``decide`` makes the first decisions as in :func:`create`, signed.  The key is
    stored before the file is written (a key for a game never written is harmless; a game without
    its creator's key would be lost).  Returns the game, the header line and the decision lines.
    """
    name = str(path)
    signing_key = keys.new_signing_key()
    secret = keys.new_secret() if handshake else None
    fields: dict[str, Any] = {"format": FORMAT_VERSION, "keys": {creator: keys.public_key(signing_key)}}
    if secret is not None:
        fields.update(seed=None, commit=keys.commitment(secret))
    unsigned = msgspec.structs.replace(header, **fields)
    comps = header_components(unsigned, name)
    if not handshake:
        rules.setup(unsigned, comps)  # refuse a header that cannot start a game
    head = keys.with_signature(encode_line(unsigned), signing_key)
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "File exists", name)
    keys.store(line_hash(head), creator, signing_key=signing_key, secret=secret)
    game: Game | None = None
    lines: list[bytes] = []
    if not handshake:
        game = load_bytes(head + b"\n", name)
        if decide is not None:
            moves = decide(game)
            if moves:
                lines, state = render_lines(game, moves)
                game = game.extended(state, lines, moves)
    write_new(Path(path), b"".join(raw + b"\n" for raw in [head, *lines]), what="the new game file")
    return game, head, lines


def pending_of(data: bytes, path: str) -> Pending | None:
    """The handshake a game file waits for, or ``None`` if its game has started (raises if invalid)."""
    try:
        for _ in verify(data, path):
            return None
    except HandshakePending as exc:
        return exc.pending
    return None  # pragma: no cover - verify always yields a Start or raises


def join(path: str | Path, as_player: str | None = None) -> tuple[str, bytes, Pending]:
    """R40: the second player joins a handshake game: a new key and secret, one signed ``join`` line.

    Returns ``("join", line, handshake)`` — the line to send to the creator.  Run by the creator once
    the join is in (this machine holding the creator's secret), it reveals instead:
    ``("reveal", line, handshake)``.  Refuses (exit 1, file unchanged) a game that is not waiting
    for a join, or ``as_player`` who is not the joiner.
    """
    name = str(path)
    with locked(path) as fd:
        data = _read_fd(fd, name)
        pending = pending_of(data, name)
        if pending is None:
            header = decode_line(data[: data.find(b"\n")], name)
            why = "its seed was chosen by its creator" if header.seed is not None else "its handshake is complete"
            raise Refused(f"{safe(name)} needs no join: {why} and the game is under way", [], "R40", "join/not_needed")
        if pending.awaiting != "join":
            assert pending.join is not None
            if pending.can_reveal_here() and as_player in (None, pending.creator):
                line = reveal_line(pending)
                load_bytes(data + line + b"\n", name)  # verify before writing
                _append(fd, name, len(data), line + b"\n", "the reveal line")
                return "reveal", line, pending
            raise Refused(
                f"{pending.join.player} has joined already; the game waits for {pending.creator}'s reveal, which "
                f"{pending.creator}'s next agility command on this game makes",
                [], "R40", "join/done",
            )
        held_creator = keys.signing_key(pending.trust.game_id, pending.creator) is not None
        if as_player is None and held_creator:
            raise Refused(
                f"this machine holds {pending.creator}'s key: {pending.creator} created this game and "
                f"{pending.joiner} is the player who joins it, on their own machine (or here with "
                f"`{shell_command(['agility', 'join', name, '--as', pending.joiner])}`, if you both play on this one)",
                [], "R40", "join/creator",
            )
        if as_player is not None and as_player != pending.joiner:
            raise Refused(
                f"{as_player} cannot join: {pending.creator} created this game and {pending.joiner} is the player who "
                "joins it", [], "R40", "join/not_joiner",
            )
        if not data.endswith(b"\n"):  # pragma: no cover - verify reports an incomplete line first
            raise GameFileError(name, data.count(b"\n") + 1, "the file does not end with a newline")
        # A key kept here by an earlier join whose line was never written (a full disk) is used
        # again: a key in the store is never replaced (keys.store), and this one was never shown.
        signing_key = keys.signing_key(pending.trust.game_id, pending.joiner) or keys.new_signing_key()
        record = JoinLine(n=1, prev=pending.tip, player=pending.joiner, key=keys.public_key(signing_key),
                          secret=keys.new_secret())
        raw = keys.with_signature(encode_line(record), signing_key)
        keys.store(pending.trust.game_id, pending.joiner, signing_key=signing_key)
        pending_after = pending_of(data + raw + b"\n", name)  # verify before writing
        assert pending_after is not None
        _append(fd, name, len(data), raw + b"\n", "the join line")
    return "join", raw, pending_after


def trust_of(data: bytes, path: str) -> Trust:
    """The keys and seed origin of a game file, verified (its game started or not)."""
    try:
        for item in verify(data, path):
            assert isinstance(item, Start)
            return item.trust
    except HandshakePending as exc:
        return exc.pending.trust
    raise AssertionError("verify yields a Start first")  # pragma: no cover


def fairness_text(trust: Trust) -> str:
    """One line for ``replay``: where the seed came from (R40) and whether the lines are signed (R41)."""
    seed = "joint seed (commit and reveal)" if trust.joint else "seed chosen by its creator"
    if not trust.signed:
        return f"{seed}; unsigned: no keys, the file does not prove who made each line"
    names = " and ".join(trust.keys)
    return f"{seed}; signed: every line verified against the key{'s' if len(trust.keys) > 1 else ''} of {names}"
