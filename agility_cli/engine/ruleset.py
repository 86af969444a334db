"""The rulings that differ by rules version (R38), the game's fixed sizes, and the engine's errors.

One :class:`Ruleset` per rules version, looked up once from the header (``RULESETS``); the engine
asks a flag, never the version number."""

from __future__ import annotations

import msgspec

from .components import COLOURS


CI = {c: i for i, c in enumerate(COLOURS)}


RECOMMENDED_BOARD: tuple[str, ...] = (  # R8
    "sweep",
    "clear_hurdles",
    "flex",
    "clear_tunnels",
    "exchange",
    "break",
    "boost",
    "clear_a_frames",
    "distraction",
    "clear_weave_poles",
)


HAND_SIZE = 3


DISPLAY_SIZE = 3  # R10


DOG_DISPLAY_SIZE = 5  # R10, R25


MAX_DOGS = 3  # R25


MAX_FLEX_SHIFT = 5  # ruling: a longer shift reaches a space a shorter one reaches the other way


class Ruleset(msgspec.Struct, frozen=True):
    """The rulings that depend on the rules version (R38), named; everything else is common."""

    version: int
    #: R12: the reward may be chosen after the action (a ``reward`` decision); v1: named with the play.
    reward_after_action: bool
    #: R22/R36: Intimidation's discard is made at once by the opponent; v1: first thing in their turn.
    discard_at_once: bool
    #: R13: the discard pile becomes the deck the moment the deck runs out; v1: when a draw needs it.
    reshuffle_at_once: bool


RULESETS: dict[int, Ruleset] = {
    1: Ruleset(1, reward_after_action=False, discard_at_once=False, reshuffle_at_once=False),
    2: Ruleset(2, reward_after_action=True, discard_at_once=True, reshuffle_at_once=True),
}


class RulesError(Exception):
    """Base of the engine's refusals: ``code`` is stable, ``rule`` the ruling id, ``message`` why."""

    def __init__(self, code: str, message: str, rule: str | None = None):
        self.code = code
        self.rule = rule
        self.message = message
        super().__init__(f"{rule + ': ' if rule else ''}{message}")

    def told(self) -> str:
        """``R7: why`` (``str(self)``) made of its message, to be told in the language in use (a
        :class:`said.Said` when the message is one)."""
        from ..said import Said, said
        from ..i18n import N_

        if not isinstance(self.message, Said):
            return str(self)
        return said(N_("{rule}: {why}"), rule=self.rule, why=self.message) if self.rule else self.message


class IllegalMove(RulesError):
    """A well-formed decision that the rules forbid now."""


class SetupError(RulesError):
    """A header that cannot start a game (bad board, players, seed)."""
