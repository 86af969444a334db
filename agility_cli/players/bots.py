"""Computer players: strategies that choose among :func:`rules.legal_moves` (STYLE.md habit 2).

Two strategies, each a function ``(state, legal, rng) -> move`` that returns one of ``legal``:

``random``
    Uniform over the legal moves, drawn from the game's own PRNG (R11), never Python's ``random``.

``greedy``
    A fast heuristic player.  It values cubes by what its dogs need — the obstacles they face and
    the dog it means to adopt first ("near"), the rest of their courses after that ("far"), and
    little for the rest — and scores every card it could play *analytically*: the value of the tile
    it would land on (a Clear that moves its dogs, Sweep's second reward, a token, harm to the
    opponent …) plus the value of the reward, less the Flex tokens spent (R12, R14, R16–R24).  No
    state is copied to choose a card, which keeps a greedy-vs-greedy game to a few milliseconds.
    Step 4–5 decisions follow rules: adopt the affordable dog and free course that save the most
    cubes (pass > minus one > featured, R4/R25), advance feature obstacles first (R27), then one
    paid clear per dog, the most advanced dog first, keeping back cubes earmarked for a dog it is
    about to afford; Exchange (R15) only when it makes an adoption or an advance affordable that
    is not otherwise; Distraction, Rush and Slip (R20, R21, R24) target the opponent's most
    advanced dog.  Ties go to the first candidate, so greedy is deterministic given the state.

Every bot decides from its seat's view only (R39): :func:`choose` hands the strategy a
*determinized* state — the seat's view (:func:`view.seat_view`) with the cards it cannot see
replaced by a sample of the unseen ones (:func:`view.determinize`) — never the real one.  The deck
order, the opponent's private cards and the PRNG's future are therefore guesses, drawn with the
bot's own stream.

Entry points used by the CLI: :func:`choose`, :func:`choose_for_seat` (solo play against a
``bot:STRATEGY`` seat) and :func:`play_out` (``agility bot``).  Determinism: a bot's random
choices come from :meth:`Rng.for_purpose` streams named after the game seed and the decision, so a
game replays to the same moves on every platform.
"""

from __future__ import annotations

from ..engine import rules
from ..engine.moves import Move
from ..engine.rng import Rng
from ..engine.state import State, digest
from ..record import gamefile
from ..record.game import Game
from ..engine.view import determinize, seat_view
from ..i18n import N_
from ..said import said
from . import search
from .belief import Seen, Tracker
from .greedy import greedy_strategy
from .strategy import Strategy, random_strategy, same_decision

STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "greedy": greedy_strategy}


# The search levels of :mod:`search` (``strong`` and ``strong1`` … easy to hard).
STRATEGIES.update({level: search.SearchStrategy(level) for level in search.LEVELS})


def choose(strategy: str, state: State, rng: Rng, seen: Tracker | None = None) -> Move:
    """The move ``strategy`` picks now, always one of ``rules.legal_moves(state)``.

    R39: the strategy sees a determinized copy of the acting seat's view, not ``state``; a search
    level also reads what the seat has ``seen`` of the opponent's decisions (:mod:`belief`, the
    seat's own view of them), to weight the worlds it samples.
    """
    legal = rules.legal_moves(state)
    if not legal:
        raise ValueError("no decision is open: the game is over")
    try:
        fn = STRATEGIES[strategy]
    except KeyError:
        raise ValueError(f"unknown strategy {strategy!r}; strategies are {', '.join(STRATEGIES)}") from None
    if len(legal) == 1:
        return legal[0]
    guess = determinize(seat_view(state, state.to_act), rng)
    if isinstance(fn, search.SearchStrategy) and seen is not None:
        assert state.to_act is not None
        mine: tuple[Seen, ...] = seen.seen(state.to_act)
        return same_decision(fn.decide(guess, rules.legal_moves(guess), rng, mine), legal)
    return same_decision(fn(guess, rules.legal_moves(guess), rng), legal)


