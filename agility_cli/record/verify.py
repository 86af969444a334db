"""Verification: a game file replayed line by line into states, every line checked in a fixed order
(JSON, schema, ``n``, ``prev``, owner, signature, legality, ``digest``), the first bad one reported."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import msgspec

from ..engine import rules
from ..engine.components import Components
from ..engine.moves import FORMAT_VERSIONS, LINE_DECODER, LINE_TYPES, RULES_VERSIONS, Header, KeysLine, Move, line_to_move
from ..engine.state import State, digest
from ..i18n import N_, _, ngettext
from ..said import said
from ..text import check_players, quoted, safe, shell_word
from .diagnose import Lines, illegal_error, incomplete_error
from .game import Game, Start, Step, Trust
from .handshake import HandshakePending, Pending, check_envelope, check_fair_header, check_handshake
from . import keys
from .lazy import Deferred, Recent, resolve
from .lines import GameFileError, decode_checked, header_components, line_hash, line_text, peek_line, sealed_header
from .signing import check_signature

if TYPE_CHECKING:
    from . import checkpoint
    from .sealed.seal import Sealed


def _sealed_stack() -> Any:
    """The sealed deck's modules (R42), imported on the first sealed game read: PyNaCl and the
    passes cost a fair game's every command about 20 ms of start-up otherwise."""
    from . import checkpoint
    from .sealed import verify as sealverify

    return sealverify, checkpoint


def _check_header(path: str, raw: bytes, lines: Sequence[bytes]) -> tuple[Header, Components, State | None, Trust]:
    """Verify line 1; the state is ``None`` for a handshake game (it starts after the reveal)."""
    rec = decode_checked(path, 1, raw, lines)
    if not isinstance(rec, Header):
        raise GameFileError(
            path, 1,
            said(N_("the first line must be the game header (\"kind\": \"game\"), found a {kind} line (n={n})"),
                 kind=repr(rec.__struct_config__.tag), n=rec.n),
            said(N_("the header line was removed or the file was cut at the top; restore line 1 from git or the "
                    "opponent's copy")),
        )
    if rec.format not in FORMAT_VERSIONS:
        versions = ", ".join(map(str, FORMAT_VERSIONS))
        raise GameFileError(path, 1, said(N_("format version {version} is not supported (this tool reads versions "
                                             "{versions})"), version=rec.format, versions=versions),
                            said(N_("upgrade agility, or restore the header if it was edited")))
    if rec.rules not in RULES_VERSIONS:  # R38: every earlier version replays for ever
        versions = ", ".join(map(str, RULES_VERSIONS))
        raise GameFileError(path, 1, said(N_("rules version {version} is not supported (this tool plays versions "
                                             "{versions})"), version=rec.rules, versions=versions),
                            said(N_("upgrade agility, or restore the header if it was edited")))
    try:
        check_players(rec.players)
    except ValueError as exc:
        raise GameFileError(path, 1, said(N_("the header's players cannot be shown safely: {error}"), error=str(exc)),
                            said(N_("`agility new` never writes such names: the header was edited"))) from None
    trust = check_fair_header(path, raw, rec)
    comps = header_components(rec, path)
    if rec.seed is None:
        return rec, comps, None, trust
    try:
        state = rules.setup(rec, comps)
    except rules.RulesError as exc:
        raise GameFileError(path, 1, said(N_("the header cannot start a game: {error}"), error=exc.told()),
                            said(N_("the header was edited; restore it from git or the opponent's copy"))) from None
    return rec, comps, state, trust


def _held(header_raw: bytes) -> tuple[str, dict[str, bytes]] | None:
    """A sealed game's id and the seal secrets this machine holds for it, from a first look at its
    header (None when it is not a sealed one, or cannot be read: its own checks will say why)."""
    try:
        header = LINE_DECODER.decode(header_raw)
    except msgspec.DecodeError:
        return None
    if not isinstance(header, Header) or header.sealed is msgspec.UNSET or header.seed is not None:
        return None
    game = keys.game_id(header_raw)
    return game, keys.seal_secrets(game, header.players)


