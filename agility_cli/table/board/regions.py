"""The regions of the full-screen board, as styled lines (``layout.Line``) for a given width.

Nothing here imports Textual: each region is a list of lines that the board's widgets paint, and
that the tests read as plain text.  One notation for both players (issue 51): cubes are written
``r3 g1 k0 y0 b3`` — every colour always, its letter *and* its colour (colour-blind players, and
``NO_COLOR``) — and a cost ``3k2b`` (count, then letter).  A line that does not fit the width goes
on in a line indented under it (``_flow``): no item is ever cut with ``…``.  At 100 columns and more
the longer words come back (whole dog names, whole obstacle names).

Regions, top to bottom: the status line, the action board (every tile in order, the marker, the
tile each card of the viewer's hand reaches), each player, the six courses, the training display
and the dog display.  The story and the choices are the board's own (``app``), from the session.
"""

from __future__ import annotations

from ...engine import rules
from ...engine.components import COLOURS, OBSTACLE_TYPES, Dog, tile_name
from ...engine.state import HIDDEN, CourseState, State
from ...i18n import _, name, ngettext, pgettext
from ...text import safe
from ..layout import Line, line_len
from ..render import COLOUR_LETTERS, COLOUR_STYLES, DIM, OBSTACLE_NAMES, _vector, awaited, list_sep, obstacle_name

WIDE = 100  # from this width on, whole names
SEP = " · "
MARK = "▶"  # the marker on the action board; the obstacle a dog faces
CLEARED = "✔"  # an obstacle the dog has cleared
HERE = "bold reverse"

#: Obstacle names, short (80 columns) and whole.
SHORT = {"hurdle": "hurdle", "tunnel": "tun", "weave_poles": "weave", "a_frame": "a-fr",
         "open_ground": "open", "pause_box": "pause"}
WHOLE = {"hurdle": "hurdle", "tunnel": "tunnel", "weave_poles": "weave poles", "a_frame": "A-frame",
         "open_ground": "open ground", "pause_box": "pause box"}
#: A dog's features (R4, R26): pass ``✓``, −1 ``-1``, featured ``★``.
FEATURE = {"pass": "✓", "minus_one": "-1", "featured": "★"}


def cubes(vector: object, every: bool = True) -> Line:
    """``r3 g1 k0 y0 b3`` (``every``: zeros too), each colour lettered and coloured."""
    out: Line = []
    for colour, n in zip(COLOURS, _vector(vector)):  # type: ignore[arg-type]
        if not n and not every:
            continue
        if out:
            out.append((" ", ""))
        out.append((f"{COLOUR_LETTERS[colour]}{n}", COLOUR_STYLES[colour] if n else DIM))
    return out


def cost(vector: object) -> Line:
    """A cost ``3k2b`` (count, then letter, coloured); ``0`` when nothing is owed."""
    out: Line = [(f"{n}{COLOUR_LETTERS[c]}", COLOUR_STYLES[c]) for c, n in zip(COLOURS, _vector(vector)) if n]  # type: ignore[arg-type]
    return out or [("0", DIM)]


def card(s: State, card_id: str) -> Line:
    """A training card ``t19[4] 3y|1k``; ``a card face down`` for one the viewer may not know."""
    if card_id == HIDDEN or card_id not in s.cat.cards:
        return [(_("face down"), DIM)]
    c = s.cat.cards[card_id]
    first, second = c.rewards
    return [(f"{c.id}", ""), (f"[{c.number}]", "bold"), (" ", ""),
            (f"{first.count}{COLOUR_LETTERS[first.color]}", COLOUR_STYLES[first.color]), ("|", DIM),
            (f"{second.count}{COLOUR_LETTERS[second.color]}", COLOUR_STYLES[second.color])]


def flow(lead: Line, items: list[Line], width: int, indent: int = 2, sep: str = SEP, joined: bool = False) -> list[Line]:
    """``lead`` then ``items`` between ``sep`` (``joined``: one after the lead too), going on in
    lines indented by ``indent`` when the next item does not fit ``width`` (an item is never cut)."""
    lines: list[Line] = [list(lead)]
    fresh = not joined
    for item in items:
        piece = ([] if fresh else [(sep, DIM)]) + item
        if not fresh and line_len(lines[-1]) + line_len(piece) > width:
            lines.append([(" " * indent, "")])
            piece = item
        lines[-1] += piece
        fresh = False
    return lines


def tile(s: State, space: int, width: int) -> str:
    english = tile_name(s.board[space])
    called = name("tile", english)
    if called == english and width < WIDE:  # English only: a translated name is short already
        called = called.replace(" Poles", "").replace("Distraction", "Distract.") if width < 90 else called
    return f"{space} {called}"


def obstacle_word(obstacle_type: str, wide: bool) -> str:
    """An obstacle type's name: short at 80 columns (``tun``), whole when wide; in another language
    the board's name in it (short enough at any width)."""
    translated = obstacle_name(obstacle_type)
    if translated != OBSTACLE_NAMES[obstacle_type]:
        return translated
    return (WHOLE if wide else SHORT)[obstacle_type]


