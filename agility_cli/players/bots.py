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

from typing import Any, Callable

from ..engine import rules
from ..engine.components import CLEAR_TILES, COLOURS
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
from ..engine.state import Catalog, CourseState, State, digest
from ..engine.view import determinize, seat_view

Strategy = Callable[[State, list[Move], Rng], Move]

CI = {c: i for i, c in enumerate(COLOURS)}
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


# --------------------------------------------------------------------------------------------
# Public API


def random_strategy(state: State, legal: list[Move], rng: Rng) -> Move:
    """Uniform over the legal moves, with the game's PRNG."""
    return legal[rng.below(len(legal))]


def greedy_strategy(state: State, legal: list[Move], rng: Rng) -> Move:
    """The greedy heuristic player (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    return _Greedy(state).choose(legal)


STRATEGIES: dict[str, Strategy] = {"random": random_strategy, "greedy": greedy_strategy}


def _register_search() -> None:
    """The search levels of :mod:`search` (``strong`` and ``strong1`` … easy to hard)."""
    from . import search

    for level in search.LEVELS:
        STRATEGIES[level] = search.SearchStrategy(level)


def choose(strategy: str, state: State, rng: Rng) -> Move:
    """The move ``strategy`` picks now, always one of ``rules.legal_moves(state)``.

    R39: the strategy sees a determinized copy of the acting seat's view, not ``state``.
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
    return same_decision(fn(guess, rules.legal_moves(guess), rng), legal)


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


def choose_for_seat(seat_name: str, state: State, seed: int, n: int) -> Move:
    """Solo play: the decision of the bot seat ``seat_name`` as decision number ``n`` of a game.

    Its randomness is the stream ``bot:{n}`` of the game seed, so each decision is reproducible
    on its own, whatever happened before it.
    """
    return choose(strategy_of_seat(seat_name), state, Rng.for_purpose(seed, f"bot:{n}"))


def play_out(state: State, strategy: str, seed: int, limit: int, only: int | None = None) -> list[Move]:
    """Up to ``limit`` decisions of whoever must act, from a copy of ``state``, by ``strategy``.

    Stops early when the game ends, or (``only``) when a seat other than ``only`` must act.  Deterministic for (state, strategy, seed): the random stream
    is named after the seed and the starting state's digest, so repeated short runs on a growing
    game do not repeat one another's draws.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; strategies are {', '.join(STRATEGIES)}")
    s = state.copy()
    rng = Rng.for_purpose(seed, f"bot:{digest(s)}")
    out: list[Move] = []
    while len(out) < limit and s.winner is None and (only is None or s.to_act == only):
        move = choose(strategy, s, rng)
        rules.apply_in_place(s, move)
        out.append(move)
    return out


# --------------------------------------------------------------------------------------------
# Greedy: cached facts about a component set


class _CatInfo:
    """Per component set: dog features and costs, card rewards as colour indices."""

    __slots__ = ("cat", "features", "dog_cost", "dog_cost_sum", "rewards", "numbers", "plans")

    def __init__(self, cat: Catalog) -> None:
        self.cat = cat
        self.features: dict[str, dict[str, str]] = {
            d: {str(k): str(v) for k, v in dog.features.items()} for d, dog in cat.dogs.items()
        }
        self.dog_cost = cat.dog_cost
        self.dog_cost_sum = {d: sum(v) for d, v in cat.dog_cost.items()}
        self.rewards = {c: tuple((CI[r.color], r.count, r.color) for r in card.rewards) for c, card in cat.cards.items()}
        self.numbers = {c: card.number for c, card in cat.cards.items()}
        # (course id, obstacles, dog) -> (score, work vector) for an unclaimed course
        self.plans: dict[tuple[object, ...], tuple[float, tuple[int, ...]]] = {}


_INFO: dict[int, _CatInfo] = {}


def _info(cat: Catalog) -> _CatInfo:
    info = _INFO.get(id(cat))
    if info is None or info.cat is not cat:
        if len(_INFO) > 32:
            _INFO.clear()
        info = _INFO[id(cat)] = _CatInfo(cat)
    return info


def _effective(cost: tuple[int, ...], plus: list[int], feature: str | None) -> tuple[int, ...]:
    """R26/R20: what a dog pays for an obstacle; minus one spares the colour it has most of."""
    if feature == "pass":
        total = list(plus)
    else:
        total = [a + b for a, b in zip(cost, plus)]
    if feature == "minus_one":
        k = max(range(5), key=total.__getitem__)
        if total[k]:
            total[k] -= 1
    return tuple(total)


def _layout(course: CourseState) -> tuple[object, ...]:
    """A course's identity and obstacles, as a cache key."""
    return (course.id, tuple([(o.type, o.cost, tuple(o.plus)) for o in course.obstacles]))


