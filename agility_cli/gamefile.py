"""The only file I/O of the game: read and verify a game file, create one, append lines safely.

A game file is JSON Lines (R35, INTERFACE.md).  Reading it re-derives the state line by line and
verifies each line in a fixed order — JSON, schema, ``n`` sequence, ``prev`` hash chain, the
decision's owner, legality, ``digest`` — stopping at the first bad line with
:class:`GameFileError` (exit code 3), whose message names the line and says what is wrong and,
where it can, what would fix it.  State is never read from the file, only replayed.

Appends (``append_moves``) hold an exclusive ``flock`` on the file while they re-read and verify
it, check that the tip is still the one the decision was made on, write whole lines, flush and
fsync: two ``agility move`` runs at the same moment are serialised and never land on one tip.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import msgspec

from . import rules
from .components import Components, ComponentsError, standard_components, validate
from .moves import ENCODER, FORMAT_VERSION, LINE_DECODER, RULES_VERSION, Header, Move, line_to_move, move_to_line
from .state import State, digest

GENESIS = "0" * 64  # the "prev" of line 2 is the hash of line 1; nothing precedes line 1


class GameFileError(Exception):
    """The game file is invalid (exit 3).  ``line`` is the 1-based line number, when known."""

    def __init__(self, path: str, line: int | None, message: str, hint: str | None = None):
        self.path = path
        self.line = line
        self.message = message
        self.hint = hint
        where = f"{path}, line {line}" if line else path
        super().__init__(f"{where}: {message}" + (f"\n  hint: {hint}" if hint else ""))


class StaleTip(Exception):
    """The file changed between reading it and appending to it (exit 1: nothing was written)."""


@dataclass
class Step:
    """One verified decision line of a replay."""

    line: int  # 1-based line number in the file
    raw: bytes
    record: Any  # the decoded line Struct
    move: Move
    before: State | None  # only when asked for (narration); costs a copy per line
    after: State


@dataclass
class Game:
    """A verified game file: its header, the replayed state and the chain's tip."""

    path: str
    header: Header
    components: Components
    state: State
    lines: int  # number of lines, header included
    tip: str  # SHA-256 of the last line's bytes
    size: int  # bytes read (the whole file)
    history: list[State] = field(default_factory=list)

    @property
    def next_n(self) -> int:
        return self.lines  # line k (k ≥ 2) holds decision n = k − 1


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
                path, 1, f"unknown component set {header.components!r}", "use \"standard\" or embed the set in the header"
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
) -> Header:
    return Header(
        format=FORMAT_VERSION,
        rules=RULES_VERSION,
        seed=seed,
        players=players,
        first=first,
        board=board,
        components="standard" if components is None else components,
    )


def _describe_decode_error(exc: Exception) -> str:
    text = str(exc)
    if "Object contains unknown field" in text:
        return text.replace("Object contains unknown field", "unknown field") + " (fields are fixed by the format)"
    if "Invalid value" in text and "kind" in text:
        return f"{text}: unknown kind of line"
    return text


def _decode(path: str, lineno: int, raw: bytes) -> Any:
    if raw.startswith((b"<<<<<<<", b"=======", b">>>>>>>", b"|||||||")):
        raise GameFileError(
            path,
            lineno,
            "git conflict marker: two branches of the game were merged",
            "keep one branch's lines (the game cannot fork); see `agility replay` on each branch",
        )
    if not raw.strip():
        raise GameFileError(path, lineno, "empty line", "remove the blank line")
    try:
        return LINE_DECODER.decode(raw)
    except msgspec.ValidationError as exc:
        raise GameFileError(path, lineno, f"does not match the format: {_describe_decode_error(exc)}") from None
    except msgspec.DecodeError as exc:
        raise GameFileError(path, lineno, f"is not valid JSON ({exc})") from None


