"""The numbered choices a person picks from (``agility play``, the board's hints): one row per card
to play or decision, its options, and reading what the person types against those rows.

Rows are told in the players' words (``agility rules``): tiles and obstacles by their names
(``open ground``, ``pause box``, ``A-frame``), never by the ids of the game file.  A row whose bare
number would spend a token (an Exchange, a Flex shift) needs its options typed, and a dog to adopt
onto one of several free courses is a choice in two steps: the dog, then the course
(:class:`MoreNeeded`, :func:`course_rows`).
"""

from __future__ import annotations

import msgspec
from typing import Any

from ..engine import rules
from ..engine.components import tile_name
from ..engine.components import COLOURS
from ..engine.moves import (Adopt, Advance, BoostAction, BoostCube, Break, ChooseReward, Discard, Distract, Done, Draw,
                            Exchange, Inspire, Move, Play, Prize, PutBack, Return, Rush, Slip, Take)
from ..engine.state import State
from ..engine.notation import VERBS, ZH_VERBS, Refused, UsageError, argv, card_word, describe as move_words, number, parse
from ..i18n import _, name, ngettext, pgettext
from .narrate import OBSTACLE_WORDS, _a_number, _colour, _cost, _cubes, _tile, obstacle_word


# ----------------------------------------------------------------------------------------------
# The menu of `agility play` and `agility legal`: the legal decisions grouped into short rows


class Row(msgspec.Struct):
    """One numbered row of the menu: a card to play, an exchange, a dog to adopt, a Distraction target …

    ``base`` are the ``agility move`` words the row stands for; what is typed after the row's
    number is added to them (a bare colour is the reward or the spare, ``+1``/``-1`` a Flex
    shift, a course the course to adopt onto), so that a row and its options are parsed exactly as
    ``agility move`` parses them.
    """

    label: str
    base: list[str]
    moves: list[Move]
    options: str = ""  # what may follow the number, e.g. ``reward red|black · Flex: -1 Break``
    tile: str | None = None  # the tile a card to play reaches (for a one-line hint on it)
    flex: str = ""  # the Flex part of the options: ``Flex: -1 Break, +1 Boost``
    shifts: str = ""  # the Flex shifts alone: ``-1 Break, +1 Boost``
    keys: str = ""  # English words a short move may name the row by (a dog's name), whatever the language

    @property
    def default(self) -> Move:
        """What the bare number picks: no Flex and the reward left for later (rules version 2),
        else the first option listed (shown as the default)."""
        plain = [m for m in self.moves if not (isinstance(m, Play) and m.flex)]
        later = [m for m in plain if isinstance(m, Play) and m.reward is None]
        return (later or plain or self.moves)[0]

    @property
    def spends_token(self) -> bool:
        """Whether the bare number would spend a token: an Exchange, or a play that needs Flex."""
        m = self.default
        return isinstance(m, Exchange) or (isinstance(m, Play) and m.flex != 0)

    @property
    def two_steps(self) -> bool:
        """A dog to adopt onto one of several free courses: the course is a second choice."""
        return isinstance(self.moves[0], Adopt) and len(self.moves) > 1

    def argv(self, words: list[str]) -> list[str]:
        """The ``agility move`` words for this row with the options ``words``."""
        out = list(self.base)
        kind = self.base[0]
        for w in words:
            if kind == "play" and (w.startswith("+") or (w.startswith("-") and w[1:].isdigit())):
                out.append(f"--flex={w}")
            elif kind in ("play", "advance") and not w.startswith("-") and not w.lstrip("+-").isdigit():
                out += ["--reward" if kind == "play" else "--spare", w]
            elif kind == "adopt" and "--course" not in out and not w.startswith("-"):
                out += ["--course", w]
            else:
                out.append(w)
        return out


class MoreNeeded(UsageError):
    """The bare number of a row that needs more: its options typed (a token is spent only when
    said so), or a second choice (the course a dog is adopted onto)."""

    def __init__(self, message: str, row: Row, number: int):
        super().__init__(message)
        self.row = row
        self.number = number


