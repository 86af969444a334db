"""Plain-text narration of decisions, for ``agility replay`` and ``agility log``.

:func:`describe` turns one decision into a short sentence, using the states before and after it to
say what happened (the tile resolved, the reward received, cubes paid, dogs moved or finished, the
Tiebreak marker taken, the winner).  :func:`short` is the compact one-line-per-decision form.
Face-down cards (R18 put-backs and draws from the deck, R22 discards) are not named in sentences.

Narration works on a seat's view as well as on the complete state (R39): a card the viewer may not
know is :data:`~agility_cli.engine.state.HIDDEN` in the move and the states (``view.move_view``,
``view.seat_view``), and is told as "a card face down", its number read from the marker's move.
In a complete view every sentence is exactly what it always was (the golden narrations pin it).
"""

from __future__ import annotations


from ..engine.components import CLEAR_TILES, COLOURS, tile_name
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
    kind_of,
    move_fields,
)
from ..engine.notation import a_number
from ..engine.state import HIDDEN, State, cubes_words, is_position
from ..text import safe

OBSTACLE_WORDS: dict[str, str] = {
    "hurdle": "hurdle",
    "tunnel": "tunnel",
    "weave_poles": "weave poles",
    "a_frame": "A-frame",
    "open_ground": "open ground",
    "pause_box": "pause box",
}
PRIZE_REASONS: dict[str, str] = {
    "three_dogs": "first to adopt three dogs",
    "first_finish": "first to finish a course",
}
#: Tiles whose action waits for a choice; when the phase does not go there, the tile did nothing.
CHOICE_PHASES: dict[str, str] = {
    "break": "break",
    "boost": "boost",
    "distraction": "distract",
    "rush": "rush",
    "slip": "slip",
    "inspiration": "inspire",
}


def _card(s: State, card_id: str) -> str:
    if card_id == HIDDEN or is_position(card_id):  # R42: a sealed position nobody here has opened
        return "a card face down"
    return f"{card_id} ({a_number(s.cat.cards[card_id].number)})"


def _seat(s: State, name: str) -> int:
    return 0 if s.players[0].name == name else 1


def _delta(before: State, after: State, seat: int) -> list[int]:
    return [a - b for a, b in zip(after.players[seat].cubes, before.players[seat].cubes)]


# --------------------------------------------------------------------------------------------
# What a resolved tile did (R12 step 2, R16–R24)


def _tile_effects(before: State, after: State, seat: int, tile: str, spent: int = 0) -> list[str]:
    """``spent``: Flex tokens spent on this very play (R14), so not a change made by the tile."""
    me, opp = after.players[seat], after.players[1 - seat]
    old_me, old_opp = before.players[seat], before.players[1 - seat]
    if tile in CLEAR_TILES:  # R17
        moved = [
            a.id
            for b, a in zip(before.courses, after.courses)
            if a.owner == seat and a.position > b.position
        ]
        if not moved:
            return ["moves no dog"]
        return [f"moves the dog{'s' if len(moved) > 1 else ''} on {', '.join(moved)}"]
    if tile == "flex" and me.flex > old_me.flex - spent:
        return ["takes a Flex token"]
    if tile == "exchange" and me.exchange > old_me.exchange:
        return ["takes an Exchange token"]
    if tile == "boost" and after.boost_card is not None:  # R19
        return [f"turns up {_card(after, after.boost_card)}"]
    if tile == "intimidation":  # R22
        effects = []
        if opp.flex > old_opp.flex:
            effects.append(f"{opp.name} takes a Flex token")
        if opp.hand_size < old_opp.hand_size:
            effects.append(f"{opp.name} must discard a card and keeps {opp.hand_size}")
        if me.hand_size > old_me.hand_size:
            effects.append(f"{me.name}'s hand size is {me.hand_size} again")
        return effects
    if tile in CHOICE_PHASES and after.phase != CHOICE_PHASES[tile]:
        return ["no effect"]
    return []


# --------------------------------------------------------------------------------------------
# The decision itself