def iter_game(
    data: bytes,
    path: str = "game",
    *,
    upto: int | None = None,
    keep_before: bool = False,
) -> Iterator[Header | Step]:
    """Verify ``data`` line by line, yielding the header, then a :class:`Step` per decision.

    Stops after line ``upto`` when given.  Raises :class:`GameFileError` at the first bad line.
    Memory stays flat: no line or state is kept beyond the current one.
    """
    if not data:
        raise GameFileError(path, None, "the file is empty", "create a game with `agility new`")
    lines = data.split(b"\n")
    complete = data.endswith(b"\n")
    if complete:
        lines.pop()
    total = len(lines)
    header_raw = lines[0]
    if not complete and total == 1:
        raise GameFileError(path, 1, "incomplete line (no newline at the end): the write was interrupted",
                            "run `agility repair FILE` to drop it")
    rec = _decode(path, 1, header_raw)
    if not isinstance(rec, Header):
        raise GameFileError(path, 1, f"the first line must be the game header (\"kind\": \"game\"), found {rec.__struct_config__.tag!r}")
    if rec.format != FORMAT_VERSION:
        raise GameFileError(path, 1, f"format version {rec.format} is not supported (this tool reads version {FORMAT_VERSION})",
                            "upgrade agility")
    if rec.rules != RULES_VERSION:
        raise GameFileError(path, 1, f"rules version {rec.rules} is not supported (this tool plays version {RULES_VERSION})",
                            "upgrade agility")
    header = rec
    comps = header_components(header, path)
    try:
        state = rules.setup(header, comps)
    except rules.RulesError as exc:
        raise GameFileError(path, 1, f"the header cannot start a game: {exc}") from None
    yield header
    prev = line_hash(header_raw)
    seen_n: dict[int, int] = {}
    for index in range(1, total):
        lineno = index + 1
        if upto is not None and lineno > upto:
            return
        raw = lines[index]
        if index == total - 1 and not complete:
            raise GameFileError(
                path, lineno, "incomplete line (no newline at the end): the write was interrupted",
                "run `agility repair FILE` to drop the incomplete line",
            )
        record = _decode(path, lineno, raw)
        if isinstance(record, Header):
            raise GameFileError(path, lineno, "a second game header", "a file holds exactly one game; remove this line")
        expected_n = index
        if record.n != expected_n:
            if record.n in seen_n:
                raise GameFileError(
                    path, lineno,
                    f"decision n={record.n} appears twice (lines {seen_n[record.n]} and {lineno}): the game has forked",
                    "this happens when two branches were merged; keep the lines of one branch, then replay",
                )
            raise GameFileError(
                path, lineno, f"expected decision n={expected_n}, found n={record.n}",
                "lines were dropped, reordered or duplicated",
            )
        seen_n[record.n] = lineno
        if record.prev != prev:
            raise GameFileError(
                path, lineno,
                f"broken hash chain: prev is {record.prev[:12]}…, but line {lineno - 1} hashes to {prev[:12]}…",
                f"line {lineno - 1} was edited, or this line was written after a different one",
            )
        move = line_to_move(record)
        to_act = state.to_act
        if to_act is None:
            raise GameFileError(path, lineno, "a decision after the end of the game", "remove the lines after the last decision")
        owner = state.players[to_act].name
        if move.player != owner:
            raise GameFileError(
                path, lineno,
                f"{move.player!r} made a decision that was {owner!r}'s ({rules.awaited(state)})",
            )
        before = state.copy() if keep_before else None
        try:
            rules.apply_in_place(state, move)
        except rules.IllegalMove as exc:
            legal = ", ".join(_short(m) for m in rules.legal_moves(state)[:12])
            raise GameFileError(path, lineno, f"illegal decision: {exc}", f"legal there: {legal}") from None
        if record.digest != digest(state):
            raise GameFileError(
                path, lineno, "state digest mismatch: the line does not record the state its decision leads to",
                "the line was edited or written by a different rules version",
            )
        prev = line_hash(raw)
        yield Step(lineno, raw, record, move, before, state)


def _short(move: Move) -> str:
    fields = msgspec.to_builtins(move)
    kind = fields.pop("kind")
    fields.pop("player")
    return kind + "".join(f" {k}={v}" for k, v in fields.items() if v is not None)


def read_bytes(path: str | Path) -> bytes:
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise GameFileError(str(p), None, "no such game file", "create one with `agility new FILE --seed N`") from None
    except IsADirectoryError:
        raise GameFileError(str(p), None, "is a directory, not a game file") from None
    except OSError as exc:
        raise GameFileError(str(p), None, f"cannot read the file ({exc.strerror})") from None


