"""A sealed game (formats 3 and 4, R42–R44) line by line: the deck's passes and keys beside the engine state.

The verifier and the writer share one path.  :meth:`Sealed.before` and :meth:`Sealed.after`
run around the engine's ``apply`` of a line's decision: given a line's :class:`Seal` they check
it (every key against its commitment, every opening a card not seen, every pass and claim
proven); given a :class:`Draft` (the writer's secrets) they make the seal the decision needs, so
what a tool writes is exactly what every verifier then checks.

The engine sees positions (``#n``, ``@n``) until the players' keys open them.  A position opened
to both players becomes its card in the state (and so in the digest); a position only one seat
can read stays a position, and :func:`personal` gives one seat's state with what its secret reads
filled in — the state its views, narration and bots start from (R39).
"""

from __future__ import annotations

from ...engine.components import TrainingCard
from ...engine.moves import Discard, Move, Play, PutBack, Seal
from ...engine.piles import fill_display
from ...engine.state import DOG_POSITION, State, is_position
from . import crypto as sc
from . import remask as sealremask
from .crypto import SealError
from ...i18n import N_
from ...said import said
from .words import positions
from .deck import OpeningFailed, Secrets
from .steps import (
    Draft,
    SealedBase,
    face_down,
    named,
    public_cards,
    reshuffle_step,
    shown_now,
    substitute,
    take_reshuffles,
)

__all__ = ["Draft", "OpeningFailed", "SealError", "Sealed", "elsewhere", "every_card", "named", "personal",
           "public_cards", "shown_now", "substitute"]


def personal(state: State, mine: Secrets | None) -> State:
    """The state as seat ``mine.seat`` knows it (R39): every position outside the decks that its
    secret reads filled in.  An honest client never opens a window position before its draw (R42)."""
    s = state.copy()
    if mine is None:
        return s
    theirs = set(state.players[1 - mine.seat].hand)  # never a card of the opponent's hand, whatever was read
    for position, card in mine.cards.items():
        if position not in state.deck and position not in state.dog_deck and is_position(position) and position not in theirs:
            substitute(s, position, card)
    if (s.in_mini and s.phase == "play" and s.active == mine.seat and not s.players[mine.seat].hand and s.deck
            and s.deck[0] in mine.cards and s.sealing is not None):
        # R31: a mini-turn with an empty hand plays the deck's top card face down, which its player
        # reads first (its window); it is offered by its slot, with what the line's claim will prove
        top = s.cat.cards[mine.cards[s.deck[0]]]
        s.sealing.claims[s.deck[0]] = TrainingCard(id=s.deck[0], number=top.number, rewards=top.rewards)
    return s


def every_card(sealed: "Sealed") -> dict[str, str]:
    """R39/R42: the card behind every position either held seat read, the game opened, or both
    held seats' keys open — with both published secrets after the audit, every position of every
    line (a card that awaited a key at its line is named by what its keys open)."""
    cards: dict[str, str] = {}
    for mine in sealed.deck.mine.values():
        cards.update(mine.cards)
    for q, p in sealed.deck.pos.items():
        if p.card is not None:
            cards[q] = p.card
        elif q not in cards and p.ct is not None:
            keys = [p.keys[seat] if p.keys[seat] is not None else
                    (sealed.deck.mine[seat].keys.get(q) if seat in sealed.deck.mine else None) for seat in (0, 1)]
            if keys[0] is not None and keys[1] is not None:
                card = sealed.deck.tables[sealed.deck.pile_of(q)].get(sc.unlock(p.ct, keys[0], keys[1]))
                if card is not None:
                    cards[q] = card
    return cards


def elsewhere(sealed: "Sealed", state: State, q: str) -> set[str]:
    """The cards shown anywhere now and those a held seat reads in a hand, but for position
    ``q``'s: an opened card is none of them (R42: a conjured copy of a card in a hand shows)."""
    out = public_cards(state)
    for mine in sealed.deck.mine.values():
        for holder in (0, 1):
            out |= {mine.cards[c] for c in state.players[holder].hand if c != q and c in mine.cards}
    return out


NOT_FREE = N_("a window key for position {position}, which is not a free deck position (R42)")