def _flex_words(s: State, moves: list[Play]) -> str:
    shifts = sorted({m.flex for m in moves if m.flex})
    if not shifts:
        return ""
    target = (s.marker + s.cat.cards[moves[0].card].number) % 10
    return _(", ").join(f"{f:+d} {_tile(s.board[(target + f) % 10])}" for f in shifts)


def menu(s: State) -> list[Row]:
    """The legal decisions now as rows (a play is one row per card, its reward and Flex as options;
    an adoption one row per dog, the course as its option)."""
    rows: list[Row] = []
    keyed: dict[tuple[Any, ...], Row] = {}
    for m in rules.legal_moves(s):
        key: tuple[Any, ...]
        if isinstance(m, Play):
            key = ("play", m.card)
        elif isinstance(m, Exchange):
            key = ("exchange",)
        elif isinstance(m, Distract):
            key = ("distract", m.course, m.obstacle)
        elif isinstance(m, Advance):
            key = ("advance", m.course)
        elif isinstance(m, Adopt):
            key = ("adopt", m.dog)
        else:
            key = (m,)
        row = keyed.get(key)
        if row is None:
            row = keyed[key] = Row("", [], [])
            rows.append(row)
        row.moves.append(m)
    for row in rows:
        _label(s, row)
    # The decisions that matter first: an exchange is always possible and rarely the point.
    return sorted(rows, key=lambda r: isinstance(r.moves[0], Exchange))


def obstacle_words(s: State, course: str, index: int) -> str:
    """An obstacle of a course in the players' words: ``A-frame``, ``pause box``."""
    c = next(c for c in s.courses if c.id == course)
    kind = c.obstacles[index].type
    return obstacle_word(kind) if kind in OBSTACLE_WORDS else kind.replace("_", " ")


def describe(s: State, m: Move) -> str:
    """What a legal decision does, in the players' words (``agility rules``): the obstacles by
    their names, never their ids (``notation.describe`` with the obstacles named)."""
    if isinstance(m, Distract):
        return _("put a {colour} +1 on obstacle {n} ({obstacle}) of {course}").format(
            colour=_colour(m.color), n=m.obstacle + 1, obstacle=obstacle_words(s, m.course, m.obstacle), course=m.course)
    if isinstance(m, Rush):
        c = next(c for c in s.courses if c.id == m.course)
        return _("put a Rush marker before the dog on {course} ({obstacle})").format(
            course=m.course, obstacle=obstacle_words(s, m.course, c.position))
    if isinstance(m, Advance):
        c = next(c for c in s.courses if c.id == m.course)
        paid = _cubes(rules.clear_cost(s, c, m.spare), empty=pgettext("paid", "free"))
        return _("advance the dog on {course} past the {obstacle} ({paid})").format(
            course=m.course, obstacle=obstacle_words(s, m.course, c.position), paid=paid)
    return _other_words(s, m)


def _card_words(s: State, card_id: str) -> str:
    """``t07 (a 3: 3 red | 2 black)`` (``notation``'s card text) in the language in use."""
    c = s.cat.cards[card_id]
    rewards = f"{c.rewards[0].count} {_colour(c.rewards[0].color)} | {c.rewards[1].count} {_colour(c.rewards[1].color)}"
    return _("{card} ({number}: {rewards})").format(card=card_id, number=_a_number(c.number), rewards=rewards)


