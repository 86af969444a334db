"""What one seat may know (R39): the only way the game reaches a printer, a JSON output or a bot.

:func:`seat_view` copies a state and blanks out, with the placeholder :data:`HIDDEN`, everything the
seat may not know:

* the opponent's hand, except the cards publicly known to be there (taken face up from the
  display and not since played or put back); the number of cards held stays visible;
* the order of the training deck and of the dog deck (both hidden from both players);
* the cards the opponent put face down on the discard pile: Break put-backs, Intimidation
  discards and mini-turn plays (R18, R22, R31), including the card being resolved in the
  opponent's mini-turn (its number shows through the marker, its identity does not);
* the PRNG state (the future shuffles).

Everything else is public and kept.  Once the game is over every view is complete (the audit).
:data:`PUBLIC` is the view of a machine that holds neither seat's key (a spectator of a signed game):
both hands blanked but for the cards publicly known, every face-down card hidden.
The blanked copy is an ordinary :class:`State`, so the board, the narration and ``public_state``
read it as they read a full one — and cannot show what is not in it.

:func:`determinize` is the other half, for bots (R39, "bots decide from their seat's view
only"): it fills the blanks of a view with a sample, drawn with the bot's own PRNG, of the cards
the seat has not seen.  It reads nothing but the view, so two states that differ only in what the
seat cannot know give the same sample.
"""

from __future__ import annotations

from .moves import Discard, Move, Play, PutBack
from .rng import Rng
from .state import HIDDEN, PlayerState, State, is_position  # HIDDEN: the placeholder for a card the viewer may not know

__all__ = ["HIDDEN", "PUBLIC", "determinize", "hidden_cards", "move_view", "seat_view"]

#: The "seat" of a viewer who holds neither seat (R39: only what is public).
PUBLIC = -1


def seat_view(s: State, seat: int | None) -> State:
    """A copy of ``s`` holding only what ``seat`` may know (R39); ``None``: the complete state;
    :data:`PUBLIC`: what both players know."""
    v = s.copy()
    if seat is None or s.winner is not None:
        return _positions_blanked(v)
    others = (0, 1) if seat == PUBLIC else (1 - seat,)  # the hands the viewer does not hold
    blind = (0, 1) if seat == PUBLIC else (seat,)  # whose "did not see" lists the viewer shares
    for opp in others:
        hand = s.players[opp].hand
        known = [c for c in s.known[opp] if c in hand]
        v.players[opp].hand = known + [HIDDEN] * (len(hand) - len(known))
        if s.card is not None and s.in_mini and s.active == opp:
            v.card = HIDDEN  # R31: the opponent's mini-turn card is face down
    secret = {c for b in blind for c in s.unseen[b]}  # face-down cards the viewer did not see
    v.discard = [HIDDEN if c in secret else c for c in s.discard]
    for b in blind:
        v.unseen[b] = [HIDDEN] * len(s.unseen[b])
    v.deck = [HIDDEN] * len(s.deck)
    v.dog_deck = [HIDDEN] * len(s.dog_deck)
    # R42/R43: in a sealed game a card or dog being turned up is a position until the keys open it
    v.display = [HIDDEN if is_position(c) else c for c in v.display]
    v.dog_display = [HIDDEN if is_position(d) else d for d in v.dog_display]
    v.players = [_hand_blanked(p) for p in v.players]
    if v.boost_card is not None and is_position(v.boost_card):
        v.boost_card = HIDDEN  # R44: a Boost card waiting for the other player's key
    if v.card is not None and is_position(v.card):
        v.card = HIDDEN
    v.rng = 0
    return v


def _positions_blanked(v: State) -> State:
    """A complete view of a sealed game (R42) shows as unknown what no secret here has opened yet
    (before the audit); of any other game, the state itself."""
    if v.sealing is None:
        return v
    v.display = [HIDDEN if is_position(c) else c for c in v.display]
    v.dog_display = [HIDDEN if is_position(d) else d for d in v.dog_display]
    v.discard = [HIDDEN if is_position(c) else c for c in v.discard]
    v.players = [_hand_blanked(p) for p in v.players]
    if v.card is not None and is_position(v.card):
        v.card = HIDDEN
    if v.boost_card is not None and is_position(v.boost_card):
        v.boost_card = HIDDEN
    return v


def _hand_blanked(p: PlayerState) -> PlayerState:
    """A hand with every sealed position the viewer cannot read shown as unknown (R42)."""
    if any(is_position(c) for c in p.hand):
        p = p.copy()
        p.hand = [HIDDEN if is_position(c) else c for c in p.hand]
    return p


def hidden_cards(v: State) -> list[str]:
    """The card ids a view does not place: every card of the set not visible anywhere in it."""
    seen = set(v.deck) | set(v.discard) | set(v.display) | set(v.players[0].hand) | set(v.players[1].hand)
    return sorted(c for c in v.cat.cards if c not in seen)


def determinize(v: State, rng: Rng) -> State:
    """A complete state consistent with the view ``v``: its blanks filled with a sample (R39).

    The cards the seat has not seen are shuffled with ``rng`` and dealt into the blank places of
    the deck, the opponent's hand and the discard pile; the dog deck is shuffled and the PRNG
    state drawn afresh.  Depends on ``v`` and ``rng`` only.
    """
    s = v.copy()
    pool = hidden_cards(v)
    rng.shuffle(pool)
    it = iter(pool)
    s.display = [next(it) if c == HIDDEN else c for c in v.display]
    s.deck = [next(it) if c == HIDDEN else c for c in v.deck]
    for p, q in zip(s.players, v.players):
        p.hand = [next(it) if c == HIDDEN else c for c in q.hand]
    s.discard = [next(it) if c == HIDDEN else c for c in v.discard]
    if v.card == HIDDEN:
        # The mini-turn card sits face down at the top end of the discard pile (or went into a
        # reshuffled deck); any unseen card is as good a guess for the reward step.
        faced = [c for c, w in zip(s.discard, v.discard) if w == HIDDEN]
        s.card = faced[-1] if faced else (s.deck[0] if s.deck else None)
    for seat, unseen in enumerate(v.unseen):
        if HIDDEN in unseen:
            s.unseen[seat] = [c for c, w in zip(s.discard, v.discard) if w == HIDDEN]
    dogs = sorted(d for d in v.cat.dogs if d not in set(v.dog_display) | set(v.players[0].dogs) | set(v.players[1].dogs))
    rng.shuffle(dogs)
    turning = v.dog_display.count(HIDDEN)  # R43: a dog being turned up in a sealed game
    s.dog_display = [dogs.pop() if d == HIDDEN else d for d in v.dog_display] if turning else s.dog_display
    s.dog_deck = dogs[: len(v.dog_deck)]
    s.rng = rng.next_u64()
    s.sealing = None  # R42: the sample is a whole game of cards; it plays on, and reshuffles, as a fair one
    return s


def move_view(before: State, move: Move, seat: int | None) -> Move:
    """``move`` as ``seat`` may see it (R39): the card of an opponent's face-down decision hidden.

    ``before`` is the complete state the move was made in.  Face down: a Break put-back, an
    Intimidation discard, a mini-turn play (R18, R22, R31).
    """
    if seat is None:
        return move
    if seat != PUBLIC and move.player == before.players[seat].name:
        return move
    if isinstance(move, (PutBack, Discard)):
        return type(move)(player=move.player, card=HIDDEN)
    if isinstance(move, Play) and before.in_mini:
        return Play(player=move.player, card=HIDDEN, reward=move.reward, flex=move.flex)
    return move
