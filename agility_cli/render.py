"""State → rich renderables: the board summary shown after every move and by ``agility show``.

Nothing here prints: :func:`board` returns a renderable that the CLI hands to its console.  The
layout is a calm tabletop summary that fits 80 columns and reads the same without colour (the CLI
turns colour off when piped or under ``NO_COLOR``): every colour is also spelled out, as a word
(``3 red``) or a letter (``2b 1k``, legend in the courses heading).

Sections, top to bottom: action board (rondel, R7) · training display (R13) · dog display (R25) ·
courses (R5, R20, R21, R26) · players · status line and hints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from rich.console import Group
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from . import rules
from .components import COLOURS, OBSTACLE_TYPES, Dog
from .state import CourseState, State

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderableType, RenderResult

#: Rich style of each cube colour (R1).  Black cubes show as grey so that they stay visible.
COLOUR_STYLES: dict[str, str] = {
    "red": "red",
    "green": "green",
    "black": "bright_black",
    "yellow": "yellow",
    "blue": "bright_blue",
}
#: One-letter colour codes for compact costs (``k`` is black, as in CMYK).
COLOUR_LETTERS: dict[str, str] = {"red": "r", "green": "g", "black": "k", "yellow": "y", "blue": "b"}
LEGEND = "r red · g green · k black · y yellow · b blue"

OBSTACLE_NAMES: dict[str, str] = {
    "hurdle": "hurdle",
    "tunnel": "tunnel",
    "weave_poles": "weave",
    "a_frame": "a-frame",
    "open_ground": "open",
    "pause_box": "pause",
}
FEATURE_TAGS: dict[str, str] = {"pass": "pass", "minus_one": "-1", "featured": "feat"}
MARK = "▶"  # the counting marker on the rondel, and the obstacle a dog faces
DONE = "✓"  # a cleared obstacle
MAX_HINTS = 8  # the CLI passes about six, plus a line saying how many more there are

HEADING = "bold"
DIM = "dim"
HERE = "bold reverse"


def tile_name(tile: str) -> str:
    """``clear_a_frames`` → ``Clear A-Frames``."""
    return " ".join(w.capitalize() for w in tile.split("_")).replace(" A Frames", " A-Frames")


# --------------------------------------------------------------------------------------------
# Small pieces


def _vector(cubes: Mapping[str, int] | Sequence[int]) -> list[int]:
    if isinstance(cubes, Mapping):
        return [int(cubes.get(c, 0)) for c in COLOURS]
    return list(cubes)


def cubes_text(cubes: Mapping[str, int] | Sequence[int], *, short: bool = False, empty: str = "none") -> Text:
    """Cubes as coloured text: ``3 red, 1 blue`` or, with ``short``, ``3r 1b``; zeros left out."""
    text = Text()
    for colour, n in zip(COLOURS, _vector(cubes)):
        if not n:
            continue
        if text:
            text.append(" " if short else ", ")
        label = f"{n}{COLOUR_LETTERS[colour]}" if short else f"{n} {colour}"
        text.append(label, style=COLOUR_STYLES[colour])
    if not text:
        text.append(empty, style=DIM)
    return text


def card_text(state: State, card_id: str) -> Text:
    """A training card: ``t07 [3] 3 red | 2 black`` (R3)."""
    card = state.cat.cards[card_id]
    text = Text(f"{card.id} ")
    text.append(f"[{card.number}]", style="bold")
    for i, reward in enumerate(card.rewards):
        text.append(" | " if i else " ")
        text.append(f"{reward.count} {reward.color}", style=COLOUR_STYLES[reward.color])
    return text


def features_text(dog: Dog) -> Text:
    """A dog's features (R4): ``hurdle:pass a-frame:-1``; ``all:feat`` when one feature covers all."""
    features = dict(dog.features)
    types = [t for t in OBSTACLE_TYPES if t != "pause_box"]
    if len(features) == len(types) and len(set(features.values())) == 1:
        return Text(f"all:{FEATURE_TAGS[next(iter(features.values()))]}")
    return Text(" ".join(f"{OBSTACLE_NAMES[t]}:{FEATURE_TAGS[features[t]]}" for t in types if t in features))


def obstacle_text(state: State, course: CourseState, index: int) -> Text:
    """One obstacle of a course: ``2 tunnel 1r 2g -1 +1g RUSH``, ``3 hurdle pass``; ``✓tunnel`` once
    cleared.  On a claimed course the obstacles ahead carry their number (1 = first), which the
    Distraction and Slip commands use; ``▶`` marks the one the dog faces."""
    ob = course.obstacles[index]
    name = OBSTACLE_NAMES[ob.type]
    if course.dog is None:
        text = Text(name)
    elif index < course.position:
        return Text(f"{DONE}{name}", style=DIM)
    else:
        faced = index == course.position
        text = Text()
        if faced:
            text.append(MARK, style="bold")
        text.append(f"{index + 1} {name}", style="bold" if faced else "")
    feature = state.feature(course, ob)
    if feature != "pass":  # R26: a pass feature clears the printed cost; only +1 markers remain
        text.append(" ")
        text.append_text(cubes_text(ob.cost, short=True))
    if feature is not None:
        text.append(f" {FEATURE_TAGS[feature]}", style="italic")
    if any(ob.plus):
        text.append(" +")
        text.append_text(cubes_text(ob.plus, short=True))
    if ob.rush:
        text.append(" RUSH", style="bold red")
    return text