def _checkpointed(data: bytes, header_raw: bytes, resume_at: int | None) -> tuple[dict[str, bytes] | None, Any]:
    """The seal secrets this machine holds for a sealed game, and the checkpoint of its verified
    prefix that ``data`` starts with (None when there is none, or the header is not a sealed one)."""
    found = _held(header_raw)
    if found is None:
        return None, None
    from . import checkpoint  # the deck's own modules wait for the deck (lazy.Deferred)

    return found[1], checkpoint.load(found[0], data, found[1], resume_at)


#: The line Structs of the decisions: every line of a fair game after its start (R35, R36).
DECISION_LINES: frozenset[Any] = frozenset(LINE_TYPES.values())


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
    record: Any = decode_checked(path, lineno, raw, lines)
    if record.__class__ not in DECISION_LINES or record.n != lineno - 1 or record.prev != prev:
        # not a decision in its place: check_envelope says what is wrong (a keys line alone passes it)
        record = check_envelope(path, lineno, raw, lines, prev, prev_record)
        if isinstance(record, KeysLine):
            raise GameFileError(path, lineno, said(N_("a keys line, which only a sealed game (file format 3) holds")),
                                said(N_("the line belongs to another game, or was edited; delete line {line}"),
                                     line=lineno))
    move = line_to_move(record)
    to_act = state.to_act
    if to_act is None:
        winner = state.players[state.winner].name if state.winner is not None else "?"
        raise GameFileError(
            path, lineno, said(N_("a decision after the end of the game (it ended at line {end}: {name} won)"),
                               end=ended_at, name=winner),
            said(N_("delete line {line} and the lines after it"), line=lineno),
        )
    owner = state.players[to_act].name
    if move.player != owner:
        raise GameFileError(
            path, lineno,
            said(N_("decision by the wrong player: {player} made a decision that was {owner}'s ({name} to {what})"),
                 player=quoted(move.player), owner=quoted(owner), name=safe(owner), what=rules.awaited(state)),
            said(N_("only {name} may decide here; the line was edited or written on another copy of the game"),
                 name=safe(owner)),
        )
    if record.sig is not msgspec.UNSET or (trust is not None and trust.keys):  # R41: an unsigned line of an unsigned game passes
        check_signature(path, lineno, raw, record, state, trust)
    try:
        rules.apply_in_place(state, move)
    except rules.IllegalMove as exc:
        why = said(N_("{rule}: {why}"), rule=exc.rule, why=exc.message) if exc.rule else exc.message
        raise illegal_error(path, lineno, state, move, why) from None
    except (KeyError, IndexError, ValueError, TypeError):  # a reason could not be worked out for nonsense values
        raise illegal_error(path, lineno, state, move, "it is not among the legal decisions") from None
    if record.digest != digest(state):
        raise GameFileError(
            path, lineno,
            said(N_("state digest mismatch: the decision ({decision}) is legal, but the state it leads to is not "
                    "the one the line records"), decision=line_text(record)),
            said(N_("line {line} was edited (a field value or its digest) or written by a different rules version; "
                    "compare it with the opponent's copy or git history"), line=lineno),
        )
    return record, move


