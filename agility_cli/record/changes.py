"""Changing a game file under its lock: creating it, appending decisions (signed where the game is),
any other verified change (``apply``, ``undo``, ``repair``), and the creator's reveal and the
join of the seed handshake (R40)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any, Callable, TypeVar
import msgspec

from . import history, keys
from ..engine import rules
from ..engine.moves import FORMAT_VERSION, Header, JoinLine, Move, RevealLine, move_to_line
from ..engine.state import State, digest
from ..text import safe, shell_command
from ..i18n import N_
from ..said import said
from ..engine.notation import Refused
from ..i18n import N_
from ..said import said
from .game import Game
from .handshake import HandshakePending, Pending
from .lines import GameFileError, decode_line, encode_line, header_components, line_hash, sealed_header
from .signing import Signer
from .storage import WriteError, append, locked, read_bytes, read_fd, write_new
from .verify import load_bytes, own_secret_refused, pending_of, settled, verify

T = TypeVar("T")


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
    if not pending_reveal(data, str(path)) and not sealed_followups(data, str(path)):
        return data
    with locked(path) as fd:
        data = read_fd(fd, str(path))
        reveal = pending_reveal(data, str(path))
        reveal += sealed_followups(data + reveal, str(path))
        if reveal:
            append(fd, str(path), len(data), reveal, "the reveal line")
            history.note_own_audit(data, reveal)  # R42: this machine's audit keys, not sent yet
    return data + reveal


def sealed_followups(data: bytes, path: str) -> bytes:
    """R42/R44: the lines a sealed game's tool writes by itself on this machine (keys awaited, a
    reshuffle's step, the joiner's re-key pass, the audit), each with its newline; else ``b""``."""
    if not sealed_header(data) or settled(data):
        return b""
    try:
        game = load_bytes(data, path)
    except (HandshakePending, GameFileError):
        return b""
    sealed = game.sealed
    if sealed is None:
        return b""
    from .sealed import write as sealwrite  # R42: only a sealed game needs the sealed deck's modules (start-up time)

    if sealwrite.next_automatic(sealed, game.written_state) is None:
        return b""
    lines, _, _ = sealwrite.render(game, [])
    return b"".join(raw + b"\n" for raw in lines)


def abort_reply(data: bytes, path: str, refused: Any, raw: bytes, position: str) -> bytes:
    """R42: the abort line (with its newline) this machine's tool writes after ``data`` instead of
    the opponent's line ``refused`` (its bytes ``raw``, carried whole in the abort), whose keys open
    ``position`` to no card; ``b""`` when it cannot (no seal secret of the other seat here)."""
    try:
        game = load_bytes(data, path)
    except (HandshakePending, GameFileError):
        return b""
    if game.sealed is None or game.sealed.aborts:
        return b""
    from .sealed import write as sealwrite  # R42: only a sealed game (start-up time)

    line = sealwrite.abort_line(game, refused, raw, position)
    return b"" if line is None else line + b"\n"


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


def render_lines(game: Game, moves: list[Move]) -> tuple[list[bytes], State]:
    """The encoded lines recording ``moves`` after ``game``'s tip, and the resulting state.

    Each move must be legal in turn (raises :class:`rules.IllegalMove`); ``game`` is not changed.
    In a signed game each line is signed with the key this machine holds for its signer (R41);
    :class:`CannotSign` (exit 1) refuses a line this machine cannot sign.
    """
    if game.is_sealed:  # R42: each line carries its writer's keys and passes
        from .sealed import write as sealwrite

        lines, _, state = sealwrite.render(game, moves)
        return lines, state
    state = game.state.copy()
    n = game.next_n
    prev = game.tip
    out = []
    signer = Signer(game) if game.trust.signed else None
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
        data = read_fd(fd, str(path))
        reveal = pending_reveal(data, str(path))
        reveal += sealed_followups(data + reveal, str(path))  # R44: keys this machine's tool owes first
        game = load_bytes(data + reveal, str(path))
        moves = decide(game)
        head = [raw for raw in reveal.split(b"\n") if raw]
        if not moves:
            if reveal:
                append(fd, str(path), len(data), reveal, "the reveal line" if not game.is_sealed else "the keys lines")
                history.note_own_audit(data, reveal)
            return game, head
        lines, state = render_lines(game, moves)
        payload = reveal + b"".join(raw + b"\n" for raw in lines)
        append(fd, str(path), len(data), payload, said(N_("the new lines")) if len(lines) > 1 else said(N_("the new line")))
        history.note_own_audit(data, payload)  # R42: the finisher's line carries its audit keys
    if game.is_sealed:
        return load_bytes(data + payload, str(path)), head + lines
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
        original = read_fd(fd, str(path))
        reveal = pending_reveal(original, str(path))  # R40: the creator's reveal goes first
        data = original + reveal
        plan = change(data)
        if plan is None:
            if reveal:
                append(fd, str(path), len(original), reveal, "the reveal line")
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
        append(fd, str(path), keep, extra, "the change", restore=data[keep:])
        history.note_own_audit(data[:keep], extra)  # R42: apply's own audit keys after the mail's lines
        return game


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
    if pending.header.sealed is not msgspec.UNSET:  # R42: the creator's re-key pass (deal-3)
        seal_secret = keys.seal_secret(gid, creator)
        assert seal_secret is not None
        from .sealed import write as sealwrite

        from ..engine import rules
        from .handshake import resolved_header

        assert pending.join is not None
        comps = header_components(pending.header, pending.path)
        first = rules.setup(resolved_header(pending.header, gid, secret, pending.join.secret), comps)
        seal = sealwrite.setup_seal(pending.header, comps, gid, creator, pending.join, creator, seal_secret, first)
        record = msgspec.structs.replace(record, seal=seal)
    return keys.with_signature(encode_line(record), key)


def create_signed(
    path: str | Path, header: Header, creator: str, *, handshake: bool, decide: Any = None, window: int | None = None
) -> tuple[Game | None, bytes, list[bytes]]:
    """Create a signed game file (R41): ``creator``'s new key in the header, kept in the key store.

    With ``handshake`` (R40) the header's seed is ``null`` and it commits to a new secret, kept
    beside the key until the reveal; the game (returned as ``None``) starts after the join and the
    reveal.  With a ``window`` as well the game is sealed (R42, format 3): the header carries the
    creator's first passes, made with a new seal secret kept in the key store.
    Without, ``decide`` makes the first decisions as in :func:`create`, signed.  The key is
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
    seal: bytes | None = None
    if handshake and window is not None:
        from .sealed import write as sealwrite

        unsigned, seal, _ = sealwrite.sealed_header(unsigned, comps, creator, window)
    head = keys.with_signature(encode_line(unsigned), signing_key)
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "File exists", name)
    keys.store(keys.game_id(head), creator, signing_key=signing_key, secret=secret, seal=None if seal is None else seal.hex())
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


