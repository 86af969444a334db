"""Plain-text narration of decisions, for ``agility replay`` and ``agility log``.

:func:`describe` turns one decision into a short sentence, using the states before and after it to
say what happened (the tile resolved, the reward received, cubes paid, dogs moved or finished, the
Tiebreak marker taken, the winner).  :func:`short` is the compact one-line-per-decision form.
Face-down cards (R18 put-backs and draws from the deck, R22 discards) are not named in sentences.

Narration works on a seat's view as well as on the complete state (R39): a card the viewer may not
know is :data:`~agility_cli.engine.state.HIDDEN` in the move and the states (``view.move_view``,
``view.seat_view``), and is told as "a card face down", its number read from the marker's move.
In a complete view every sentence is exactly what it always was (the golden narrations pin it).

Every sentence is a whole message of the catalog (word order differs between languages), the game's
names go through ``i18n.name``; in English the words are the project's own, byte for byte.  The
short form (:func:`short`) is the move's words, which ``agility move`` reads: never translated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
from ..engine.state import HIDDEN, State, is_position
from ..i18n import N_, _, name, ngettext, npgettext, pgettext
from ..text import safe

OBSTACLE_WORDS: dict[str, str] = {
    "hurdle": "hurdle",
    "tunnel": "tunnel",
    "weave_poles": "weave poles",
    "a_frame": "A-frame",
    "open_ground": "open ground",
    "pause_box": "pause box",
}
#: The obstacle types by the names the catalog knows them (``i18n.NAMES``).
OBSTACLE_TITLES: dict[str, str] = {
    "hurdle": "Hurdle",
    "tunnel": "Tunnel",
    "weave_poles": "Weave Poles",
    "a_frame": "A-Frame",
    "open_ground": "Open Ground",
    "pause_box": "Pause Box",
}
PRIZE_REASONS: dict[str, str] = {
    "three_dogs": N_("first to adopt three dogs"),
    "first_finish": N_("first to finish a course"),
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


def obstacle_word(obstacle_type: str) -> str:
    """An obstacle type in a sentence: ``weave poles`` in English, the catalog's name otherwise."""
    title = OBSTACLE_TITLES[obstacle_type]
    translated = name("obstacle", title)
    return OBSTACLE_WORDS[obstacle_type] if translated == title else translated


def _colour(colour: str) -> str:
    return name("colour", colour)


def _tile(tile: str) -> str:
    return name("tile", tile_name(tile))


def _cubes(cubes: Sequence[int], empty: str | None = None) -> str:
    """``2 blue, 1 black`` (``state.cubes_words``) in the language in use; ``nothing`` for none."""
    parts = [f"{n} {_colour(c)}" for c, n in zip(COLOURS, cubes) if n]
    return _(", ").join(parts) if parts else (_("nothing") if empty is None else empty)


def _cost(cost: Mapping[Any, int]) -> str:
    """A dog's cost in the order its card gives it (``state.cubes_words`` of a mapping)."""
    parts = [f"{n} {_colour(c)}" for c, n in cost.items() if n]
    return _(", ").join(parts) if parts else _("nothing")


def _a_number(n: int) -> str:
    """A card's number with its article, ``a 5``, ``an 8`` (``notation.a_number``); in another
    language the catalog's words (``5 点``)."""
    text = _("a {number}")
    return a_number(n) if text == "a {number}" else text.format(number=n)