def _check_sealed(path: str, lineno: int, raw: bytes, lines: Sequence[bytes], state: State, prev: str,
                  prev_record: Any, ended_at: int | None, trust: Trust | None, *, sealed: Sealed) -> tuple[Any, Any]:
    assert trust is not None
    sealverify, _ = _sealed_stack()
    return sealverify.check_line(path, lineno, raw, lines, state, prev, prev_record, trust, sealed)  # type: ignore[no-any-return]


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
    held: dict[str, bytes] | None = None,
    resume: bool = False,
    resume_at: int | None = None,
) -> Iterator[Start | Step]:
    """Verify ``data`` line by line, yielding a :class:`Start`, then a :class:`Step` per decision.

    Stops after line ``upto`` when given.  Raises :class:`GameFileError` at the first bad line,
    saying what is wrong there and how to fix it: bad JSON, schema, a dropped, moved, copied or
    forked line, a broken hash chain (naming the line likely edited; a changed header shows at
    line 2), the wrong player, an illegal decision (with the legal ones), a digest mismatch, git
    conflict markers, CRLF endings, an incomplete last line.  Only the current state is kept.

    A sealed game (R42) is read with the seal secrets ``held`` (by default: those this machine's key
    store keeps for it); its states are the public ones, and :attr:`Start.sealed` is its deck.

    ``resume`` (a whole sealed game read with this machine's secrets): go on from the checkpoint
    of the verified prefix (:mod:`checkpoint`) when the file starts with its bytes — the
    :class:`Start` is then the state after its last line (at line ``resume_at`` or before, when
    given) — and keep a new one at the end.
    """
    if not data:
        raise GameFileError(path, 1, said(N_("the file is empty: line 1, the game header, is missing")),
                            said(N_("create a game with `agility new FILE --seed N`, or restore the file from git or "
                                    "a backup")))
    lines = Lines(data)  # split only if a diagnostic must look at other lines
    complete = data.endswith(b"\n")
    end = data.find(b"\n")
    if end == -1 and b"\r" in data:
        raise GameFileError(
            path, 1, said(N_("the file has carriage returns (CR, classic Mac OS line endings) and no newline at all")),
            said(N_("convert the line endings to newlines: `{command}`, check it with `agility replay fixed.jsonl`, "
                    "then put it in place of the game file"), command=f"tr '\\r' '\\n' < {shell_word(path)} > fixed.jsonl"),
        )
    if end == -1:
        try:
            _check_header(path, data, lines)
        except GameFileError as exc:
            raise incomplete_error(path, 1, data, exc) from None
        raise incomplete_error(path, 1, data, None)
    header_raw = data[:end]
    resumed: checkpoint.Cursor | None = None
    from_store = held is None  # R42: the seal secrets are this machine's key store's (not the audit's)
    if resume and upto is None and held is None and sealed_header(header_raw):
        # R42: a checkpoint covers the bytes it verified, the header's among them: found first, it
        # spares the header's checks (its signature, its components) as it spares the lines'
        from . import checkpoint

        held, resumed = _checkpointed(data, header_raw, resume_at)
    size = len(data)
    on_setup = None
    sealed: Sealed | None = None
    prev_record: Any
    ended_at: int | None = None
    if resumed is not None:  # R42: the verified prefix, as this machine's tool left it
        header, comps, trust, sealed, maybe_state = (resumed.header, resumed.components, resumed.trust, resumed.sealed,
                                                     resumed.state)
        lineno, start, prev, prev_record, ended_at, last_raw = (resumed.lineno, resumed.offset, resumed.prev,
                                                                resumed.prev_record, resumed.ended_at, resumed.last_raw)
        if start < size:  # lines to verify (a checkpoint is only read with no ``upto``): the deck itself
            sealverify, checkpoint = _sealed_stack()
            sealed = resolve(sealed)
    else:
        header, comps, maybe_state, trust = _check_header(path, header_raw, lines)
        # a fair game's id is the SHA-256 of its header line (keys.game_id): the chain's first link
        prev = trust.game_id if header.sealed is msgspec.UNSET else line_hash(header_raw)
        prev_record, lineno, start, last_raw = header, 1, end + 1, header_raw
        if header.sealed is not msgspec.UNSET:
            sealverify, checkpoint = _sealed_stack()
    if held is None or header.sealed is msgspec.UNSET:
        resume = False  # only a sealed game read with this machine's own secrets keeps a checkpoint
    if resumed is None and maybe_state is None:  # R40: the join and reveal lines come first; the game starts after them
        if header.sealed is not msgspec.UNSET:  # R42: the header's passes, then the join's and reveal's
            sealed = sealverify.start(path, header, comps, trust, held, from_store=from_store)
            on_setup = partial(sealverify.setup_line, path, sealed=sealed)
        first = prev
        header, maybe_state, trust, lineno, start, last_raw, prev_record = check_handshake(
            path, data, lines, header, header_raw, comps, trust, start, upto, on_setup
        )
        prev = line_hash(last_raw)
        # R40: the join's hash is the reveal's verified ``prev``; the joiner and the creator made them
        assert trust.creator is not None
        chain = [first, prev_record.prev, prev]
        made_by = ["", next(p for p in header.players if p != trust.creator), trust.creator]
    elif resumed is None:
        chain, made_by = [prev], [""]
    else:  # R42: the checkpoint's prefix, hashed only if a caller asks for the game's whole chain
        chain, made_by = [], []
    state = maybe_state
    begun = Start(header, comps, state, trust, lineno, last_raw, sealed, chain, made_by,
                  0 if resumed is None else lineno)
    yield begun
    hashes, deciders = begun.hashes, begun.deciders  # the chain, filled in as each line is verified
    # R42: the last lines' states as this machine reads them, kept with each checkpoint so that the
    # news since a player's last decision (``show``) is told from it without verifying them again
    tail: list[Recent] = []  # after the checkpoint's own (resumed.tail, kept apart); from line 1: the start's state
    if resume and resumed is None and state is not None:
        tail.append(Recent(lineno, last_raw, None, state.copy()))
    check = _check_decision if sealed is None else partial(_check_sealed, sealed=sealed)
    while start < size:
        lineno += 1
        if upto is not None and lineno > upto:
            return
        end = data.find(b"\n", start)
        at = start  # where the line begins: an abort's verdict reads the file before it (R42)
        last_incomplete = end == -1
        raw = data[start:] if last_incomplete else data[start:end]
        start = size if last_incomplete else end + 1
        before = state.copy() if keep_before else None
        if last_incomplete:
            try:
                check(path, lineno, raw, lines, state, prev, prev_record, ended_at, trust)
            except GameFileError as exc:
                raise incomplete_error(path, lineno, raw, exc) from None
            raise incomplete_error(path, lineno, raw, None)
        record, move = check(path, lineno, raw, lines, state, prev, prev_record, ended_at, trust)
        if sealed is not None and sealed.aborts:
            claim = sealed.aborts.get(sealed.names.index(record.player))
            if claim is not None and claim.line == lineno:
                _judge_abort(data[:at], path, sealed, state, claim, partial(
                    _carried_player, path, lineno, claim.carried or b"", lines, state, prev, prev_record, trust))
        if ended_at is None and state.winner is not None:
            ended_at = lineno
        prev = line_hash(raw)  # the one SHA-256 of this line: the next line's ``prev``, the chain, the step's
        hashes.append(prev)
        deciders.append(record.player)
        prev_record = record
        last_raw = raw
        if sealed is not None and state.winner is not None and not sealed.opened:
            _audit_passes(data[:start], path, sealed, state)
        if sealed is not None and (sealed.deck.mine or sealed.opened):  # R39: the states as this machine's secrets read them
            before = None if before is None else sealverify.table_state(sealed, before, deciding=False)
            step = Step(lineno, raw, record, sealverify.shown_move(sealed, move), before,
                        sealverify.table_state(sealed, state, deciding=False), prev)
        else:
            step = Step(lineno, raw, record, move, before, state, prev)
        if resume:
            after = step.after.copy()
            tail = [*tail[1 - checkpoint.TAIL:], Recent(lineno, raw, step.move, after)]
            if lineno == resume_at and (resumed is None or resumed.lineno < lineno):
                assert held is not None and sealed is not None  # resume: a sealed game, this machine's secrets
                checkpoint.save(trust.game_id, data, held, checkpoint.Cursor(  # where the next such read starts
                    header, comps, trust, _deferred(sealverify, sealed, state), state, lineno, start, prev, prev_record,
                    ended_at, last_raw,
                    checkpoint.pack_tail(resumed.tail if resumed is not None else b"", tail)))
        yield step
    assert complete
    if resume and held is not None and (resumed is None or lineno > resumed.lineno):
        from .sealed import write as sealwrite  # R44: whether this machine's tool owes a line now, kept with the checkpoint

        assert sealed is not None
        checkpoint.save(trust.game_id, data, held, checkpoint.Cursor(
            header, comps, trust, _deferred(sealverify, sealed, state), state, lineno, size, prev, prev_record, ended_at,
            last_raw,
            checkpoint.pack_tail(resumed.tail if resumed is not None else b"", tail),
            sealwrite.next_automatic(sealed, state) is not None))


