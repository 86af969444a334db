"""What the greedy player values: cubes by what its dogs need, cards, tiles and tokens (R12-R24).

:class:`Values` is the greedy player's view of one state for the seat that must act; the weights
are class attributes so that variants can be tried against each other.  The choices built on it
are :mod:`greedy`'s."""

from __future__ import annotations

from ..engine import rules
from ..engine.components import CLEAR_TILES
from ..engine.moves import Exchange
from ..engine.state import CourseState, State
from .plans import CI, layout_key, cat_info, course_plan, effective_cost

ZERO = (0, 0, 0, 0, 0)

# Weights of the greedy heuristic, in "cubes".  Tuned by self-play (see tests/test_bots.py).
W_NEAR = 1.0  # a cube that pays for a faced obstacle or the next dog
W_FAR = 0.6  # a cube needed later on one's courses
W_SURPLUS = 0.15  # a cube nobody needs yet (Exchange may still turn it into something)
FLEX_VALUE = 0.9  # a Flex token (R14)
EXCHANGE_VALUE = 1.3  # an Exchange token (R15)
HAND_WEIGHT = 0.3  # how much a card kept in hand is worth, relative to playing it now
PROGRESS_BONUS = 1.2  # an obstacle cleared now rather than later (tempo)
FINISH_BONUS = 3.0  # a course finished (prize, Tiebreak marker, R33)