def _main(before: State, move: Move, after: State) -> tuple[str, list[str]]:
    """The sentence's subject and verb part, and the move's own effects."""
    name = move.player
    seat = _seat(before, name)
    p = before.players[seat]
    if isinstance(move, Play):  # R12, R14, R31
        how = " in a mini-turn" if before.in_mini else ""
        reward = f", reward {move.reward}" if move.reward is not None else ""
        if move.card == HIDDEN or is_position(move.card):  # R31, R39: face down; its number shows through the marker
            number = (after.marker - before.marker) % 10 or 10
            which = "a card face down"
        else:
            number = before.cat.cards[move.card].number
            # With an empty hand (a mini-turn) the card played is the deck's top card (R31).
            which = move.card if p.hand else f"the deck's top card {move.card}"
        text = f"{name} plays {which}{how} ({a_number(number)}{reward}), marker {before.marker}→{after.marker}"
        space = (after.marker + move.flex) % 10
        if move.flex:
            text += f", Flex {move.flex:+d} → {space}"
        tile = before.board[space]
        return f"{text}: {tile_name(tile)}", _tile_effects(before, after, seat, tile, abs(move.flex))
    if isinstance(move, BoostAction):  # R19 A
        assert before.boost_card is not None
        number = before.cat.cards[before.boost_card].number
        tile = before.board[number % 10]
        text = f"{name} takes Boost option A: space {number % 10}, {tile_name(tile)}"
        return text, _tile_effects(before, after, seat, tile)
    if isinstance(move, ChooseReward):  # R12 step 3, rules version 2
        return f"{name} chooses the {move.color} reward", []
    if isinstance(move, BoostCube):  # R19 B
        return f"{name} takes Boost option B: 1 {move.color} cube", []
    if isinstance(move, Adopt):  # R25
        dog = before.cat.dogs[move.dog]
        return f"{name} adopts {dog.name} onto course {move.course} for {cubes_words(dog.cost)}", []
    if isinstance(move, Advance):  # R26–R30
        return _advance(before, move, after, seat)
    if isinstance(move, Discard):  # R22, R36
        if move.card == HIDDEN:  # R39
            return f"{name} discards a card face down (Intimidation)", []
        return f"{name} discards a card (Intimidation)", []
    if isinstance(move, Break):  # R18
        return f"{name} declares Break {move.count}", []
    if isinstance(move, Return):
        return f"{name} returns a {move.color} cube", []
    if isinstance(move, PutBack):
        if move.card == HIDDEN:  # R39
            return f"{name} puts a card back face down under the discard pile", []
        return f"{name} puts a card back under the discard pile", []
    if isinstance(move, Draw):
        return f"{name} draws a card from the deck", []
    if isinstance(move, Take):  # R12 step 6, R18
        return f"{name} takes {_card(before, move.card)} from the display", []
    if isinstance(move, Distract):  # R20
        course = next(c for c in before.courses if c.id == move.course)
        ob = course.obstacles[move.obstacle]
        owner = before.players[course.owner].name if course.owner is not None else "nobody"
        return (
            f"{name} puts a +1 {move.color} marker on {owner}'s {OBSTACLE_WORDS[ob.type]} "
            f"(obstacle {move.obstacle + 1}) on {move.course}",
            [],
        )
    if isinstance(move, Rush):  # R21
        course = next(c for c in before.courses if c.id == move.course)
        ob = course.obstacles[course.position]
        owner = before.players[course.owner].name if course.owner is not None else "nobody"
        return f"{name} puts a Rush marker on the {OBSTACLE_WORDS[ob.type]} {owner}'s dog faces on {move.course}", []
    if isinstance(move, Slip):  # R24
        course = next(c for c in before.courses if c.id == move.course)
        left = OBSTACLE_WORDS[course.obstacles[move.gap - 1].type]
        right = OBSTACLE_WORDS[course.obstacles[move.gap].type]
        return f"{name} slips an open ground tile into {move.course} between the {left} and the {right}", []
    if isinstance(move, Inspire):  # R23
        return f"{name} takes the {move.color} cube from Inspiration", []
    if isinstance(move, Exchange):  # R15
        n = p.cubes[COLOURS.index(move.from_)]
        return f"{name} exchanges {n} {move.from_} for {n} {move.to}", []
    if isinstance(move, Done):  # R12
        return f"{name} ends the dog step", []
    if isinstance(move, Prize):  # R32, R33
        reason = PRIZE_REASONS.get(before.prizes[0][1], before.prizes[0][1]) if before.prizes else "prize"
        token = "Flex" if move.token == "flex" else "Exchange"
        return f"{name} chooses the {token} token (prize: {reason})", []
    return f"{name}: {short(move)}", []  # pragma: no cover - every kind is listed above


