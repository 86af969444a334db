"""A sealed game's file verified (formats 3 and 4, R42–R44): the header's, join's and reveal's setup
passes, then every line's seal checked with its decision, each fault reported at its line, naming
the player who wrote it.

The verifier holds the seal secrets this machine's key store keeps for the game (none for a
spectator); with them it also checks that every pass of that seat is the one its secret makes,
and reads the cards that seat may read.  The state it replays is the public one (the digest's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ...engine import rules
from ...engine.components import Components
from ...engine.moves import Header, JoinLine, KeysLine, Move, RevealLine, line_to_move
from ...engine.state import State, digest, is_position
from ...text import quoted, safe
from .. import keys
from . import game as sealgame
from ..diagnose import illegal_error
from ..game import Trust
from ..handshake import check_envelope
from ..lines import GameFileError, line_text
from .crypto import SealError
from .deck import OpeningFailed, SecretMismatch
from .seal import Sealed, named, personal
from .steps import substitute
from ..signing import check_signature
from ...i18n import N_
from ...said import Said, message_of, said
from .words import line_kind

TAMPERED = said(N_("the line was edited, or made by a modified client: restore it from its writer's copy or from "
                   "git; if its writer's copy says the same, that player cheated or their tool is broken (R42)"))


OPENING_FAILED = said(N_("the keys check, so a pass of the sealed deck before this line was false, not this line: "
                         "the tool of a player of the game aborts it over this position and names the cheat (R42); "
                         "this line is not kept"))

DELETE_AFTER = N_("delete line {line} and the lines after it")

EDITED_HEADER = said(N_("the header was edited; restore it from git or the opponent's copy"))


def _caused(error: GameFileError, cause: Exception) -> GameFileError:
    """``error`` with the sealed deck's fault behind it (an abort's verdict reads it, R42)."""
    error.cause = cause
    return error


#: R42 (issue 49): the games this process reads as a spectator does, with no secret of this
#: machine's key store: a secret of it made its player's deal passes but not a later pass of that
#: player's, and the published secrets forfeit that player (``verify.load_bytes`` adds them), so
#: every later reading here (the news, the story, the log) reads the file as the loader did.
SPECTATOR_HERE: set[str] = set()


def start(path: str, header: Header, comps: Components, trust: Trust, held: dict[str, bytes] | None, *,
          from_store: bool | None = None) -> Sealed:
    """The deck after the header's passes (line 1).  ``from_store``: the secrets ``held`` are this
    machine's key store's (by default when ``held`` is None), so a secret that does not make its
    player's pass is a damaged key store, not a cheat."""
    if from_store is None:
        from_store = held is None
    if from_store and trust.game_id in SPECTATOR_HERE:  # issue 49: read as the loader found it must be
        held, from_store = {}, False
    if header.format not in (3, 4):  # R42: format 4 is format 3 with binding shuffle proofs
        raise GameFileError(path, 1, said(N_("a sealed deck (\"sealed\") in a format-{format} header (formats 3 and 4 "
                                             "have it)"), format=header.format), EDITED_HEADER)
    if header.seed is not None or trust.creator is None:
        raise GameFileError(path, 1, said(N_("a sealed game's seed is drawn by the handshake (\"seed\": null, R40, "
                                             "R42)")), EDITED_HEADER)
    secrets = keys.seal_secrets(trust.game_id, header.players) if held is None else held
    try:
        sealed = sealgame.start(header, comps, trust.game_id, trust.creator, secrets)
    except SecretMismatch as exc:
        if from_store:
            raise _store_damaged(trust.game_id, header.players[exc.seat], exc) from None
        raise _caused(GameFileError(path, 1, _header(trust.creator, exc), TAMPERED), exc) from None
    except SealError as exc:
        raise _caused(GameFileError(path, 1, _header(trust.creator, exc), TAMPERED), exc) from None
    sealed.from_store = from_store  # type: ignore[attr-defined]  # whose fault a SecretMismatch is
    return sealed