def _card(s: State, card_id: str) -> str:
    if card_id == HIDDEN or is_position(card_id):  # R42: a sealed position nobody here has opened
        return _("a card face down")
    return _("{card} ({number})").format(card=card_id, number=_a_number(s.cat.cards[card_id].number))


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
            return [pgettext("verb", "moves no dog")]
        courses = _(", ").join(moved)
        return [npgettext("verb", "moves the dog on {courses}", "moves the dogs on {courses}", len(moved)).format(courses=courses)]
    if tile == "flex" and me.flex > old_me.flex - spent:
        return [_("takes a Flex token")]
    if tile == "exchange" and me.exchange > old_me.exchange:
        return [_("takes an Exchange token")]
    if tile == "boost" and after.boost_card is not None:  # R19
        return [pgettext("verb", "turns up {card}").format(card=_card(after, after.boost_card))]
    if tile == "intimidation":  # R22
        effects = []
        if opp.flex > old_opp.flex:
            effects.append(_("{name} takes a Flex token").format(name=opp.name))
        if opp.hand_size < old_opp.hand_size:
            effects.append(_("{name} must discard a card and keeps {n}").format(name=opp.name, n=opp.hand_size))
        if me.hand_size > old_me.hand_size:
            effects.append(_("{name}'s hand size is {n} again").format(name=me.name, n=me.hand_size))
        return effects
    if tile in CHOICE_PHASES and after.phase != CHOICE_PHASES[tile]:
        return [_("no effect")]
    return []


# --------------------------------------------------------------------------------------------
# The decision itself


def _main(before: State, move: Move, after: State) -> tuple[str, list[str]]:
    """The sentence's subject and verb part, and the move's own effects."""
    who = move.player
    seat = _seat(before, who)
    p = before.players[seat]
    if isinstance(move, Play):  # R12, R14, R31
        if move.card == HIDDEN or is_position(move.card):  # R31, R39: face down; its number shows through the marker
            number = (after.marker - before.marker) % 10 or 10
            which = _("a card face down")
        else:
            number = before.cat.cards[move.card].number
            # With an empty hand (a mini-turn) the card played is the deck's top card (R31).
            which = move.card if p.hand else _("the deck's top card {card}").format(card=move.card)
        if move.reward is None:
            sentence = (_("{name} plays {card} in a mini-turn ({number}), marker {before}→{after}") if before.in_mini
                        else _("{name} plays {card} ({number}), marker {before}→{after}"))
        else:
            sentence = (_("{name} plays {card} in a mini-turn ({number}, reward {colour}), marker {before}→{after}")
                        if before.in_mini else _("{name} plays {card} ({number}, reward {colour}), marker {before}→{after}"))
        text = sentence.format(name=who, card=which, number=_a_number(number), before=before.marker, after=after.marker,
                               colour=_colour(move.reward) if move.reward is not None else "")
        space = (after.marker + move.flex) % 10
        if move.flex:
            text += _(", Flex {flex} → {space}").format(flex=f"{move.flex:+d}", space=space)
        tile = before.board[space]
        return _("{text}: {tile}").format(text=text, tile=_tile(tile)), _tile_effects(before, after, seat, tile, abs(move.flex))
    if isinstance(move, BoostAction):  # R19 A
        assert before.boost_card is not None
        number = before.cat.cards[before.boost_card].number
        tile = before.board[number % 10]
        text = _("{name} takes Boost option A: space {space}, {tile}").format(name=who, space=number % 10, tile=_tile(tile))
        return text, _tile_effects(before, after, seat, tile)
    if isinstance(move, ChooseReward):  # R12 step 3, rules version 2
        return _("{name} chooses the {colour} reward").format(name=who, colour=_colour(move.color)), []
    if isinstance(move, BoostCube):  # R19 B
        return _("{name} takes Boost option B: 1 {colour} cube").format(name=who, colour=_colour(move.color)), []
    if isinstance(move, Adopt):  # R25
        dog = before.cat.dogs[move.dog]
        return _("{name} adopts {dog} onto course {course} for {cubes}").format(
            name=who, dog=name("dog", dog.name), course=move.course, cubes=_cost(dog.cost)), []
    if isinstance(move, Advance):  # R26–R30
        return _advance(before, move, after, seat)
    if isinstance(move, Discard):  # R22, R36
        if move.card == HIDDEN:  # R39
            return _("{name} discards a card face down (Intimidation)").format(name=who), []
        return _("{name} discards a card (Intimidation)").format(name=who), []
    if isinstance(move, Break):  # R18
        return _("{name} declares Break {count}").format(name=who, count=move.count), []
    if isinstance(move, Return):
        return _("{name} returns a {colour} cube").format(name=who, colour=_colour(move.color)), []
    if isinstance(move, PutBack):
        if move.card == HIDDEN:  # R39
            return _("{name} puts a card back face down under the discard pile").format(name=who), []
        return _("{name} puts a card back under the discard pile").format(name=who), []
    if isinstance(move, Draw):
        return _("{name} draws a card from the deck").format(name=who), []
    if isinstance(move, Take):  # R12 step 6, R18
        return _("{name} takes {card} from the display").format(name=who, card=_card(before, move.card)), []
    if isinstance(move, Distract):  # R20
        course = next(c for c in before.courses if c.id == move.course)
        ob = course.obstacles[move.obstacle]
        owner = before.players[course.owner].name if course.owner is not None else _("nobody")
        return (
            _("{name} puts a +1 {colour} marker on {owner}'s {obstacle} (obstacle {n}) on {course}").format(
                name=who, colour=_colour(move.color), owner=owner, obstacle=obstacle_word(ob.type), n=move.obstacle + 1,
                course=move.course),
            [],
        )
    if isinstance(move, Rush):  # R21
        course = next(c for c in before.courses if c.id == move.course)
        ob = course.obstacles[course.position]
        owner = before.players[course.owner].name if course.owner is not None else _("nobody")
        return _("{name} puts a Rush marker on the {obstacle} {owner}'s dog faces on {course}").format(
            name=who, obstacle=obstacle_word(ob.type), owner=owner, course=move.course), []
    if isinstance(move, Slip):  # R24
        course = next(c for c in before.courses if c.id == move.course)
        left = obstacle_word(course.obstacles[move.gap - 1].type)
        right = obstacle_word(course.obstacles[move.gap].type)
        return _("{name} slips an open ground tile into {course} between the {left} and the {right}").format(
            name=who, course=move.course, left=left, right=right), []
    if isinstance(move, Inspire):  # R23
        return _("{name} takes the {colour} cube from Inspiration").format(name=who, colour=_colour(move.color)), []
    if isinstance(move, Exchange):  # R15
        n = p.cubes[COLOURS.index(move.from_)]
        return _("{name} exchanges {n} {given} for {n} {taken}").format(
            name=who, n=n, given=_colour(move.from_), taken=_colour(move.to)), []
    if isinstance(move, Done):  # R12
        return _("{name} ends the dog step").format(name=who), []
    if isinstance(move, Prize):  # R32, R33
        reason = PRIZE_REASONS.get(before.prizes[0][1], before.prizes[0][1]) if before.prizes else N_("prize")
        token = name("tile", "Flex" if move.token == "flex" else "Exchange")
        return _("{name} chooses the {token} token (prize: {reason})").format(name=who, token=token, reason=_(reason)), []
    return f"{who}: {short(move)}", []  # pragma: no cover - every kind is listed above


