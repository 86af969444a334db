"""Writing a sealed game's lines (format 4, R42–R44): the header with the creator's first passes, the
join's and reveal's passes, decisions with their seals, and the keys lines a player's tool writes
without asking the player anything (the joiner's re-key pass, keys awaited in a pause, a reshuffle's
step, the audit's secret).
"""

from __future__ import annotations

import copy
import os
from typing import Any

import msgspec

from ...engine import rules
from ...engine.components import Components
from ...engine.moves import Header, KeysLine, Move, SealedSetup, move_to_line
from ...engine.state import State, digest
from .. import keys
from . import abort as sealabort
from . import game as sealgame
from ..game import Game
from ..lines import encode_line, line_hash
from .seal import OpeningFailed, Sealed, personal
from ..signing import CannotSign
from ...engine.notation import Refused
from ...i18n import N_
from ...said import said

#: The most lines of no decision (and forced decisions) one command writes in a row.
MAX_FOLLOWUPS = 40


#: R42: the file format of a new sealed game: 4, whose every permutation pass carries the binding
#: shuffle proof (docs/sealed-deck.md section 3).  Format-3 files replay and play on as written.
SEALED_FORMAT = 4


def sealed_header(unsigned: Header, comps: Components, creator: str, window: int) -> tuple[Header, bytes, str]:
    """A format-4 header (R42): its nonce and window, then the creator's ``deal-1`` passes made with a
    new seal secret.  Returns the header (unsigned), the secret and the game id."""
    secret = sealgame.new_secret()
    bare = msgspec.structs.replace(unsigned, format=SEALED_FORMAT, sealed=SealedSetup(window=window, nonce=os.urandom(32).hex()))
    gid = keys.sealed_game_id(bare)
    full = msgspec.structs.replace(bare, sealed=sealgame.first_passes(bare, comps, gid, creator, secret))
    return full, secret, gid


def setup_seal(header: Header, comps: Components, gid: str, creator: str, join: Any, seat_name: str, secret: bytes,
               first: State | None = None) -> Any:
    """The seal of the join (``deal-2``, ``join`` is None) or of the creator's reveal (``deal-3``,
    with its keys for ``first``, the game's first state: section 4)."""
    sealed = sealgame.start(header, comps, gid, creator, {seat_name: secret})
    seat = header.players.index(seat_name)
    if join is None:
        return sealgame.make_setup(sealed, seat, "deal-2")
    sealgame.read_setup(sealed, 1 - seat, "deal-2", join.seal if join.seal is not msgspec.UNSET else None)
    return sealgame.make_setup(sealed, seat, "deal-3", first)


def next_automatic(sealed: Sealed, state: State) -> tuple[int, Move | None, int] | None:
    """What a held seat's tool writes now without a person's choice: ``(seat, decision or None,
    want)`` — a keys line (a pause's keys, a reshuffle step, the audit, the joiner's re-key pass,
    keys owed before a decision that then waits), a want (R44), or a forced decision — or None."""
    held = sealed.deck.mine
    if not sealed.dealt:
        return (sealed.deck.joiner, None, 0) if sealed.deck.joiner in held else None
    if state.winner is not None or sealed.aborts:  # R42: the audit, at the end or after an abort
        pending = [seat for seat in sealed.audit_pending(state) if seat in held]
        return (pending[0], None, 0) if pending else None
    waited = sealed.awaiting(state)
    if waited is not None:
        return (waited, None, 0) if waited in held else None
    actor = state.to_act
    if actor is None or actor not in held:
        return None
    try:
        trial, prepared = sealgame.prepare(sealed, state, actor)
    except OpeningFailed:  # R42: the actor's own keys open a position to no card: its tool aborts (render)
        return actor, None, 0
    if trial.awaiting(prepared) is not None:
        return actor, None, 0
    if sealed.blind_play_blocked(state, actor):
        return actor, None, 1
    legal = rules.legal_moves(personal(prepared, trial.deck.mine[actor]))
    return (actor, legal[0], 0) if len(legal) == 1 else None