# ----------------------------------------------------------------------------------------------
# Status


def status(s: State, seat: int | None, note: str = "", verdict: tuple[str | None, str] | None = None) -> Line:
    """``Turn 15 · alice (you): adopt a dog or advance`` and the board's ``note`` (the last card,
    the wait, the thinking bot)."""
    if s.winner is not None or (verdict is not None and verdict[0] is not None):
        from ..render import status_text

        head: Line = list(status_text(s, verdict))
    else:
        assert s.to_act is not None
        who = s.players[s.to_act].name
        flags = [f for f in (_("final turn") if s.final_turn else "", _("mini-turn") if s.in_mini else "",
                             ngettext("{n} mini-turn to come", "{n} mini-turns to come", s.minis).format(n=s.minis)
                             if s.minis else "") if f]
        turn = _("Turn {turn}").format(turn=s.turn) + (_(" ({text})").format(text=list_sep().join(flags)) if flags else "")
        you = _(" (you)") if seat == s.to_act else ""
        head = [(turn, "bold"), (SEP, DIM), (_("{name}: {what}").format(name=f"{who}{you}", what=awaited(s, mini=True)), "bold yellow")]
    return head + ([(SEP, DIM), (note, "cyan")] if note else [])


# ----------------------------------------------------------------------------------------------
# The action board


def action(s: State, seat: int | None, width: int) -> list[Line]:
    """Every tile in order, the marker's marked: ``▶8 Distraction``."""
    items: list[Line] = []
    for space in range(len(s.board)):
        text = tile(s, space, width)
        items.append([(f"{MARK}{text}", HERE)] if space == s.marker else [(text, "")])
    return flow([(_("Action") + " ", "bold")], items, width, indent=7)


def reach(s: State, card_id: str, width: int) -> Line:
    """The space a card of the hand reaches from the marker: ``→6`` (``→6 Boost`` when wide)."""
    space = (s.marker + s.cat.cards[card_id].number) % len(s.board)
    return [(f"→{tile(s, space, width) if width >= WIDE else space}", "bold cyan")]


# ----------------------------------------------------------------------------------------------
# The players


def prizes(s: State, seat: int) -> list[str]:
    """The prizes a seat took (R32: first with three dogs; R33: first to finish a course)."""
    return [what for who, what in ((s.first_three, _("prize: 3 dogs")), (s.first_finish, _("prize: 1st finish"))) if who == seat]


def player(s: State, seat: int, viewer: int | None, width: int) -> list[Line]:
    """``alice (you) r3 g1 k3 y0 b3 · Flex 2 · Exch 1 · Tiebreak · dogs 2/3`` and the hand: the
    viewer's cards (every card, in a complete view) with number, both rewards and the space each
    reaches (``t19[4] 3y|1k→6``); of the opponent's, the count and those the viewer saw arrive."""
    p = s.players[seat]
    wide = width >= WIDE
    who = safe(p.name, 40) + (_(" (you)") if seat == viewer else "")
    exchange = _("Exchange {n}") if wide else _("Exch {n}")
    items: list[Line] = [[(_("Flex {n}").format(n=p.flex), "")], [(exchange.format(n=p.exchange), "")]]
    if s.tiebreak == seat:
        items.append([(_("Tiebreak"), "bold")])
    items += [[(text, "bold green")] for text in prizes(s, seat)]
    dogs = [dog_name(s.cat.dogs[d], wide) for d in p.dogs]
    held = _("dogs {held}/{most}").format(held=len(p.dogs), most=rules.MAX_DOGS)
    items.append([(held + (_(": {names}").format(names=list_sep().join(dogs)) if dogs and wide else ""), "")])
    cards = [c for c in p.hand if c != HIDDEN and c in s.cat.cards]
    hidden = len(p.hand) - len(cards)
    mine = seat == viewer
    hand: list[Line] = [[*card(s, c), *(reach(s, c, width) if mine and s.phase in ("play", "dogs", "refill") else [])]
                        for c in cards]
    if p.must_discard:
        hand.append([(_("must discard 1"), "bold")])
    head: Line = [(who, "bold underline" if seat == s.to_act else "bold"), (" ", ""), *cubes(p.cubes)]
    if mine:
        out = flow(head, items, width, 4, joined=True)
        return out + flow([("  " + _("hand") + " ", DIM)], hand or [[(_("empty"), DIM)]], width, 7)
    if cards and hidden:  # its cards follow
        count = _("hand {n}, {hidden} face down").format(n=len(p.hand), hidden=hidden)
    else:
        count = _("hand {n}").format(n=len(p.hand))
    return flow(head, [*items, [(count, "")], *hand], width, 4, joined=True)


def dog_name(dog: Dog, wide: bool) -> str:
    """``Golden Retriever``, or at 80 columns its first word (``Golden``; ``JRussell`` for Jack
    Russell Terrier, ``M.Mutt`` for Mighty Mutt).  In another language the name in it, at 80
    columns without what its brackets add (马犬（比利时马林诺斯犬） is 马犬)."""
    called = safe(name("dog", dog.name), 40)
    if called != safe(dog.name, 40):
        return called if wide else called.split("（")[0].split(" (")[0] or called
    if wide or " " not in called:
        return called
    words = called.split()
    if words[0] in ("Jack", "Mighty", "German", "Dutch", "Border", "Shetland", "Bernese"):
        return f"{words[0][0]}.{words[1]}" if len(words[1]) <= 10 else words[0]
    return words[0]


