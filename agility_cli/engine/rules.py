"""The rules of Agility: ``setup``, ``legal_moves``, ``apply``.  Pure: no I/O, no printing.

Every decision of the game is a :class:`~agility_cli.engine.moves.Move`.  A move is legal exactly when it
is in :func:`legal_moves` (one source of legality, as in OpenSpiel); :func:`apply` checks that and
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
the version number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .components import CLEAR_TILES, COLOURS, EXTRA_TILES, TILES, Components
from .moves import (
    Adopt,
    Advance,
    Break,
    BoostAction,
    BoostCube,
    ChooseReward,
    Discard,
    Distract,
    Done,
    Draw,
    Exchange,
    Header,
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
from .rng import Rng
from .state import Catalog, CourseState, ObstacleState, PlayerState, State, cubes_words, vec

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


@dataclass(frozen=True)
class Ruleset:
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


class IllegalMove(RulesError):
    """A well-formed decision that the rules forbid now."""


class SetupError(RulesError):
    """A header that cannot start a game (bad board, players, seed)."""


# --------------------------------------------------------------------------------------------
# Setup (R8–R11)


def validate_board(board: Iterable[str]) -> tuple[str, ...]:
    """R7/R9: ten spaces, Sweep on 0, nine distinct other tiles on 1–9."""
    tiles = tuple(board)
    if len(tiles) != 10:
        raise SetupError("setup/board", f"an action board has 10 spaces, got {len(tiles)}", "R7")
    if tiles[0] != "sweep":
        raise SetupError("setup/board", f"space 0 is always sweep, got {tiles[0]!r}", "R7")
    for i, t in enumerate(tiles[1:], 1):
        if t not in TILES or t == "sweep":
            choices = ", ".join(TILES[1:])
            raise SetupError("setup/board", f"space {i}: unknown tile {t!r}; tiles are {choices}", "R7")
    if len(set(tiles[1:])) != 9:
        raise SetupError("setup/board", "a tile may appear only once on the board", "R7")
    return tiles


def random_board(seed: int, variant: str) -> tuple[str, ...]:
    """R9: a random action board, variant ``"a"`` or ``"b"``, from the seed's ``board`` stream."""
    rng = Rng.for_purpose(seed, "board")
    spaces = list(range(1, 10))
    rng.shuffle(spaces)
    board = ["sweep"] + [""] * 9
    if variant == "a":
        fixed = ["clear_hurdles", "clear_tunnels", "clear_a_frames", "clear_weave_poles", "flex", "exchange"]
        others = ["break", "boost", "distraction", *EXTRA_TILES]
    elif variant == "b":
        fixed = ["flex", "exchange"]
        others = [t for t in TILES[1:] if t not in fixed]
    else:
        raise SetupError("setup/board", f"unknown random board variant {variant!r}", "R9")
    for space, tile in zip(spaces, fixed):
        board[space] = tile
    rng.shuffle(others)
    for space, tile in zip(spaces[len(fixed) :], others):
        board[space] = tile
    return tuple(board)


def random_first(seed: int, players: tuple[str, str]) -> str:
    """R10: a random start player from the seed's ``first`` stream."""
    return players[Rng.for_purpose(seed, "first").below(2)]


def setup(header: Header, components: Components) -> State:
    """R10: the state before the first decision.  Randomness: the seed's ``game`` stream (R11).

    Order, fixed forever for rules version 1: shuffle the training deck, shuffle the dog deck,
    choose 6 of the 8 course boards (the first 6 of a shuffle) and a side of each, deal 3 cards to
    each player in seat order, turn up the training display (R13), turn up 5 dogs.
    """
    if header.players[0] == header.players[1] or not all(header.players):
        raise SetupError("setup/players", "the two players need two different, non-empty names", "R35")
    if header.first not in header.players:
        raise SetupError("setup/first", f"start player {header.first!r} is not one of the players", "R10")
    if header.seed is None:  # R40: drawn by the handshake; setup runs on the header with that seed
        raise SetupError("setup/seed", "the seed is not drawn yet (the handshake is not complete)", "R40")
    if header.seed < 0:
        raise SetupError("setup/seed", "the seed is a non-negative integer", "R11")
    ruleset = RULESETS.get(header.rules)
    if ruleset is None:
        versions = ", ".join(map(str, RULESETS))
        raise SetupError("setup/rules", f"rules version {header.rules} is unknown (versions: {versions})", "R38")
    board = validate_board(header.board)
    cat = Catalog(components)
    rng = Rng.for_purpose(header.seed, "game")
    deck = [c.id for c in components.cards]
    rng.shuffle(deck)
    dogs = [d.id for d in components.dogs]
    rng.shuffle(dogs)
    boards = list(components.boards)
    rng.shuffle(boards)
    courses = []
    for b in boards[:6]:
        side = b.sides[rng.below(2)]
        obstacles = [ObstacleState(o.type, vec(o.cost)) for o in side.obstacles]
        courses.append(CourseState(side.id, obstacles=obstacles))

    s = State.__new__(State)
    s.cat = cat
    s.rules = ruleset
    s.rng = rng.state
    s.board = board
    s.marker = 0
    s.deck = deck
    s.discard = []
    s.display = []
    s.dog_deck = dogs
    s.dog_display = []
    s.inspiration = list(COLOURS) if "inspiration" in board else []  # R23
    s.players = [PlayerState(header.players[0]), PlayerState(header.players[1])]
    s.courses = courses
    s.start = header.players.index(header.first)
    s.active = s.start
    s.turn = 0
    s.phase = "play"
    s.winner = s.finisher = s.tiebreak = s.first_three = s.first_finish = None
    s.final_turn = False
    s.prizes = []
    s.card = s.reward = s.boost_card = s.last_tile = None
    s.sweep = s.in_mini = s.adopted = s.moved = False
    s.minis = s.pending = s.put_back = s.reveals = 0
    s.paid = [0] * len(courses)
    s.known, s.unseen = [[], []], [[], []]  # R39: dealt hands are private
    for p in s.players:
        p.hand = [s.deck.pop(0) for _ in range(HAND_SIZE)]
    _fill_display(s)
    _fill_dogs(s)
    _begin_turn(s)
    return s