def _judge_abort(before: bytes, path: str, sealed: Sealed, state: State, claim: Any, carried: Any) -> None:
    """R42's verdict on an abort (docs/sealed-deck.md, the abort), kept with the deck: the file
    ``before`` it read again with the published secret, and the opponent's line it carries (its
    form, chain and signature checked by ``carried()`` first: the abort line is refused if they
    fail).  An opening of that line that fails forfeits the opponent; every other case, the writer."""
    from .sealed import judge as sealjudge

    writer = claim.seat
    if claim.carried is not None and carried() != sealed.names[1 - writer]:
        sealed.forfeits[writer] = (f"{sealed.names[writer]}'s abort at line {claim.line}: the line it carries is not "
                                   f"{sealed.names[1 - writer]}'s (R42: an abort refuses an opponent's line)")
        return
    seat, why = sealjudge.judge(lambda data, held: verify(data, path, held=held), before, claim, sealed.names,
                                GameFileError, sealed, state)
    sealed.forfeits[seat] = why


def _carried_player(path: str, lineno: int, raw: bytes, lines: Lines, state: State, prev: str, prev_record: Any,
                    trust: Trust) -> str:
    """R42: the player who wrote the line an abort carries, once its form, its place in the chain
    (the abort's own) and its signature check; an abort whose carried line cannot be verified is
    refused at its line, as a forged line is."""
    try:
        record = check_envelope(path, lineno, raw, lines, prev, prev_record)
        check_signature(path, lineno, raw, record, state, trust, strict=True)
    except GameFileError as exc:
        raise GameFileError(path, lineno, said(N_("the abort carries a line that cannot be verified: {error}"),
                                               error=exc.message),
                            said(N_("the abort line was forged or damaged: delete line {line} (R42)"), line=lineno)) from None
    return str(record.player)


