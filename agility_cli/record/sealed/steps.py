"""The steps of a sealed game that re-seal cards already dealt (R42): a hand re-keyed before a
face-down decision, with the claim of a face-down play (docs/sealed-deck.md section 6), and a
reshuffle's four steps (section 7); with the small pieces the line reader shares.
"""

from __future__ import annotations

import msgspec

from ...engine.components import TrainingCard
from ...engine.moves import Claim, Discard, Move, PassesText, Play, PutBack, RekeyText, Seal
from ...engine.state import State, is_position
from . import crypto as sc
from .crypto import SealError
from ...i18n import N_
from ...said import said
from .deck import Deck, SecretMismatch, Secrets, context
from .passes import Element, Made, check_step, write_step

# A reshuffle's four steps (section 7): whose (0: the seat whose line made it, 1: the other) and
# the passes each holds (mix, shuffle, rekey).
RESHUFFLE_STEPS: tuple[tuple[int, tuple[bool, bool, bool]], ...] = (
    (0, (True, False, False)),
    (1, (True, True, False)),
    (0, (False, True, True)),
    (1, (False, False, True)),
)


class Reshuffle(msgspec.Struct):
    """A reshuffle whose passes are being written: its new positions and where it stands."""

    positions: list[str]
    names: list[str]  # the discarded cards it shuffles: card ids, or positions face down
    commits: list[list[bytes]]  # per discarded card, each seat's lock commitment (G: none)
    maker: int
    points: list[bytes]
    step: int = 0
    big: dict[int, list[bytes | None]] = msgspec.field(default_factory=dict)  # seat → [U, T] of its passes
    final: dict[int, list[bytes]] = msgspec.field(default_factory=dict)  # seat → per-position commitments

    def stepper(self) -> int:
        return self.maker if RESHUFFLE_STEPS[self.step][0] == 0 else 1 - self.maker

    @property
    def gen(self) -> str:
        return f"reshuffle {self.positions[0]}"


class Draft(msgspec.Struct):
    """The seal a writer is making, and its secrets."""

    mine: Secrets
    open: list[tuple[str, str]] = msgspec.field(default_factory=list)
    then: list[tuple[str, str]] = msgspec.field(default_factory=list)
    window: list[tuple[str, str]] = msgspec.field(default_factory=list)
    remask: list[tuple[str, str]] = msgspec.field(default_factory=list)
    unmask: list[tuple[str, str]] = msgspec.field(default_factory=list)
    hand: PassesText | None = None
    reshuffle: PassesText | None = None
    ahead: list[tuple[str, str]] = msgspec.field(default_factory=list)
    claim: Claim | None = None
    audit: str | None = None
    want: int = 0

    def seal(self) -> Seal:
        return Seal(open=self.open, then=self.then, window=self.window, remask=self.remask, unmask=self.unmask,
                    want=self.want, hand=self.hand,
                    reshuffle=self.reshuffle, ahead=self.ahead, claim=self.claim, audit=self.audit)


def shown_now(state: State) -> list[str]:
    """Positions whose card someone must see now: the displays and the Boost card (R13, R19, R25)."""
    out = [c for c in state.display + state.dog_display if is_position(c)]
    if state.boost_card is not None and is_position(state.boost_card):
        out.append(state.boost_card)
    return out


def substitute(state: State, position: str, card: str) -> None:
    """``position`` is ``card`` from now on, wherever the state holds it."""
    for pile in (state.display, state.dog_display, state.discard, state.players[0].hand, state.players[1].hand):
        for i, c in enumerate(pile):
            if c == position:
                pile[i] = card
    if state.boost_card == position:
        state.boost_card = card
    if state.card == position:
        state.card = card


def named(state: State, cards: dict[str, str]) -> State:
    """R39/R42: a copy of ``state`` with every position it shows (hands, displays, the Boost card,
    the card in play, the discard pile) replaced by the card ``cards`` names there."""
    out = state.copy()
    for pile in (out.display, out.dog_display, out.discard, out.players[0].hand, out.players[1].hand):
        pile[:] = [cards.get(c, c) if is_position(c) else c for c in pile]
    if out.boost_card is not None and is_position(out.boost_card):
        out.boost_card = cards.get(out.boost_card, out.boost_card)
    if out.card is not None and is_position(out.card):
        out.card = cards.get(out.card, out.card)
    return out


def public_cards(state: State) -> set[str]:
    """The training cards shown anywhere in the state now: a newly opened card is none of them."""
    shown = state.display + state.discard + state.players[0].hand + state.players[1].hand
    return {c for c in shown if not is_position(c)}


class AbortClaim(msgspec.Struct):
    """R42: an abort line as read: its line, writer, published seal secret, the position whose
    opening failed, and the opponent's key for it when the line gave it (checked)."""

    line: int
    seat: int
    secret: bytes
    position: str
    key: bytes | None = None
    rekey: dict[str, RekeyText] = {}  # the joiner's re-key pass (deal-4), when its first line aborts
    carried: bytes | None = None  # the opponent's refused line, carried whole (R42); None: the writer's own decision