def _other_words(s: State, m: Move) -> str:
    """``notation.describe`` (what ``legal --json`` says, always English) in the language in use."""
    if isinstance(m, Play):
        target = (s.marker + s.cat.cards[m.card].number) % 10
        space = (target + m.flex) % 10
        flex = _(", {n} Flex to space {space}").format(n=abs(m.flex), space=space) if m.flex else ""
        words = dict(card=_card_words(s, m.card), before=s.marker, after=target, flex=flex, tile=_tile(s.board[space]))
        if m.reward is not None:
            return _("play {card}, take {colour}; marker {before}→{after}{flex}: {tile}").format(colour=_colour(m.reward), **words)
        return _("play {card}; marker {before}→{after}{flex}: {tile}").format(**words)
    if isinstance(m, Discard):
        return _("discard {card} for Intimidation").format(card=_card_words(s, m.card))
    if isinstance(m, PutBack):
        return _("put {card} under the discard pile").format(card=_card_words(s, m.card))
    if isinstance(m, Take):
        return _("take {card} from the display").format(card=_card_words(s, m.card))
    if isinstance(m, Break):
        return ngettext("Break {n}: return {n} cube, swap as many cards",
                        "Break {n}: return {n} cubes, swap as many cards", m.count).format(n=m.count)
    if isinstance(m, Return):
        return _("return a {colour} cube").format(colour=_colour(m.color))
    if isinstance(m, ChooseReward):
        assert s.card is not None
        count = next(r.count for r in s.cat.cards[s.card].rewards if r.color == m.color)
        return _("take the reward: {count} {colour}").format(count=count, colour=_colour(m.color))
    if isinstance(m, Draw):
        return _("draw the top card of the deck")
    if isinstance(m, BoostAction):
        number = s.cat.cards[s.boost_card].number if s.boost_card else 0
        return _("Boost A: resolve space {space} ({tile})").format(space=number % 10, tile=_tile(s.board[number % 10]))
    if isinstance(m, BoostCube):
        return _("Boost B: take a {colour} cube").format(colour=_colour(m.color))
    if isinstance(m, Slip):
        return _("slip an open ground tile into {course} after obstacle {gap}").format(course=m.course, gap=m.gap)
    if isinstance(m, Inspire):
        return _("take the {colour} cube from Inspiration").format(colour=_colour(m.color))
    if isinstance(m, Exchange):
        n = s.players[s.active].cubes[COLOURS.index(m.from_)]
        return _("spend an Exchange token: {n} {before} → {n} {after}").format(
            n=n, before=_colour(m.from_), after=_colour(m.to))
    if isinstance(m, Adopt):
        dog = s.cat.dogs[m.dog]
        return _("adopt {dog} ({cost}) onto course {course}").format(
            dog=name("dog", dog.name), cost=_cost(dog.cost), course=m.course)
    if isinstance(m, Done):
        return _("finish adopting and moving dogs")
    if isinstance(m, Prize):
        return _("take the Flex token as a prize") if m.token == "flex" else _("take the Exchange token as a prize")
    return move_words(s, m)


def brief(s: State, m: Move) -> str:
    """A decision in a few words, for a hint: ``play t39 → Clear Weave Poles, take green``; the
    others as :func:`describe` says them."""
    if isinstance(m, Play):
        target = (s.marker + s.cat.cards[m.card].number + m.flex) % 10
        flex = f" (Flex {m.flex:+d})" if m.flex else ""
        take = f", take {m.reward}" if m.reward is not None else ""
        return f"play {m.card} → {tile_name(s.board[target])}{flex}{take}"
    return describe(s, m)