def _store_damaged(game_id: str, player: str, exc: SealError) -> keys.DamagedKeyStore:
    """R42 and issue of trust: a seal secret of this machine's key store that does not make its
    player's pass (``exc``) is this machine's damaged record, never the other player's cheat."""
    return keys.DamagedKeyStore(keys.damaged_message(
        keys.store_path(game_id), said(N_("its seal secret for {name} does not make {name}'s passes in the game file "
                                          "({error})"), name=quoted(player), error=message_of(exc)), player))


def _header(creator: str | None, exc: SealError) -> Said:
    return said(N_("{player}'s header: {error}"), player=safe(str(creator)), error=message_of(exc))


def _line(record: Any, exc: SealError, tag: str | None = None) -> Said:
    """``alice's line: …`` (``tag``: ``alice's join line: …``), the sealed deck's fault said in it."""
    if tag is None:
        return said(N_("{player}'s line: {error}"), player=safe(record.player), error=message_of(exc))
    return said(N_("{player}'s {tag} line: {error}"), player=safe(record.player), tag=line_kind(tag), error=message_of(exc))


def setup_line(path: str, lineno: int, record: JoinLine | RevealLine, state: State | None = None, *, sealed: Sealed) -> None:
    """The join's pass (``deal-2``) or the reveal's (``deal-3``, with the game's first state)."""
    seat = sealed.names.index(record.player)
    name = "deal-2" if isinstance(record, JoinLine) else "deal-3"
    try:
        sealgame.read_setup(sealed, seat, name, record.seal if record.seal is not msgspec.UNSET else None, state)
    except SecretMismatch as exc:
        if getattr(sealed, "from_store", False):
            raise _store_damaged(sealed.deck.game, sealed.names[exc.seat], exc) from None
        raise _caused(GameFileError(path, lineno, _line(record, exc, str(record.__struct_config__.tag)), TAMPERED),
                      exc) from None
    except SealError as exc:
        raise _caused(GameFileError(path, lineno, _line(record, exc, str(record.__struct_config__.tag)), TAMPERED),
                      exc) from None


def check_line(
    path: str,
    lineno: int,
    raw: bytes,
    lines: Sequence[bytes],
    state: State,
    prev: str,
    prev_record: Any,
    trust: Trust,
    sealed: Sealed,
) -> tuple[Any, Move | None]:
    """Verify line ``lineno`` of a sealed game against ``state`` (advanced in place)."""
    record = check_envelope(path, lineno, raw, lines, prev, prev_record)
    if record.player not in sealed.names:
        raise GameFileError(path, lineno, said(N_("a line by {player}, who does not play this game"),
                                               player=quoted(record.player)),
                            said(N_("the line was edited; restore it from git or the opponent's copy")))
    seat = sealed.names.index(record.player)
    move = None if isinstance(record, KeysLine) else line_to_move(record)
    if move is not None:
        _check_turn(path, lineno, state, sealed, move)
    check_signature(path, lineno, raw, record, state, trust, strict=True)
    seal = None if record.seal is msgspec.UNSET else record.seal
    try:
        sealgame.check(sealed, state, seat, record.n, move, seal)
    except SecretMismatch as exc:
        if getattr(sealed, "from_store", False):
            # past the deal this secret made its player's deal passes: a pass it does not make may be
            # that player's own forgery (a modified tool's, issue 49), which the audit judges; the
            # loader reads such a file as a spectator would and takes its verdict (load_bytes)
            damaged = _store_damaged(sealed.deck.game, sealed.names[exc.seat], exc)
            damaged.after_deal = True  # type: ignore[attr-defined]
            raise damaged from None
        raise _caused(GameFileError(path, lineno, _line(record, exc), TAMPERED), exc) from None
    except OpeningFailed as exc:
        raise _caused(GameFileError(path, lineno, _line(record, exc), OPENING_FAILED), exc) from None
    except SealError as exc:
        raise _caused(GameFileError(path, lineno, _line(record, exc), TAMPERED), exc) from None
    except rules.IllegalMove as exc:
        assert move is not None
        raise illegal_error(path, lineno, state, move, str(exc)) from None
    except (KeyError, IndexError, ValueError, TypeError):
        if move is None:
            raise GameFileError(path, lineno, said(N_("{player}'s keys line cannot be read against the game"),
                                                   player=safe(record.player)), TAMPERED) from None
        raise illegal_error(path, lineno, state, move, "it is not among the legal decisions") from None
    if record.digest != digest(state):
        raise GameFileError(
            path, lineno,
            said(N_("state digest mismatch: the line ({line}) checks, but the state it leads to is not the one it "
                    "records"), line=line_text(record)),
            said(N_("line {line} was edited (a field value or its digest); compare it with the opponent's copy"),
                 line=lineno),
        )
    return record, move


