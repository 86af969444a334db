"""How the greedy player chooses: the decision of each phase, from its valuations (:mod:`values`).

See :mod:`bots` for the player's description; :func:`greedy_strategy` is its entry point."""

from __future__ import annotations

import math
from typing import Any, Callable

from ..engine import rules
from ..engine.moves import (
    Adopt,
    Advance,
    BoostAction,
    BoostCube,
    Break,
    ChooseReward,
    Discard,
    Distract,
    Done,
    Draw,
    Exchange,
    Inspire,
    Move,
    Play,
    Prize,
    PutBack,
    Return,
    Rush,
    Slip,
    Take,
)
from ..engine.rng import Rng
from ..engine.state import State
from .plans import CI, course_plan
from .values import Values, after_exchange, can_afford, keeps_reserve, rushed_obstacles

class Greedy(Values):
    """The greedy player's decisions for the seat that must act in one state."""

    REVEALING_TILES = ("boost", "break")

    def choose(self, legal: list[Move]) -> Move:
        s = self.s
        if s.prizes:
            return self._prize(legal)
        phase = s.phase
        if phase == "play":
            return self._play(legal)
        if phase == "reward":  # R12 step 3 (rules version 2): now that the action is done
            return _pick([m for m in legal if isinstance(m, ChooseReward)], self._reward_gain, legal)
        if phase == "dogs":
            return self._dogs(legal)
        if phase == "refill":
            return self._best_card_move(legal, Take)
        if phase == "discard":
            return self._worst_card_move(legal, Discard)
        if phase == "break":
            return _first(legal, Break)  # R18: declare 1: one cube lost, one card swapped
        if phase == "return":
            return self._return(legal)
        if phase == "put_back":
            return self._worst_card_move(legal, PutBack)
        if phase == "draw":
            return self._draw(legal)
        if phase == "boost":
            return self._boost(legal)
        if phase in ("distract", "rush", "slip"):
            return self._harm(legal)
        if phase == "inspire":
            return self._inspire(legal)
        return _fallback(legal)

    def _prize(self, legal: list[Move]) -> Move:  # R32/R33
        want = "exchange" if self.p.exchange == 0 else "flex"
        return next(m for m in legal if isinstance(m, Prize) and m.token == want)

    def _reward_gain(self, m: ChooseReward) -> float:
        assert self.s.card is not None
        return self.gain([(i, n) for i, n, c in self.info.rewards[self.s.card] if c == m.color])

    def _play(self, legal: list[Move], pick: Play | None = None) -> Move:
        """R12 step 1: the card, reward and Flex shift with the best tile + reward − cost.

        Under rules version 2 a play whose tile reveals a card first (Boost, Break) names no
        reward: it is chosen once the card turned up or drawn is known.  ``pick`` replaces the
        best play (the search's stochastic rollouts, :func:`noisy_greedy_strategy`).
        """
        best = pick or self._best_play(legal)
        if self.s.rules.reward_after_action:
            tile = self.s.board[(self.s.marker + self.info.numbers[best.card] + best.flex) % 10]
            if tile in self.REVEALING_TILES:
                later = Play(player=best.player, card=best.card, reward=None, flex=best.flex)
                if later in legal:
                    return later
        return best

    def _best_play(self, legal: list[Move]) -> Play:
        best: Play | None = None
        best_v = -1e18
        for v, m in scored_plays(self, legal):
            if v > best_v:  # the first of equals
                best, best_v = m, v
        assert best is not None
        return best

    def _dogs(self, legal: list[Move]) -> Move:
        """R12 steps 4–5: adopt, exchange to enable, advance, done."""
        s, info, p = self.s, self.info, self.p
        adopts = [m for m in legal if isinstance(m, Adopt)]
        if adopts:  # R25: the affordable dog and free course that fit best
            courses = {c.id: c for c in s.courses}
            return max(adopts, key=lambda m: course_plan(info, courses[m.course], m.dog)[0])
        could_adopt = (
            not s.adopted and not s.moved and len(p.dogs) < rules.MAX_DOGS and not rushed_obstacles(s, self.seat)
        )
        if p.exchange and could_adopt:
            m = self._exchange_for_adoption(legal)
            if m is not None:
                return m
        advances = [m for m in legal if isinstance(m, Advance)]
        if advances:
            m = self._advance(advances)
            if m is not None:
                return m
        if p.exchange:
            m = self._exchange_for_advance(legal)
            if m is not None:
                return m
        return _first(legal, Done)

    def _advance(self, advances: list[Advance]) -> Move | None:
        """R26–R28: feature obstacles first (they use no move), then paid clears, most advanced
        dog first, keeping back the cubes of a dog about to be adopted."""
        s, feats = self.s, self.info.features
        courses = {c.id: c for c in s.courses}
        near, far = self.needs()
        reserve = self.reserve()
        best: Advance | None = None
        best_key: tuple[float, ...] | None = None
        for m in advances:
            c = courses[m.course]
            ob = c.obstacles[c.position]
            feat = None if ob.type == "pause_box" or c.dog is None else feats[c.dog].get(ob.type)
            pay = rules.clear_cost(s, c, m.spare)
            if not keeps_reserve(self.cubes, pay, reserve) and c.position < len(c.obstacles) - 1:
                continue
            rank = {"pass": 3, "minus_one": 2, "featured": 1}.get(feat, 0)  # type: ignore[arg-type]
            spare_v = 0.0
            if m.spare is not None:  # spare the colour we are shortest of
                i = CI[m.spare]
                spare_v = near[i] + far[i] - self.cubes[i]
            key = (
                rank,
                1.0 if c.position == len(c.obstacles) - 1 else 0.0,
                c.position / len(c.obstacles),
                -sum(pay),
                spare_v,
            )
            if best_key is None or key > best_key:
                best, best_key = m, key
        return best

    def _exchange_for_adoption(self, legal: list[Move]) -> Move | None:
        """R15: an exchange that makes a displayed dog affordable, losing the least, and taking
        away no advance that is affordable now (an earlier exchange may have been made for it)."""
        info = self.info
        costs = [info.dog_cost[d] for d in self.s.dog_display]
        if not costs or not any(c.owner is None for c in self.s.courses):
            return None
        faced = [cost for cost in self._faced_costs() if can_afford(self.cubes, cost)]
        best: Move | None = None
        best_v = self.EXCHANGE_VALUE * 0.5
        for m in legal:
            if not isinstance(m, Exchange):
                continue
            new = after_exchange(self.cubes, m)
            if not any(can_afford(new, cost) for cost in costs):
                continue
            if not all(can_afford(new, cost) for cost in faced):
                continue
            v = 3.0 + self.cube_value(new) - self.cube_value(self.cubes)
            if v > best_v:
                best, best_v = m, v
        return best

    def _exchange_for_advance(self, legal: list[Move]) -> Move | None:
        """R15: an exchange that lets a dog clear the obstacle it faces, which it cannot now."""
        blocked = [cost for cost in self._faced_costs() if not can_afford(self.cubes, cost)]
        if not blocked:
            return None
        reserve = self.reserve()
        best: Move | None = None
        best_v = self.EXCHANGE_VALUE
        for m in legal:
            if not isinstance(m, Exchange):
                continue
            new = after_exchange(self.cubes, m)
            enabled = sum(1 for cost in blocked if can_afford(new, cost) and keeps_reserve(new, cost, reserve))
            if not enabled:
                continue
            v = 2.5 * enabled + self.cube_value(new) - self.cube_value(self.cubes)
            if v > best_v:
                best, best_v = m, v
        return best

    def _best_card_move(self, legal: list[Move], kind: type) -> Move:
        cands = [m for m in legal if isinstance(m, kind)]
        return _pick(cands, lambda m: self.card_quality(m.card), legal)

    def _worst_card_move(self, legal: list[Move], kind: type) -> Move:
        cands = [m for m in legal if isinstance(m, kind)]
        return _pick(cands, lambda m: -self.card_quality(m.card), legal)

    def _return(self, legal: list[Move]) -> Move:  # R18: give back the least useful cube
        cands = [m for m in legal if isinstance(m, Return)]
        return _pick(cands, lambda m: self.gain([(CI[m.color], -1)]), legal)

    def _draw(self, legal: list[Move]) -> Move:  # R18: the deck's top card or the best displayed
        s = self.s
        takes = [m for m in legal if isinstance(m, Take)]
        draw = next((m for m in legal if isinstance(m, Draw)), None)
        if not takes:
            assert draw is not None
            return draw
        best = max(takes, key=lambda m: self.card_quality(m.card))
        if draw is not None and s.deck and self.card_quality(s.deck[0]) > self.card_quality(best.card):
            return draw
        return best

    def _boost(self, legal: list[Move]) -> Move:  # R19
        s = self.s
        assert s.boost_card is not None
        cubes = [m for m in legal if isinstance(m, BoostCube)]
        best_cube = max(cubes, key=lambda m: self.gain([(CI[m.color], 1)])) if cubes else None
        action = self.tile_value(s.board[self.info.numbers[s.boost_card] % 10], 1)
        if best_cube is None or action > self.gain([(CI[best_cube.color], 1)]):
            return _first(legal, BoostAction)
        return best_cube

    def _harm(self, legal: list[Move]) -> Move:
        """R20/R21/R24: aim at the opponent's most advanced dog."""
        opp = self.s.players[1 - self.seat]
        order = {c.id: k for k, c in enumerate(self._opponent_targets())}
        cands = [m for m in legal if isinstance(m, (Distract, Rush, Slip))]

        def key(m: Move) -> tuple[int, int, int]:
            rank = order.get(m.course, 99)  # type: ignore[attr-defined]
            if isinstance(m, Distract):  # the nearest obstacle, in a colour the opponent lacks
                return (rank, m.obstacle, opp.cubes[CI[m.color]])
            if isinstance(m, Slip):  # right in front of the dog
                return (rank, m.gap, 0)
            return (rank, 0, 0)

        return _pick(cands, lambda m: tuple(-k for k in key(m)), legal)

    def _inspire(self, legal: list[Move]) -> Move:  # R23
        cands = [m for m in legal if isinstance(m, Inspire)]
        return _pick(cands, lambda m: self.gain([(CI[m.color], 1)]), legal)