class SealedBase:
    """What the steps below read and change of a sealed game (:class:`sealed.Sealed` adds the rest)."""

    def __init__(self, deck: Deck, names: tuple[str, str]) -> None:
        self.deck = deck
        self.names = names
        self.reshuffles: list[Reshuffle] = []
        self.wants = [0, 0]
        self.audits: dict[int, bytes] = {}
        #: R42: the seats that forfeit (seat → why): a published secret that does not make its
        #: writer's passes, or the verdict of an abort
        self.forfeits: dict[int, str] = {}
        #: R42: the abort of each seat that wrote one (docs/sealed-deck.md, the abort)
        self.aborts: dict[int, AbortClaim] = {}
        #: R42: the seats whose seal secret a line published (an audit or an abort; true or not)
        self.published: set[int] = set()
        #: R39/R42: once the audit is in, the card behind every position (read with both published
        #: secrets, ``record.verify``), so that this machine's every view of the finished game names them
        self.opened: dict[str, str] = {}
        #: R42: the seats whose published secret the audit has read every pass with (record.verify)
        self.judged: frozenset[int] = frozenset()
        self.line = 0  # the line being read or written (its passes' labels)
        #: the creator's keys given with its re-key pass (deal-3), published once the deck is dealt
        #: (section 4): (position, key), its ``ahead`` keys then its ``window``
        self.early: list[tuple[str, bytes]] = []


def face_down(sealed: SealedBase, state: State, author: int, move: Move, seal: Seal | None, draft: Draft | None) -> Move:
    """R39/R42 (section 6): re-key the hand, then name the card by its new slot; a mini-turn's
    face-down play also proves its number and reward (R31)."""
    card: str = getattr(move, "card")
    if state.players[author].hand:
        slots = rekey_hand(sealed, state, author, seal.hand if seal else None, draft)
        if draft is not None:
            card = next(q for q in slots if draft.mine.cards[q] == card)
        elif card not in slots:
            raise SealError("slot", said(N_("the face-down card {card} is not a slot of the re-keyed hand"), card=card))
    elif seal is not None and seal.hand is not None:
        raise SealError("passes", said(N_("a hand re-keying of an empty hand")))
    if isinstance(move, Play):
        claim = claim_of(sealed, state, author, card, seal.claim if seal else None, draft)
        assert state.sealing is not None
        state.sealing.claims[card] = TrainingCard(id=card, number=claim.number, rewards=claim.rewards)
        return Play(player=move.player, card=card, reward=move.reward, flex=move.flex)
    return PutBack(player=move.player, card=card) if isinstance(move, PutBack) else Discard(player=move.player, card=card)

def rekey_hand(sealed: SealedBase, state: State, author: int, text: PassesText | None, draft: Draft | None) -> list[str]:
    hand = state.players[author].hand
    mine = draft.mine if draft is not None else sealed.deck.mine.get(author)
    elements = []
    for c in hand:
        if is_position(c):
            point, commit = sealed.deck.holder_point(c, author)
            elements.append(Element(point, commit, mine.keys.get(c) if mine else None))
        else:
            elements.append(Element(sealed.deck.point_of["cards"][c], sc.BASE, None))
    ctx = context(sealed.deck.game, "cards", f"hand-{sealed.line}")
    made = None
    if mine is not None:
        made = write_step(ctx, elements, None, mine.source(f"hand/{sealed.line}"), do_mix=True, do_shuffle=True, do_rekey=True,
                          binding=sealed.deck.binding)
        if draft is not None:
            draft.hand = text = made.text
        elif made.text != text:
            raise SecretMismatch("passes", said(N_("the hand re-keying is not the one {name}'s seal secret makes"),
                                                 name=sealed.names[author]), author)
    if text is None:
        raise SealError("passes", said(N_("a face-down decision without the hand's re-keying (R39: the slot would name the "
                                       "card)")))
    checked = check_step(ctx, text, [Element(e.point, e.commit) for e in elements], None, want=(True, True, True),
                         binding=sealed.deck.binding, writer=sealed.names[author])
    assert state.sealing is not None and checked.commits is not None
    slots = state.sealing.positions(len(hand))
    for q, point, commit in zip(slots, checked.points, checked.commits):
        sealed.deck.add_holder_only(q, author, point, commit, f"hand {sealed.line}")
    if mine is not None and made is not None:
        assert made.perm is not None and made.keys is not None
        known = [mine.cards.get(c, c) for c in hand]
        for i, q in enumerate(slots):
            mine.keys[q] = made.keys[i]
            mine.cards[q] = known[made.perm[i]]
    state.players[author].hand = slots
    return slots

