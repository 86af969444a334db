"""The re-mask (R42, docs/sealed-deck.md section 8): a private draw from the opponent's window.

A deck position in bob's window carries alice's key, published so that bob's tool can read the card
when bob draws it mid-turn.  The deck is drawn in the order: the drawer's own window, the free
positions, the opponent's window — so alice draws a position of bob's window only when the deck
holds nothing else.  Her key is public then, and the position is ``k_b·P`` to anyone: bob
publishing his key, as for any other private draw, would show the card to everyone.  Instead:

1. **Re-mask** (alice's line, ``remask``): she locks ``X = k_b·P`` (the ciphertext with her
   published key taken off) under a fresh key ``r``: ``Y = r·X``, with ``R = r·G`` and a
   Chaum–Pedersen proof that ``log_G R = log_X Y``.
2. **Unmask** (bob's next line, ``unmask``): his lock taken off ``Y`` without publishing his key:
   ``Z = k_b⁻¹·Y = r·P``, with a proof that ``log_G (k_b·G) = log_Z Y`` (his key's commitment).

The position is then locked by alice alone (``Z`` under ``r``, committed as ``R``), like a re-keyed
hand slot: she reads it, and opens it to everyone when she plays it.  Neither ``X``, ``Y`` nor ``Z``
tells anyone else the card.  What this cannot undo: bob's tool held alice's key for that position
before the draw (R42's window), so a modified client of his could have read the card — said in the
threat model.  ``r`` is derived from alice's seal secret, so the audit recomputes it.
"""

from __future__ import annotations

from ...engine.state import State, is_position
from . import crypto as sc
from .crypto import SealError
from ...i18n import N_
from ...said import said
from .words import positions
from .deck import Pos, SecretMismatch, context
from .steps import Draft, SealedBase

#: The bytes of a re-mask entry (Y, R, proof) and of an unmask entry (Z, proof).
REMASK_BYTES = 32 + 32 + 64
UNMASK_BYTES = 32 + 64


def exposed(sealed: SealedBase, state: State, holder: int) -> list[str]:
    """Positions in ``holder``'s hand under its own published key (drawn from the other's window),
    not yet re-masked: ``holder`` owes their re-mask."""
    out = []
    for q in state.players[holder].hand:
        p = sealed.deck.pos.get(q) if is_position(q) else None
        if p is not None and p.ct is not None and p.keys[holder] is not None and q not in sealed.deck.remasked:
            out.append(q)
    return out


def unmask_owed(sealed: SealedBase, state: State, seat: int) -> list[str]:
    """Positions re-masked by the other seat whose unmask ``seat`` owes."""
    return [q for q in state.players[1 - seat].hand if q in sealed.deck.remasked]


def owing(sealed: SealedBase, state: State) -> int | None:
    """The seat whose re-mask or unmask the game waits for, if any."""
    for seat in (0, 1):
        if exposed(sealed, state, seat) or unmask_owed(sealed, state, seat):
            return seat
    return None


def _remask_key(sealed: SealedBase, seat: int, q: str) -> bytes:
    return sealed.deck.mine[seat].source(f"remask {q}").scalar()