def render(game: Game, moves: list[Move], *, followups: bool = True) -> tuple[list[bytes], list[Move | None], State]:
    """The lines recording ``moves`` (each in its player's own terms) and then what the held seats'
    tools write by themselves; the moves as recorded (None for a keys line); the public state."""
    assert game.sealed is not None and game.public is not None
    sealed = copy.deepcopy(game.sealed)
    state = game.public.copy()
    n, prev = game.next_n, game.tip
    out: list[bytes] = []
    recorded: list[Move | None] = []
    todo: list[tuple[int, Move | None, int]] = [(sealed.names.index(m.player), m, 0) for m in moves]
    while True:
        if todo:
            author, move, want = todo.pop(0)
        elif followups and len(out) < len(moves) + MAX_FOLLOWUPS and (auto := next_automatic(sealed, state)):
            author, move, want = auto
        else:
            break
        name = sealed.names[author]
        if move is not None and sealed.aborts:  # R42: nothing is decided after an abort
            first = next(iter(sealed.aborts.values()))
            raise Refused(said(N_("the game is over: {name}'s tool wrote an abort at line {line}; the audit says who "
                                  "forfeits: `agility show`"), name=sealed.names[first.seat], line=first.line),
                          [], "R42", "sealed/aborted")
        if move is not None and sealed.awaiting(state) is not None:
            waited = sealed.names[sealed.awaiting(state)]
            raise Refused(said(N_("waiting for {name}'s keys of the sealed deck (R44): their tool sends them with their "
                                  "next agility command on the game; decide again once they are in"), name=waited),
                          [], "R44", "sealed/waiting")
        key = keys.signing_key(game.game_id, name)
        if key is None:
            raise CannotSign(said(N_("this is {name}'s line of a sealed game, and only {name}'s tool holds {name}'s "
                                     "keys (R41, R42)"), name=name), len(out))
        try:
            made = sealgame.compose(sealed, state, author, n, move, want=want)
        except OpeningFailed as exc:
            # R42: the author's own key opens a position to no card of the set, or to a card seen
            # twice: a pass before it was false.  Its tool writes the abort instead of the line
            # (docs/sealed-deck.md, the abort): the decision asked for is not recorded
            made = sealgame.compose_abort(sealed, state, author, n, exc.position)
            todo = []
        if made.move is None:
            record: Any = KeysLine(n=n, prev=prev, player=name, seal=made.seal, digest=digest(made.state))
        else:
            record = msgspec.structs.replace(move_to_line(made.move, n, prev, digest(made.state)), seal=made.seal)
        raw = keys.with_signature(encode_line(record), key)  # R41
        sealgame.check(sealed, state, author, n, made.move, made.seal)  # the line as every verifier reads it
        out.append(raw)
        recorded.append(made.move)
        prev = line_hash(raw)
        n += 1
    return out, recorded, state


def abort_line(game: Game, refused: Any, raw: bytes, position: str) -> bytes | None:
    """R42: the abort this machine's tool writes instead of applying ``refused`` (its bytes ``raw``),
    the opponent's line whose keys open ``position`` to no card of the set (or to a card seen
    twice): this seat's seal secret, the position, and the refused line carried whole — signed by
    the opponent, it is the evidence every verifier reads again with the published secret.  None
    when this machine holds no other seat's secret."""
    assert game.sealed is not None and game.public is not None
    sealed = game.sealed
    author = sealed.names.index(refused.player) if refused.player in sealed.names else None
    seat = next((s for s in sealed.deck.mine if s != author), None)
    if seat is None or author is None:
        return None
    signing = keys.signing_key(game.game_id, sealed.names[seat])
    if signing is None:
        return None
    made = sealgame.compose_abort(sealed, game.public, seat, game.next_n, position, carried=raw)
    record = KeysLine(n=game.next_n, prev=game.tip, player=sealed.names[seat], seal=made.seal, digest=digest(made.state))
    return keys.with_signature(encode_line(record), signing)
