"""State → board summary: the calm tabletop view shown after every move and by ``agility show``.

Nothing here prints.  The layout fits 80 columns and reads the same without colour: every colour
is also spelled out, as a word (``3 red``) or a letter (``2b 1k``, legend in the courses heading).
Sections, top to bottom: action board (rondel, R7) · training display (R13) · dog display (R25) ·
courses (R5, R20, R21, R26) · players · status line and hints.

Design: the layout is computed here, not by rich.  :func:`board_lines` turns a state into a
list of lines, each a list of ``(text, style)`` segments (``style`` a rich style string or ``""``).
Column alignment, the two-column player panel and the wrapping of long rows are plain string
arithmetic.  Then:

* :func:`board_plain` joins the lines into plain text (no ANSI) for piped output and ``NO_COLOR``;
  it imports no ``rich`` module at all;
* :func:`board` imports ``rich.text`` lazily and returns one :class:`rich.text.Text`: spans for
  the styles, ``no_wrap`` and ``overflow="ignore"``.  Rich only paints.  (``Console.print`` joins
  the Texts it is given into a new one, dropping those two flags: it re-wraps at the console
  width, which changes nothing on a terminal at least as wide as the layout.)

Why: ``agility show`` has a budget of 1.5× a bare ``python -c "import typer, rich, msgspec"``.
This module used to build nested rich ``Table``/``Group`` renderables: importing
rich.console/rich.table/rich.text cost ~20 ms, and one board took ~14 ms to lay out and print
warm, ~18 ms as the first board of a process.  Now ``import agility_cli.table.render`` costs only the
engine modules it needs (~24 ms instead of ~45 ms, bytecode cached), :func:`board_plain` takes
~0.3 ms, and :func:`board` printed by a rich ``Console`` ~2.5 ms.

The layout reproduces what the rich tables did; tests/golden/ is the spec.  That includes rich's
word wrapping of lines that are too long (continuation at the left margin, over-long words folded,
or cut short with ``…`` inside a column) and its shrinking of the two player columns (the wider
first) when they do not fit side by side.  Widths are terminal cells (:func:`cell_len`).  The cell
arithmetic, the word wrapping and the columns are :mod:`agility_cli.table.layout`'s; this module
lays out the board's sections with them and keeps their public names importable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..engine import explain, rules
from ..engine.components import COLOURS, OBSTACLE_TYPES, Dog, fingerprint, is_standard, tile_name
from ..engine.state import HIDDEN, CourseState, State
from ..i18n import N_, _, name, ngettext, pgettext
from ..text import quoted, safe
# Lines and their cell arithmetic are layout.py's; the public names stay importable from here.
from .layout import Line as Line, Segment as Segment, cell_len as cell_len, line_len as line_len
from .layout import text_of as text_of, wrap as wrap
from .layout import _columns, _crop, _fit, _indented, _padded, _ratio_reduce, _rstrip, _shrink

if TYPE_CHECKING:
    from rich.text import Text

WIDTH = 80  # the board is laid out for 80 columns

#: Rich style of each cube colour (R1).  Black cubes show as black on a light chip: visible on a
#: dark terminal and never mistaken for dimmed text (which is grey).
COLOUR_STYLES: dict[str, str] = {
    "red": "red",
    "green": "green",
    "black": "bold black on bright_white",
    "yellow": "yellow",
    "blue": "bright_blue",
}
#: One-letter colour codes for compact costs (``k`` is black, as in CMYK).
COLOUR_LETTERS: dict[str, str] = {"red": "r", "green": "g", "black": "k", "yellow": "y", "blue": "b"}
LEGEND = "r red · g green · k black · y yellow · b blue"  # in English; legend() in the language in use


def legend() -> str:
    """What each colour letter means, in the language in use: ``r red · g green · …`` (the letters
    stay: they are what the board shows)."""
    return SEP.join(f"{COLOUR_LETTERS[c]} {name('colour', c)}" for c in COLOURS)


def list_sep() -> str:
    """Between the items of a list: ``, `` in English, ``、`` in Chinese."""
    return _(", ")


def obstacle_name(obstacle_type: str) -> str:
    """An obstacle type's short name on the board (``weave``), in the language in use."""
    return name("obstacle", OBSTACLE_NAMES[obstacle_type])