def remask(sealed: SealedBase, state: State, author: int, given: list[tuple[str, str]] | None, draft: Draft | None) -> None:
    """Step 1: the author's re-mask of every position it owes one (the writer's, or the line's)."""
    deck = sealed.deck
    owed = exposed(sealed, state, author)
    if draft is not None:
        for q in owed:
            p = deck.pos[q]
            own = p.keys[author]
            assert own is not None and p.ct is not None
            x = sc.unlock(p.ct, own)
            r = _remask_key(sealed, author, q)
            y, commit = sc.mul(r, x), sc.mul_base(r)
            proof = sc.prove_equal(context(deck.game, "cards", f"remask {q}"), sc.Statement(sc.BASE, commit, x, y), r,
                                   deck.mine[author].source(f"remask proof {q}"))
            draft.remask.append((q, sc.pack_bytes(y + commit + proof)))
            deck.remasked[q] = (y, commit, author)
        return
    lines = given or []
    if [q for q, _ in lines] != owed:
        raise SealError("remask", said(N_("the line re-masks {given}, not the positions {name} drew from the other "
                                          "window ({owed})"), given=positions([q for q, _ in lines]),
                                       name=sealed.names[author], owed=positions(owed, none=True)))
    for q, text in lines:
        what = said(N_("the re-mask of position {position}"), position=q)
        raw = sc.unpack(text, REMASK_BYTES, what, 1)[0]
        y = sc.check_point(raw[:32], what)
        commit = sc.check_point(raw[32:64], said(N_("the re-mask key of position {position}"), position=q))
        p = deck.pos[q]
        own = p.keys[author]
        assert own is not None and p.ct is not None
        x = sc.unlock(p.ct, own)
        if not sc.verify_equal(context(deck.game, "cards", f"remask {q}"), sc.Statement(sc.BASE, commit, x, y), raw[64:]):
            raise SealError("remask", said(N_("the re-mask of position {position} does not prove its point is the card "
                                              "locked again"), position=q))
        if author in deck.mine and sc.mul_base(_remask_key(sealed, author, q)) != commit:
            raise SecretMismatch("remask", said(N_("the re-mask of position {position} is not the one its writer's seal "
                                                    "secret makes"), position=q), author)
        deck.remasked[q] = (y, commit, author)


def unmask(sealed: SealedBase, state: State, author: int, given: list[tuple[str, str]] | None, draft: Draft | None) -> None:
    """Step 2: the author takes its lock off every position the other seat re-masked."""
    deck = sealed.deck
    owed = unmask_owed(sealed, state, author)
    holder = 1 - author
    if draft is None:
        lines = given or []
        if [q for q, _ in lines] != owed:
            raise SealError("unmask", said(N_("the line unmasks {given}, not the positions {name} re-masked ({owed})"),
                                           given=positions([q for q, _ in lines]), name=sealed.names[holder],
                                           owed=positions(owed, none=True)))
    for i, q in enumerate(owed):
        y, commit, _ = deck.remasked[q]
        p = deck.pos[q]
        own = p.commits[author]
        assert own is not None
        ctx = context(deck.game, "cards", f"unmask {q}")
        if draft is not None:
            k = deck.mine[author].keys[q]
            z = sc.mul(sc.inverse(k), y)
            proof = sc.prove_equal(ctx, sc.Statement(sc.BASE, own, z, y), k, deck.mine[author].source(f"unmask proof {q}"))
            draft.unmask.append((q, sc.pack_bytes(z + proof)))
        else:
            what = said(N_("the unmask of position {position}"), position=q)
            raw = sc.unpack(given[i][1], UNMASK_BYTES, what, 1)[0]  # type: ignore[index]
            z = sc.check_point(raw[:32], what)
            if not sc.verify_equal(ctx, sc.Statement(sc.BASE, own, z, y), raw[32:]):
                raise SealError("unmask", said(N_("the unmask of position {position} does not prove it took off only its "
                                                  "writer's lock"), position=q))
        _held_by(sealed, q, holder, z, commit)


def _held_by(sealed: SealedBase, q: str, holder: int, point: bytes, commit: bytes) -> None:
    """Position ``q`` from now on: ``point`` locked by ``holder`` alone, with key commitment ``commit``."""
    deck = sealed.deck
    del deck.remasked[q]
    keys: list[bytes | None] = [None, None]
    commits: list[bytes | None] = [None, None]
    keys[1 - holder], commits[1 - holder] = sc.ONE, sc.BASE
    commits[holder] = commit
    deck.pos[q] = Pos(point, commits, keys, f"remask {q}")
    other = deck.mine.get(1 - holder)
    if other is not None:  # the other seat's tool forgets what its window key once let it read (R39)
        other.cards.pop(q, None)
        other.keys.pop(q, None)  # and its lock, which is now 1: the card opens with the holder's key alone
    mine = deck.mine.get(holder)
    if mine is not None:
        mine.cards.pop(q, None)
        mine.keys[q] = _remask_key(sealed, holder, q)
        card = deck.tables["cards"].get(sc.unlock(point, mine.keys[q]))
        if card is None:
            raise SealError("unmask", said(N_("position {position} unmasks to no card of the set"), position=q))
        mine.cards[q] = card

