"""What every computer player shares: the strategy type, the random player, and matching a decision
made on a determinized state to the real legal move (R31, R39)."""

from __future__ import annotations

from typing import Callable

from ..engine.moves import Move, Play
from ..engine.rng import Rng
from ..engine.state import State

Strategy = Callable[[State, list[Move], Rng], Move]


def random_strategy(state: State, legal: list[Move], rng: Rng) -> Move:
    """Uniform over the legal moves, with the game's PRNG."""
    return legal[rng.below(len(legal))]


def same_decision(move: Move, legal: list[Move]) -> Move:
    """The real legal move a decision made on a determinized state stands for.

    They are equal, except a mini-turn's play of the deck's top card (R31), whose card the seat
    does not know: it is matched by its reward and Flex shift.
    """
    if move in legal:
        return move
    if isinstance(move, Play):
        # The card is unknown until played: keep the shift, and the reward if that card has it
        # (else choose it after the action, or, under version 1, take the card's first reward).
        plays = [m for m in legal if isinstance(m, Play) and m.flex == move.flex]
        for reward in (move.reward, None):
            for m in plays:
                if m.reward == reward:
                    return m
        if plays:
            return plays[0]
    raise ValueError(f"the decision {move!r} made on the seat's view is not legal")