# ----------------------------------------------------------------------------------------------
# The courses


def obstacle(s: State, course: CourseState, index: int, wide: bool) -> Line:
    """One obstacle: ``▶hurdle 3k2b``, ``tun 2r2g★+1k RUSH``, ``open 2g-1``, ``weave ✓`` (a pass:
    no cost); cleared ``✔hurdle``."""
    ob = course.obstacles[index]
    called = obstacle_word(ob.type, wide)
    if course.dog is not None and index < course.position:
        return [(f"{CLEARED}{called}", DIM)]
    here = course.dog is not None and index == course.position
    out: Line = [(f"{MARK}{called}" if here else called, "bold" if here else "")]
    feature = s.feature(course, ob)
    if feature != "pass":  # R26: a pass clears the printed cost; only +1 markers remain
        out += [(" ", ""), *cost(ob.cost)]
    if feature is not None:
        out.append((f"{'' if feature != 'pass' else ' '}{FEATURE[feature]}", "italic"))
    if any(ob.plus):
        out += [("+", ""), *cost(ob.plus)]
    if ob.rush:
        out.append((" " + _("RUSH"), "bold red"))
    return out


def courses(s: State, width: int) -> list[Line]:
    """The six courses: ``2B alice Husky ▶hurdle 3k2b · a-fr 1k2y · …``, ``4A free hurdle …``, a
    finished one ``FINISHED``."""
    wide = width >= WIDE
    out: list[Line] = []
    for c in s.courses:
        if c.dog is None:
            lead: Line = [(f"{c.id} ", "bold"), (_("free") + " ", DIM)]
        else:
            owner = s.players[c.owner].name if c.owner is not None else "?"
            lead = [(f"{c.id} ", "bold"), (f"{safe(owner, 40)} ", ""), (f"{dog_name(s.cat.dogs[c.dog], wide)} ", "bold")]
            if c.finished:
                lead.append((_("FINISHED") + " ", "bold green"))
        items = [obstacle(s, c, k, wide) for k in range(len(c.obstacles))]
        out += flow(lead, items, width, 5)
    return out


# ----------------------------------------------------------------------------------------------
# The displays


#: An obstacle type's letter in a display dog's features at 80 columns (``H✓ T-1``).
LETTER = {"hurdle": "H", "tunnel": "T", "weave_poles": "W", "a_frame": "A", "open_ground": "O"}


def features(dog: Dog, wide: bool) -> list[Line]:
    """``H✓ T-1`` (``hurdle✓ tunnel-1`` when wide; ``all★``) — a dog's features in the courses' marks."""
    found = dict(dog.features)
    types = [t for t in OBSTACLE_TYPES if t != "pause_box"]
    if len(found) == len(types) and len(set(found.values())) == 1:
        return [[(f"{_('all')}{FEATURE[next(iter(found.values()))]}", "italic")]]
    translated = any(obstacle_name(t) != OBSTACLE_NAMES[t] for t in types)  # another language: its names
    return [[(f"{(obstacle_word(t, wide) if wide or translated else LETTER[t])}{FEATURE[found[t]]}", "italic")]
            for t in types if t in found]


def displays(s: State, width: int) -> list[Line]:
    """``Cards t25[6] 2r|1y · … · deck 1 · discard 30`` and ``Dogs Malinois 1r3k2y H-1 … · deck 4``
    (the features' letters: H hurdle, T tunnel, W weave poles, A A-frame, O open ground)."""
    wide = width >= WIDE
    shown = [card(s, c) for c in s.display]
    piles = [[(_("deck {deck}").format(deck=len(s.deck)), DIM)], [(_("discard {discard}").format(discard=len(s.discard)), DIM)]]
    out = flow([(_("Cards") + " ", "bold")], shown + piles, width, 6)
    dogs: list[Line] = []
    for d in s.dog_display:
        if d == HIDDEN or d not in s.cat.dogs:
            dogs.append([(_("a dog face down"), DIM)])
            continue
        dog = s.cat.dogs[d]
        item: Line = [(dog_name(dog, wide), "bold"), (" ", ""), *cost(dog.cost)]
        for f in features(dog, wide):
            item += [(" ", ""), *f]
        dogs.append(item)
    out += flow([(_("Dogs") + "  ", "bold")], dogs + [[(pgettext("dog deck", "deck {deck}").format(deck=len(s.dog_deck)), DIM)]], width, 6)
    return out


def position(s: State, seat: int | None, width: int) -> list[Line]:
    """The whole position below the status line: action board, both players (the viewer first),
    the courses, the displays."""
    order = [seat, 1 - seat] if seat in (0, 1) else [0, 1]
    out = action(s, seat, width)
    for k in order:
        assert k is not None
        out += player(s, k, seat, width)
    return out + courses(s, width) + displays(s, width)
