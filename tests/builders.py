"""Hand-made states for scenario tests: start from a seeded setup, then arrange what the test needs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agility_cli.engine import rules
from agility_cli.engine.components import COLOURS, Components, standard_components
from agility_cli.engine.moves import Adopt, Advance, Header, Move
from agility_cli.engine.state import CourseState, ObstacleState, State, digest, vec

A, B = 0, 1


def header(
    seed: int = 1, board: tuple[str, ...] = rules.RECOMMENDED_BOARD, first: str = "alice", version: int = 1
) -> Header:
    """A header under rules ``version`` (R38); the scenario tests of R1–R37 pin version 1."""
    return Header(
        format=1, rules=version, seed=seed, players=("alice", "bob"), first=first, board=board, components="standard"
    )


def new_game(
    seed: int = 1,
    board: tuple[str, ...] = rules.RECOMMENDED_BOARD,
    first: str = "alice",
    components: Components | None = None,
    version: int = 1,
) -> State:
    return rules.setup(header(seed, board, first, version), components or standard_components())


def board_with(**spaces: str) -> tuple[str, ...]:
    """The recommended board with some spaces replaced: ``board_with(s5="rush")``."""
    board = list(rules.RECOMMENDED_BOARD)
    for key, tile in spaces.items():
        board[int(key[1:])] = tile
    return rules.validate_board(board)


def cubes(s: State, seat: int, **counts: int) -> None:
    """Set a player's cubes exactly (colours not named become 0)."""
    s.players[seat].cubes = [counts.get(c, 0) for c in COLOURS]


def cube_dict(s: State, seat: int) -> dict[str, int]:
    return {c: n for c, n in zip(COLOURS, s.players[seat].cubes) if n}


def card_id(s: State, number: int, exclude: tuple[str, ...] = ()) -> str:
    """The id of some training card with this number."""
    for c in s.cat.components.cards:
        if c.number == number and c.id not in exclude:
            return c.id
    raise LookupError(number)


def hand(s: State, seat: int, *numbers: int) -> list[str]:
    """Give a player a hand of cards with these numbers (taken out of wherever they are)."""
    chosen: list[str] = []
    for n in numbers:
        cid = card_id(s, n, exclude=tuple(chosen))
        chosen.append(cid)
    old = [c for c in s.players[seat].hand if c not in chosen]
    for cid in chosen:
        _take_out(s, cid)
    for cid in old:
        if cid in s.players[seat].hand:
            s.players[seat].hand.remove(cid)
    s.deck.extend(old)  # keep all 39 cards accounted for: the old hand goes under the deck
    s.players[seat].hand = chosen
    return chosen


def _take_out(s: State, cid: str) -> None:
    for pile in (s.deck, s.discard, s.display, s.players[0].hand, s.players[1].hand):
        if cid in pile:
            pile.remove(cid)
            if pile is s.display:
                s.display.append(s.deck.pop(0))
            return


def course(
    s: State,
    slot: int,
    obstacles: list[tuple[str, dict[str, int]]],
    *,
    owner: int | None = None,
    dog: str | None = None,
    position: int = 0,
) -> CourseState:
    """Replace course ``slot`` (0–5) with these obstacles, optionally with a dog on it."""
    c = s.courses[slot]
    c.obstacles = [ObstacleState(t, vec(cost)) for t, cost in obstacles]
    c.owner, c.dog, c.position = owner, dog, position
    if dog is not None:
        assert owner is not None
        if dog in s.dog_display:
            s.dog_display.remove(dog)
        if dog in s.dog_deck:
            s.dog_deck.remove(dog)
        if dog not in s.players[owner].dogs:
            s.players[owner].dogs.append(dog)
    return c


HURDLE = ("hurdle", {"blue": 2, "black": 1})
TUNNEL = ("tunnel", {"green": 2, "red": 1})
WEAVE = ("weave_poles", {"yellow": 2, "green": 1})
AFRAME = ("a_frame", {"black": 2, "yellow": 1})
OPEN = ("open_ground", {"green": 2})
PAUSE = ("pause_box", {"red": 4})