def feature_tag(feature: str) -> str:
    """A dog's feature as the board marks it (``pass``, ``-1``, ``feat``), in the language in use."""
    return name("feature", FEATURE_TAGS[feature])


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
SEP = " · "  # between items of a row
MAX_HINTS = 8  # the CLI passes about six, plus a line saying how many more there are

HEADING = "bold"
DIM = "dim"
HERE = "bold reverse"


# --------------------------------------------------------------------------------------------
# Small pieces


def _vector(cubes: Mapping[Any, int] | Sequence[int]) -> list[int]:
    if isinstance(cubes, Mapping):
        return [int(cubes.get(c, 0)) for c in COLOURS]
    return list(cubes)


def cubes_text(cubes: Mapping[Any, int] | Sequence[int], *, short: bool = False, empty: str | None = None) -> Line:
    """Cubes as coloured segments: ``3 red, 1 blue`` or, with ``short``, ``3r 1b``; zeros left out;
    ``empty`` (``none`` in the language in use) when there are none."""
    out: Line = []
    for colour, n in zip(COLOURS, _vector(cubes)):
        if not n:
            continue
        if out:
            out.append((" " if short else list_sep(), ""))
        out.append((f"{n}{COLOUR_LETTERS[colour]}" if short else f"{n} {name('colour', colour)}", COLOUR_STYLES[colour]))
    return out or [(_("none") if empty is None else empty, DIM)]


def card_text(state: State, card_id: str) -> Line:
    """A training card: ``t07 [3] 3 red | 2 black`` (R3); a card the viewer may not know: ``a card face down``."""
    if card_id == HIDDEN:
        return [(_("a card face down"), DIM)]
    card = state.cat.cards[card_id]
    out: Line = [(f"{card.id} ", ""), (f"[{card.number}]", "bold")]
    for i, reward in enumerate(card.rewards):
        out.append((" | " if i else " ", ""))
        out.append((f"{reward.count} {name('colour', reward.color)}", COLOUR_STYLES[reward.color]))
    return out


def features_text(dog: Dog) -> Line:
    """A dog's features (R4): ``hurdle:pass a-frame:-1``; ``all:feat`` when one feature covers all."""
    features = dict(dog.features)
    types = [t for t in OBSTACLE_TYPES if t != "pause_box"]
    if len(features) == len(types) and len(set(features.values())) == 1:
        return [(_("{obstacle}:{feature}").format(obstacle=_("all"), feature=feature_tag(next(iter(features.values())))), "")]
    return [(pgettext("between features", " ").join(_("{obstacle}:{feature}").format(obstacle=obstacle_name(t), feature=feature_tag(features[t]))
                      for t in types if t in features), "")]


def obstacle_text(state: State, course: CourseState, index: int) -> Line:
    """One obstacle of a course: ``2 tunnel 1r 2g -1 +1g RUSH``, ``3 hurdle pass``; ``✓tunnel`` once
    cleared.  On a claimed course the obstacles ahead carry their number (1 = first), which the
    Distraction and Slip commands use; ``▶`` marks the one the dog faces."""
    ob = course.obstacles[index]
    called = obstacle_name(ob.type)
    out: Line
    if course.dog is None:
        out = [(called, "")]
    elif index < course.position:
        return [(f"{DONE}{called}", DIM)]
    elif index == course.position:
        out = [(MARK, "bold"), (f"{index + 1} {called}", "bold")]
    else:
        out = [(f"{index + 1} {called}", "")]
    feature = state.feature(course, ob)
    if feature != "pass":  # R26: a pass feature clears the printed cost; only +1 markers remain
        out.append((" ", ""))
        out += cubes_text(ob.cost, short=True)
    if feature is not None:
        out.append((f" {feature_tag(feature)}", "italic"))
    if any(ob.plus):
        out.append((" +", ""))
        out += cubes_text(ob.plus, short=True)
    if ob.rush:
        out.append((" " + _("RUSH"), "bold red"))
    return out