def _course_plan(
    info: _CatInfo, course: CourseState, dog: str, layout: tuple[object, ...] | None = None
) -> tuple[float, tuple[int, ...]]:
    """How good ``dog`` is on the unclaimed ``course``: (score, cubes to clear it all).

    Score = −(adoption cost + cubes to clear the course with its features), plus a little for each
    featured obstacle (R27: extra moves a turn) and for a free first obstacle (it moves at once).
    """
    key = (layout or _layout(course), dog)
    hit = info.plans.get(key)
    if hit is not None:
        return hit
    feats = info.features[dog]
    work = [0, 0, 0, 0, 0]
    bonus = 0.0
    for k, ob in enumerate(course.obstacles):
        feat = None if ob.type == "pause_box" else feats.get(ob.type)
        eff = _effective(ob.cost, ob.plus, feat)
        for i in range(5):
            work[i] += eff[i]
        if feat == "featured":
            bonus += 0.5
        elif feat == "pass" and k == 0:
            bonus += 0.5
    vec = tuple(work)
    result = (bonus - info.dog_cost_sum[dog] - sum(vec), vec)
    info.plans[key] = result
    return result


# --------------------------------------------------------------------------------------------
# Greedy: one decision


class _Greedy:
    """The greedy player's view of one state, for the seat that must act.

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
        self.info = _info(s.cat)
        seat = s.to_act
        assert seat is not None
        self.seat = seat
        self.p = s.players[seat]
        self.cubes = self.p.cubes
        self._needs: tuple[list[int], list[int]] | None = None
        self._base: float | None = None  # cube_value of the cubes held
        self._target: tuple[str, str, tuple[int, ...]] | None | bool = False

    # -- needs -------------------------------------------------------------------------------

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
            layouts = [_layout(c) for c in free]
            for dog in s.dog_display:
                cost = info.dog_cost[dog]
                missing = sum(n - h for n, h in zip(cost, cubes) if n > h)
                for c, layout in zip(free, layouts):
                    score, vec = _course_plan(info, c, dog, layout)
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
                eff = _effective(ob.cost, ob.plus, None if ob.type == "pause_box" else f.get(ob.type))
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
        return max(self.gain([(i, n)]) for i, n, _ in self.info.rewards[card])

    # -- tiles -------------------------------------------------------------------------------

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
                eff = _effective(ob.cost, ob.plus, feats[c.dog].get(ob.type))
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

    # -- decisions ---------------------------------------------------------------------------

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

    #: Tiles whose action shows something before the reward is due (R12, rules version 2).
    REVEALING_TILES = ("boost", "break")

    def _reward_gain(self, m: ChooseReward) -> float:
        assert self.s.card is not None
        return self.gain([(i, n) for i, n, c in self.info.rewards[self.s.card] if c == m.color])

    def _play(self, legal: list[Move]) -> Move:
        """R12 step 1: the card, reward and Flex shift with the best tile + reward − cost.

        Under rules version 2 a play whose tile reveals a card first (Boost, Break) names no
        reward: it is chosen once the card turned up or drawn is known.
        """
        best = self._best_play(legal)
        if self.s.rules.reward_after_action:
            tile = self.s.board[(self.s.marker + self.info.numbers[best.card] + best.flex) % 10]
            if tile in self.REVEALING_TILES:
                later = Play(player=best.player, card=best.card, reward=None, flex=best.flex)
                if later in legal:
                    return later
        return best

    def _best_play(self, legal: list[Move]) -> Play:
        s, info = self.s, self.info
        tiles: dict[str, float] = {}
        rewards: dict[tuple[str, str, bool], float] = {}
        keep: dict[str, float] = {}
        best: Play | None = None
        best_v = -1e18
        for m in legal:
            if not isinstance(m, Play) or m.reward is None:
                continue
            card = m.card
            tile = s.board[(s.marker + info.numbers[card] + m.flex) % 10]
            tv = tiles.get(tile)
            if tv is None:
                tv = tiles[tile] = self.tile_value(tile)
            sweep = tile == "sweep"
            key = (card, m.reward, sweep)
            rv = rewards.get(key)
            if rv is None:
                add = [(i, n) for i, n, c in info.rewards[card] if sweep or c == m.reward]
                rv = rewards[key] = self.gain(add)
                if sweep:  # both rewards either way: prefer the one that reads as intended
                    rv += 0.01 * self.gain([(i, n) for i, n, c in info.rewards[card] if c == m.reward])
            kv = keep.get(card)
            if kv is None:
                kv = keep[card] = self.HAND_WEIGHT * self.card_quality(card) if card in self.p.hand else 0.0
            v = tv + rv - kv - self.FLEX_VALUE * abs(m.flex) - 0.001 * abs(m.flex)
            if v > best_v:
                best, best_v = m, v
        assert best is not None
        return best

    def _dogs(self, legal: list[Move]) -> Move:
        """R12 steps 4–5: adopt, exchange to enable, advance, done."""
        s, info, p = self.s, self.info, self.p
        adopts = [m for m in legal if isinstance(m, Adopt)]
        if adopts:  # R25: the affordable dog and free course that fit best
            courses = {c.id: c for c in s.courses}
            return max(adopts, key=lambda m: _course_plan(info, courses[m.course], m.dog)[0])
        could_adopt = (
            not s.adopted and not s.moved and len(p.dogs) < rules.MAX_DOGS and not _rushed(s, self.seat)
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
            if not _keeps(self.cubes, pay, reserve) and c.position < len(c.obstacles) - 1:
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
        rushed = _rushed(s, self.seat)
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
            out.append(_effective(ob.cost, ob.plus, feature))
        return out

    def _exchange_for_adoption(self, legal: list[Move]) -> Move | None:
        """R15: an exchange that makes a displayed dog affordable, losing the least, and taking
        away no advance that is affordable now (an earlier exchange may have been made for it)."""
        info = self.info
        costs = [info.dog_cost[d] for d in self.s.dog_display]
        if not costs or not any(c.owner is None for c in self.s.courses):
            return None
        faced = [cost for cost in self._faced_costs() if _affordable(self.cubes, cost)]
        best: Move | None = None
        best_v = self.EXCHANGE_VALUE * 0.5
        for m in legal:
            if not isinstance(m, Exchange):
                continue
            new = _exchanged(self.cubes, m)
            if not any(_affordable(new, cost) for cost in costs):
                continue
            if not all(_affordable(new, cost) for cost in faced):
                continue
            v = 3.0 + self.cube_value(new) - self.cube_value(self.cubes)
            if v > best_v:
                best, best_v = m, v
        return best

    def _exchange_for_advance(self, legal: list[Move]) -> Move | None:
        """R15: an exchange that lets a dog clear the obstacle it faces, which it cannot now."""
        blocked = [cost for cost in self._faced_costs() if not _affordable(self.cubes, cost)]
        if not blocked:
            return None
        reserve = self.reserve()
        best: Move | None = None
        best_v = self.EXCHANGE_VALUE
        for m in legal:
            if not isinstance(m, Exchange):
                continue
            new = _exchanged(self.cubes, m)
            enabled = sum(1 for cost in blocked if _affordable(new, cost) and _keeps(new, cost, reserve))
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


def _affordable(cubes: list[int] | tuple[int, ...], cost: tuple[int, ...]) -> bool:
    return all(h >= n for h, n in zip(cubes, cost))


def _keeps(cubes: list[int], pay: tuple[int, ...], reserve: tuple[int, ...]) -> bool:
    """Paying ``pay`` leaves at least ``reserve`` of every colour it touches."""
    return all(not pay[i] or cubes[i] - pay[i] >= reserve[i] for i in range(5))


def _exchanged(cubes: list[int], m: Exchange) -> list[int]:
    new = list(cubes)
    i, j = CI[m.from_], CI[m.to]
    new[j] += new[i]
    new[i] = 0
    return new


def _rushed(s: State, seat: int) -> list[int]:
    """R21: slots of ``seat``'s courses whose dog faces a Rush marker."""
    return [
        i
        for i, c in enumerate(s.courses)
        if c.owner == seat and c.position < len(c.obstacles) and c.obstacles[c.position].rush
    ]


_register_search()