def join(path: str | Path, as_player: str | None = None) -> tuple[str, bytes, Pending]:
    """R40: the second player joins a handshake game: a new key and secret, one signed ``join`` line.

    Returns ``("join", line, handshake)`` — the line to send to the creator.  Run by the creator once
    the join is in (this machine holding the creator's secret), it reveals instead:
    ``("reveal", line, handshake)``.  Refuses (exit 1, file unchanged) a game that is not waiting
    for a join, or ``as_player`` who is not the joiner.
    """
    name = str(path)
    with locked(path) as fd:
        data = read_fd(fd, name)
        pending = pending_of(data, name)
        if pending is None:
            header = decode_line(data[: data.find(b"\n")], name)
            why = (said(N_("its seed was chosen by its creator")) if header.seed is not None
                   else said(N_("its handshake is complete")))
            raise Refused(said(N_("{file} needs no join: {why} and the game is under way"), file=safe(name), why=why),
                          [], "R40", "join/not_needed")
        if pending.awaiting != "join":
            assert pending.join is not None
            if pending.can_reveal_here() and as_player in (None, pending.creator):
                line = reveal_line(pending)
                load_bytes(data + line + b"\n", name)  # verify before writing
                append(fd, name, len(data), line + b"\n", "the reveal line")
                return "reveal", line, pending
            raise Refused(
                said(N_("{joiner} has joined already; the game waits for {creator}'s reveal, which {creator}'s next "
                        "agility command on this game makes"), joiner=pending.join.player, creator=pending.creator),
                [], "R40", "join/done",
            )
        held_creator = keys.signing_key(pending.trust.game_id, pending.creator) is not None
        if as_player is None and held_creator:
            raise Refused(
                said(N_("this machine holds {creator}'s key: {creator} created this game and {joiner} is the player "
                        "who joins it, on their own machine (or here with `{command}`, if you both play on this one)"),
                     creator=pending.creator, joiner=pending.joiner,
                     command=shell_command(['agility', 'join', name, '--as', pending.joiner])),
                [], "R40", "join/creator",
            )
        if as_player is not None and as_player != pending.joiner:
            raise Refused(
                said(N_("{player} cannot join: {creator} created this game and {joiner} is the player who joins it"),
                     player=as_player, creator=pending.creator, joiner=pending.joiner),
                [], "R40", "join/not_joiner",
            )
        if not data.endswith(b"\n"):  # pragma: no cover - verify reports an incomplete line first
            raise GameFileError(name, data.count(b"\n") + 1, said(N_("the file does not end with a newline")))
        # A key kept here by an earlier join whose line was never written (a full disk) is used
        # again: a key in the store is never replaced (keys.store), and this one was never shown.
        signing_key = keys.signing_key(pending.trust.game_id, pending.joiner) or keys.new_signing_key()
        record = JoinLine(n=1, prev=pending.tip, player=pending.joiner, key=keys.public_key(signing_key),
                          secret=keys.new_secret())
        seal_hex = None
        if pending.header.sealed is not msgspec.UNSET:  # R42: the joiner's shuffle pass (deal-2)
            held = keys.seal_secret(pending.trust.game_id, pending.joiner)
            from .sealed import game as sealgame, write as sealwrite

            seal_secret = held if held is not None else sealgame.new_secret()
            seal_hex = seal_secret.hex()
            record = msgspec.structs.replace(record, seal=sealwrite.setup_seal(
                pending.header, header_components(pending.header, name), pending.trust.game_id, pending.creator, None,
                pending.joiner, seal_secret))
        raw = keys.with_signature(encode_line(record), signing_key)
        keys.store(pending.trust.game_id, pending.joiner, signing_key=signing_key, seal=seal_hex)
        pending_after = pending_of(data + raw + b"\n", name)  # verify before writing
        assert pending_after is not None
        append(fd, name, len(data), raw + b"\n", "the join line")
    return "join", raw, pending_after


def judged_here(read: Callable[[], T], path: str | Path) -> T:
    """``read()`` of the game file at ``path``; where this machine's own seal secret is refused past
    the deal (:func:`own_secret_refused`), the loader decides (:func:`load_bytes`: read as a
    spectator where the audit forfeits that player, else the error) and ``read()`` runs again."""
    try:
        return read()
    except Exception as exc:
        if not own_secret_refused(exc):
            raise
        load_bytes(read_revealed(path), str(path))
        return read()