def scored_plays(g: Values, legal: list[Move]) -> list[tuple[float, Play]]:
    """Every play that names its reward, with its value to ``g``'s seat: tile + reward − card
    kept − Flex (R12, R14, R16–R24)."""
    s, info = g.s, g.info
    tiles: dict[str, float] = {}
    rewards: dict[tuple[str, str, bool], float] = {}
    keep: dict[str, float] = {}
    out: list[tuple[float, Play]] = []
    for m in legal:
        if not isinstance(m, Play) or m.reward is None:
            continue
        card = m.card
        tile = s.board[(s.marker + info.numbers[card] + m.flex) % 10]
        tv = tiles.get(tile)
        if tv is None:
            tv = tiles[tile] = g.tile_value(tile)
        sweep = tile == "sweep"
        key = (card, m.reward, sweep)
        rv = rewards.get(key)
        if rv is None:
            add = [(i, n) for i, n, c in info.rewards[card] if sweep or c == m.reward]
            rv = rewards[key] = g.gain(add)
            if sweep:  # both rewards either way: prefer the one that reads as intended
                rv += 0.01 * g.gain([(i, n) for i, n, c in info.rewards[card] if c == m.reward])
        kv = keep.get(card)
        if kv is None:
            kv = keep[card] = g.HAND_WEIGHT * g.card_quality(card) if card in g.p.hand else 0.0
        out.append((tv + rv - kv - g.FLEX_VALUE * abs(m.flex) - 0.001 * abs(m.flex), m))
    return out