class Flow:
    """Items laid out left to right, separated by ``sep``, wrapping at the console width.

    Continuation lines are indented by ``indent`` cells; ``lead`` starts the first line.
    """

    def __init__(self, items: Iterable[Text], *, sep: str = " · ", lead: Text | str = "", indent: int = 0):
        self.items = list(items)
        self.sep = sep
        self.lead = lead if isinstance(lead, Text) else Text(lead)
        self.indent = indent

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = self.lead.copy()
        fresh = True  # nothing but the lead or the indent on this line yet
        for item in self.items:
            if not fresh and line.cell_len + len(self.sep) + item.cell_len > width:
                yield line
                line, fresh = Text(" " * self.indent), True
            if not fresh:
                line.append(self.sep, style=DIM)
            line.append_text(item)
            fresh = False
        yield line


class Trimmed:
    """A renderable with the trailing blanks of each line dropped (tables pad their cells), so
    that piped or mailed output carries no trailing whitespace."""

    def __init__(self, renderable: RenderableType):
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in console.render_lines(self.renderable, options, pad=False):
            while line and not line[-1].control and not line[-1].text.rstrip():
                line.pop()
            if line and not line[-1].control:
                last = line[-1]
                line[-1] = Segment(last.text.rstrip(), last.style)
            yield from line
            yield Segment.line()


# --------------------------------------------------------------------------------------------
# Sections


def _rondel(state: State) -> list[RenderableType]:
    """R7: spaces 0–9 with their tiles; the counting marker's space highlighted."""
    items = []
    for space, tile in enumerate(state.board):
        if space == state.marker:
            items.append(Text(f"{MARK}{space} {tile_name(tile)}", style=HERE))
        else:
            items.append(Text(f"{space} {tile_name(tile)}"))
    out: list[RenderableType] = [Text("Action board", style=HEADING), Flow(items, lead="  ", indent=2)]
    if "inspiration" in state.board:  # R23
        left = Text("  Inspiration cubes left: ")
        if state.inspiration:
            left.append_text(cubes_text({c: 1 for c in state.inspiration}))
        else:
            left.append("none", style=DIM)
        out.append(left)
    return out


def _training(state: State) -> list[RenderableType]:
    """R13: the face-up display, deck and discard sizes."""
    head = Text().append("Training display", style=HEADING)
    head.append(f"   deck {len(state.deck)} · discard {len(state.discard)}", style=DIM)
    if not state.display:
        return [head, Text("  empty", style=DIM)]
    return [head, _indented(cards_table(state, state.display))]


def cards_table(state: State, card_ids: Iterable[str]) -> Table:
    """Training cards one per line, aligned: ``t07  [3]  3 red | 2 black``."""
    table = Table.grid(padding=(0, 1))
    for _ in range(4):
        table.add_column(no_wrap=True)
    for card_id in card_ids:
        card = state.cat.cards[card_id]
        first, second = card.rewards
        table.add_row(
            card.id,
            Text(f"[{card.number}]", style="bold"),
            Text(f"{first.count} {first.color}", style=COLOUR_STYLES[first.color]),
            Text("| ").append(f"{second.count} {second.color}", style=COLOUR_STYLES[second.color]),
        )
    return table


def _dogs(state: State) -> list[RenderableType]:
    """R25: the dog display: name, adoption cost, features."""
    head = Text().append("Dog display", style=HEADING)
    head.append(f"   deck {len(state.dog_deck)} · pass: free · -1: one cube less · feat: featured", style=DIM)
    if not state.dog_display:
        return [head, Text("  empty", style=DIM)]
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column()
    for dog_id in state.dog_display:
        dog = state.cat.dogs[dog_id]
        name = Text(dog.name)
        if dog.id != _slug(dog.name):
            name.append(f" ({dog.id})", style=DIM)
        table.add_row(name, cubes_text(dict(dog.cost)), features_text(dog))
    return [head, _indented(table)]


def _slug(name: str) -> str:
    return "-".join(name.lower().split())


def _indented(renderable: RenderableType, cells: int = 2) -> Table:
    grid = Table.grid()
    grid.add_column(width=cells, no_wrap=True)
    grid.add_column()
    grid.add_row("", renderable)
    return grid