def card_rows(state: State, card_ids: Iterable[str], width: int | None = None) -> list[Line]:
    """Training cards one per line, in aligned columns: ``t07 [3] 3 red   | 2 black``.  Wider
    than ``width``, every column gives up the same share and long cells end in ``…``."""
    rows = []
    hidden = 0
    for card_id in card_ids:
        if card_id == HIDDEN:  # R39: a card the viewer may not know
            hidden += 1
            continue
        card = state.cat.cards[card_id]
        first, second = card.rewards
        rows.append(
            [
                [(card.id, "")],
                [(f"[{card.number}]", "bold")],
                [(f"{first.count} {name('colour', first.color)}", COLOUR_STYLES[first.color])],
                [("| ", ""), (f"{second.count} {name('colour', second.color)}", COLOUR_STYLES[second.color])],
            ]
        )
    out = _columns(rows, width)
    if hidden:
        out.append([(ngettext("{n} card you cannot see", "{n} cards you cannot see", hidden).format(n=hidden), DIM)])
    return out


def _flow(items: Iterable[Line], lead: Line, indent: int, width: int) -> list[Line]:
    """Items left to right, separated by ``·``, wrapping at ``width``; continuation lines are
    indented by ``indent`` cells; ``lead`` starts the first line."""
    lines: list[Line] = []
    line, used, fresh = list(lead), line_len(lead), True  # fresh: nothing but lead/indent yet
    for item in items:
        cells = line_len(item)
        if not fresh and used + len(SEP) + cells > width:
            lines.append(line)
            line, used, fresh = [(" " * indent, "")], indent, True
        if not fresh:
            line.append((SEP, DIM))
            used += len(SEP)
        line.extend(item)
        used += cells
        fresh = False
    lines.append(line)
    return lines


# --------------------------------------------------------------------------------------------
# Sections


def _rondel(state: State, width: int) -> list[Line]:
    """R7: spaces 0–9 with their tiles; the counting marker's space highlighted."""
    items = [
        [(f"{MARK}{space} {name('tile', tile_name(tile))}", HERE)] if space == state.marker
        else [(f"{space} {name('tile', tile_name(tile))}", "")]
        for space, tile in enumerate(state.board)
    ]
    out = [[(_("Action board"), HEADING)], *_flow(items, [("  ", "")], 2, width)]
    if "inspiration" in state.board:  # R23
        left = cubes_text({c: 1 for c in state.inspiration})
        out.append([("  " + _("Inspiration cubes left: "), ""), *left])
    return out


def _training(state: State) -> list[Line]:
    """R13: the face-up display, deck and discard sizes."""
    head = [(_("Training display"), HEADING),
            ("   " + _("deck {deck} · discard {discard}").format(deck=len(state.deck), discard=len(state.discard)), DIM)]
    if not state.display:
        return [head, [("  " + _("empty"), DIM)]]
    return [head, *_indented(card_rows(state, state.display))]


def _slug(name: str) -> str:
    return "-".join(name.lower().split())


def _dogs(state: State, width: int) -> list[Line]:
    """R25: the dog display: name, adoption cost, features; the features wrap in their column."""
    head = [(_("Dog display"), HEADING)]
    # the dog deck, not the training deck: the context says which deck (the glossary's two words)
    head.append(("   " + pgettext("dog deck", "deck {deck} · pass: free · -1: one cube less · feat: featured").format(
        deck=len(state.dog_deck)), DIM))
    if not state.dog_display:
        return [head, [("  " + _("empty"), DIM)]]
    turning_up = "  " + _("a dog being turned up: shown when the other player next writes (sealed deck)")
    if all(d == HIDDEN for d in state.dog_display):
        return [head, *[[(turning_up, DIM)]] * len(state.dog_display)]
    rows = []
    turning = state.dog_display.count(HIDDEN)  # R43: in a sealed game, shown when the opponent next writes
    for dog_id in state.dog_display:
        if dog_id == HIDDEN:
            continue
        dog = state.cat.dogs[dog_id]
        called: Line = [(name("dog", dog.name), "")]
        if dog.id != _slug(dog.name):
            called.append((f" ({dog.id})", DIM))
        rows.append((called, cubes_text(dog.cost), features_text(dog)))
    # Columns two blanks apart; only the features wrap, in what the names and costs leave.
    widths = [max(line_len(r[0]) for r in rows) + 2, max(line_len(r[1]) for r in rows) + 2]
    room = width - 2
    features_w = min(max(line_len(r[2]) for r in rows), room - sum(widths))
    if features_w < 0:  # not even the names and costs fit: everything gives up the same share
        widths = _ratio_reduce(-features_w, [1, 1], widths, widths)
        features_w = 0
    blank = [(" " * (2 + sum(widths)), "")]
    out = [head]
    for called, cost, features in rows:
        first, *more = _fit(features, features_w) if features_w else [[]]
        called, cost = _crop(called, widths[0] - 2), _crop(cost, widths[1] - 2)
        out.append([("  ", ""), *_padded(called, widths[0]), *_padded(cost, widths[1]), *first])
        out += [blank + line for line in more]
    out += [[(turning_up, DIM)]] * turning
    return out