def _advance(before: State, move: Advance, after: State, seat: int) -> tuple[str, list[str]]:
    course = next(c for c in before.courses if c.id == move.course)
    ob = course.obstacles[course.position]
    paid = [-d for d in _delta(before, after, seat)]
    text = f"{move.player} advances the dog on {move.course} past the {OBSTACLE_WORDS[ob.type]} for {cubes_words(paid)}"
    notes = []
    feature = before.feature(course, ob)
    if feature == "pass":
        notes.append("pass")
    elif feature == "featured":
        notes.append("featured")
    elif feature == "minus_one" and move.spare is not None:
        notes.append(f"minus one spares 1 {move.spare}")
    if ob.rush:  # R21
        notes.append("clears the Rush marker")
    if any(ob.plus):
        markers = ", ".join(f"+{n} {c}" for c, n in zip(COLOURS, ob.plus) if n)
        notes.append(f"{markers} marker{'s' if sum(ob.plus) > 1 else ''}")
    if notes:
        text += f" ({'; '.join(notes)})"
    if ob.type == "pause_box":  # R30
        text += ": a mini-turn"
    return text, []


def _own_change(move: Move) -> list[int]:
    """The cubes a move itself adds or removes, apart from a reward it may complete."""
    change = [0, 0, 0, 0, 0]
    if isinstance(move, (BoostCube, Inspire)):
        change[COLOURS.index(move.color)] += 1
    elif isinstance(move, Return):
        change[COLOURS.index(move.color)] -= 1
    return change


def _after_effects(before: State, move: Move, after: State) -> list[str]:
    """What followed from the decision: reward, finished dogs, Tiebreak, mini-turns, final turn,
    winner.  (An ordinary change of turn is left to the caller, which prints turn headings.)"""
    seat = _seat(before, move.player)
    effects: list[str] = []
    if not isinstance(move, (Exchange, Adopt, Advance)):
        # R12 step 3 / R16: a reward arrives when the tile's action is over.
        gained = [d - o for d, o in zip(_delta(before, after, seat), _own_change(move))]
        if any(n > 0 for n in gained):
            effects.append(f"gets {cubes_words([max(n, 0) for n in gained])}")
    for b, a in zip(before.courses, after.courses):
        if a.finished and not b.finished:
            effects.append(f"the dog on {a.id} finishes")
    if after.tiebreak is not None and before.tiebreak is None:  # R33
        effects.append(f"{after.players[after.tiebreak].name} takes the Tiebreak marker")
    if after.winner is not None:
        if before.winner is None:
            effects.append(f"{after.players[after.winner].name} wins")
        return effects
    if after.final_turn and not before.final_turn:  # R34
        effects.append(f"{after.players[after.active].name} plays one final turn")
    elif after.in_mini and after.phase == "play" and after.minis < before.minis:  # R30
        effects.append("a mini-turn begins")
    return effects


def describe(before: State, move: Move, after: State) -> str:
    """One short sentence on ``move``, made in ``before`` and leading to ``after``."""
    text, effects = _main(before, move, after)
    effects += _after_effects(before, move, after)
    return safe("; ".join([text, *effects]), 1000)  # names and ids come from the file


#: Short names of the kinds, as the ``agility move`` verbs spell them.
VERB_NAMES: dict[str, str] = {"put_back": "put-back", "boost_action": "boost-action", "boost_cube": "boost-cube"}


def short(move: Move) -> str:
    """A compact form of a decision: ``play t07 red flex+1``, ``adopt golden-retriever 3B``.

    Otherwise the verb and the field values, obstacles numbered from 1 along the course as on the
    board (``distract 1A 2 red``), a Slip by the obstacle it follows (``slip 1A 2``).
    """
    return safe(_short(move), 1000)


def _short(move: Move) -> str:
    kind = kind_of(type(move))
    if isinstance(move, (Discard, PutBack)) and move.card == HIDDEN:  # R39
        return f"{VERB_NAMES.get(kind, kind)} (a card face down)"
    if isinstance(move, Play):
        card = "(a card face down)" if move.card == HIDDEN else move.card
        text = f"play {card}" + (f" {move.reward}" if move.reward is not None else "")
        return text + (f" flex{move.flex:+d}" if move.flex else "")
    if isinstance(move, Advance):
        return f"advance {move.course}" + (f" spare {move.spare}" if move.spare else "")
    if isinstance(move, Distract):
        return f"distract {move.course} {move.obstacle + 1} {move.color}"
    values = [str(v) for v in move_fields(move).values() if v is not None]
    return " ".join([VERB_NAMES.get(kind, kind), *values])