def _audit_passes(data: bytes, path: str, sealed: Sealed, state: State) -> None:
    """R42's audit, at each line that publishes a seal secret: the file to here read again with the
    secrets published so far, every pass of theirs (deal, hand re-keyings, reshuffle steps,
    re-masks, window keys, every key) recomputed and compared byte for byte.  The first that its
    writer's secret does not make forfeits that writer (kept with the deck: a verdict, never a
    broken file).  Once both are in and neither was found wrong, the card behind every position is
    kept with the deck (``Sealed.opened``): every machine's views then name every card — the other
    seat's hand re-keyed by a face-down decision too — alike on both machines and a spectator's.
    Secrets this read holds already were checked line by line as it went (nothing to do again)."""
    published = set(sealed.audits)
    if getattr(sealed, "forfeits", None) or not published or published <= set(sealed.deck.mine):
        return
    if published <= set(getattr(sealed, "judged", ())):
        return
    sealed.judged = frozenset(published)
    from .sealed.seal import every_card

    held = {sealed.names[seat]: secret for seat, secret in sealed.audits.items()}
    whole: Any = None
    try:
        for item in verify(data, path, held=held):
            if isinstance(item, Start):
                whole = item.sealed
    except GameFileError as exc:  # R42: the first pass its writer's published secret does not make
        if isinstance(getattr(exc.cause, "seat", None), int):  # a SecretMismatch names its writer's seat
            seat = exc.cause.seat  # type: ignore[union-attr]
        else:
            raw = data.split(b"\n")[(exc.line or 1) - 1]
            peek = peek_line(raw)
            who = peek.player if peek is not None and peek.player in sealed.names else sealed.names[0]
            seat = sealed.names.index(who)
        sealed.forfeits[seat] = f"audit failed: line {exc.line or 1}: {exc.message}, by {sealed.names[seat]}"
        return
    if whole is not None and not sealed.audit_pending(state):
        sealed.opened = every_card(whole)