class Sealed(SealedBase):
    """The sealed deck of one game beside its engine state."""

        # ---------------------------------------------------------------------------------------
    # What is awaited

    def needed(self, state: State) -> list[tuple[str, int]]:
        """(position, seat) for every key a seat owes now: both keys of a card to be shown, and the
        other seat's key of a card in a hand (its holder must read it).

        A key is owed once its seat has locked the position for good: a sealed position, or one of a
        reshuffle whose passes that seat has finished (section 7: its keys go with its last pass)."""
        out = []
        for q in shown_now(state):
            p = self.deck.pos.get(q)
            if p is not None:
                out += [(q, seat) for seat in (0, 1) if p.keys[seat] is None and p.commits[seat] is not None]
        for holder in (0, 1):
            for q in state.players[holder].hand:
                p = self.deck.pos.get(q) if is_position(q) else None
                # a card drawn from the other's window (its holder's key published) is re-masked instead
                if (p is not None and p.commits[1 - holder] is not None and p.keys[1 - holder] is None
                        and p.keys[holder] is None):
                    out.append((q, 1 - holder))
        return out

    @property
    def dealt(self) -> bool:
        return "deal-4" in self.deck.setup["cards"]

    def awaiting(self, state: State) -> int | None:
        """The seat whose keys or passes the game waits for before anyone decides (R44)."""
        if not self.dealt:
            return self.deck.joiner
        if state.winner is not None or self.aborts:  # R42: after an abort nobody decides
            return None
        actor = state.to_act
        assert actor is not None
        if self.reshuffles and self._needs_unsealed(state, actor):
            return self.reshuffles[0].stepper()  # the actor's own tool, when the step is its own
        remasking = sealremask.owing(self, state)
        if remasking is not None:  # a card drawn from the other's window (section 8)
            return remasking
        for q, seat in self.needed(state):
            if seat != actor and not q.startswith(DOG_POSITION):  # R43: a new dog waits for the opponent's line
                return seat
        if self.wants[actor]:
            return 1 - actor
        return None

    def _needs_unsealed(self, state: State, actor: int) -> bool:
        """Whether the actor needs now a card of a reshuffle whose passes are not all written."""
        wanted = shown_now(state) + [q for q in state.players[actor].hand if is_position(q)]
        if state.in_mini and state.phase == "play" and not state.players[actor].hand and state.deck:
            wanted.append(state.deck[0])  # R31: the deck's top card, played face down
        return any((p := self.deck.pos.get(q)) is not None and p.ct is None for q in wanted)

    def audit_pending(self, state: State) -> list[int]:
        """The seats whose seal secret the audit still waits for (R42), once the game is over (or
        aborted: the aborting seat's secret is in its abort)."""
        if state.winner is None and not self.aborts:
            return []
        return [seat for seat in (0, 1) if seat not in self.audits and seat not in self.aborts
                and seat not in getattr(self, "published", ())]

    def blind_play_blocked(self, state: State, seat: int) -> bool:
        """R31/R44: a mini-turn with an empty hand plays the deck's top card face down, which its
        player must read first; when that position is not in its window the turn waits for keys."""
        if not (state.in_mini and state.phase == "play" and not state.players[seat].hand and state.deck):
            return False
        p = self.deck.pos.get(state.deck[0])
        return p is None or not p.readable_by(seat)

    # ---------------------------------------------------------------------------------------
    # Keys

    def _owed(self, state: State, seat: int) -> list[str]:
        return [q for q, s in self.needed(state) if s == seat]

    def _publish_owed(self, state: State, author: int, given: list[tuple[str, str]] | None, draft: list[tuple[str, str]] | None,
                      mine: Secrets | None, play: str | None = None, *, all_owed: bool = True) -> None:
        """Publish the author's owed keys — the line's list, or the writer's own — settling after
        each; ``play``, a hand position the decision plays face up, is opened too.  With
        ``all_owed`` false a line may leave some for its next line (a reshuffle step's ``ahead``)."""
        if given is not None:
            for q, text in given:
                if q not in self._owed(state, author) and q != play:
                    raise SealError("key", said(N_("a key for position {position} that nobody awaits from {name}"),
                                                position=q, name=self.names[author]))
                self.deck.publish(q, author, sc.unpack(text, 32, said(N_("the key for position {position}"), position=q),
                                                       1)[0])
                self.settle(state)
        else:
            assert draft is not None and mine is not None
            extra = [play] if play is not None else []
            while owed := self._owed(state, author) + extra:
                extra = []
                for q in owed:
                    self.deck.publish(q, author, mine.keys[q])
                    draft.append((q, sc.pack_bytes(mine.keys[q])))
                self.settle(state)
        left = self._owed(state, author)
        if left and all_owed:
            raise SealError("key", said(N_("the line withholds {name}'s key for position {position}"),
                                        name=self.names[author], position=left[0]))

    def publish_owed(self, state: State, author: int) -> None:
        """Publish every key the author's tool owes now (on the writer's copies, to decide in)."""
        self._publish_owed(state, author, None, [], self.deck.mine[author])

    def settle(self, state: State) -> None:
        """Turn face up every position both keys now open (R42), then finish a display refill whose
        wipe check waited for them (R13, R43)."""
        opened_display = False
        for q in shown_now(state):
            p = self.deck.pos.get(q)
            if p is not None and p.public:
                opened_display |= q in state.display
                substitute(state, q, self.deck.open_public(q, elsewhere(self, state, q)))
        if opened_display and not any(is_position(c) for c in state.display):
            fill_display(state)
            take_reshuffles(self, state)
            if any((p := self.deck.pos.get(q)) is not None and p.public for q in shown_now(state)):
                self.settle(state)

    # ---------------------------------------------------------------------------------------
    # Before the engine applies a decision

    def before(self, state: State, author: int, move: Move | None, seal: Seal | None, draft: Draft | None) -> Move | None:
        """The keys owed before the decision; the hand re-keying and claim of a face-down decision.
        Returns the decision as the file records it (a face-down card named by its new slot)."""
        mine = draft.mine if draft is not None else None
        play = self._played_position(state, author, move, seal, mine)
        self._publish_owed(state, author, seal.open if seal else None, draft.open if draft else None, mine, play)
        if play is not None:
            p = self.deck.get(play)
            if not p.public:
                raise SealError("play", said(N_("the card played face up is at position {position}, which the line does not "
                                                "open"), position=play))
            card = self.deck.open_public(play, elsewhere(self, state, play))
            substitute(state, play, card)
            assert isinstance(move, Play)
            if card != move.card:
                raise SealError("play", said(N_("position {position} opens to {card}, not to the card played ({played})"),
                                             position=play, card=card, played=move.card))
        if move is None:
            return None
        if not (isinstance(move, (PutBack, Discard)) or (isinstance(move, Play) and state.in_mini)):
            if seal is not None and (seal.hand is not None or seal.claim is not None):
                raise SealError("passes", said(N_("a hand re-keying or claim on a decision that puts no card face down")))
            return move
        return face_down(self, state, author, move, seal, draft)

    def _played_position(self, state: State, author: int, move: Move | None, seal: Seal | None, mine: Secrets | None) -> str | None:
        """The hand position a face-up play opens: the writer finds it by the card it reads there,
        the verifier by the key the line gives for its own hand."""
        if not isinstance(move, Play) or state.in_mini or move.card in state.players[author].hand:
            return None
        hand = [q for q in state.players[author].hand if is_position(q)]
        if mine is not None:
            for q in hand:
                if mine.cards.get(q) == move.card:
                    return q
            raise SealError("play", said(N_("{card} is not in {name}'s hand"), card=move.card, name=self.names[author]))
        given = {q for q, _ in (seal.open if seal else [])}
        return next((q for q in hand if q in given), None)

    # ---------------------------------------------------------------------------------------
    # After the engine applied a decision (or on a line with none)

    def after(self, state: State, author: int, seal: Seal | None, draft: Draft | None) -> None:
        """New reshuffles, the keys the decision's draws owe, the author's reshuffle step, its window,
        a want, the audit; then the deck's draw order for the next decision."""
        mine = draft.mine if draft is not None else None
        take_reshuffles(self, state)
        self._publish_owed(state, author, seal.then if seal else None, draft.then if draft else None, mine)
        sealremask.remask(self, state, author, seal.remask if seal else None, draft)
        sealremask.unmask(self, state, author, seal.unmask if seal else None, draft)
        if self.reshuffles and self.reshuffles[0].stepper() == author:
            reshuffle_step(self, author, seal.reshuffle if seal else None, draft)
            # section 7: the keys the step lets its writer give now ride with it, so a card of the
            # new deck needed at once waits for no further line (R44)
            self._publish_owed(state, author, seal.ahead if seal else None, draft.ahead if draft else None, mine,
                               all_owed=False)
        elif seal is not None and (seal.reshuffle is not None or seal.ahead):
            raise SealError("passes", said(N_("a reshuffle pass that is not {name}'s to write"), name=self.names[author]))
        self._window(state, author, seal, draft)
        self.wants[1 - author] = 0  # any line of the other seat's answers a want (R44)
        want = draft.want if draft is not None else (seal.want if seal else 0)
        if want:
            self.wants[author] = want
        self.take_audit(state, author, seal, draft)
        state.deck[:] = self.deck.draw_order(state.deck, state.active)

    def _window(self, state: State, author: int, seal: Seal | None, draft: Draft | None) -> None:
        """The author's keys released to the opponent's window (R42): free positions only, at most K."""
        other = 1 - author
        if draft is not None:
            for q in self.deck.free(self.deck.draw_order(state.deck, other)):
                if len(self.deck.window_of(other, state.deck)) >= self.deck.window:
                    break
                self.deck.publish(q, author, draft.mine.keys[q])
                draft.window.append((q, sc.pack_bytes(draft.mine.keys[q])))
            return
        given = seal.window if seal else []
        free = self.deck.free(state.deck)
        for q, _ in given:
            if q not in free:
                raise SealError("window", said(NOT_FREE, position=q))
        if self.deck.binding:  # R42 (format 4): the first free positions of the opponent's draw order, up to K
            room = max(0, self.deck.window - len(self.deck.window_of(other, state.deck)))
            first = self.deck.free(self.deck.draw_order(state.deck, other))[:room]
            if [q for q, _ in given] != first:
                raise SealError("window", said(N_("{name}'s window release is for {given}, not for the first free "
                                                  "positions of {other}'s draw order ({first}, R42)"),
                                               name=self.names[author], given=positions([q for q, _ in given]),
                                               other=self.names[other], first=positions(first, none=True)))
        for q, text in given:
            if q not in self.deck.free(state.deck):
                raise SealError("window", said(NOT_FREE, position=q))
            self.deck.publish(q, author, sc.unpack(text, 32, said(N_("the window key for position {position}"),
                                                                  position=q), 1)[0])
            if len(self.deck.window_of(other, state.deck)) > self.deck.window:
                raise SealError("window", said(N_("{name}'s window would hold more than {n} positions (R42)"),
                                               name=self.names[other], n=self.deck.window))

    def take_audit(self, state: State, author: int, seal: Seal | None, draft: Draft | None) -> None:
        """R42: the finisher's line, and the other seat's next line, publish their seal secrets; after
        an abort, the other seat's next line publishes its secret (the abort holds the writer's)."""
        over = state.winner is not None or bool(self.aborts)
        if draft is not None:
            if over and author not in self.audits and author not in self.aborts:
                draft.audit = draft.mine.secret.hex()
                self.audits[author] = draft.mine.secret
                self.published.add(author)
            return
        if seal is not None and seal.audit is not None:
            if not over:
                raise SealError("audit", said(N_("a seal secret published before the end of the game (R42)")))
            if author in self.aborts or author in self.audits or author in self.published:
                raise SealError("audit", said(N_("{name}'s seal secret, published before"), name=self.names[author]))
            secret = bytes.fromhex(seal.audit)
            self.audits[author] = secret
            self.published.add(author)
            # R42: the audit at its line — a secret that does not make its writer's own passes
            # forfeits the game for that player (a result, not a broken file: exit 0 everywhere)
            why = self.deck.secret_mismatch(author, secret)
            if why is not None:
                self.forfeits[author] = f"audit failed: {why}, by {self.names[author]}"  # told by audit.told_reason
                self.audits.pop(author)  # never used to read the game: it is not the writer's secret