class Values:
    """The greedy player's valuations of one state, for the seat that must act.

    The weights are class attributes so that variants can be tried against each other.
    """

    W_NEAR = W_NEAR
    W_FAR = W_FAR
    W_SURPLUS = W_SURPLUS
    FLEX_VALUE = FLEX_VALUE
    EXCHANGE_VALUE = EXCHANGE_VALUE
    HAND_WEIGHT = HAND_WEIGHT
    PROGRESS_BONUS = PROGRESS_BONUS
    FINISH_BONUS = FINISH_BONUS
    RESERVE_MISSING = 3  # keep cubes for the next dog once at most this many are missing

    def __init__(self, s: State) -> None:
        self.s = s
        self.info = cat_info(s.cat)
        seat = s.to_act
        assert seat is not None
        self.seat = seat
        self.p = s.players[seat]
        self.cubes = self.p.cubes
        self._needs: tuple[list[int], list[int]] | None = None
        self._base: float | None = None  # cube_value of the cubes held
        self._target: tuple[str, str, tuple[int, ...]] | None | bool = False
        self._quality: dict[str, float] = {}  # card_quality by card (the state does not change)

    def target(self) -> tuple[str, str, tuple[int, ...]] | None:
        """The (dog, course, course work) to adopt next: good fit, few cubes missing."""
        if self._target is not False:
            return self._target  # type: ignore[return-value]
        s, info = self.s, self.info
        best: tuple[str, str, tuple[int, ...]] | None = None
        if len(self.p.dogs) < rules.MAX_DOGS:
            free = [c for c in s.courses if c.owner is None]
            best_score = -1e9
            cubes = self.cubes
            layouts = [layout_key(c) for c in free]
            for dog in s.dog_display:
                cost = info.dog_cost[dog]
                missing = sum(n - h for n, h in zip(cost, cubes) if n > h)
                for c, layout in zip(free, layouts):
                    score, vec = course_plan(info, c, dog, layout)
                    score -= 0.7 * missing
                    if score > best_score:
                        best_score, best = score, (dog, c.id, vec)
        self._target = best
        return best

    def needs(self) -> tuple[list[int], list[int]]:
        """Cubes wanted soon (faced obstacles, next dog) and later (rest of the courses)."""
        if self._needs is not None:
            return self._needs
        s = self.s
        near = [0, 0, 0, 0, 0]
        far = [0, 0, 0, 0, 0]
        feats = self.info.features
        for c in s.courses:
            if c.owner != self.seat or c.dog is None:
                continue
            f = feats[c.dog]
            for k in range(c.position, len(c.obstacles)):
                ob = c.obstacles[k]
                eff = effective_cost(ob.cost, ob.plus, None if ob.type == "pause_box" else f.get(ob.type))
                dest = near if k == c.position else far
                for i in range(5):
                    dest[i] += eff[i]
        t = self.target()
        if t is not None:
            cost = self.info.dog_cost[t[0]]
            for i in range(5):
                near[i] += cost[i]
                far[i] += t[2][i]
        self._needs = (near, far)
        return self._needs

    def cube_value(self, cubes: list[int] | tuple[int, ...]) -> float:
        near, far = self._needs or self.needs()
        w_near, w_far, w_surplus = self.W_NEAR, self.W_FAR, self.W_SURPLUS  # hot: search rollouts
        v = 0.0
        for i in range(5):
            h = cubes[i]
            n = near[i]
            a = n if n < h else h
            h -= a
            f = far[i]
            b = f if f < h else h
            v += w_near * a + w_far * b + w_surplus * (h - b)
        return v

    def gain(self, add: list[tuple[int, int]]) -> float:
        """The value of receiving ``add`` = [(colour index, count), …]."""
        new = list(self.cubes)
        for i, n in add:
            new[i] += n
        if self._base is None:  # the state does not change while it is being looked at
            self._base = self.cube_value(self.cubes)
        return self.cube_value(new) - self._base

    def card_quality(self, card: str) -> float:
        """What a card in hand is worth: its better reward, as things stand."""
        q = self._quality.get(card)
        if q is None:
            q = self._quality[card] = max(self.gain([(i, n)]) for i, n, _ in self.info.rewards[card])
        return q

    def tile_value(self, tile: str, depth: int = 0) -> float:
        """The value of resolving ``tile`` now (R16–R24), not counting the card's reward."""
        s, p = self.s, self.p
        if tile in CLEAR_TILES:  # R17
            kind = CLEAR_TILES[tile]
            feats = self.info.features
            v = 0.0
            for c in s.courses:
                if c.owner != self.seat or c.dog is None or c.position >= len(c.obstacles):
                    continue
                ob = c.obstacles[c.position]
                if ob.type != kind:
                    continue
                eff = effective_cost(ob.cost, ob.plus, feats[c.dog].get(ob.type))
                v += sum(eff) * self.W_NEAR + self.PROGRESS_BONUS
                if c.position == len(c.obstacles) - 1:
                    v += self.FINISH_BONUS
            return v
        if tile == "flex":
            return self.FLEX_VALUE
        if tile == "exchange":
            return self.EXCHANGE_VALUE if p.exchange < 2 else self.EXCHANGE_VALUE / 2
        if tile == "break":  # R18: lose a cube, swap a card
            if not sum(p.cubes):
                return 0.0
            worst_cube = min(self.gain([(i, -1)]) for i in range(5) if p.cubes[i])
            hand = [self.card_quality(c) for c in p.hand] or [0.0]
            avail = [self.card_quality(c) for c in s.display + s.deck[:1]] or [0.0]
            return worst_cube + self.HAND_WEIGHT * max(0.0, max(avail) - min(hand)) - 0.2
        if tile == "boost":  # R19: the top card is known (the log is open, R37)
            if depth or not s.deck:
                return 0.5
            top = s.deck[0]
            cube = max(self.gain([(i, 1)]) for i, _, _ in self.info.rewards[top])
            action = self.tile_value(s.board[self.info.numbers[top] % 10], depth + 1)
            return max(cube, action)
        if tile in ("distraction", "rush", "slip"):
            targets = self._opponent_targets()
            if not targets:
                return 0.0
            if tile == "distraction":  # R20
                return 0.8
            if tile == "rush":  # R21
                return 1.6 if any(not c.obstacles[c.position].rush for c in targets) else 0.0
            # R24 Slip
            if any(not c.slipped and len(c.obstacles) > max(1, c.position) for c in targets):
                return 1.4
            return 0.0
        if tile == "intimidation":  # R22
            opp = s.players[1 - self.seat]
            if p.hand_size == 3 and opp.hand_size == 3:
                return 1.8
            if p.hand_size == 2:
                return 1.5
            return -0.4
        if tile == "inspiration":  # R23
            if not s.inspiration:
                return 0.0
            return max(self.gain([(CI[c], 1)]) for c in s.inspiration)
        return 0.0  # sweep: its value is the card's second reward, counted by the caller

    def _opponent_targets(self) -> list[CourseState]:
        """The opponent's unfinished dogs' courses, most advanced first."""
        opp = 1 - self.seat
        courses = [c for c in self.s.courses if c.owner == opp and c.position < len(c.obstacles)]
        courses.sort(key=lambda c: (c.position / len(c.obstacles), -(len(c.obstacles) - c.position)), reverse=True)
        return courses

    def reserve(self) -> tuple[int, ...]:
        """Cubes kept back for the next dog once it is nearly affordable (R25 before R26)."""
        t = self.target()
        if t is None or self.s.adopted:
            return ZERO
        cost = self.info.dog_cost[t[0]]
        missing = sum(n - h for n, h in zip(cost, self.cubes) if n > h)
        return cost if missing <= self.RESERVE_MISSING else ZERO

    def _faced_costs(self) -> list[tuple[int, ...]]:
        """What each dog that may still clear its faced obstacle this turn would pay (R21, R26, R27)."""
        s = self.s
        rushed = rushed_obstacles(s, self.seat)
        out = []
        for i, c in enumerate(s.courses):
            if c.owner != self.seat or c.position >= len(c.obstacles):
                continue
            ob = c.obstacles[c.position]
            feature = s.feature(c, ob)
            if feature is None and s.paid[i]:
                continue  # R27: this dog has made its paid move
            if rushed and i not in rushed:
                continue
            out.append(effective_cost(ob.cost, ob.plus, feature))
        return out


def can_afford(cubes: list[int] | tuple[int, ...], cost: tuple[int, ...]) -> bool:
    return all(h >= n for h, n in zip(cubes, cost))


def keeps_reserve(cubes: list[int], pay: tuple[int, ...], reserve: tuple[int, ...]) -> bool:
    """Paying ``pay`` leaves at least ``reserve`` of every colour it touches."""
    return all(not pay[i] or cubes[i] - pay[i] >= reserve[i] for i in range(5))


def after_exchange(cubes: list[int], m: Exchange) -> list[int]:
    new = list(cubes)
    i, j = CI[m.from_], CI[m.to]
    new[j] += new[i]
    new[i] = 0
    return new


def rushed_obstacles(s: State, seat: int) -> list[int]:
    """R21: slots of ``seat``'s courses whose dog faces a Rush marker."""
    return [
        i
        for i, c in enumerate(s.courses)
        if c.owner == seat and c.position < len(c.obstacles) and c.obstacles[c.position].rush
    ]