def _courses(state: State, width: int) -> list[Line]:
    """R5/R26: one row per course: slot (``#1``, never to be confused with an id), id, owner and
    dog, then each obstacle."""
    rows = [[(_("Courses"), HEADING), ("   " + _("cubes: {legend}").format(legend=legend()), DIM)]]
    for slot, course in enumerate(state.courses, 1):
        lead: Line = [(f"  #{slot} ", DIM), (f"{course.id:<3} ", "bold")]
        obstacles = [obstacle_text(state, course, k) for k in range(len(course.obstacles))]
        if course.dog is None or course.owner is None:  # unclaimed (R25): its obstacles and costs
            rows += _flow(obstacles, lead, 9, width)
            continue
        lead.append((f"{state.players[course.owner].name} · ", ""))
        lead.append((name("dog", state.cat.dogs[course.dog].name), "bold"))
        if course.finished:
            lead.append(("  " + _("FINISHED"), "bold green"))
            rows.append(lead)
            continue
        lead.append(("  " + _("{cleared}/{total} cleared").format(cleared=course.position, total=len(course.obstacles)), DIM))
        rows.append(lead)
        rows += _flow(obstacles, [(" " * 6, "")], 6, width)
    return rows


def _player(state: State, seat: int, width: int | None = None) -> list[Line]:
    p = state.players[seat]
    who: Line = [(p.name, "bold underline" if seat == state.to_act else "bold")]
    tags = []
    if seat == state.start:
        tags.append(_("start player"))
    if state.tiebreak == seat:
        tags.append(_("Tiebreak"))
    if seat == state.winner:
        tags.append(_("WINNER"))
    if tags:
        who.append((" " + _(" ({text})").format(text=list_sep().join(tags)), ""))
    hand: Line = [(_("hand {held}/{size}").format(held=len(p.hand), size=p.hand_size), "")]
    if p.must_discard:
        hand.append(("  " + _("must discard 1"), "bold"))
    lines = [
        who,
        [(_("cubes") + " ", ""), *cubes_text(p.cubes)],
        [(_("Flex {flex} · Exchange {exchange} · turns {turns}").format(flex=p.flex, exchange=p.exchange, turns=p.turns), "")],
        hand,
        *_indented(card_rows(state, p.hand, None if width is None else width - 2)),
        [(_("dogs {held}/{most}").format(held=len(p.dogs), most=rules.MAX_DOGS), "")],
    ]
    owned = {c.dog: c for c in state.courses if c.dog is not None}
    for dog_id in p.dogs:
        course = owned.get(dog_id)
        line: Line = [(f"  {name('dog', state.cat.dogs[dog_id].name)}", "")]
        if course is not None:
            where = _("done") if course.finished else f"{course.position}/{len(course.obstacles)}"
            line.append((f" {course.id} {where}", DIM))
        lines.append(line)
    return lines


def _players(state: State, width: int) -> list[Line]:
    """Both players side by side, four blanks apart.  When they do not fit, the columns shrink
    (the wider first) and their lines wrap, as a rich table's would."""
    gap = 4
    left, right = _player(state, 0), _player(state, 1)
    left_w = max(map(line_len, left))
    right_w = max(map(line_len, right))
    room = width - 2
    if left_w + gap + right_w > room:
        shrunk = _shrink([left_w + gap, right_w], room)
        left_w = max(min(left_w + gap, shrunk[0]) - gap, 1)
        right_w = max(min(right_w, shrunk[1]), 1)
        left = [part for line in _player(state, 0, left_w) for part in _fit(line, left_w)]
        right = [part for line in _player(state, 1, right_w) for part in _fit(line, right_w)]
    out = [[(_("Players"), HEADING)]]
    for i in range(max(len(left), len(right))):
        line: Line = [("  ", "")]
        if i < len(right):
            line += _padded(left[i], left_w + gap) if i < len(left) else [(" " * (left_w + gap), "")]
            line += right[i]
        elif i < len(left):
            line += left[i]
        out.append(line)
    return out