def _advance(before: State, move: Advance, after: State, seat: int) -> tuple[str, list[str]]:
    course = next(c for c in before.courses if c.id == move.course)
    ob = course.obstacles[course.position]
    paid = [-d for d in _delta(before, after, seat)]
    sentence = (_("{name} advances the dog on {course} past the {obstacle} for {cubes}") if any(paid) else
                _("{name} advances the dog on {course} past the {obstacle} for nothing"))  # a pass (R26)
    text = sentence.format(name=move.player, course=move.course, obstacle=obstacle_word(ob.type), cubes=_cubes(paid))
    notes = []
    feature = before.feature(course, ob)
    if feature == "pass":
        notes.append(name("feature", "pass"))
    elif feature == "featured":
        notes.append(name("feature", "featured"))
    elif feature == "minus_one" and move.spare is not None:
        notes.append(_("minus one spares 1 {colour}").format(colour=_colour(move.spare)))
    if ob.rush:  # R21
        notes.append(_("clears the Rush marker"))
    if any(ob.plus):
        markers = _(", ").join(f"+{n} {_colour(c)}" for c, n in zip(COLOURS, ob.plus) if n)
        notes.append(ngettext("{markers} marker", "{markers} markers", sum(ob.plus)).format(markers=markers))
    if notes:
        text += _(" ({notes})").format(notes=_("; ").join(notes))
    if ob.type == "pause_box":  # R30
        text += _(": a mini-turn")
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
            effects.append(_("gets {cubes}").format(cubes=_cubes([max(n, 0) for n in gained])))
    for b, a in zip(before.courses, after.courses):
        if a.finished and not b.finished:
            effects.append(_("the dog on {course} finishes").format(course=a.id))
    if after.tiebreak is not None and before.tiebreak is None:  # R33
        effects.append(_("{name} takes the Tiebreak marker").format(name=after.players[after.tiebreak].name))
    if after.winner is not None:
        if before.winner is None:
            effects.append(_("{name} wins").format(name=after.players[after.winner].name))
        return effects
    if after.final_turn and not before.final_turn:  # R34
        effects.append(_("{name} plays one final turn").format(name=after.players[after.active].name))
    elif after.in_mini and after.phase == "play" and after.minis < before.minis:  # R30
        effects.append(_("a mini-turn begins"))
    return effects