def _label(s: State, row: Row) -> None:
    m = row.moves[0]
    if isinstance(m, Play):
        p = s.players[s.to_act if s.to_act is not None else s.active]
        plays = [x for x in row.moves if isinstance(x, Play)]
        row.base = ["play", card_word(s, m.card, p.hand if p.hand else s.deck[:1])]
        card = s.cat.cards[m.card]
        target = (s.marker + card.number) % 10
        what = f"{card.id} [{card.number}] {card.rewards[0].count} {_colour(card.rewards[0].color)} | {card.rewards[1].count} {_colour(card.rewards[1].color)}"
        if not p.hand:
            what = _("the deck's top card ({card})").format(card=what)
        row.label = _("play {card}").format(card=what) + f" → {_tile(s.board[target])} " + _("(marker {before}→{after})").format(
            before=s.marker, after=target)
        row.keys = f"{card.id} {tile_name(s.board[target])}"
        row.tile = s.board[target]
        opts = []
        offered = {x.reward for x in plays if x.reward is not None}
        rewards = [r.color for r in card.rewards if r.color in offered]
        if rewards:
            later = any(x.reward is None for x in plays)  # rules version 2: chosen after the action
            which = "|".join(_colour(c) for c in dict.fromkeys(rewards))  # the players' words (typed too)
            opts.append(_("reward {colours} now, or later").format(colours=which) if later else
                        _("reward {colours} (default {colour})").format(colours=which,
                                                                         colour=_colour(getattr(row.default, "reward"))))
        row.shifts = _flex_words(s, plays)
        row.flex = _("Flex: {shifts}").format(shifts=row.shifts) if row.shifts else ""
        if row.flex:
            opts.append(row.flex)
        row.options = " · ".join(opts)
    elif isinstance(m, Exchange):
        row.base = ["exchange"]
        n = s.players[s.active].exchange
        row.label = _("spend an Exchange token ({n} held): all cubes of one colour become another").format(n=n)
        froms = sorted({x.from_ for x in row.moves if isinstance(x, Exchange)})
        row.options = _("FROM TO, FROM one of {colours} (such as {example})").format(
            colours="|".join(_colour(c) for c in froms), example=f"{_colour(m.from_)} {_colour(m.to)}")
    elif isinstance(m, Distract):
        row.base = ["distract", m.course, str(m.obstacle + 1)]
        row.label = _("Distraction: +1 on obstacle {n} ({obstacle}) of {course}").format(
            n=m.obstacle + 1, obstacle=obstacle_words(s, m.course, m.obstacle), course=m.course)
        row.options = _("{colours} (default {colour})").format(
            colours="|".join(_colour(x.color) for x in row.moves if isinstance(x, Distract)), colour=_colour(m.color))
    elif isinstance(m, Advance):
        row.base = ["advance", m.course]
        c = next(c for c in s.courses if c.id == m.course)
        row.label = describe(s, m) if len(row.moves) == 1 else _(
            "advance the dog on {course} past the {obstacle} (minus one spares a cube)").format(
            course=m.course, obstacle=obstacle_words(s, m.course, c.position))
        spares = [x.spare for x in row.moves if isinstance(x, Advance) and x.spare]
        if len(row.moves) > 1:
            row.options = _("{colours} (the colour to spare; default {colour})").format(
                colours="|".join(_colour(c) for c in spares), colour=_colour(spares[0]))
    elif isinstance(m, Adopt):
        dog = s.cat.dogs[m.dog]
        row.base = ["adopt", m.dog]
        row.label = _("adopt {dog} ({cost})").format(dog=name("dog", dog.name), cost=_cost(dog.cost))
        row.keys = dog.name
        courses = [x.course for x in row.moves if isinstance(x, Adopt)]
        row.options = _("course {courses}").format(courses="|".join(courses))
    else:
        row.base = argv(s, m)
        row.label = describe(s, m)


def course_rows(s: State, row: Row) -> list[Row]:
    """The second step of adopting a dog: one row per free course it may go onto, its obstacles
    and costs as the board would show them with that dog on it (``#3 6B  tunnel pass · a-frame
    1k 2y -1 · …``: its features marked)."""
    from .render import cubes_text, feature_tag, obstacle_name, text_of

    out = []
    for m in row.moves:
        if not isinstance(m, Adopt):  # pragma: no cover - an adoption row holds adoptions only
            continue
        slot, c = next((k, c) for k, c in enumerate(s.courses, 1) if c.id == m.course)
        features = s.cat.dogs[m.dog].features
        parts = []
        for ob in c.obstacles:
            feature = None if ob.type == "pause_box" else features.get(ob.type)  # type: ignore[call-overload]
            cost = "" if feature == "pass" else " " + text_of(cubes_text(ob.cost, short=True))
            parts.append(obstacle_name(ob.type) + cost + (f" {feature_tag(feature)}" if feature else ""))
        out.append(Row(f"#{slot} {c.id}  {' · '.join(parts)}", argv(s, m), [m]))
    return out


def example(s: State, rows: list[Row]) -> str:
    """A row's number with options, as typed: ``1 red``, ``2 6B``, ``5 red blue`` (``""`` when no
    row takes options); a colour in the players' word, which is read too (``1 红色`` in zh)."""
    for k, row in enumerate(rows, 1):
        for m in row.moves:
            words = typed_words(s, rows, m)
            if len(words) > 1 and words[0] == str(k) and not (isinstance(m, Play) and m.flex):
                return " ".join(name("colour", w) if w in COLOURS else w for w in words)
    return ""