def _course_rows(state: State) -> list[RenderableType]:
    """R5/R26: one row per course: slot, id, owner and dog, then each obstacle."""
    head = Text().append("Courses", style=HEADING)
    head.append(f"   cubes: {LEGEND}", style=DIM)
    rows: list[RenderableType] = [head]
    for slot, course in enumerate(state.courses, 1):
        lead = Text(f"  {slot} {course.id:<3} ")
        obstacles = [obstacle_text(state, course, k) for k in range(len(course.obstacles))]
        if course.dog is None or course.owner is None:  # unclaimed (R25): its obstacles and costs
            rows.append(Flow(obstacles, lead=lead, indent=8))
            continue
        owner = state.players[course.owner].name
        lead.append(f"{owner} · ")
        lead.append(state.cat.dogs[course.dog].name, style="bold")
        if course.finished:
            lead.append("  FINISHED", style="bold green")
            rows.append(lead)
            continue
        lead.append(f"  {course.position}/{len(course.obstacles)} cleared", style=DIM)
        rows.append(lead)
        rows.append(Flow(obstacles, lead=" " * 6, indent=6))
    return rows


def _player(state: State, seat: int) -> Group:
    p = state.players[seat]
    name = Text().append(p.name, style="bold underline" if seat == state.to_act else "bold")
    tags = []
    if seat == state.start:
        tags.append("start player")
    if state.tiebreak == seat:
        tags.append("Tiebreak")
    if seat == state.winner:
        tags.append("WINNER")
    if tags:
        name.append(f"  ({', '.join(tags)})")
    lines: list[RenderableType] = [name]
    cubes = Text("cubes ")
    cubes.append_text(cubes_text(p.cubes))
    lines.append(cubes)
    lines.append(Text(f"Flex {p.flex} · Exchange {p.exchange} · turns {p.turns}"))
    hand = Text(f"hand {len(p.hand)}/{p.hand_size}")
    if p.must_discard:
        hand.append("  must discard 1", style="bold")
    lines.append(hand)
    if p.hand:
        lines.append(_indented(cards_table(state, p.hand)))
    owned = {c.dog: c for c in state.courses if c.dog is not None}
    lines.append(Text(f"dogs {len(p.dogs)}/{rules.MAX_DOGS}"))
    for dog_id in p.dogs:
        course = owned.get(dog_id)
        where = ""
        if course is not None:
            where = f" {course.id} " + ("done" if course.finished else f"{course.position}/{len(course.obstacles)}")
        lines.append(Text(f"  {state.cat.dogs[dog_id].name}").append(where, style=DIM))
    return Group(*lines)


def _players(state: State) -> list[RenderableType]:
    table = Table.grid(padding=(0, 4))
    table.add_column(ratio=1)
    table.add_column(ratio=1)
    table.add_row(_player(state, 0), _player(state, 1))
    return [Text("Players", style=HEADING), _indented(table)]


def status_text(state: State) -> Text:
    """Turn, whose turn, who must act and what (``rules.awaited``), or the winner."""
    if state.winner is not None:
        text = Text().append(f"Game over after turn {state.turn}: ", style="bold")
        text.append(f"{state.players[state.winner].name} wins", style="bold green")
        return text
    active = state.players[state.active].name
    text = Text().append(f"Turn {state.turn} · {active}'s turn", style="bold")
    flags = []
    if state.final_turn:
        flags.append("final turn")
    if state.in_mini:
        flags.append("mini-turn")
    if state.minis:
        flags.append(f"{state.minis} mini-turn{'s' if state.minis > 1 else ''} to come")
    if flags:
        text.append(f" ({', '.join(flags)})", style="bold")
    to_act = state.to_act
    assert to_act is not None
    what = rules.awaited(state).removeprefix("mini-turn: ")
    text.append(" · ")
    text.append(f"{state.players[to_act].name} to {what}", style="bold yellow")
    return text


def _current(state: State) -> list[Text]:
    """The card being resolved this (mini-)turn and a Boost card, when there are some."""
    out = []
    if state.card is not None and state.winner is None and state.phase != "dogs":
        line = Text("  playing ").append_text(card_text(state, state.card))
        if state.reward is not None:
            line.append(f"  (reward {state.reward}" + (", Sweep: both)" if state.sweep else ")"))
        out.append(line)
    if state.boost_card is not None:
        out.append(Text("  Boost card ").append_text(card_text(state, state.boost_card)))
    return out


def board(state: State, hints: list[str] | None = None) -> RenderableType:
    """The board summary: everything public about ``state``, then the ``hints`` lines (at most
    :data:`MAX_HINTS`; the CLI passes legal commands)."""
    parts: list[RenderableType] = []
    parts += _rondel(state)
    parts += _training(state)
    parts += _dogs(state)
    parts += _course_rows(state)
    parts += _players(state)
    parts.append(Text(""))
    parts.append(status_text(state))
    parts += _current(state)
    if hints:
        shown = hints[:MAX_HINTS]
        for hint in shown:
            parts.append(Text(f"  {hint}", style="cyan"))
        if len(hints) > len(shown):
            parts.append(Text(f"  … and {len(hints) - len(shown)} more", style=DIM))
    return Trimmed(Group(*parts))
