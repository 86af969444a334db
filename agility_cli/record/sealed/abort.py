"""The abort of a sealed game (R42; docs/sealed-deck.md, the abort): an abort is a claim about one
line — the opponent's line its writer refused, carried whole inside the abort (``Abort.line``), or
the writer's own decision its key would have completed — and about one position that line opens
now.  :func:`take_abort` reads the line's form; :func:`live` and :func:`opening` judge an abort
that carries no line (``judge`` gives every abort's verdict).
"""

from __future__ import annotations

from ...engine.moves import Abort, RekeyText, Seal
from ...engine.state import State, is_position
from . import crypto as sc
from .crypto import SealError
from ...i18n import N_, _name
from ...said import said, said_in
from .seal import Sealed, elsewhere
from .steps import AbortClaim, shown_now

__all__ = ["AbortClaim", "given_key", "live", "live_positions", "opening", "take_abort"]



def take_abort(sealed: Sealed, state: State, author: int, abort: Abort, rekey: dict[str, RekeyText] | None = None) -> None:
    """Read an abort line's form: the game under way and not aborted; with an older abort (no
    carried line), a sealed position and the opponent's key for it in the file or given here
    (checked against its commitment).  Its verdict needs the file before it read again with the
    secret (``judge``)."""
    carried = abort.line is not None
    if (not sealed.dealt and not carried) or state.winner is not None:
        raise SealError("abort", said(N_("an abort outside a game under way: at the end the audit publishes the "
                                         "seal secrets (R42)")))
    if sealed.aborts:
        first = next(iter(sealed.aborts.values()))
        raise SealError("abort", said(N_("a second abort: {name} aborted the game at line {line}; the other tool "
                                         "answers with its seal secret (an audit, R42)"),
                                      name=sealed.names[first.seat], line=first.line))
    secret = bytes.fromhex(abort.secret)
    if abort.line is not None:  # R42: the refused line itself is the evidence; its keys are judged in it
        if abort.key is not None:
            raise SealError("abort", said(N_("an abort carries the refused line or (older) the opponent's key, not both")))
        sealed.published.add(author)
        sealed.aborts[author] = AbortClaim(sealed.line + 1, author, secret, abort.position, carried=abort.line.encode())
        return
    q = abort.position
    p = sealed.deck.pos.get(q)
    if p is None or p.ct is None:
        raise SealError("abort", said(N_("an abort over position {position}, which holds no sealed card"), position=q))
    other = 1 - author
    key = None
    if abort.key is not None:
        commit = p.commits[other]
        if p.keys[other] is not None or commit is None:
            raise SealError("abort", said(N_("an abort that gives {name}'s key for position {position}, which the "
                                             "file holds or no pass committed"), name=sealed.names[other], position=q))
        key = sc.check_key(sc.unpack(abort.key, 32, said(N_("the key for position {position}"), position=q), 1)[0],
                           commit, said(N_("{name}'s key for position {position}"), name=sealed.names[other], position=q))
    elif p.keys[other] is None:
        raise SealError("abort", said(N_("an abort over position {position} without {name}'s key for it"), position=q,
                                      name=sealed.names[other]))
    sealed.published.add(author)
    sealed.aborts[author] = AbortClaim(sealed.line + 1, author, secret, q, key, dict(rekey or {}))


def live_positions(state: State) -> set[str]:
    """The positions that name a card now (R42): the decks, the displays, the Boost card, the hands.
    A position renamed since (re-keyed into a hand slot, reshuffled, played) names nothing now."""
    names = [*state.deck, *state.dog_deck, *state.display, *state.dog_display,
             *state.players[0].hand, *state.players[1].hand]
    if state.boost_card is not None:
        names.append(state.boost_card)
    return {q for q in names if is_position(q)}


def live(sealed: Sealed, state: State, claim: AbortClaim) -> str | None:
    """R42: why an abort without a carried line claims nothing about a live opening (its writer
    forfeits), or None.  The position must name a card now and not be open to both seats yet; an
    older abort that gives the opponent's key replaces a refused line of theirs (the key proves
    it); an abort over the writer's own decision must come in its writer's turn, over a position
    whose opening its key completes (the opponent's key in the file, its own not)."""
    q, writer = claim.position, claim.seat
    p = sealed.deck.pos.get(q)
    if p is None or p.ct is None or q not in live_positions(state):
        return said(N_("position {position} names no card now (opened, renamed or never dealt): no line opens it now"),
                    position=q)
    if p.card is not None or p.public:
        return said(N_("position {position} was opened before: no line opens it now"), position=q)
    if claim.key is not None:
        return None
    acting = state.to_act if sealed.awaiting(state) is None else sealed.awaiting(state)
    if sealed.dealt and acting != writer:
        return said(N_("an abort out of turn: {name} was not to act"), name=sealed.names[writer])
    if p.keys[writer] is not None or p.keys[1 - writer] is None:
        return said(N_("{name}'s key does not complete the opening of position {position}"), name=sealed.names[writer],
                    position=q)
    if q not in shown_now(state) and q not in state.deck and q not in state.dog_deck:
        return said_in(_name("verb", "{name}'s decision does not turn up position {position}"), name=sealed.names[writer],
                       position=q)
    return None


def opening(sealed: Sealed, state: State, claim: AbortClaim) -> str | None:
    """R42: what fails when live position ``claim.position`` is opened with the aborting seat's key
    (its secret held here) and the opponent's: no card of the pile, or a card already seen in its
    generation, shown now, or read by the aborting seat in a hand under the name it has now (the
    position is live: no other name of its card is); None when it opens soundly."""
    q, writer = claim.position, claim.seat
    p = sealed.deck.get(q)
    mine = sealed.deck.mine.get(writer)
    own = p.keys[writer] if p.keys[writer] is not None else (mine.keys.get(q) if mine is not None else None)
    theirs = claim.key if claim.key is not None else p.keys[1 - writer]
    if own is None or theirs is None or p.ct is None:
        return None
    pile = sealed.deck.pile_of(q)
    card = sealed.deck.tables[pile].get(sc.unlock(p.ct, own, theirs))
    if card is None:
        return said(N_("position {position} opens to no card of the set (a changed deck)"), position=q)
    if card in sealed.deck.seen.get((pile, p.gen), set()) or card in elsewhere(sealed, state, q):
        return said(N_("position {position} opens to {card}, a card already seen (a duplicated card)"), position=q, card=card)
    return None


def given_key(seal: Seal | None, position: str) -> bytes | None:
    """The key a line's seal gives for ``position`` (its ``open``, ``then``, ``window`` or ``ahead``
    keys), unchecked; None when it gives none."""
    if seal is None:
        return None
    for q, text in [*seal.open, *seal.then, *seal.window, *seal.ahead]:
        if q == position:
            try:
                return sc.unpack(text, 32, said(N_("the key for position {position}"), position=q), 1)[0]
            except SealError:
                return None
    return None