def why_won(state: State) -> str:
    """Why the game ended as it did (R34): who finished, the final turn, the Tiebreak marker."""
    assert state.winner is not None
    w, o = state.winner, 1 - state.winner
    winner, other = state.players[w].name, state.players[o].name

    def finished(seat: int) -> int:
        return sum(1 for c in state.courses if c.owner == seat and c.finished)

    if finished(w) >= rules.MAX_DOGS and finished(o) >= rules.MAX_DOGS:
        return _("both finished three dogs; {winner} holds the Tiebreak marker").format(winner=winner)
    if state.final_turn and state.finisher == w:
        return _("{winner} finished three dogs; {other} did not in the final turn").format(winner=winner, other=other)
    return _("{winner} finished three dogs").format(winner=winner)


def status_text(state: State, verdict: tuple[str | None, str] | None = None) -> Line:
    """Turn, whose turn, who must act and what (``rules.awaited``), or the winner.  ``verdict``:
    a sealed game's (R42) — the winner it gives (a forfeit's other player; None: the winner stands)
    and why, in words."""
    if verdict is not None and verdict[0] is not None and state.winner is None:  # R42: an abort ends a game under way
        return [(_("Game aborted in turn {turn}: ").format(turn=state.turn), "bold"),
                (_("{name} wins").format(name=verdict[0]), "bold green"),
                (_(" ({text})").format(text=verdict[1]), "bold yellow")]
    if state.winner is not None:
        if verdict is not None:
            winner, why = verdict
            called = winner if winner is not None else state.players[state.winner].name
            return [(_("Game over after turn {turn}: ").format(turn=state.turn), "bold"),
                    (_("{name} wins").format(name=called), "bold green"),
                    (_(" ({text})").format(text=why), "bold yellow")]
        return [
            (_("Game over after turn {turn}: ").format(turn=state.turn), "bold"),
            (_("{name} wins").format(name=state.players[state.winner].name), "bold green"),
            (_(" ({text})").format(text=why_won(state)), ""),
        ]
    out: Line = [(_("Turn {turn} · {name}'s turn").format(turn=state.turn, name=state.players[state.active].name), "bold")]
    flags = []
    if state.final_turn:
        flags.append(_("final turn"))
    if state.in_mini:
        flags.append(_("mini-turn"))
    if state.minis:
        flags.append(ngettext("{n} mini-turn to come", "{n} mini-turns to come", state.minis).format(n=state.minis))
    if flags:
        out.append((_(" ({text})").format(text=list_sep().join(flags)), "bold"))
    to_act = state.to_act
    assert to_act is not None
    out.append((SEP, ""))
    out.append((_("{name} to {what}").format(name=state.players[to_act].name, what=awaited(state)), "bold yellow"))
    return out


#: What the game waits for, by phase: the engine's words (``explain.PHASE_TEXT``, marked for the
#: catalog there; refusals quote them in English and tell them in the language in use).
AWAITED: dict[str, str] = explain.PHASE_TEXT


def awaited(state: State, mini: bool = False) -> str:
    """A few words on the decision the game waits for (``rules.awaited``, R12), in the language in
    use; the status line says whether it is a mini-turn (``mini``: these words say it, as
    ``rules.awaited`` does)."""
    if mini and state.in_mini and state.phase == "play" and state.winner is None and not state.prizes:
        return _("mini-turn: {what}").format(what=awaited(state))
    if state.winner is not None:
        return _(AWAITED["over"])
    if state.prizes:  # R32/R33
        what = _("first to adopt three dogs") if state.prizes[0][1] == "three_dogs" else _("first to finish a course")
        return _("choose a prize token ({what})").format(what=what)
    text = AWAITED.get(state.phase)
    return _(text) if text is not None else rules.awaited(state).removeprefix("mini-turn: ")