#: The longest line ``agility play`` reads as a decision (characters).  A decision's words are a few
#: dozen characters; a longer line is refused before it is split (``shlex.split`` of a megabyte
#: takes tens of seconds).
MAX_TYPED_LINE = 4096


def pick(s: State, rows: list[Row], text: str) -> Move:
    """The decision a line typed in ``agility play`` names: ``3``, ``3 red``, ``3 --flex=1`` (a
    row of :func:`menu` and its options) or the words of ``agility move`` (``play 3 red``).
    A line longer than :data:`MAX_TYPED_LINE` characters is a :class:`UsageError`; the bare
    number of a row that spends a token or needs a second choice is :class:`MoreNeeded`."""
    import shlex

    if len(text) > MAX_TYPED_LINE:
        raise UsageError(_("the line is longer than {n} characters: no decision is that long").format(n=MAX_TYPED_LINE))
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise UsageError(_("cannot read {text}: {reason}").format(text=repr(text), reason=exc)) from None
    if not words:
        raise UsageError(_("type the number of a decision, or its words"))
    k = number(words[0], "a decision number")
    if k is not None:
        if not 1 <= k <= len(rows):
            raise UsageError(_("there is no decision {k}: choose 1–{n}").format(k=k, n=len(rows)))
        row = rows[k - 1]
        if len(words) > 1:
            return parse(s, row.argv(words[1:]))
        if row.spends_token:
            example = " ".join(typed_words(s, rows, row.default)[1:])
            raise MoreNeeded(_("{k} spends a token: say how, with its options ({k} {example}); nothing was spent").format(
                k=k, example=example), row, k)
        if row.two_steps:
            raise MoreNeeded(_("{k}: choose the course too").format(k=k), row, k)
        return row.default
    if not any(verb.startswith(words[0].lower()) for verb in VERBS) and words[0] not in ZH_VERBS:  # 完成: done
        raise UsageError(_("{word} is no decision: type a row's number (3, 3 red), a move's words "
                           "(play 3 red), or help, hint, board, news, undo, quit").format(word=repr(words[0][:20])))
    try:
        return parse(s, words)
    except UsageError as exc:  # issue 51: what to type here, not the command line's syntax
        if "agility move FILE " not in str(exc):
            raise
        usage = str(exc).replace("agility move FILE ", "type ")
        near = rows_named(rows, words)
        if near:  # `adopt golden`: the row that adopts it, by its number
            usage += _("; here: {rows}").format(rows=_(", ").join(f"{k} = {rows[k - 1].label}" for k in near[:3]))
        raise UsageError(usage) from None


def rows_named(rows: list[Row], words: list[str]) -> list[int]:
    """The numbers of the rows the words of a short move name: ``adopt golden`` names the row
    that adopts the Golden Retriever (the verb, or a prefix of it, and every further word in the
    row's label)."""
    verb = words[0].lower()
    verbs = [verb] if verb in VERBS else [v for v in VERBS if v.startswith(verb)]
    rest = [w.lower() for w in words[1:] if not w.startswith("-")]
    return [k for k, row in enumerate(rows, 1)
            if row.base[:1] == verbs[:1] and len(verbs) == 1 and all(w in f"{row.label} {row.keys}".lower() for w in rest)]


def typed_words(s: State, rows: list[Row], m: Move) -> list[str]:
    """What to type in ``agility play`` for the decision ``m``: its row's number and the options
    that make it (``["3"]``, ``["3", "red"]``, ``["5", "red", "blue"]``); the words of ``agility
    move`` when no row stands for it."""
    for k, row in enumerate(rows, 1):
        if m not in row.moves:
            continue
        if m == row.default and not row.spends_token and not row.two_steps:
            return [str(k)]
        extra = [w for w in argv(s, m)[len(row.base):] if w not in ("--reward", "--spare", "--course")]
        # A Flex shift is typed signed (``+1``), as the options say.
        extra = [f"+{w[7:]}" if w.startswith("--flex=") and w[7:].isdigit() else w.removeprefix("--flex=") for w in extra]
        try:
            if parse(s, row.argv(extra)) == m:
                return [str(k), *extra]
        except (UsageError, Refused):
            pass
    return argv(s, m)