def load_bytes(data: bytes, path: str = "game", *, upto: int | None = None) -> Game:
    """Verify a whole game given as bytes and return it with its final (or line ``upto``) state."""
    header: Header | None = None
    state: State | None = None
    lines = 0
    tip = ""
    for item in iter_game(data, path, upto=upto):
        if isinstance(item, Header):
            header = item
            lines = 1
            tip = line_hash(data.split(b"\n", 1)[0])
            continue
        state = item.after
        lines = item.line
        tip = line_hash(item.raw)
    assert header is not None
    comps = header_components(header, path)
    if state is None:
        state = rules.setup(header, comps)
    return Game(path, header, comps, state, lines, tip, len(data))


def load(path: str | Path, *, upto: int | None = None) -> Game:
    """Read and verify a game file (exit 3 on the first bad line)."""
    return load_bytes(read_bytes(path), str(path), upto=upto)


def create(path: str | Path, header: Header) -> bytes:
    """Write a new game file holding only ``header``; refuses to overwrite an existing file."""
    comps = header_components(header, str(path))
    rules.setup(header, comps)  # refuse a header that cannot start a game
    raw = encode_line(header) + b"\n"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as f:
        f.write(raw)
        f.flush()
        os.fsync(f.fileno())
    return raw


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[int]:
    """An exclusive lock on the game file (advisory ``flock``), held while reading and appending."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND)
    except FileNotFoundError:
        raise GameFileError(str(path), None, "no such game file", "create one with `agility new FILE --seed N`") from None
    except IsADirectoryError:
        raise GameFileError(str(path), None, "is a directory, not a game file") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)


def _read_fd(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def render_lines(game: Game, moves: list[Move]) -> tuple[list[bytes], State]:
    """The encoded lines recording ``moves`` after ``game``'s tip, and the resulting state.

    Each move must be legal in turn (raises :class:`rules.IllegalMove`); ``game`` is not changed.
    """
    state = game.state.copy()
    n = game.next_n
    prev = game.tip
    out = []
    for move in moves:
        rules.apply_in_place(state, move)
        raw = encode_line(move_to_line(move, n, prev, digest(state)))
        out.append(raw)
        prev = line_hash(raw)
        n += 1
    return out, state


def append_lines(path: str | Path, expected_tip: str, lines: list[bytes]) -> Game:
    """Append ready-made lines if the file's tip is still ``expected_tip``.

    Under an exclusive lock: re-read and verify the whole file, compare its tip, append the lines
    with one write, flush and fsync.  Raises :class:`StaleTip` (nothing written) if the game
    moved on meanwhile, :class:`GameFileError` if the file is invalid.
    """
    with locked(path) as fd:
        data = _read_fd(fd)
        game = load_bytes(data, str(path))
        if game.tip != expected_tip:
            raise StaleTip("the game file changed since this decision was made (another move landed first)")
        payload = b"".join(raw + b"\n" for raw in lines)
        # Re-verify the new lines on top of the file as it is now, so that nothing invalid lands.
        load_bytes(data + payload, str(path))
        os.write(fd, payload)
        os.fsync(fd)
    return load_bytes(data + payload, str(path))


def append_moves(path: str | Path, decide: Any) -> tuple[Game, list[bytes]]:
    """Lock the file, replay it, call ``decide(game) -> list[Move]``, append their lines.

    ``decide`` runs under the lock, on the verified current state, so two concurrent runs are
    serialised: the second sees the first's lines.  It may raise to refuse; nothing is written.
    """
    with locked(path) as fd:
        data = _read_fd(fd)
        game = load_bytes(data, str(path))
        moves = decide(game)
        if not moves:
            return game, []
        lines, state = render_lines(game, moves)
        payload = b"".join(raw + b"\n" for raw in lines)
        os.write(fd, payload)
        os.fsync(fd)
    after = Game(
        game.path, game.header, game.components, state, game.lines + len(lines), line_hash(lines[-1]), len(data + payload)
    )
    return after, lines
