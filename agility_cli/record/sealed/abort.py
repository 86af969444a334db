"""The abort of a sealed game (R42; docs/sealed-deck.md, the abort): when published keys open a
position to no card of its pile (or to a card seen twice), the tool that finds it publishes its
seal secret at once in an abort line, and every verifier judges it: :func:`take_abort` reads the
line's form, :func:`opening` opens the named position with the secret held (``record.verify``
reads the file before the abort again with it, then gives the verdict).
"""

from __future__ import annotations

from ...engine.moves import Abort, RekeyText, Seal
from ...engine.state import State
from . import crypto as sc
from .crypto import SealError
from .seal import Sealed, elsewhere
from .steps import AbortClaim

__all__ = ["AbortClaim", "given_key", "opening", "take_abort"]



def take_abort(sealed: Sealed, state: State, author: int, abort: Abort, rekey: dict[str, RekeyText] | None = None) -> None:
    """Read an abort line's form: the game under way and not aborted, a sealed position, the
    opponent's key for it in the file or given here (checked against its commitment).  Its
    verdict needs the file before it read again with the secret (record.verify)."""
    if not sealed.dealt or state.winner is not None:
        raise SealError("abort", "an abort outside a game under way: at the end the audit publishes the seal "
                                 "secrets (R42)")
    if sealed.aborts:
        first = next(iter(sealed.aborts.values()))
        raise SealError("abort", f"a second abort: {sealed.names[first.seat]} aborted the game at line {first.line}; "
                                 "the other tool answers with its seal secret (an audit, R42)")
    q = abort.position
    p = sealed.deck.pos.get(q)
    if p is None or p.ct is None:
        raise SealError("abort", f"an abort over position {q}, which holds no sealed card")
    other = 1 - author
    key = None
    if abort.key is not None:
        commit = p.commits[other]
        if p.keys[other] is not None or commit is None:
            raise SealError("abort", f"an abort that gives {sealed.names[other]}'s key for position {q}, which the "
                                     "file holds or no pass committed")
        key = sc.check_key(sc.unpack(abort.key, 32, f"the key for position {q}", 1)[0], commit,
                           f"{sealed.names[other]}'s key for position {q}")
    elif p.keys[other] is None:
        raise SealError("abort", f"an abort over position {q} without {sealed.names[other]}'s key for it")
    sealed.published.add(author)
    sealed.aborts[author] = AbortClaim(sealed.line + 1, author, bytes.fromhex(abort.secret), q, key, dict(rekey or {}))

def opening(sealed: Sealed, state: State, claim: AbortClaim) -> str | None:
    """R42: what fails when position ``claim.position`` is opened with the aborting seat's key (its
    secret held here) and the opponent's: no card of the pile, or a card already seen in its
    generation, shown now, or read by the aborting seat in a hand; None when it opens soundly."""
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
        return f"position {q} opens to no card of the set (a changed deck)"
    if card in sealed.deck.seen.get((pile, p.gen), set()) - {p.card} or card in elsewhere(sealed, state, q):
        return f"position {q} opens to {card}, a card already seen (a duplicated card)"
    return None


def given_key(seal: Seal | None, position: str) -> bytes | None:
    """The key a line's seal gives for ``position`` (its ``open``, ``then``, ``window`` or ``ahead``
    keys), unchecked; None when it gives none."""
    if seal is None:
        return None
    for q, text in [*seal.open, *seal.then, *seal.window, *seal.ahead]:
        if q == position:
            try:
                return sc.unpack(text, 32, f"the key for position {q}", 1)[0]
            except SealError:
                return None
    return None