# --------------------------------------------------------------------------------------------
# Piles (R13)


def _draw(s: State) -> str | None:
    """The top card of the training deck; R13: an empty deck is first rebuilt from the discards."""
    if not s.deck:
        if not s.discard:
            return None
        _reshuffle(s)
    s.reveals += 1
    card = s.deck.pop(0)
    _deck_ran_out(s)
    return card


def _deck_ran_out(s: State) -> None:
    """R13 (rules version 2): the moment the deck's last card is drawn or turned up, the discard
    pile (which does not hold that card yet) becomes the new deck; with no discards it stays empty."""
    if not s.deck and s.discard and s.rules.reshuffle_at_once:
        _reshuffle(s)


def _face_down(s: State, seat: int, card: str) -> None:
    """R39: ``seat`` put ``card`` face down on the discard pile, unseen by the opponent.

    The opponent no longer knows which of the cards it saw arrive are still in that hand, so all
    of them become unknown (whichever card left, the view is the same: nothing leaks).
    """
    s.known[seat] = []
    s.unseen[1 - seat].append(card)


def _reshuffle(s: State) -> None:
    """R13: the discard pile, shuffled with the game's PRNG, becomes the new deck."""
    rng = Rng(s.rng)
    s.deck, s.discard = s.discard, []
    s.unseen = [[], []]  # R39: the new deck's order is hidden from both
    rng.shuffle(s.deck)
    s.rng = rng.state
    s.reveals += 1


def _fill_display(s: State) -> None:
    """R13: refill the training display; three cards all numbered 7+ are discarded and replaced."""
    cards = s.cat.cards
    for _ in range(100):
        while len(s.display) < DISPLAY_SIZE:
            card = _draw(s)
            if card is None:
                return
            s.display.append(card)
        if not all(cards[c].number >= 7 for c in s.display):
            return
        if not any(cards[c].number < 7 for c in s.deck + s.discard):
            return  # no redraw could ever help; keep the display as it is
        s.discard.extend(s.display)
        s.display = []


def _fill_dogs(s: State) -> None:
    """R13/R25: the dog display refills to five at once."""
    while len(s.dog_display) < DOG_DISPLAY_SIZE and s.dog_deck:
        s.dog_display.append(s.dog_deck.pop(0))
        s.reveals += 1


# --------------------------------------------------------------------------------------------
# Costs (R26)


def clear_cost(s: State, course: CourseState, spare: str | None = None) -> tuple[int, ...]:
    """R26/R20: what the dog on ``course`` pays to clear the obstacle it faces.

    Printed cost (nothing if the dog has *pass* on it), plus every +1 marker, minus one cube of the
    ``spare`` colour if the dog has *minus one* on it (the colour must be in that total).
    """
    ob = course.obstacles[course.position]
    feature = s.feature(course, ob)
    total = [0, 0, 0, 0, 0] if feature == "pass" else list(ob.cost)
    for i, n in enumerate(ob.plus):
        total[i] += n
    if feature == "minus_one" and spare is not None:
        total[CI[spare]] -= 1
    return tuple(total)


def _affordable(cubes: list[int], cost: tuple[int, ...]) -> bool:
    for have, need in zip(cubes, cost):  # a loop, not all(…): this runs in every search simulation
        if have < need:
            return False
    return True


def _pay(cubes: list[int], cost: tuple[int, ...]) -> None:
    for i, n in enumerate(cost):
        cubes[i] -= n