def play(s: State, m: Move) -> State:
    """Apply in place and return the state (for chaining in tests)."""
    rules.apply_in_place(s, m)
    return s


def to_phase(s: State, phase: str) -> State:
    s.phase = phase
    return s


# --- training-card piles (added for the R10–R19 scenario tests) -----------------------------------


def all_cards(s: State) -> list[str]:
    """Every training card id in play, wherever it lies (deck, discard, display, both hands)."""
    return s.deck + s.discard + s.display + s.players[0].hand + s.players[1].hand


def arrange(
    s: State,
    *,
    hand_a: list[str] | None = None,
    hand_b: list[str] | None = None,
    display: list[str] | None = None,
    discard: list[str] | None = None,
    deck: list[str] | None = None,
    deck_top: list[str] | None = None,
) -> State:
    """Put training cards exactly where a test needs them, keeping all 39 accounted for.

    Each pile given is set to exactly that list.  A pile not given keeps its cards, less those named
    elsewhere.  ``deck_top`` (only without ``deck``) puts cards on top of the deck, in that order.
    Cards that lose their place go under the deck, or, when ``deck`` is given, on top of the discard
    pile (which must then not be given).
    """
    if deck is not None and deck_top is not None:
        raise ValueError("give deck or deck_top, not both")
    given = {"hand_a": hand_a, "hand_b": hand_b, "display": display, "discard": discard, "deck": deck}
    named = [c for pile in (*given.values(), deck_top) if pile for c in pile]
    if len(set(named)) != len(named):
        raise ValueError(f"a card is named twice: {named}")
    unknown = set(named) - set(s.cat.cards)
    if unknown:
        raise ValueError(f"unknown cards {sorted(unknown)}")
    current = {
        "hand_a": s.players[0].hand,
        "hand_b": s.players[1].hand,
        "display": s.display,
        "discard": s.discard,
        "deck": s.deck,
    }
    kept: dict[str, list[str]] = {}
    homeless: list[str] = []
    for key, old in current.items():
        rest = [c for c in old if c not in named]
        if given[key] is None:
            kept[key] = rest
        else:
            homeless.extend(rest)
            kept[key] = list(given[key])  # type: ignore[arg-type]
    if deck is None:
        kept["deck"] = list(deck_top or []) + kept["deck"] + homeless
    elif discard is None:
        kept["discard"] = kept["discard"] + homeless
    elif homeless:
        raise ValueError(f"no pile left for {homeless}")
    s.players[0].hand, s.players[1].hand = kept["hand_a"], kept["hand_b"]
    s.display, s.discard, s.deck = kept["display"], kept["discard"], kept["deck"]
    assert sorted(all_cards(s)) == sorted(s.cat.cards), "arrange lost or doubled a card"
    return s


def give(s: State, seat: int, *, flex: int | None = None, exchange: int | None = None) -> State:
    """Set a player's Flex and/or Exchange tokens."""
    p = s.players[seat]
    if flex is not None:
        p.flex = flex
    if exchange is not None:
        p.exchange = exchange
    return s


# --- shared by the R20–R34 scenario tests -------------------------------------------------------


def deal(s: State, seat: int, *numbers: int) -> list[str]:
    """Give ``seat`` exactly a hand of cards with these numbers, never taken from the other hand.

    The cards come out of the deck, discard or display (the display refills from the deck); the old
    hand goes under the deck, so all 39 cards stay accounted for.
    """
    other = s.players[1 - seat].hand
    chosen: list[str] = []
    for n in numbers:
        cid = next(
            c.id for c in s.cat.components.cards if c.number == n and c.id not in chosen and c.id not in other
        )
        chosen.append(cid)
    for cid in chosen:
        for pile in (s.deck, s.discard, s.display, s.players[seat].hand):
            if cid in pile:
                pile.remove(cid)
                if pile is s.display:
                    s.display.append(s.deck.pop(0))
                break
    s.deck.extend(c for c in s.players[seat].hand if c not in chosen)
    s.players[seat].hand = chosen
    return chosen