def strategy_of_seat(seat_name: str) -> str:
    """The strategy a seat name asks for: ``bot:greedy``, ``bot:random``, ``bot:greedy:2`` …

    The word after ``bot:`` up to the next ``:``, ``-``, ``_`` or ``.`` names the strategy (a
    unique prefix is enough); anything else is played by ``greedy``.  The suffix lets two bots of
    one strategy sit at the same table under different names.
    """
    word = seat_name.split(":", 1)[1] if ":" in seat_name else seat_name
    for sep in ":-_.":
        word = word.split(sep, 1)[0]
    word = word.lower()
    if word in STRATEGIES:
        return word
    matches = [s for s in STRATEGIES if s.startswith(word)] if word else []
    return matches[0] if len(matches) == 1 else "greedy"


def unknown_bot(seat_name: str) -> str | None:
    """Why ``agility new`` refuses a bot seat whose word names no strategy (``bot:strnog``): the
    bots there are and the closest one; None for a bot it knows.  (A game file already written keeps
    its names: such a seat is played by ``greedy``, as :func:`strategy_of_seat` says.)"""
    word = seat_name.split(":", 1)[1] if ":" in seat_name else seat_name
    for sep in ":-_.":
        word = word.split(sep, 1)[0]
    word = word.lower()
    if word in STRATEGIES or len([s for s in STRATEGIES if word and s.startswith(word)]) == 1:
        return None
    import difflib

    names = [f"bot:{s}" for s in STRATEGIES]
    close = difflib.get_close_matches(f"bot:{word}", names, 1, 0.6)
    if close:
        return said(N_("no bot {name}: the bots are {bots}; did you mean {guess}?"), name=repr(seat_name),
                    bots=", ".join(names), guess=close[0])
    return said(N_("no bot {name}: the bots are {bots}"), name=repr(seat_name), bots=", ".join(names))


def choose_for_seat(seat_name: str, state: State, seed: int, n: int, seen: Tracker | None = None) -> Move:
    """Solo play: the decision of the bot seat ``seat_name`` as decision number ``n`` of a game.

    Its randomness is the stream ``bot:{n}`` of the game seed, so each decision is reproducible
    from the state and what the seat has ``seen`` of the game's decisions before it.
    """
    return choose(strategy_of_seat(seat_name), state, Rng.for_purpose(seed, f"bot:{n}"), seen)


def seen_in(game: Game, first: Move | None = None, after: list[Move] | None = None) -> Tracker | None:
    """What each seat saw of an unsealed ``game``'s decisions (its file read again), then of
    ``first`` and ``after`` made since; ``None`` when no seat is a search level (nothing reads it)."""
    names = game.header.players
    if not any(is_search(strategy_of_seat(name)) for name in names if name.startswith("bot:")):
        return None
    seen = seen_in_file(game)
    s = game.state.copy()
    for m in ([first] if first is not None else []) + (after or []):
        seen.add(s, m)
        rules.apply_in_place(s, m)
    return seen


def is_search(strategy: str) -> bool:
    """Whether ``strategy`` is a search level (the players that read what they have seen)."""
    return isinstance(STRATEGIES.get(strategy), search.SearchStrategy)


def seen_in_file(game: Game) -> Tracker:
    """What each seat saw of the decisions of an unsealed ``game``'s file (read again)."""
    return Tracker.of_file(gamefile.read_bytes(game.path), str(game.path))


def play_out(state: State, strategy: str, seed: int, limit: int, only: int | None = None,
             seen: Tracker | None = None) -> list[Move]:
    """Up to ``limit`` decisions of whoever must act, from a copy of ``state``, by ``strategy``.

    Stops early when the game ends, or (``only``) when a seat other than ``only`` must act;
    ``seen``: what each seat saw of the game's decisions before ``state`` (a search level reads it).  Deterministic for (state, strategy, seed): the random stream
    is named after the seed and the starting state's digest, so repeated short runs on a growing
    game do not repeat one another's draws.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; strategies are {', '.join(STRATEGIES)}")
    s = state.copy()
    rng = Rng.for_purpose(seed, f"bot:{digest(s)}")
    out: list[Move] = []
    while len(out) < limit and s.winner is None and (only is None or s.to_act == only):
        move = choose(strategy, s, rng, seen)
        if seen is not None:
            seen.add(s, move)
        rules.apply_in_place(s, move)
        out.append(move)
    return out