def _spare_options(s: State, course: CourseState) -> list[str | None]:
    """R26: the colours a minus-one feature may spare (any colour in the total); else [None]."""
    ob = course.obstacles[course.position]
    if s.feature(course, ob) != "minus_one":
        return [None]
    total = clear_cost(s, course)
    return [c for c, n in zip(COLOURS, total) if n > 0] or [None]


def _rushed_slots(s: State, seat: int) -> list[int]:
    """R21: the player's courses with an uncleared Rush marker ahead of the dog.

    Normally the marker is on the obstacle the dog faces; a Slip tile may since have been put in
    front of it, and the marker holds until its own obstacle is cleared.
    """
    return [
        i
        for i, c in enumerate(s.courses)
        if c.owner == seat and any(o.rush for o in c.obstacles[c.position :])
    ]


def _opponent_courses(s: State) -> list[CourseState]:
    """Courses holding an unfinished dog of the active player's opponent (R20, R21, R24)."""
    opp = 1 - s.active
    return [c for c in s.courses if c.owner == opp and c.position < len(c.obstacles)]


# --------------------------------------------------------------------------------------------
# Legal moves


def legal_moves(s: State) -> list[Move]:
    """Every decision open now, to the player who must act (R36).  Empty once the game is over."""
    if s.winner is not None:
        return []
    if s.prizes:  # R32/R33: a prize choice comes before anything else
        seat = s.prizes[0][0]
        name = s.players[seat].name
        return [Prize(player=name, token="flex"), Prize(player=name, token="exchange")]
    phase = s.phase
    if phase == "discard" and not s.players[s.active].must_discard:
        # R36 (version 2): the opponent discards at once; not their turn, so no Exchange.
        opp = s.players[1 - s.active]
        return [Discard(player=opp.name, card=c) for c in _distinct(opp.hand)]
    p = s.players[s.active]
    name = p.name
    moves: list[Move]
    if phase == "play":
        moves = _play_moves(s, p)
    elif phase == "reward":  # R12 step 3, version 2: the reward after the action
        assert s.card is not None
        colours = _distinct(r.color for r in s.cat.cards[s.card].rewards)
        moves = [ChooseReward(player=name, color=c) for c in colours]  # type: ignore[arg-type]
    elif phase == "dogs":
        moves = _dog_moves(s, p)
    elif phase == "refill":
        moves = [Take(player=name, card=c) for c in _distinct(s.display)]
    elif phase == "discard":
        moves = [Discard(player=name, card=c) for c in _distinct(p.hand)]
    elif phase == "break":
        moves = [Break(player=name, count=n) for n in range(1, min(2, sum(p.cubes)) + 1)]
    elif phase == "return":
        moves = [Return(player=name, color=c) for c, n in zip(COLOURS, p.cubes) if n]  # type: ignore[arg-type]
    elif phase == "put_back":
        moves = [PutBack(player=name, card=c) for c in _distinct(p.hand)]
    elif phase == "draw":
        moves = [Draw(player=name)] if (s.deck or s.discard) else []
        moves += [Take(player=name, card=c) for c in _distinct(s.display)]
    elif phase == "boost":
        assert s.boost_card is not None
        colours = _distinct(r.color for r in s.cat.cards[s.boost_card].rewards)
        moves = [BoostAction(player=name)]
        moves += [BoostCube(player=name, color=c) for c in colours]  # type: ignore[arg-type]
    elif phase == "distract":
        moves = [
            Distract(player=name, course=c.id, obstacle=k, color=colour)  # type: ignore[arg-type]
            for c in _opponent_courses(s)
            for k in range(c.position, len(c.obstacles))
            if c.obstacles[k].type != "pause_box"
            for colour, n in zip(COLOURS, c.obstacles[k].cost)
            if n
        ]
    elif phase == "rush":
        moves = [Rush(player=name, course=c.id) for c in _opponent_courses(s) if not c.obstacles[c.position].rush]
    elif phase == "slip":
        moves = [
            Slip(player=name, course=c.id, gap=g)
            for c in _opponent_courses(s)
            if not c.slipped
            for g in range(max(1, c.position), len(c.obstacles))
        ]
    elif phase == "inspire":
        moves = [Inspire(player=name, color=c) for c in s.inspiration]  # type: ignore[arg-type]
    else:  # pragma: no cover - every phase is listed above
        raise AssertionError(f"unknown phase {phase}")
    if p.exchange:  # R15: at any point of one's own turn
        for i, n in enumerate(p.cubes):
            if n:
                moves += [
                    Exchange(player=name, from_=COLOURS[i], to=to)  # type: ignore[arg-type]
                    for to in COLOURS
                    if to != COLOURS[i]
                ]
    return moves