def _current(state: State) -> list[Line]:
    """The card being resolved this (mini-)turn and a Boost card, when there are some."""
    out = []
    if state.card is not None and state.winner is None and state.phase != "dogs":
        line = [("  " + _("playing") + " ", ""), *card_text(state, state.card)]
        if state.reward is not None:
            reward = _("(reward {reward}, Sweep: both)") if state.sweep else _("(reward {reward})")
            line.append(("  " + reward.format(reward=name("colour", state.reward)), ""))
        out.append(line)
    if state.boost_card is not None:
        out.append([("  " + _("Boost card") + " ", ""), *card_text(state, state.boost_card)])
    return out


# --------------------------------------------------------------------------------------------
# The board


def board_lines(state: State, hints: list[str] | None = None, width: int = WIDTH,
                verdict: tuple[str | None, str] | None = None) -> list[Line]:
    """The board summary as lines of ``(text, style)`` segments: everything public about
    ``state``, then the ``hints`` lines (at most :data:`MAX_HINTS`; the CLI passes legal
    commands).  Every line fits ``width`` cells and has no trailing blanks.

    A game not played with the shipped component set says so first, with the set's fingerprint
    (R6).  Every piece of text is made safe (:func:`agility_cli.text.safe`): names and ids come
    from the game file, and a control character in them must neither reach the terminal nor
    shift rich's style offsets."""
    comp = state.cat.components
    custom = None if is_standard(comp) else _("custom component set {name} (fingerprint {fingerprint})").format(
        name=quoted(comp.name, 60), fingerprint=fingerprint(comp))  # components.describe_set's words (R6)
    lines: list[Line] = [[(_("Components: "), HEADING), (custom, "bold yellow")]] if custom else []
    lines += _rondel(state, width)
    lines += _training(state)
    lines += _dogs(state, width)
    lines += _courses(state, width)
    lines += _players(state, width)
    lines.append([])
    lines.append(status_text(state, verdict))
    lines += _current(state)
    board_end = len(lines)
    if hints:
        shown = hints[:MAX_HINTS]
        lines += [[(f"  {hint}", "cyan")] for hint in shown]
        if len(hints) > len(shown):
            lines.append([("  " + _("… and {n} more").format(n=len(hints) - len(shown)), DIM)])
    out: list[Line] = []
    for n, line in enumerate(lines):
        line = _rstrip([(safe(text, 1000), style) for text, style in line])
        if line_len(line) > width:  # a long name, or a long hint: its lines indented under its text
            out += wrap(line, width, indent=4 if n >= board_end else 0)
        else:
            out.append(line)
    return out


def plain_text(lines: Iterable[Line]) -> str:
    """Lines as plain text, joined by newlines (no newline after the last, as for ``print``)."""
    return "\n".join("".join(text for text, _ in line) for line in lines)


def rich_text(lines: Iterable[Line]) -> Text:
    """Lines as one :class:`rich.text.Text` that rich paints but does not re-wrap (imports rich)."""
    from rich.text import Span, Text

    parts: list[str] = []
    spans: list[Span] = []
    offset = 0
    for n, line in enumerate(lines):
        if n:
            parts.append("\n")
            offset += 1
        for text, style in line:
            end = offset + len(text)
            if style and text:
                spans.append(Span(offset, end, style))
            parts.append(text)
            offset = end
    return Text("".join(parts), spans=spans, no_wrap=True, overflow="ignore")


def board_plain(state: State, hints: list[str] | None = None, width: int = WIDTH,
                verdict: tuple[str | None, str] | None = None) -> str:
    """The board summary as plain text for piped output and ``NO_COLOR``: no ANSI codes, lines
    joined by newlines, none after the last.  Imports no rich module."""
    return plain_text(board_lines(state, hints, width, verdict))


def board(state: State, hints: list[str] | None = None, width: int = WIDTH,
          verdict: tuple[str | None, str] | None = None) -> Text:
    """The board summary as a rich renderable for colour terminals (see :func:`board_lines`)."""
    return rich_text(board_lines(state, hints, width, verdict))
