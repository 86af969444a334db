"""The hidden piles and the displays: drawing, reshuffling, face-down cards, refills (R10, R13, R25)."""

from __future__ import annotations

from .rng import Rng
from .state import State
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
    """R13: the discard pile, shuffled with the game's PRNG, becomes the new deck."""
    rng = Rng(s.rng)
    s.deck, s.discard = s.discard, []
    s.unseen = [[], []]  # R39: the new deck's order is hidden from both
    rng.shuffle(s.deck)
    s.rng = rng.state
    s.reveals += 1


def fill_display(s: State) -> None:
    """R13: refill the training display; three cards all numbered 7+ are discarded and replaced."""
    cards = s.cat.cards
    for _ in range(100):
        while len(s.display) < DISPLAY_SIZE:
            card = draw(s)
            if card is None:
                return
            s.display.append(card)
        if not all(cards[c].number >= 7 for c in s.display):
            return
        if not any(cards[c].number < 7 for c in s.deck + s.discard):
            return  # no redraw could ever help; keep the display as it is
        s.discard.extend(s.display)
        s.display = []


def fill_dogs(s: State) -> None:
    """R13/R25: the dog display refills to five at once."""
    while len(s.dog_display) < DOG_DISPLAY_SIZE and s.dog_deck:
        s.dog_display.append(s.dog_deck.pop(0))
        s.reveals += 1
