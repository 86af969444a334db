"""The rules of Agility, as one API: ``setup``, ``legal_moves``, ``apply``.  Pure: no I/O, no printing.

The code is in ``ruleset`` (versions, sizes, errors), ``setup``, ``piles``, ``legal``, ``apply`` and
``explain``; this module gathers their public names.

Every decision of the game is a :class:`~agility_cli.engine.moves.Move`.  A move is legal exactly when it
is in :func:`legal_moves` (one source of legality, as in OpenSpiel); :func:`apply` checks that (with
:func:`is_legal`, the same rules read for the one move, held to the list by a property test) and
otherwise raises :class:`IllegalMove` with a stable code, the ruling that refuses it and why.

The turn (R12) is a small state machine; ``State.phase`` names the decision awaited:

=============  ============================================================================
``discard``    R22/R36: the intimidated player discards a card (version 2: at once, by the
               opponent of the active player; version 1: first thing in their own turn)
``play``       R12 step 1 (and R31 mini-turns): play a card, maybe name the reward, maybe Flex
``reward``     R12 step 3 (version 2): choose the reward after the action
``break``      R18: declare 1 or 2;  then ``return`` (cubes), ``put_back`` (cards), ``draw``
``boost``      R19: option A (``boost_action``) or B (``boost_cube``)
``distract``   R20 target;  ``rush`` R21 target;  ``slip`` R24 gap;  ``inspire`` R23 colour
``dogs``       R12 steps 4–5: adopt (until a dog moves), advance dogs, ``done``
``refill``     R12 step 6: take cards from the display up to the hand size
``over``       the game has ended (R34)
=============  ============================================================================

Prize choices (R32/R33) interrupt whatever phase is current, and Exchange (R15) is open at every
decision of the active player's own turn.

Rules versions (R38): the few rulings that differ between versions are the flags of one
:class:`Ruleset`, looked up once from the header (``RULESETS``); the engine asks the flag, never
the version number."""

from .ruleset import (  # noqa: F401
    CI,
    RECOMMENDED_BOARD,
    HAND_SIZE,
    DISPLAY_SIZE,
    DOG_DISPLAY_SIZE,
    MAX_DOGS,
    MAX_FLEX_SHIFT,
    Ruleset,
    RULESETS,
    RulesError,
    IllegalMove,
    SetupError,
)
from .setup import (  # noqa: F401
    validate_board,
    random_board,
    random_first,
    setup,
)
from .legal import (  # noqa: F401
    clear_cost,
    is_legal,
    legal_moves,
)
from .apply import (  # noqa: F401
    apply,
    apply_in_place,
    apply_legal,
)
from .explain import (  # noqa: F401
    PHASE_TEXT,
    PHASE_KINDS,
    awaited,
    explain_illegal,
    status_text,
)

__all__ = [
    "CI",
    "RECOMMENDED_BOARD",
    "HAND_SIZE",
    "DISPLAY_SIZE",
    "DOG_DISPLAY_SIZE",
    "MAX_DOGS",
    "MAX_FLEX_SHIFT",
    "Ruleset",
    "RULESETS",
    "RulesError",
    "IllegalMove",
    "SetupError",
    "validate_board",
    "random_board",
    "random_first",
    "setup",
    "clear_cost",
    "is_legal",
    "legal_moves",
    "apply",
    "apply_in_place",
    "apply_legal",
    "PHASE_TEXT",
    "PHASE_KINDS",
    "awaited",
    "explain_illegal",
    "status_text",
]