def _deferred(sealverify: Any, sealed: Sealed, state: State) -> Deferred | None:
    """The deck as a checkpoint keeps it: its snapshot, and the table state made from it now (R42)."""
    from . import checkpoint

    return checkpoint.deferred(sealed, sealverify.table_state(sealed, state))


def settled(data: bytes) -> bool:
    """R44: whether this machine's checkpoint of all of a sealed game ``data`` says its tool owes
    no line now (then nothing needs reading to know it)."""
    end = data.find(b"\n")
    found = _held(data[:end]) if end != -1 and sealed_header(data[:end]) else None
    if found is None:
        return False
    from . import checkpoint

    return checkpoint.settled(found[0], data, found[1])


def recent_lines(data: bytes, path: str, since: int) -> tuple[Game, list[Recent]] | None:
    """R42: a sealed game ``data`` and its lines from line ``since`` to the end, as the checkpoint
    of all its bytes keeps them (verified when it was made); None when there is none that covers them."""
    end = data.find(b"\n")
    if end == -1 or not sealed_header(data[:end]):
        return None
    _, cursor = _checkpointed(data, data[:end], None)
    if cursor is None or cursor.offset != len(data):
        return None
    from . import checkpoint

    tail = checkpoint.tail_of(cursor, since)
    if not tail or tail[0].line != since or not all(isinstance(r, Recent) for r in tail):
        return None
    start = Start(cursor.header, cursor.components, cursor.state, cursor.trust, cursor.lineno, cursor.last_raw, cursor.sealed)
    return finished_game(data, path, start, cursor.lineno, cursor.last_raw), tail


def load_bytes(data: bytes, path: str = "game", *, upto: int | None = None) -> Game:
    """Verify a whole game given as bytes and return it with its final (or line ``upto``) state.

    R42 (issue 49): when a seal secret of this machine's key store, which made its player's deal
    passes, does not make a later pass of that player's, the pass is that player's forgery or the
    store is damaged.  The file is then read as a spectator reads it (no secret of this machine's):
    where the published secrets forfeit that player at the audit, that verdict is the game's on
    this machine too (the cheater's own machine says what everyone's says); otherwise the key store
    is reported as damaged, as before."""
    from .keys import DamagedKeyStore

    try:
        return _load_bytes(data, path, upto, None)
    except (DamagedKeyStore, GameFileError) as exc:
        # the store's secret refused by a pass past the deal: read fresh (after_deal), or through
        # a checkpoint this machine's tool wrote (the pass then called false by the secret it holds)
        if not own_secret_refused(exc):
            raise
        try:
            game = _load_bytes(data, path, upto, {})
        except GameFileError:
            raise exc from None
        if not getattr(game.sealed, "forfeits", None):  # the audit forfeits nobody: the error stands
            raise exc from None
        game.spectator = True
        sealverify, _ = _sealed_stack()
        sealverify.SPECTATOR_HERE.add(game.trust.game_id)
        return game


def own_secret_refused(exc: Exception) -> bool:
    """Whether ``exc`` is a line past the deal refused because a seal secret does not make its pass
    (R42): this machine's key store's, read fresh (``after_deal``), or one a checkpoint of this
    machine's held."""
    if getattr(exc, "after_deal", False):
        return True
    cause = getattr(exc, "cause", None)
    return isinstance(exc, GameFileError) and type(cause).__name__ == "SecretMismatch"