def _first(legal: list[Move], kind: type) -> Move:
    return next((m for m in legal if isinstance(m, kind)), None) or _fallback(legal)


def _fallback(legal: list[Move]) -> Move:
    """A decision of an unexpected shape: anything but spending an Exchange token."""
    return next((m for m in legal if not isinstance(m, Exchange)), legal[0])


def _pick(cands: list[Any], key: Callable[[Any], Any], legal: list[Move]) -> Move:
    """The candidate with the highest key (the first of equals), or a fallback when none."""
    if not cands:
        return _fallback(legal)
    return max(cands, key=key)  # type: ignore[no-any-return]


def greedy_strategy(state: State, legal: list[Move], rng: Rng) -> Move:
    """The greedy heuristic player (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    return Greedy(state).choose(legal)


def noisy_greedy_strategy(state: State, legal: list[Move], rng: Rng, temperature: float) -> Move:
    """Greedy, except that the card played (R12 step 1) is drawn from a softmax over greedy's
    values of the plays, ``exp(value / temperature)``, with ``rng``: plays nearly as good as the
    best are played nearly as often, poor ones seldom.  The search's rollout policy (diversity
    makes its values estimate a range of opponents, not greedy alone); every other decision is
    greedy's.  A temperature of 0 is greedy itself."""
    if len(legal) == 1:
        return legal[0]
    g = Greedy(state)
    if temperature <= 0 or state.prizes or state.phase != "play":
        return g.choose(legal)
    scored = scored_plays(g, legal)
    if len(scored) < 2:
        return g.choose(legal)
    top = max(v for v, _ in scored)
    weights = [math.exp((v - top) / temperature) for v, _ in scored]
    x = rng.next_u64() / 18446744073709551616.0 * sum(weights)
    pick = scored[-1][1]
    for w, (_, m) in zip(weights, scored):
        x -= w
        if x < 0:
            pick = m
            break
    return g._play(legal, pick)