def _check_turn(path: str, lineno: int, state: State, sealed: Sealed, move: Move) -> None:
    if sealed.aborts:
        first = next(iter(sealed.aborts.values()))
        raise GameFileError(path, lineno, said(N_("a decision after {name}'s abort at line {line} (R42): the game is "
                                                  "over"), name=safe(sealed.names[first.seat]), line=first.line),
                            said(DELETE_AFTER, line=lineno))
    if state.winner is not None:
        raise GameFileError(path, lineno, said(N_("a decision after the end of the game")), said(DELETE_AFTER, line=lineno))
    waited = sealed.awaiting(state)
    if waited is not None:
        raise GameFileError(
            path, lineno, said(N_("a decision while the game waits for {name}'s keys (R44)"), name=sealed.names[waited]),
            said(N_("{name}'s tool writes those first; the line was written on another copy of the game"),
                 name=sealed.names[waited]),
        )
    to_act = state.to_act
    assert to_act is not None
    if move.player != state.players[to_act].name:
        owner = state.players[to_act].name
        raise GameFileError(
            path, lineno, said(N_("decision by the wrong player: {player} made a decision that was {owner}'s"),
                               player=quoted(move.player), owner=quoted(owner)),
            said(N_("only {name} may decide here; the line was edited or written on another copy of the game"),
                 name=safe(owner)),
        )


def table_state(sealed: Sealed, state: State, *, deciding: bool = True) -> State:
    """The state this machine's seats decide and look in (R39): what their secrets read filled in,
    and, when a held seat must act, its owed keys published first (a wipe made, R13) as its next
    line will publish them (``deciding``; not for a state of the past)."""
    actor = state.to_act
    mine = sealed.deck.mine
    if deciding and actor is not None and actor in sealed.deck.mine and sealed.dealt and sealed.awaiting(state) is None:
        try:
            trial, state = sealgame.prepare(sealed, state, actor)
            mine = trial.deck.mine
        except OpeningFailed:  # R42: its keys open a position to no card: its tool aborts the game next
            pass
    out = state
    for secrets in mine.values():
        out = personal(out, secrets)
    if sealed.opened:  # R39/R42: the audit is in: every card named, on every machine alike
        return named(out, sealed.opened)
    return out if mine else state.copy()


def as_decided(sealed: Sealed, before: State) -> State:
    """The state before a line as its writer decided in it (R44): ``before`` with every position the
    line opened for everyone filled in (its writer's own key for a Boost card drawn during a pause
    comes with the decision), so that its legal decisions can be listed; for an apply's question
    whether the line was forced (R41)."""
    out = before.copy()
    for q, p in sealed.deck.pos.items():
        if p.card is not None:
            substitute(out, q, p.card)
    return out


def shown_move(sealed: Sealed, move: Move | None) -> Move | None:
    """A decision as this machine tells it: a face-down card's slot named by the card its secret reads
    there (its own card; an opponent's stays the slot, hidden by ``view.move_view``, R39)."""
    card = getattr(move, "card", None)
    if move is None or card is None or not is_position(card):
        return move
    for mine in sealed.deck.mine.values():
        if card in mine.cards and mine.seat == sealed.names.index(move.player):
            return msgspec.structs.replace(move, card=mine.cards[card])
    return move
