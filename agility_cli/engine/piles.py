"""The hidden piles and the displays: drawing, reshuffling, face-down cards, refills (R10, R13, R25)."""

from __future__ import annotations

from .rng import Rng
from .state import State, is_position
from .ruleset import DISPLAY_SIZE, DOG_DISPLAY_SIZE


# --------------------------------------------------------------------------------------------
# Piles (R13)


def draw(s: State) -> str | None:
    """The top card of the training deck; R13: an empty deck is first rebuilt from the discards."""
    if not s.deck:
        if not s.discard:
            return None
        reshuffle(s)
    s.reveals += 1
    card = s.deck.pop(0)
    deck_ran_out(s)
    return card


def deck_ran_out(s: State) -> None:
    """R13 (rules version 2): the moment the deck's last card is drawn or turned up, the discard
    pile (which does not hold that card yet) becomes the new deck; with no discards it stays empty."""
    if not s.deck and s.discard and s.rules.reshuffle_at_once:
        reshuffle(s)


def face_down(s: State, seat: int, card: str) -> None:
    """R39: ``seat`` put ``card`` face down on the discard pile, unseen by the opponent.

    The opponent no longer knows which of the cards it saw arrive are still in that hand, so all
    of them become unknown (whichever card left, the view is the same: nothing leaks).
    """
    s.known[seat] = []
    s.unseen[1 - seat].append(card)


def reshuffle(s: State) -> None:
    """R13: the discard pile, shuffled with the game's PRNG, becomes the new deck.

    R42: in a sealed game the shuffle is the players' joint one, made by the record layer: the new
    deck is fresh positions, one per discarded card, and the PRNG is not used.
    """
    s.unseen = [[], []]  # R39: the new deck's order is hidden from both
    s.reveals += 1
    if s.sealing is not None:
        new = s.sealing.positions(len(s.discard))
        s.sealing.made.append((new, s.discard))
        s.deck, s.discard = new[:], []
        return
    rng = Rng(s.rng)
    s.deck, s.discard = s.discard, []
    rng.shuffle(s.deck)
    s.rng = rng.state


def fill_display(s: State) -> None:
    """R13: refill the training display; three cards all numbered 7+ are discarded and replaced.

    R42/R43: in a sealed game a refilled position is opened by the players' keys, not at once;
    the wipe check waits until every card of the display is open (``record/sealed`` calls this
    again then).
    """
    cards = s.cat.cards
    for _ in range(100):
        while len(s.display) < DISPLAY_SIZE:
            card = draw(s)
            if card is None:
                return
            s.display.append(card)
        if any(is_position(c) for c in s.display):
            return  # R43: the wipe check is made when the new cards are face up
        if not all(cards[c].number >= 7 for c in s.display):
            return
        if not _low_card_left(s):
            return  # no redraw could ever help; keep the display as it is
        s.discard.extend(s.display)
        s.display = []


def _low_card_left(s: State) -> bool:
    """R13: whether the deck or the discard pile holds a card numbered below 7.

    R42: a sealed game's deck is positions, so the count is made from what is public: the cards
    numbered below 7 of the set, less those seen outside the deck and the discard pile (the
    display, cards known in a hand), less one for every hand card nobody else can see.  When that
    leaves none the display is kept, as the table rule would with every hand shown; with the
    standard set the two always agree (the hands would have to hide 27 low cards).
    """
    cards = s.cat.cards
    if s.sealing is None:
        return any(cards[c].number < 7 for c in s.deck + s.discard)
    pile = [c for c in s.deck + s.discard if not is_position(c)]
    if any(cards[c].number < 7 for c in pile):
        return True
    outside = [c for c in s.display + s.players[0].hand + s.players[1].hand if not is_position(c)]
    low = sum(1 for c in cards.values() if c.number < 7) - sum(1 for c in outside if cards[c].number < 7)
    hidden_in_hands = sum(1 for p in s.players for c in p.hand if is_position(c))
    return low - sum(1 for c in pile if cards[c].number < 7) - hidden_in_hands > 0


def fill_dogs(s: State) -> None:
    """R13/R25: the dog display refills to five at once."""
    while len(s.dog_display) < DOG_DISPLAY_SIZE and s.dog_deck:
        s.dog_display.append(s.dog_deck.pop(0))
        s.reveals += 1