def describe(before: State, move: Move, after: State) -> str:
    """One short sentence on ``move``, made in ``before`` and leading to ``after``."""
    text, effects = _main(before, move, after)
    effects += _after_effects(before, move, after)
    return safe(_("; ").join([text, *effects]), 1000)  # names and ids come from the file


#: Short names of the kinds, as the ``agility move`` verbs spell them.
VERB_NAMES: dict[str, str] = {"put_back": "put-back", "boost_action": "boost-action", "boost_cube": "boost-cube"}


def short(move: Move) -> str:
    """A compact form of a decision: ``play t07 red flex+1``, ``adopt golden-retriever 3B``.

    Otherwise the verb and the field values, obstacles numbered from 1 along the course as on the
    board (``distract 1A 2 red``), a Slip by the obstacle it follows (``slip 1A 2``).
    """
    return safe(_short(move), 1000)


def _move_words() -> dict[str, str]:
    """The words of a decision in the log's notation (``play``, ``spare``), in the player's
    language: the words ``agility move`` reads beside the English ones where there are such."""
    return {
        "play": pgettext("move word", "play"), "reward": pgettext("move word", "reward"),
        "discard": pgettext("move word", "discard"), "break": pgettext("move word", "break"),
        "return": pgettext("move word", "return"), "put-back": pgettext("move word", "put-back"),
        "draw": pgettext("move word", "draw"), "take": pgettext("move word", "take"),
        "boost-action": pgettext("move word", "boost-action"), "boost-cube": pgettext("move word", "boost-cube"),
        "distract": pgettext("move word", "distract"), "rush": pgettext("move word", "rush"),
        "slip": pgettext("move word", "slip"), "inspire": pgettext("move word", "inspire"),
        "exchange": pgettext("move word", "exchange"), "adopt": pgettext("move word", "adopt"),
        "advance": pgettext("move word", "advance"), "done": pgettext("move word", "done"),
        "prize": pgettext("move word", "prize"), "spare": pgettext("move word", "spare"),
        "flex": pgettext("move word", "flex"), "start": pgettext("move word", "start"),
    }


def told_short(text: str) -> str:
    """A decision in the log's words (:func:`short`, ``play t08 yellow flex+1``) as a person reads
    it in the language in use: each verb, colour and option word in the player's words (``打出 t08
    黄色 弹性+1``), ids and names as they are.  English is the text itself (the log, JSON and the
    review's file keep it)."""
    from ..i18n import ENGLISH, language

    if language() == ENGLISH:
        return text
    words = _move_words()
    out = []
    for token in text.split(" "):
        if token in words:
            out.append(words[token])
        elif token in COLOURS:
            out.append(name("colour", token))
        elif token.startswith("flex") and token[4:5] in "+-" and token[5:].isdigit():
            out.append(words["flex"] + token[4:])
        else:
            out.append(token)
    told = " ".join(out)
    return told.replace("(a card face down)", _("(a card face down)"))


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
