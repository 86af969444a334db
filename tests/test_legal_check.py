"""Property test: ``legal.is_legal`` (the replay's check of one recorded decision) accepts exactly
the moves of ``rules.legal_moves``.

Over the states met in seeded random playouts (both rules versions, the recommended board, boards
with each extra tile and random boards), every legal move is accepted, and moves made from them by
changing one field (another card, reward, shift, colour, course, obstacle, dog, count, token or
player), by changing their kind (the same fields under another kind) or by building moves of kinds
the step does not await are accepted exactly when they are in ``legal_moves``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import msgspec

from agility_cli.engine import rules
from agility_cli.engine.components import COLOURS
from agility_cli.engine.legal import is_legal
from agility_cli.engine.moves import MOVE_TYPES, Move, Prize
from agility_cli.engine.state import State
from builders import new_game
from test_property_playouts import board_for

GAMES = 14  # about 4,000 states: every state of each game is checked
MUTATED_PER_STATE = 2  # legal moves per state mutated along every field
PER_KIND = 30  # moves of each kind per state, by the player to act, over the fields' domains


def domain(s: State, field: str, rng: random.Random) -> list[Any]:
    """The values a field is tried with in ``s``: the ones that can be legal and near misses."""
    names = [p.name for p in s.players]
    catalogue = sorted(s.cat.cards)
    cards = [*s.players[0].hand, *s.players[1].hand, *s.display, *s.deck[:2], *s.discard[-1:],
             rng.choice(catalogue), "t99"]
    courses = [c.id for c in s.courses] + ["zz"]
    dogs = [*s.dog_display, *s.dog_deck[:1], *s.players[0].dogs, *s.players[1].dogs, "d99"]
    colours: list[Any] = [*COLOURS, None, "purple"]
    values: dict[str, list[Any]] = {
        "player": names + ["mallory"],
        "card": cards,
        "reward": colours,
        "color": colours,
        "spare": colours,
        "from_": colours,
        "to": colours,
        "flex": list(range(-4, 5)),
        "count": list(range(0, 4)),
        "course": courses,
        "obstacle": list(range(-1, 8)),
        "gap": list(range(-1, 8)),
        "dog": dogs,
        "token": ["flex", "exchange", "cube"],
    }
    return list(dict.fromkeys(values[field]))


def of_kind(cls: type[Move], like: Move, s: State, rng: random.Random) -> Move:
    """A move of kind ``cls`` with ``like``'s values where the fields share a name, others drawn."""
    fields: dict[str, Any] = {}
    for name in cls.__struct_fields__:
        fields[name] = getattr(like, name) if hasattr(like, name) else rng.choice(domain(s, name, rng))
    return cls(**fields)


def universe(s: State, rng: random.Random) -> list[Move]:
    """Moves of every kind by the player to act, their fields drawn from the domains (all of
    them where there are at most :data:`PER_KIND`, else a sample): the moves a rule must refuse
    in a step that seldom offers them (an adoption while a dog is rushed, say)."""
    name = s.players[s.to_act if s.to_act is not None else s.active].name
    moves: list[Move] = []
    for cls in MOVE_TYPES:
        names = [f for f in cls.__struct_fields__ if f != "player"]
        combos = list(itertools.product(*(domain(s, f, rng) for f in names)))
        for values in rng.sample(combos, min(PER_KIND, len(combos))):
            moves.append(cls(player=name, **dict(zip(names, values))))
    return moves


def agrees(s: State, m: Move, legal: list[Move], where: str) -> bool:
    accepted = is_legal(s, m)
    assert accepted == (m in legal), f"{where}: is_legal({m!r}) is {accepted}, legal_moves says {not accepted}"
    return accepted