def _load_bytes(data: bytes, path: str, upto: int | None, held: dict[str, bytes] | None) -> Game:
    start: Start | None = None
    lines = 1
    last = data[: data.find(b"\n")]
    for item in verify(data, path, upto=upto, resume=held is None, held=held):
        if isinstance(item, Start):
            start = item
            lines, last = item.line, item.raw
        else:
            lines, last = item.line, item.raw
    assert start is not None
    return finished_game(data, path, start, lines, last)


def finished_game(data: bytes, path: str, start: Start, lines: int, last: bytes) -> Game:
    """The game of a verified file read to line ``lines`` (whose bytes are ``last``).

    The steps advance the start state in place: it is now the state after the last line, and
    its chain (:attr:`Start.hashes`) holds the hash of every line verified since: only lines
    it does not cover (a checkpoint's prefix, or a start not made by :func:`verify`) are hashed here.
    """
    if start.chained + len(start.hashes) == lines:
        hashes, deciders = chain_of(data, start.chained) if start.chained else ([], [])
        hashes += start.hashes
        deciders += start.deciders
        tip = hashes[-1]
    else:
        hashes, deciders = chain_of(data, lines)
        tip = line_hash(last)
    if start.sealed is not None:  # R42: the state this machine's secrets read, beside the public one
        table = start.sealed.table_state() if isinstance(start.sealed, Deferred) else None  # kept: no line since
        if table is None:
            sealverify, _ = _sealed_stack()
            table = sealverify.table_state(resolve(start.sealed), start.state)
        return Game(path, start.header, start.components, table, lines, tip, start.trust, hashes, deciders,
                    start.sealed, start.state)
    return Game(path, start.header, start.components, start.state, lines, tip, start.trust, hashes, deciders)


def chain_of(data: bytes, lines: int) -> tuple[list[str], list[str]]:
    """The hash and the decider (``player``; ``""`` for the header) of each of the first ``lines``
    lines of a verified file."""
    rows = data.split(b"\n", lines)[:lines]
    deciders = [""]
    for raw in rows[1:]:
        peek = peek_line(raw)
        deciders.append(peek.player if peek is not None and isinstance(peek.player, str) else "")
    return [line_hash(raw) for raw in rows], deciders


def pending_of(data: bytes, path: str) -> Pending | None:
    """The handshake a game file waits for, or ``None`` if its game has started (raises if invalid)."""
    try:
        for _ in verify(data, path):
            return None
    except HandshakePending as exc:
        return exc.pending
    return None  # pragma: no cover - verify always yields a Start or raises


def trust_of(data: bytes, path: str, held: dict[str, bytes] | None = None) -> Trust:
    """The keys and seed origin of a game file, verified (its game started or not); ``held``: the
    seal secrets to read a sealed game with (``{}``: none, not this machine's key store)."""
    try:
        for item in verify(data, path, held=held):
            assert isinstance(item, Start)
            return item.trust
    except HandshakePending as exc:
        return exc.pending.trust
    raise AssertionError("verify yields a Start first")  # pragma: no cover


def fairness_text(trust: Trust) -> str:
    """One line for ``replay``: where the seed came from (R40) and whether the lines are signed (R41)."""
    # Human text only (the replay's story), in the language in use; nothing here reaches a JSON value.
    seed = _("joint seed (commit and reveal)") if trust.joint else _("seed chosen by its creator")
    if not trust.signed:
        return _("{seed}; unsigned: no keys, the file does not prove who made each line").format(seed=seed)
    names = _(" and ").join(trust.keys)
    return ngettext("{seed}; signed: every line verified against the key of {names}",
                    "{seed}; signed: every line verified against the keys of {names}", len(trust.keys)).format(
        seed=seed, names=names)