def dogs_phase(s: State, seat: int) -> State:
    """Make it ``seat``'s step 4–5 of a fresh turn (nothing adopted or moved yet)."""
    s.active = seat
    s.phase = "dogs"
    s.adopted = s.moved = s.in_mini = False
    s.minis = 0
    s.card = s.reward = None
    s.paid = [0] * len(s.courses)
    return s


def refused(s: State, m: Move, code: str | None = None, rule: str | None = None) -> rules.IllegalMove:
    """``apply`` refuses ``m`` (with this code and ruling, when given) and leaves ``s`` unchanged."""
    before = digest(s)
    assert m not in rules.legal_moves(s)
    with pytest.raises(rules.IllegalMove) as info:
        rules.apply(s, m)
    if code is not None:
        assert (info.value.code, info.value.rule) == (code, rule)
    assert digest(s) == before
    return info.value


def cid(s: State, slot: int) -> str:
    return s.courses[slot].id


def advances(s: State) -> set[tuple[str, str | None]]:
    return {(m.course, m.spare) for m in rules.legal_moves(s) if isinstance(m, Advance)}


# Training cards of the standard set that scenario tests use by id (number, rewards);
# test_r3_scenario_cards_as_assumed checks them, so a change to the data file fails loudly there.
SCENARIO_CARDS = {
    "t01": (1, {"blue": 3, "yellow": 3}),
    "t02": (1, {"red": 3, "green": 3}),
    "t03": (1, {"black": 3, "red": 2}),
    "t04": (1, {"green": 3, "yellow": 2}),
    "t05": (1, {"red": 3, "blue": 2}),
    "t06": (2, {"red": 3, "black": 2}),
    "t07": (2, {"green": 3, "blue": 2}),
    "t11": (3, {"blue": 3, "red": 2}),
    "t16": (4, {"red": 2, "blue": 2}),
    "t20": (5, {"red": 2, "green": 1}),
    "t21": (5, {"blue": 2, "yellow": 2}),
    "t24": (6, {"blue": 2, "black": 1}),
    "t25": (6, {"red": 2, "yellow": 1}),
    "t28": (7, {"red": 2, "black": 1}),
    "t29": (7, {"blue": 2, "green": 1}),
    "t32": (8, {"red": 1, "blue": 1}),
    "t33": (8, {"green": 1, "black": 1}),
    "t36": (9, {"red": 1, "green": 1}),
    "t37": (9, {"black": 1, "yellow": 1}),
}


def random_states(
    version: int, games: int, boards: tuple[tuple[str, ...], ...], *, seed0: int = 0, greedy: float = 0.0
) -> Iterator[tuple[int, State]]:
    """Every state of seeded games under rules ``version`` (the same live state, advanced in place).

    A test-side ``random.Random(seed)`` picks among the legal moves; with ``greedy`` > 0 that share
    of the decisions is the greedy bot's instead, so that games reach prizes, mini-turns and the end.
    """
    import random

    from agility_cli.players import bots
    from agility_cli.engine.rng import Rng

    for seed in range(seed0, seed0 + games):
        s = new_game(seed, boards[seed % len(boards)], version=version)
        chooser = random.Random(seed)
        while s.winner is None:
            yield seed, s
            legal = rules.legal_moves(s)
            if greedy and chooser.random() < greedy:
                move = bots.greedy_strategy(s, legal, Rng(seed))
            else:
                move = chooser.choice(legal)
            rules.apply_in_place(s, move)


def playout(seed: int, limit: int = 400) -> Iterator[tuple[int, State, Move, State]]:
    """A deterministic playout over a random board (every tile shows up over the seeds): each
    decision ``n`` as ``(n, before, move, after)``, dogs advanced where they can be, until the
    game ends or ``limit`` decisions."""
    s = new_game(seed=seed, board=rules.random_board(seed, "b"))
    for n in range(limit):
        if s.winner is not None:
            return
        moves = rules.legal_moves(s)
        progress = [m for m in moves if isinstance(m, (Adopt, Advance))]
        m = progress[n % len(progress)] if progress and n % 4 else moves[(n * 7) % len(moves)]
        after = rules.apply(s, m)
        yield n, s, m, after
        s = after