def check_state(s: State, legal: list[Move], rng: random.Random, where: str, seen: Counter[str]) -> None:
    for m in legal:
        assert is_legal(s, m), f"{where}: the legal move {m!r} is refused"
    seen["accepted"] += len(legal)
    if s.winner is not None:
        return
    for m in rng.sample(legal, min(MUTATED_PER_STATE, len(legal))):
        for name in m.__struct_fields__:  # one field changed: another card, option, player …
            for value in domain(s, name, rng):
                other = msgspec.structs.replace(m, **{name: value})
                seen["refused" if not agrees(s, other, legal, where) else "mutant legal"] += 1
        for cls in MOVE_TYPES:  # another kind with the same fields
            if cls is not type(m):
                seen["refused" if not agrees(s, of_kind(cls, m, s, rng), legal, where) else "mutant legal"] += 1
    for other in universe(s, rng):
        seen["refused" if not agrees(s, other, legal, where) else "universe legal"] += 1
    for name in (p.name for p in s.players):  # the prize tokens, by either player
        for token in ("flex", "exchange"):
            agrees(s, Prize(player=name, token=token), legal, where)  # type: ignore[arg-type]


def walk(seed: int, version: int, seen: Counter[str]) -> None:
    s = new_game(seed, board_for(seed), first="alice" if seed % 2 else "bob", version=version)
    chooser = random.Random(seed)
    mutator = random.Random(10_000 + seed)
    for n in range(2000):
        legal = rules.legal_moves(s)
        where = f"seed {seed}, rules {version}, decision {n + 1}, phase {s.phase}"
        seen["states"] += 1
        seen[f"prize" if s.prizes else f"phase {s.phase}" + ("" if s.to_act == s.active else " (opponent)")] += 1
        check_state(s, legal, mutator, where, seen)
        if not legal:
            return
        rules.apply_in_place(s, chooser.choice(legal))
    raise AssertionError(f"seed {seed}: no winner")  # pragma: no cover


def test_is_legal_accepts_exactly_the_legal_moves_in_random_playouts() -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        walk(seed, 1 + seed % 2, seen)
    assert seen["states"] >= 3000, seen
    assert seen["refused"] >= 50 * seen["states"], seen  # the mutations mostly are illegal ones
    assert seen["mutant legal"] > 0, seen  # and some land on another legal move
    phases = {key.split()[1] for key in seen if key.startswith("phase ")}
    expected = {"play", "reward", "dogs", "refill", "discard", "break", "return", "put_back", "draw", "boost",
                "distract", "rush", "slip", "inspire", "over"}
    assert expected <= phases, sorted(expected - phases)
    assert seen["prize"] and seen["phase discard (opponent)"], seen


def test_is_legal_refuses_every_move_once_the_game_is_over() -> None:
    s = new_game(3, board_for(3))
    chooser = random.Random(3)
    while (legal := rules.legal_moves(s)):
        last = chooser.choice(legal)
        rules.apply_in_place(s, last)
    assert s.winner is not None and not is_legal(s, last)


def perturbed(s: State) -> list[State]:
    """``s`` with the counts the rules test changed (cubes, tokens, Flex, hands, deck and discard),
    in combinations a random playout seldom meets: one cube at a Break, nothing left to draw …"""
    out = []
    for cubes, exchange, flex, empty_hand, empty_piles in itertools.product(
        ([0, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 2, 0, 1]), (0, 1), (0, 1, 3), (False, True), (False, True)
    ):
        t = s.copy()
        p = t.players[t.active]
        p.cubes, p.exchange, p.flex = list(cubes), exchange, flex
        if empty_hand:
            p.hand = []
        if empty_piles:
            t.deck, t.discard = [], []
        out.append(t)
    return out


def test_is_legal_agrees_on_states_with_counts_changed() -> None:
    firsts: dict[str, State] = {}
    for seed in range(6):
        s = new_game(seed, board_for(seed), version=1 + seed % 2)
        chooser = random.Random(seed)
        while (legal := rules.legal_moves(s)):
            key = "prize" if s.prizes else s.phase
            firsts.setdefault(key, s.copy())
            rules.apply_in_place(s, chooser.choice(legal))
    rng = random.Random(7)
    for key, s in sorted(firsts.items()):
        for t in perturbed(s):
            legal = rules.legal_moves(t)
            where = f"phase {key}, cubes {t.players[t.active].cubes}"
            for m in legal:
                assert is_legal(t, m), f"{where}: the legal move {m!r} is refused"
            for other in universe(t, rng):
                agrees(t, other, legal, where)