def _distinct(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _play_moves(s: State, p: PlayerState) -> list[Move]:
    """R12 step 1, R14 Flex, R31 (an empty hand in a mini-turn plays the deck's top card).

    Rules version 2 (R12): each card and shift is offered without a reward (chosen after the
    action) and with each reward named early.
    """
    cards = _distinct(p.hand) if p.hand else s.deck[:1]
    k = min(p.flex, MAX_FLEX_SHIFT)
    shifts = range(-k, k + 1)
    later: list[str | None] = [None] if s.rules.reward_after_action else []
    moves: list[Move] = []
    for cid in cards:
        for reward in later + [r.color for r in s.cat.cards[cid].rewards]:
            for f in shifts:
                moves.append(Play(player=p.name, card=cid, reward=reward, flex=f))  # type: ignore[arg-type]
    return moves


def _dog_moves(s: State, p: PlayerState) -> list[Move]:
    """R12 steps 4–5: adopt (R25, R21), advance (R26–R28, R21), done."""
    seat = s.active
    moves: list[Move] = []
    rushed = _rushed_slots(s, seat)
    if not s.adopted and not s.moved and len(p.dogs) < MAX_DOGS and not rushed:
        free = [c.id for c in s.courses if c.owner is None]
        for dog in s.dog_display:
            if _affordable(p.cubes, s.cat.dog_cost[dog]):
                moves += [Adopt(player=p.name, dog=dog, course=cid) for cid in free]
    for i, c in enumerate(s.courses):
        if c.owner != seat or c.position >= len(c.obstacles):
            continue
        if rushed and i not in rushed:
            continue  # R21: only a rushed dog may move
        ob = c.obstacles[c.position]
        if s.feature(c, ob) is None and s.paid[i] >= 1:
            continue  # R27: one paid non-feature clear per dog per turn
        for spare in _spare_options(s, c):
            if _affordable(p.cubes, clear_cost(s, c, spare)):
                moves.append(Advance(player=p.name, course=c.id, spare=spare))  # type: ignore[arg-type]
    moves.append(Done(player=p.name))
    return moves


# --------------------------------------------------------------------------------------------
# Applying a move


def apply(s: State, move: Move) -> State:
    """The state after ``move``; ``s`` is left as it was.  Raises :class:`IllegalMove`."""
    new = s.copy()
    apply_in_place(new, move)
    return new


def apply_in_place(s: State, move: Move) -> None:
    """Check ``move`` against :func:`legal_moves` and carry it out on ``s`` itself (for replay)."""
    if move not in legal_moves(s):
        raise explain_illegal(s, move)
    _DISPATCH[type(move)](s, move)


def apply_legal(s: State, move: Move) -> None:
    """Carry out ``move`` on ``s`` without checking it: only for a move just taken from
    :func:`legal_moves` of this very state (the search's simulations); else use apply_in_place."""
    _DISPATCH[type(move)](s, move)


def _do_prize(s: State, m: Prize) -> None:  # R32, R33
    seat, _ = s.prizes.pop(0)
    p = s.players[seat]
    if m.token == "flex":
        p.flex += 1
    else:
        p.exchange += 1


def _do_exchange(s: State, m: Exchange) -> None:  # R15
    p = s.players[s.active]
    i, j = CI[m.from_], CI[m.to]
    p.exchange -= 1
    p.cubes[j] += p.cubes[i]
    p.cubes[i] = 0


def _do_discard(s: State, m: Discard) -> None:  # R22, R36
    own_turn = s.players[s.active].must_discard  # version 1: first thing in one's own turn
    p = s.players[s.active if own_turn else 1 - s.active]
    p.hand.remove(m.card)
    s.discard.append(m.card)
    _face_down(s, s.players.index(p), m.card)
    p.must_discard = False
    if own_turn:
        s.phase = "play"
    else:  # version 2: the discard was part of the tile; the active player goes on
        _action_done(s)


def _do_play(s: State, m: Play) -> None:  # R12, R14, R31
    p = s.players[s.active]
    if m.card in p.hand:
        p.hand.remove(m.card)
    else:  # R31: a mini-turn with no card in hand plays the top of the deck
        s.deck.pop(0)
        s.reveals += 1
        _deck_ran_out(s)  # R13: the played card is not part of the new deck
    s.discard.append(m.card)
    if s.in_mini:  # R31/R39: a mini-turn's card is played face down
        _face_down(s, s.active, m.card)
    elif m.card in s.known[s.active]:
        s.known[s.active].remove(m.card)
    p.flex -= abs(m.flex)
    number = s.cat.cards[m.card].number
    s.marker = (s.marker + number) % 10
    s.card = m.card
    s.reward = m.reward
    s.sweep = False
    _resolve(s, s.board[(s.marker + m.flex) % 10])


def _resolve(s: State, tile: str) -> None:
    """R12 step 2: resolve ``tile``; if it can be carried out it must be."""
    s.last_tile = tile
    p = s.players[s.active]
    if tile == "sweep":  # R16
        s.sweep = True
    elif tile in CLEAR_TILES:  # R17
        _clear(s, CLEAR_TILES[tile])
        if s.winner is not None:
            return
    elif tile == "flex":
        p.flex += 1
    elif tile == "exchange":
        p.exchange += 1
    elif tile == "break":  # R18: only with at least one cube
        if sum(p.cubes):
            s.phase = "break"
            return
    elif tile == "boost":  # R19
        card = _draw(s)
        if card is not None:
            s.discard.append(card)
            s.boost_card = card
            s.phase = "boost"
            return
    elif tile == "distraction":  # R20: no opponent dog on a course, no effect
        if any(
            o.type != "pause_box" for c in _opponent_courses(s) for o in c.obstacles[c.position :]
        ):
            s.phase = "distract"
            return
    elif tile == "rush":  # R21
        if any(not c.obstacles[c.position].rush for c in _opponent_courses(s)):
            s.phase = "rush"
            return
    elif tile == "intimidation":  # R22
        if _intimidate(s):
            s.phase = "discard"  # R36 (version 2): the opponent's discard comes at once
            return
    elif tile == "inspiration":  # R23
        if s.inspiration:
            s.phase = "inspire"
            return
    elif tile == "slip":  # R24
        if any(not c.slipped and len(c.obstacles) - max(1, c.position) > 0 for c in _opponent_courses(s)):
            s.phase = "slip"
            return
    else:  # pragma: no cover - validate_board admits only known tiles
        raise AssertionError(tile)
    _action_done(s)


def _clear(s: State, obstacle_type: str) -> None:
    """R17: every dog of the active player facing ``obstacle_type`` clears it, free, once."""
    finished = []
    for c in s.courses:
        if c.owner == s.active and c.position < len(c.obstacles) and c.obstacles[c.position].type == obstacle_type:
            c.position += 1
            if c.position == len(c.obstacles):
                finished.append(c)
    for _ in finished:
        _on_finish(s, s.active)
        if s.winner is not None:
            return


def _intimidate(s: State) -> bool:
    """R22, by hand sizes: both 3 → the opponent takes Flex, discards one (R36) and keeps 2.

    Returns whether the opponent's discard is awaited now (rules version 2, with a card to
    discard); under version 1 it waits for the start of their next turn.
    """
    me, opp = s.players[s.active], s.players[1 - s.active]
    if me.hand_size == 3 and opp.hand_size == 3:
        opp.flex += 1
        opp.hand_size = 2
        if not s.rules.discard_at_once:
            opp.must_discard = True
            return False
        opp.must_discard = bool(opp.hand)
        return opp.must_discard
    if me.hand_size == 2:
        me.hand_size = 3
    else:
        opp.flex += 1
    return False


def _action_done(s: State) -> None:
    """R12 step 3: the reward (both with Sweep, R16); then steps 4–5, or the next mini-turn.

    Rules version 2: a play that named no reward waits for the ``reward`` decision first.
    """
    if s.reward is None and not s.sweep and s.card is not None and s.rules.reward_after_action:
        s.phase = "reward"
        return
    _take_reward(s)


def _do_reward(s: State, m: ChooseReward) -> None:  # R12 step 3, rules version 2
    s.reward = m.color
    _take_reward(s)


def _take_reward(s: State) -> None:
    s.phase = "resolved"
    p = s.players[s.active]
    card = s.cat.cards[s.card] if s.card else None
    if card is not None:
        for r in card.rewards:
            if s.sweep or r.color == s.reward:
                p.cubes[CI[r.color]] += r.count
    s.sweep = False
    s.boost_card = None
    if s.in_mini:
        _next_mini(s)
    else:
        s.phase = "dogs"


def _do_break(s: State, m: Break) -> None:  # R18
    s.pending = m.count
    s.put_back = min(m.count, len(s.players[s.active].hand))
    s.phase = "return"


def _do_return(s: State, m: Return) -> None:  # R18: a cube is lost even with no card to put back
    s.players[s.active].cubes[CI[m.color]] -= 1
    s.pending -= 1
    if s.pending == 0:
        if s.put_back:
            s.pending = s.put_back
            s.phase = "put_back"
        else:
            _action_done(s)


def _do_put_back(s: State, m: PutBack) -> None:  # R18: bottom of the discard pile, face down
    s.players[s.active].hand.remove(m.card)
    s.discard.insert(0, m.card)
    _face_down(s, s.active, m.card)
    s.pending -= 1
    if s.pending == 0:
        s.pending = s.put_back
        s.phase = "draw"


def _do_draw(s: State, m: Draw) -> None:  # R18: the only draw from the deck into a hand
    card = _draw(s)
    assert card is not None
    s.players[s.active].hand.append(card)
    _break_drawn(s)


def _break_drawn(s: State) -> None:
    s.pending -= 1
    if s.pending == 0 or not (s.deck or s.discard or s.display):
        s.pending = s.put_back = 0
        _action_done(s)


def _do_take(s: State, m: Take) -> None:  # R12 step 6, R13, R18
    p = s.players[s.active]
    s.display.remove(m.card)
    p.hand.append(m.card)
    s.known[s.active].append(m.card)  # R39: taken face up, so known to be in that hand
    _fill_display(s)
    if s.phase == "draw":
        _break_drawn(s)
    elif len(p.hand) >= p.hand_size or not s.display:
        _end_turn(s)


def _do_boost_action(s: State, m: BoostAction) -> None:  # R19 A: the marker does not move
    assert s.boost_card is not None
    number = s.cat.cards[s.boost_card].number
    s.boost_card = None
    _resolve(s, s.board[number % 10])


def _do_boost_cube(s: State, m: BoostCube) -> None:  # R19 B
    s.players[s.active].cubes[CI[m.color]] += 1
    _action_done(s)


def _do_distract(s: State, m: Distract) -> None:  # R20
    course = _course(s, m.course)
    course.obstacles[m.obstacle].plus[CI[m.color]] += 1
    _action_done(s)


def _do_rush(s: State, m: Rush) -> None:  # R21
    course = _course(s, m.course)
    course.obstacles[course.position].rush = True
    _action_done(s)


def _do_slip(s: State, m: Slip) -> None:  # R24
    course = _course(s, m.course)
    course.obstacles.insert(m.gap, ObstacleState("open_ground", s.cat.open_ground_cost))
    course.slipped = True
    _action_done(s)


def _do_inspire(s: State, m: Inspire) -> None:  # R23
    s.inspiration.remove(m.color)
    s.players[s.active].cubes[CI[m.color]] += 1
    _action_done(s)


def _do_adopt(s: State, m: Adopt) -> None:  # R25, R32
    seat = s.active
    p = s.players[seat]
    _pay(p.cubes, s.cat.dog_cost[m.dog])
    s.dog_display.remove(m.dog)
    p.dogs.append(m.dog)
    course = _course(s, m.course)
    course.owner = seat
    course.dog = m.dog
    s.adopted = True
    _fill_dogs(s)
    if len(p.dogs) == MAX_DOGS and s.first_three is None:
        s.first_three = seat
        s.prizes.append((seat, "three_dogs"))


def _do_advance(s: State, m: Advance) -> None:  # R26–R30
    seat = s.active
    i = next(k for k, c in enumerate(s.courses) if c.id == m.course)
    course = s.courses[i]
    ob = course.obstacles[course.position]
    _pay(s.players[seat].cubes, clear_cost(s, course, m.spare))
    if s.feature(course, ob) is None:
        s.paid[i] += 1
    if ob.type == "pause_box":
        s.minis += 1  # R30
    course.position += 1
    s.moved = True
    if course.position == len(course.obstacles):
        _on_finish(s, seat)


def _do_done(s: State, m: Done) -> None:  # R12, R30
    _next_mini(s)


def _next_mini(s: State) -> None:
    """R30/R31: begin the next earned mini-turn, or go on to the refill (step 6)."""
    while s.minis:
        s.minis -= 1
        s.in_mini = True
        p = s.players[s.active]
        if not p.hand and not s.deck and s.discard:
            _reshuffle(s)  # R13/R31: the deck is rebuilt so its top card can be played
        if p.hand or s.deck:
            s.card = None
            s.phase = "play"
            return
    s.in_mini = False
    s.card = s.reward = None
    p = s.players[s.active]
    if len(p.hand) < p.hand_size and s.display:
        s.phase = "refill"
    else:
        _end_turn(s)


def _on_finish(s: State, seat: int) -> None:
    """A dog of ``seat`` cleared its last obstacle: prizes (R33) and the end of the game (R34)."""
    if s.first_finish is None:
        s.first_finish = seat
        s.tiebreak = seat  # R33: the Tiebreak marker comes with the prize, whichever token
        s.prizes.append((seat, "first_finish"))
    p = s.players[seat]
    done = [c for c in s.courses if c.owner == seat and c.finished]
    if len(p.dogs) < MAX_DOGS or len(done) < MAX_DOGS:
        return
    if s.final_turn:  # R34: the opponent finished all three in the final turn: wins on tiebreak
        _win(s, seat)
    elif seat == s.start and s.tiebreak != seat:
        s.finisher = seat  # R34: the opponent plays one final turn after this one
    else:
        _win(s, seat)


def _win(s: State, seat: int) -> None:
    s.winner = seat
    s.phase = "over"
    s.prizes = []


def _begin_turn(s: State) -> None:
    p = s.players[s.active]
    p.turns += 1
    s.turn += 1
    s.adopted = s.moved = s.in_mini = False
    s.minis = 0
    s.paid = [0] * len(s.courses)
    s.card = s.reward = None
    s.phase = "discard" if p.must_discard else "play"


def _end_turn(s: State) -> None:
    """End of a turn; R34: after the first finisher's turn the opponent may get a final one."""
    if s.final_turn:
        assert s.finisher is not None
        _win(s, s.finisher)
        return
    if s.finisher is not None:
        s.final_turn = True
    s.active = 1 - s.active
    _begin_turn(s)


def _course(s: State, course_id: str) -> CourseState:
    for c in s.courses:
        if c.id == course_id:
            return c
    raise KeyError(course_id)


_DISPATCH: dict[type[Move], Callable[[State, Any], None]] = {
    Prize: _do_prize,
    Exchange: _do_exchange,
    Discard: _do_discard,
    Play: _do_play,
    ChooseReward: _do_reward,
    Break: _do_break,
    Return: _do_return,
    PutBack: _do_put_back,
    Draw: _do_draw,
    Take: _do_take,
    BoostAction: _do_boost_action,
    BoostCube: _do_boost_cube,
    Distract: _do_distract,
    Rush: _do_rush,
    Slip: _do_slip,
    Inspire: _do_inspire,
    Adopt: _do_adopt,
    Advance: _do_advance,
    Done: _do_done,
}


# --------------------------------------------------------------------------------------------
# Explaining a refusal


PHASE_TEXT = {
    "play": "play a training card",
    "reward": "choose the reward of the card played",
    "discard": "discard a card for Intimidation",
    "break": "declare Break 1 or 2",
    "return": "return a cube for Break",
    "put_back": "put a card back for Break",
    "draw": "draw a card for Break (from the deck or the display)",
    "boost": "choose Boost option A (action) or B (cube)",
    "distract": "place a Distraction +1 marker",
    "rush": "place a Rush marker",
    "slip": "place the Slip open ground tile",
    "inspire": "take an Inspiration cube",
    "dogs": "adopt a dog, advance dogs, or finish the step",
    "refill": "take a card from the display",
    "over": "nothing: the game is over",
}

PHASE_KINDS: dict[str, set[type[Move]]] = {
    "play": {Play},
    "reward": {ChooseReward},
    "discard": {Discard},
    "break": {Break},
    "return": {Return},
    "put_back": {PutBack},
    "draw": {Draw, Take},
    "boost": {BoostAction, BoostCube},
    "distract": {Distract},
    "rush": {Rush},
    "slip": {Slip},
    "inspire": {Inspire},
    "dogs": {Adopt, Advance, Done},
    "refill": {Take},
}


def awaited(s: State) -> str:
    """A few words on the decision the game waits for."""
    if s.winner is not None:
        return PHASE_TEXT["over"]
    if s.prizes:
        what = "first to adopt three dogs" if s.prizes[0][1] == "three_dogs" else "first to finish a course"
        return f"choose a prize token ({what})"
    text = PHASE_TEXT[s.phase]
    return f"mini-turn: {text}" if s.in_mini and s.phase == "play" else text


def explain_illegal(s: State, m: Move) -> IllegalMove:
    """Why ``m`` is not legal now (checked in boardgame.io's order: over, player, kind, rule)."""
    if s.winner is not None:
        return IllegalMove("game/over", f"the game is over; {s.players[s.winner].name} won", "R34")
    seat = s.to_act
    assert seat is not None
    name = s.players[seat].name
    if m.player != name:
        return IllegalMove("move/not_your_decision", f"it is {name}'s decision ({awaited(s)}), not {m.player}'s", "R36")
    p = s.players[seat]
    if s.prizes and not isinstance(m, Prize):
        return IllegalMove("move/wrong_step", f"first {awaited(s)}", "R32" if s.prizes[0][1] == "three_dogs" else "R33")
    if isinstance(m, Exchange):
        if seat != s.active:
            return IllegalMove("exchange/not_your_turn", "Exchange is spent only in one's own turn", "R15")
        if not p.exchange:
            return IllegalMove("exchange/no_token", "you have no Exchange token", "R15")
        if m.from_ == m.to:
            return IllegalMove("exchange/same_colour", "exchange needs two different colours", "R15")
        return IllegalMove("exchange/no_cubes", f"you have no {m.from_} cubes to exchange", "R15")
    kinds = PHASE_KINDS.get(s.phase, set())
    if type(m) not in kinds and not (s.prizes and isinstance(m, Prize)):
        return IllegalMove("move/wrong_step", f"that is not possible now: the game waits for {name} to {awaited(s)}", "R12")
    reason = _specific_reason(s, p, m)
    return IllegalMove(*reason) if reason else IllegalMove("move/illegal", "that decision is not among the legal ones now")


def _specific_reason(s: State, p: PlayerState, m: Move) -> tuple[str, str, str] | None:
    cat = s.cat
    if isinstance(m, Play):
        if m.card not in cat.cards:
            return ("play/unknown_card", f"there is no card {m.card!r}", "R3")
        if p.hand and m.card not in p.hand:
            return ("play/not_in_hand", f"card {m.card} is not in your hand", "R12")
        if not p.hand and (not s.deck or m.card != s.deck[0]):
            return ("play/not_top", "with an empty hand a mini-turn plays the top card of the deck", "R31")
        if m.reward is None and not s.rules.reward_after_action:
            return ("play/reward", "under rules version 1 the reward is named with the play (--reward)", "R12")
        if m.reward is not None and m.reward not in [r.color for r in cat.cards[m.card].rewards]:
            colours = " or ".join(r.color for r in cat.cards[m.card].rewards)
            return ("play/reward", f"card {m.card} rewards {colours}, not {m.reward}", "R12")
        if abs(m.flex) > p.flex:
            return ("play/flex", f"a shift of {m.flex} needs {abs(m.flex)} Flex token{'s' if abs(m.flex) != 1 else ''}; you have {p.flex}", "R14")
        if abs(m.flex) > MAX_FLEX_SHIFT:
            return ("play/flex", f"shift at most {MAX_FLEX_SHIFT} spaces; the other way round is shorter", "R14")
    if isinstance(m, Adopt):
        if m.dog not in s.dog_display:
            return ("adopt/not_displayed", f"{m.dog} is not in the dog display", "R25")
        if s.adopted:
            return ("adopt/once", "you have already adopted a dog this turn", "R25")
        if s.moved:
            return ("adopt/after_move", "dogs have moved: adopting (step 4) comes before moving (step 5)", "R12")
        if len(p.dogs) >= MAX_DOGS:
            return ("adopt/three", "you already have three dogs", "R25")
        if _rushed_slots(s, s.active):
            return ("adopt/rush", "a Rush marker stands before one of your dogs: clear it first", "R21")
        if not _affordable(p.cubes, cat.dog_cost[m.dog]):
            return ("adopt/cost", f"{cat.dogs[m.dog].name} costs {cubes_words(cat.dog_cost[m.dog])}; you have {cubes_words(p.cubes)}", "R25")
        c = next((c for c in s.courses if c.id == m.course), None)
        if c is None:
            return ("adopt/course", f"there is no course {m.course} in play", "R25")
        if c.owner is not None:
            return ("adopt/claimed", f"course {m.course} is already claimed", "R25")
    if isinstance(m, Advance):
        idx = next((i for i, c in enumerate(s.courses) if c.id == m.course), None)
        if idx is None:
            return ("advance/course", f"there is no course {m.course} in play", "R26")
        c = s.courses[idx]
        if c.owner != s.active:
            return ("advance/not_yours", f"course {m.course} holds none of your dogs", "R26")
        if c.position >= len(c.obstacles):
            return ("advance/finished", f"the dog on {m.course} has finished", "R26")
        rushed = _rushed_slots(s, s.active)
        if rushed and idx not in rushed:
            return ("advance/rush", "a Rush marker holds your other dogs until it is cleared", "R21")
        ob = c.obstacles[c.position]
        if s.feature(c, ob) is None and s.paid[idx]:
            return ("advance/limit", f"the dog on {m.course} has made its one paid move of a non-feature obstacle this turn", "R27")
        options = _spare_options(s, c)
        if m.spare not in options:
            if options == [None]:
                return ("advance/spare", "this obstacle has no minus-one feature: give no spare colour", "R26")
            return ("advance/spare", f"minus one spares one of: {', '.join(str(o) for o in options)}", "R26")
        cost = clear_cost(s, c, m.spare)
        return ("advance/cost", f"clearing costs {cubes_words(cost)}; you have {cubes_words(p.cubes)}", "R26")
    if isinstance(m, Break) and not 1 <= m.count <= min(2, sum(p.cubes)):
        return ("break/count", f"declare 1 or 2, at most your {sum(p.cubes)} cubes", "R18")
    if isinstance(m, Return):
        return ("break/cube", f"you have no {m.color} cube to return", "R18")
    if isinstance(m, (PutBack, Discard)):
        return ("card/not_in_hand", f"card {m.card} is not in your hand", "R18" if isinstance(m, PutBack) else "R22")
    if isinstance(m, Take):
        return ("take/not_displayed", f"card {m.card} is not in the training display", "R13")
    if isinstance(m, ChooseReward):
        assert s.card is not None
        colours = " or ".join(r.color for r in cat.cards[s.card].rewards)
        return ("reward/colour", f"card {s.card} rewards {colours}, not {m.color}", "R12")
    if isinstance(m, BoostCube):
        return ("boost/colour", f"the boost card shows no {m.color}", "R19")
    if isinstance(m, Distract):
        return ("distract/target", "a +1 marker goes on an uncleared obstacle (not a pause box) of a course holding an opponent's dog, in a colour of its cost", "R20")
    if isinstance(m, Rush):
        return ("rush/target", "a Rush marker goes on the obstacle an opponent's dog faces (not one already rushed)", "R21")
    if isinstance(m, Slip):
        return ("slip/target", "the open ground tile goes between two obstacles ahead of an opponent's dog, once per course", "R24")
    if isinstance(m, Inspire):
        return ("inspire/colour", f"no {m.color} cube is left on Inspiration", "R23")
    if isinstance(m, Draw):
        return ("draw/empty", "the deck and the discard pile are empty", "R18")
    return None