def claim_of(sealed: SealedBase, state: State, author: int, slot: str, claim: Claim | None, draft: Draft | None) -> Claim:
    point, commit = sealed.deck.holder_point(slot, author)
    ctx = context(sealed.deck.game, "cards", f"claim-{sealed.line}")
    cat = state.cat
    if draft is not None:
        card = cat.cards[draft.mine.cards[slot]]
        number, rewards = card.number, card.rewards
    elif claim is None:
        raise SealError("claim", said(N_("a face-down play without its claim of number and reward (R31, R42)")))
    elif claim.slot != slot:
        raise SealError("claim", said(N_("the claim is for {claimed}, the card played is {slot}"), claimed=claim.slot, slot=slot))
    else:
        number, rewards = claim.number, claim.rewards
    shown = public_cards(state)
    candidates = [c.id for c in cat.components.cards if c.number == number and c.rewards == rewards and c.id not in shown]
    statements = sc.face_down_statements(commit, point, [sealed.deck.point_of["cards"][c] for c in candidates])
    if draft is not None:
        proof = sc.prove_one_of(ctx, statements, candidates.index(draft.mine.cards[slot]), draft.mine.keys[slot],
                                draft.mine.source(f"claim/{sealed.line}"))
        draft.claim = claim = Claim(slot=slot, number=number, rewards=rewards, proof=sc.pack_bytes(proof))
    assert claim is not None
    proof_bytes = sc.unpack(claim.proof, 64 * max(1, len(candidates)), "the claim's proof", 1)[0]
    if not candidates or not sc.verify_one_of(ctx, statements, proof_bytes):
        raise SealError("claim", said(N_("the claim that {slot} is a {number} does not check (R31, R42)"), slot=slot,
                                      number=number))
    return claim


def take_reshuffles(sealed: SealedBase, state: State) -> None:
    """The reshuffles the engine just made (R13): their passes are now owed (section 7)."""
    assert state.sealing is not None
    for positions, pile in state.sealing.made:
        points, commits = [], []
        for c in pile:
            lock = [sc.BASE, sc.BASE]
            if is_position(c):
                p = sealed.deck.get(c)
                holder = 0 if p.keys[0] is None else 1
                point, lock[holder] = sealed.deck.holder_point(c, holder)
            else:
                point = sealed.deck.point_of["cards"][c]
            points.append(point)
            commits.append(lock)
        r = Reshuffle(positions, list(pile), commits, state.active, points)
        for q in positions:
            sealed.deck.add_unsealed(q, r.gen)
        sealed.reshuffles.append(r)
    state.sealing.made = []

def reshuffle_step(sealed: SealedBase, author: int, text: PassesText | None, draft: Draft | None) -> None:
    r = sealed.reshuffles[0]
    want = RESHUFFLE_STEPS[r.step][1]
    ctx = context(sealed.deck.game, "cards", f"reshuffle-{r.positions[0]}-{r.step}")
    mine = draft.mine if draft is not None else sealed.deck.mine.get(author)
    made = None
    if mine is not None:
        made = make_step(sealed, r, author, mine, ctx, want)
        if draft is not None:
            draft.reshuffle = text = made.text
        elif made.text != text:
            raise SecretMismatch("passes", said(N_("the reshuffle pass is not the one {name}'s seal secret makes"),
                                                 name=sealed.names[author]), author)
    if text is None:
        raise SealError("passes", said(N_("the line holds no reshuffle pass, and it is {name}'s to write"),
                                       name=sealed.names[author]))
    elements = [Element(pt, lock[author]) for pt, lock in zip(r.points, r.commits)] if want[0] else None
    big = r.big.setdefault(author, [None, None])
    checked = check_step(ctx, text, elements, r.points, want=want, earlier=(big[0], big[1]), binding=sealed.deck.binding,
                         writer=sealed.names[author])
    big[0] = checked.mix_key or big[0]
    big[1] = checked.shuffle_key or big[1]
    r.points = checked.points
    if checked.commits is not None:
        r.final[author] = checked.commits
        for q, commit in zip(r.positions, checked.commits):  # the author's lock is final: its keys may go
            sealed.deck.pos[q].commits[author] = commit
        if mine is not None and made is not None and made.keys is not None:
            for q, k in zip(r.positions, made.keys):
                mine.keys[q] = k
    r.step += 1
    if r.step == len(RESHUFFLE_STEPS):
        sealed.reshuffles.pop(0)
        for i, q in enumerate(r.positions):
            sealed.deck.add_sealed(q, r.points[i], [r.final[0][i], r.final[1][i]], r.gen)
            sealed.deck.learn(q, sealed.deck.pos[q])

def make_step(sealed: SealedBase, r: Reshuffle, author: int, mine: Secrets, ctx: bytes, want: tuple[bool, bool, bool]) -> Made:
    """The author's step of reshuffle ``r``, from its secret (its keys of earlier steps kept)."""
    label = f"reshuffle/{r.positions[0]}"
    elements = None
    if want[0]:
        elements = [Element(pt, lock[author], mine.keys[name] if lock[author] != sc.BASE else None)
                    for pt, lock, name in zip(r.points, r.commits, r.names)]
    earlier = (mine.globals.get(f"{label}/u"), mine.globals.get(f"{label}/t"))
    made = write_step(ctx, elements, r.points, mine.source(f"{label}/{r.step}"), do_mix=want[0], do_shuffle=want[1],
                      do_rekey=want[2], earlier=earlier, binding=sealed.deck.binding)
    if made.mix_key is not None:
        mine.globals[f"{label}/u"] = made.mix_key
    if made.shuffle_key is not None:
        mine.globals[f"{label}/t"] = made.shuffle_key
    return made
