"""The decision screen of ``agility play``: what one decision needs, fitted to the terminal.

At every decision the player sees one screen, top to bottom:

1. **what happened** since their last decision: the opponent's (or the bot's) turn and the forced
   lines, in the replay's sentences, the most recent last;
2. the **status line**: ``Turn 29 (alice's 15th) · alice to play a training card`` (the turn counts
   both players' turns; the ordinal is the active player's own count, the board's ``turns 15``);
3. the **parts of the board that bear on the decision**: the viewer's cubes and tokens, the card
   being resolved, the viewer's dogs with their next obstacles and costs, for an adoption the free
   courses and the dogs of the display, the opponent in short, the action board;
4. the **numbered choices** (``choices.menu``) with, under each, the hint on the tile a card reaches
   and its options, and the one line of help on what to type.

Every row is a candidate with a rank (:data:`ALWAYS` …).  What the opponent has and just did is
never left out: its cubes and tokens, each of its dogs with its next obstacles and costs, and the
card it played last (:func:`last_played`; a card played face down is said so), with the status,
the choices, the help and the latest thing that happened.  When the terminal is short the others
go, in this order: explanations of options, the parts of the board this phase does not use, the
viewer's finished dogs, the far part of the action board, then the story from its oldest line
(:func:`_choose`), and one short line says how many rows were left out and what to type to see
them.  No line is wrapped by the terminal: a row that does not fit goes on in an indented line (a
course, a player, the action board, a sentence), with shorter words where needed, so at 80 columns
no row ends in ``…``; a card row on a narrow terminal gives up the marker's move, then its words,
then its card, and keeps the tile it reaches to the last.  A menu too long for the screen is shown
a page at a time, the last row saying how to see the next one; the numbers stay those of the whole
menu.  ``height=None`` (output to a pipe) shows every line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..engine import rules
from ..engine.components import tile_name
from ..engine.moves import Adopt, Distract, Play, Rush, Slip
from ..engine.state import HIDDEN, CourseState, State
from ..engine.view import move_view
from ..text import safe
from ..i18n import ENGLISH, _, language, name, ngettext, pgettext
from . import guide
from . import choices
from .choices import Row
from .layout import Line, _crop, cell_len, line_len, text_of
from .narrate import _tile
from .render import DIM, awaited, card_text, cubes_text, features_text, list_sep, obstacle_text


def dog_name(english: str) -> str:
    """A dog's name in the language in use (a dog of your own components file as it is written)."""
    return name("dog", english)

#: Ranks, the lowest kept first.  ``ALWAYS`` lines are on every screen: the status, the choices and
#: the help, the latest thing that happened, the viewer's cubes and tokens and the opponent's whole
#: position (its cubes and tokens, its dogs with their next obstacles, the card it played last).
#: The others go in this order when rows must: explanations of options (``EXPLAIN``), the parts of
#: the board this phase does not use (``ASIDE``), the viewer's finished dogs (``FINISHED``), the far
#: part of the action board (``FAR``), then the story, its oldest lines first (``STORY``).
ALWAYS, KEEP, STORY, FAR, FINISHED, ASIDE, EXPLAIN = 0, 1, 2, 3, 4, 5, 6
#: What to type to see what a left-out line of each rank said.
_SEE = {EXPLAIN: "help", ASIDE: "board", FINISHED: "board", FAR: "board", STORY: "news"}
HELP_STYLE = "cyan"
STATUS_STYLE = "bold"
MENU_STYLE = "bold"
INDENT = 8  # where a row that goes on in a second line goes on


@dataclass
class _Candidate:
    lines: list[Line]  # one row of the screen, in one or more lines kept or left out together
    rank: int
    sub: int = 0  # within a rank: the lower kept first (news: how far from the latest line)
    block: str = ""


@dataclass(frozen=True)
class Played:
    """The card the opponent played last, as the viewer may see it: ``card`` an id or ``HIDDEN``
    (face down), the tile it reached and the turn."""

    card: str
    tile: str | None
    turn: int


def last_played(steps: list[Any], seat: int | None, before: Played | None = None) -> Played | None:
    """The last card played in ``steps`` (``session.Step``: ``move``, ``before``, ``after``) by the
    opponent of ``seat``, as ``seat`` may see it (R39: a face-down card stays hidden); ``before``
    when they hold none."""
    out = before
    for step in steps:
        m = step.move
        if not isinstance(m, Play) or seat is None or m.player == step.before.players[seat].name:
            continue
        shown = move_view(step.before, m, seat)
        card = getattr(shown, "card", HIDDEN)
        after = step.after
        out = Played(card, after.board[after.marker] if 0 <= after.marker < len(after.board) else None, step.before.turn)
    return out


@dataclass
class Screen:
    """A decision screen: its lines and how many pages the menu takes (1 when it fits)."""

    lines: list[Line]
    pages: int = 1
    page: int = 0
    rows_shown: list[int] = field(default_factory=list)  # the numbers of the rows on this page


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def turn_words(s: State) -> str:
    """``Turn 29 (alice's 15th)``: the turn counted for both players, and the active player's own
    (in a language other than English its own count, ``第 29 回合（alice 的第 15 个）``)."""
    p = s.players[s.active]
    n = max(p.turns, 1)
    return _("Turn {turn} ({name}'s {ordinal})").format(
        turn=s.turn, name=p.name, ordinal=ordinal(n) if language() == ENGLISH else str(n))


def status_line(s: State, note: str | None = None) -> Line:
    """``Turn 29 (alice's 15th) · alice to play a training card``, with the turn's flags."""
    flags = []
    if s.final_turn:
        flags.append(_("final turn"))
    if s.minis:
        flags.append(ngettext("{n} mini-turn to come", "{n} mini-turns to come", s.minis).format(n=s.minis))
    head = turn_words(s) + (_(" ({text})").format(text=list_sep().join(flags)) if flags else "")
    assert s.to_act is not None
    who = _("{name} to {what}").format(name=s.players[s.to_act].name, what=awaited(s, mini=True))
    out: Line = [(head, STATUS_STYLE), (" · ", ""), (who, "bold yellow")]
    if note:
        out.append((f"  [{note}]", DIM))
    return out


def _status_lines(s: State, note: str | None, width: int) -> list[Line]:
    """The status line, going on in a second line (at its words) when it does not fit."""
    head, _, *rest = status_line(s, note)
    words = [[(w, style)] for text, style in rest for w in text.split()]
    words[0] = [("· " + words[0][0][0], words[0][0][1])]
    return _flow([head], words, width, 4, sep=" ", joined=True)


def help_line(rows: list[Row], pages: int, width: int = 80, typed: str = "") -> str:
    """What to type, in one short line: ``type 1–3 (or with options: 1 red), or help, hint, …``
    (``typed``: a row with options, as typed); shorter when the terminal is narrow."""
    more = _(", more") if pages > 1 else ""
    span = "1" if len(rows) == 1 else f"1–{len(rows)}"
    options = _(" (or with options: {typed})").format(typed=typed) if typed else ""
    for line in (_("type {span}{options}, or help, hint, board, undo{more}, quit").format(span=span, options=options, more=more),
                 _("type {span}, or help, hint, board, undo{more}, quit").format(span=span, more=more),
                 _("type {span}, help{more} or quit").format(span=span, more=more)):
        if cell_len(line) + 2 <= width:
            return line
    return _("type {span}{more}").format(span=span, more=more)


def decision_screen(
    view: State,
    rows: list[Row],
    news: list[str],
    width: int,
    height: int | None,
    *,
    note: str | None = None,
    page: int = 0,
    title: str | None = None,
    help_text: str | None = None,
    example: str | None = None,
    played: Played | None = None,
) -> Screen:
    """The screen of one decision, as the player who must decide sees it (``view``: their seat
    view, R39): ``news`` (narration lines, the latest last), the status, the parts of the board
    this decision needs and the ``rows`` to choose from, within ``width`` columns and, unless
    ``height`` is ``None``, ``height - 1`` lines (the last row is the prompt's).

    ``title`` replaces the status line for a second step (``adopt Papillon onto which course?``)
    and ``help_text`` the line on what to type; ``page`` is the page of a menu that does not fit;
    ``example`` a row typed with options (``1 red``: ``choices.example`` of the complete state);
    ``played`` the card the opponent played last (:func:`last_played`)."""
    width = max(width, 20)
    budget = None if height is None else max(height - 1, 4)
    seat = view.to_act if view.to_act is not None else view.active
    fixed: list[_Candidate] = []
    fixed += _news(news, width)
    status = [[(title, MENU_STYLE)]] if title else _status_lines(view, note, width)
    fixed.append(_Candidate(status, ALWAYS, block="status"))
    if title is None:
        fixed += _board_parts(view, seat, rows, width, played)
    labels = [_label_lines(view, row, k, width) for k, row in enumerate(rows)]
    typed = choices.example(view, rows) if example is None else example
    first_help = help_text if help_text is not None else help_line(rows, 1, width, typed)
    room = None if budget is None else budget - 1 - sum(len(c.lines) for c in fixed if c.rank == ALWAYS)
    pages = _paging([len(x) for x in labels], room)
    page = min(max(page, 0), len(pages) - 1)
    shown = pages[page]
    menu = _menu(view, rows, shown, labels, width)
    if len(pages) > 1:
        nxt = pages[(page + 1) % len(pages)]
        more = _("rows {first}–{last}: type more (page {page} of {pages})").format(
            first=nxt[0] + 1, last=nxt[-1] + 1, page=page + 1, pages=len(pages))
        menu.append(_Candidate([[(f"  … {more}", DIM)]],
                               ALWAYS, block="menu"))
    typing = help_text if help_text is not None else help_line(rows, len(pages), width, typed) if len(pages) > 1 else first_help
    cands = [*fixed, *menu, _Candidate([[("  " + typing, HELP_STYLE)]], ALWAYS, block="help")]
    lines = _choose(cands, budget, width)
    return Screen(lines, len(pages), page, [k + 1 for k in shown])


def _paging(heights: list[int], room: int | None) -> list[list[int]]:
    """The rows of each page: all on one when they fit ``room`` lines, else pages of whole rows
    with a line saying how to see the next one."""
    if room is None or sum(heights) <= room:
        return [list(range(len(heights)))]
    cap = max(room - 1, 1)
    pages: list[list[int]] = [[]]
    used = 0
    for k, h in enumerate(heights):
        if pages[-1] and used + h > cap:
            pages.append([])
            used = 0
        pages[-1].append(k)
        used += h
    return pages


# ----------------------------------------------------------------------------------------------
# What happened


def _news(news: list[str], width: int) -> list[_Candidate]:
    """Narration lines: the latest always, the rest while there is room, the oldest left out
    first; a long sentence goes on in further lines, indented under its text (never cut)."""
    out: list[_Candidate] = []
    n = len(news)
    for i, text in enumerate(news):
        age = n - 1 - i
        style = "bold" if not text.startswith(" ") else ""
        out.append(_Candidate([[(part, style)] for part in _split(text, width)], ALWAYS if age == 0 else STORY, age, "news"))
    return out


def _split(text: str, width: int, most: int = 4) -> list[str]:
    """A sentence broken at blanks within ``width``; the rest indented under it (at most ``most``
    lines, the last cut short)."""
    text = safe(text, 1000).rstrip()
    indent = " " * (len(text) - len(text.lstrip(" ")) + 6)
    out: list[str] = []
    while cell_len(text) > width and len(out) < most - 1:
        lead = len(text) - len(text.lstrip(" "))
        fits = _fitting(text, width)  # the characters within ``width`` cells (a CJK one takes two)
        cut = text.rfind(" ", 0, fits + 1)
        if cut <= lead + 4:
            cut = fits
        out.append(text[:cut].rstrip())
        text = indent + text[cut:].lstrip()
    out.append(text_of(_crop([(text, "")], width)))
    return out


def _fitting(text: str, width: int) -> int:
    """How many characters of ``text`` fit ``width`` terminal cells."""
    cells = 0
    for i, ch in enumerate(text):
        cells += cell_len(ch)
        if cells > width:
            return i
    return len(text)


# ----------------------------------------------------------------------------------------------
# The board, in the parts this decision needs


def _board_parts(s: State, seat: int, rows: list[Row], width: int, played: Played | None) -> list[_Candidate]:
    phase = "prize" if s.prizes else s.phase
    adopting = any(isinstance(r.moves[0], Adopt) for r in rows)
    me = s.players[seat]
    out = [_Candidate(_player_lines(s, seat, width), ALWAYS, block="board")]
    if s.card is not None and s.phase != "dogs":
        line: Line = [("  " + _("playing") + " ", ""), *card_text(s, s.card)]
        if s.reward is not None:
            reward = _("(reward {reward}, Sweep: both)") if s.sweep else _("(reward {reward})")
            line.append(("  " + reward.format(reward=name("colour", s.reward)), ""))
        out.append(_Candidate([_crop(line, width)], KEEP if phase in ("reward", "boost", "inspire") else ASIDE, block="board"))
    if s.boost_card is not None:
        out.append(_Candidate([_crop([("  " + _("Boost card") + " ", ""), *card_text(s, s.boost_card)], width)], KEEP, block="board"))
    if phase in ("break", "return", "put_back", "draw", "refill", "reward", "dogs", "discard", "prize"):
        out.append(_Candidate(_hand_lines(s, me.hand, width), KEEP if phase in ("break", "draw", "refill") else ASIDE, block="board"))
    for course in _courses_of(s, seat):
        out.append(_Candidate(_dog_lines(s, course, width), FINISHED if course.finished else KEEP, block="board"))
    if adopting:
        for k, c in enumerate(s.courses, 1):
            if c.dog is None:
                out.append(_Candidate(_flow([("  " + _("free") + " ", DIM), (f"#{k} ", DIM), (f"{c.id}  ", "bold")],
                                             [obstacle_text(s, c, j) for j in range(len(c.obstacles))], width), KEEP, block="board"))
        offered = {r.moves[0].dog for r in rows if isinstance(r.moves[0], Adopt)}
        for dog_id in s.dog_display:
            if dog_id == HIDDEN:  # R43: a sealed game's dog being turned up
                continue
            out.append(_Candidate(_display_dog_lines(s, dog_id, dog_id in offered, width),
                                  KEEP if dog_id in offered else ASIDE, block="board"))
    out.append(_Candidate(_player_lines(s, 1 - seat, width), ALWAYS, block="board"))
    for course in _courses_of(s, 1 - seat):
        out.append(_Candidate(_dog_lines(s, course, width), ALWAYS, block="board"))
    out.append(_Candidate(_played_lines(s, 1 - seat, played, width), ALWAYS, block="board"))
    if phase in ("play", "boost"):
        near, *far = _rondel_lines(s, width)
        out.append(_Candidate([near], KEEP, block="board"))
        if far:
            out.append(_Candidate(far, FAR, block="board"))
    return out


def _courses_of(s: State, seat: int) -> list[CourseState]:
    owned = {c.dog: c for c in s.courses if c.owner == seat and c.dog is not None}
    return [owned[d] for d in s.players[seat].dogs if d in owned]


def _flow(lead: Line, items: list[Line], width: int, indent: int = INDENT, sep: str = " · ", joined: bool = False) -> list[Line]:
    """``lead`` and ``items`` between ``sep`` (``joined``: one after the lead too), going on in
    lines indented by ``indent`` when they do not fit ``width`` (an item is never broken; one wider
    than a line is cut short)."""
    lines: list[Line] = [list(lead)]
    fresh = not joined  # nothing but the lead on the current line
    for item in items:
        cur = lines[-1]
        piece = ([] if fresh else [(sep, DIM)]) + item
        if not fresh and line_len(cur) + line_len(piece) > width:
            lines.append([(" " * indent, "")])
            cur, piece = lines[-1], item
        cur += piece
        joined = False
        fresh = False
    return [_crop(line, width) for line in lines]


def _player_lines(s: State, seat: int, width: int) -> list[Line]:
    """``  alice  cubes 2 red, 1 blue · Flex 1 · Exchange 0 · hand 3/3 · dogs 1/3`` (the cubes
    ``2r 1b`` when the words do not fit; going on in a second line when even they do not)."""
    p = s.players[seat]
    name: Line = [(f"  {p.name}", "bold")]
    if seat == s.tiebreak:
        name.append((_(" ({text})").format(text=_("Tiebreak")), ""))
    hand = _("hand {held}/{size}").format(held=len(p.hand), size=p.hand_size) + ("  " + _("must discard 1") if p.must_discard else "")
    rest: list[Line] = [[(_("Flex {n}").format(n=p.flex), "")], [(_("Exchange {n}").format(n=p.exchange), "")], [(hand, "")],
                        [(_("dogs {held}/{most}").format(held=len(p.dogs), most=rules.MAX_DOGS), "")]]
    for short in (False, True):
        lines = _flow([*name, ("  " + _("cubes") + " ", ""), *cubes_text(p.cubes, short=short)], rest, width, 4, joined=True)
        if len(lines) == 1:
            break
    return lines


def _hand_lines(s: State, hand: list[str], width: int) -> list[Line]:
    """``  your hand  t17 [4] 2 black | 2 yellow · t14 …``."""
    if not hand:
        return [[("  " + _("your hand") + " ", ""), (_("empty"), DIM)]]
    cards = [card_text(s, card) if card != HIDDEN else [(_("a card face down"), DIM)] for card in hand]
    return _flow([("  " + _("your hand") + " ", "")], cards, width)[:2]


def _dog_lines(s: State, course: CourseState, width: int) -> list[Line]:
    """``    Papillon 2B 1/5: ▶2 a-frame 1k 2y · 3 open 3g · 4 tunnel 2r 2g``, going on in a second
    line when it does not fit (done: ``FINISHED``); shorter words when even two lines do not."""
    assert course.dog is not None
    name = dog_name(s.cat.dogs[course.dog].name)
    if course.finished:
        return [_crop([(f"    {name} ", ""), (f"{course.id} ", "bold"), (_("FINISHED"), "bold green")], width)]
    obstacles = [obstacle_text(s, course, k) for k in range(course.position, len(course.obstacles))]
    short = name.split()[0] if " " in name else name
    for head in ([(f"    {name} ", ""), (f"{course.id} ", "bold"), (f"{course.position}/{len(course.obstacles)}: ", DIM)],
                 [(f"    {short} ", ""), (f"{course.id}: ", "bold")]):
        lines = _flow(head, obstacles, width)
        if len(lines) <= 2 and not any(text_of(line).endswith("…") for line in lines):
            return lines
    return lines[:3]


def _played_lines(s: State, seat: int, played: Played | None, width: int) -> list[Line]:
    """``    last card t08 [2] 3 yellow | 2 red → Clear Tunnels (turn 6)``; face down: ``a card
    face down``; ``none yet`` before the opponent's first card."""
    head: Line = [("    " + _("last card") + " ", DIM)]
    if played is None:
        return [head + [(_("none yet"), DIM)]]
    known = played.card in s.cat.cards
    card = card_text(s, played.card) if known else [(_("a card face down"), DIM)]
    tail: Line = [(f"→ {_tile(played.tile)}", "")] if played.tile is not None and known else []
    return _flow(head, [card, tail + [(" " + _("(turn {n})").format(n=played.turn), DIM)]], width, sep=" ")


def _display_dog_lines(s: State, dog_id: str, offered: bool, width: int) -> list[Line]:
    """``  dog Golden Retriever  1k 4b  hurdle:pass``, its features going on in a second line."""
    dog = s.cat.dogs[dog_id]
    lead = "  " + (_("dog") if offered else _("dog (not enough cubes)")) + " "
    head: Line = [(lead, DIM), (dog_name(dog.name), ""), ("  ", ""), *cubes_text(dog.cost, short=True), ("  ", "")]
    return _flow(head, [[(w, "")] for w in text_of(features_text(dog)).split()], width, sep=" ")[:2]


def _rondel_lines(s: State, width: int) -> list[Line]:
    """The action board from the marker on: ``  board ▶2 Flex · 3 Clear Tunnels · …``, the far
    spaces going on in further lines."""
    spaces = [(s.marker + k) % 10 for k in range(10)]
    items: list[Line] = [[(f"▶{sp} {_tile(s.board[sp])}", "bold reverse") if k == 0 else (f"{sp} {_tile(s.board[sp])}", "")]
                         for k, sp in enumerate(spaces)]
    return _flow([("  " + pgettext("action board", "board") + " ", DIM)], items, width)


# ----------------------------------------------------------------------------------------------
# The choices

_MARKER = re.compile(r" ?[(（][^()（）]*\d+→\d+[)）]$")  # ``(marker 3→6)`` in any language
_LETTERS = {"red": "r", "green": "g", "black": "k", "yellow": "y", "blue": "b"}


def _short_rewards(head: str) -> str:
    """A card's rewards by their colour letters: ``3 red | 2 black`` → ``3r|2k`` (the colours in the
    language in use)."""
    letters = {name("colour", c): letter for c, letter in _LETTERS.items()}
    colour = "|".join(re.escape(w) for w in sorted(letters, key=len, reverse=True))
    rewards = re.compile(rf"(\d) ({colour}) \| (\d) ({colour})")
    return rewards.sub(lambda m: f"{m[1]}{letters[m[2]]}|{m[3]}{letters[m[4]]}", head)


def _label_lines(s: State, row: Row, k: int, width: int) -> list[Line]:
    """A row's label: ``  3) play t07 [3] 3 red | 2 black → Boost (marker 3→6)``.  A card row that
    does not fit gives up the marker's move, then its words (``3r|2k``), then its card, and keeps
    the tile it reaches to the last; any other row goes on in a second line."""
    number = (f"{k + 1:>3}) ", MENU_STYLE)
    label = safe(row.label, 1000)
    if row.tile is not None and " → " in label:
        head, tail = label.rsplit(" → ", 1)
        plain_tail = _MARKER.sub("", tail)
        short = _short_rewards(head)
        bare = short.removeprefix(_("play {card}").split("{card}")[0])
        for h, t in ((head, tail), (head, plain_tail), (short, plain_tail), (bare, plain_tail)):
            line: Line = [number, (f"{h} → {t}", "")]
            if line_len(line) <= width:
                return [line]
        room = width - 5 - cell_len(f" → {plain_tail}")
        if room >= 4:
            return [[number, *_crop([(bare, "")], room), (f" → {plain_tail}", "")]]
        return [_crop([number, (f"→ {plain_tail}", "")], width)]
    sep = " · " if " · " in label else " "  # a course's obstacles are never broken
    lines = _flow([number], [[(w, "")] for w in label.split(sep)], width, 6, sep=sep)
    if len(lines) > 2:
        lines = lines[:1] + [_crop(lines[1] + [(" ", "")] + [seg for line in lines[2:] for seg in line], width)]
    return lines


def _menu(s: State, rows: list[Row], shown: list[int], labels: list[list[Line]], width: int) -> list[_Candidate]:
    out = []
    for k in shown:
        row = rows[k]
        out.append(_Candidate(labels[k], ALWAYS, block="menu"))
        if row.tile is not None:
            out.append(_Candidate([[(t, DIM)] for t in _split(" " * INDENT + guide.tile_hint(row.tile), width)], EXPLAIN, 1, block="menu"))
        options = row.options.replace(row.flex, "").rstrip(" ·") if row.flex else row.options
        if row.two_steps:
            options += _(" (or {n} alone, then the course)").format(n=k + 1)
        if options:
            urgent = row.spends_token or row.two_steps
            text = " " * INDENT + _("options: {options}").format(options=safe(options, 1000))
            out.append(_Candidate([[(t, DIM)] for t in _split(text, width)], EXPLAIN, 0 if urgent else 2, block="menu"))
        if row.flex:
            shifts = sorted({m.flex for m in row.moves if isinstance(m, Play) and m.flex})
            typed = _(" or ").join(f"{k + 1} {f:+d}" for f in shifts) if len(shifts) <= 2 else \
                f"{k + 1} {shifts[0]:+d} … {k + 1} {shifts[-1]:+d}"
            flex = _("Flex ({typed}): {shifts}").format(typed=typed, shifts=row.shifts)
            out.append(_Candidate([[(t, DIM)] for t in _split(" " * INDENT + safe(flex, 1000), width)], EXPLAIN, 0, block="menu"))
    return out


# ----------------------------------------------------------------------------------------------
# Fitting


def _choose(cands: list[_Candidate], budget: int | None, width: int) -> list[Line]:
    """The candidates that fit ``budget`` lines, best rank first, shown in their order; what was
    left out is said in one short line (how many rows, and what to type to see them)."""
    if budget is not None:
        _squeeze(cands, budget)
    keep = _best(cands, budget)
    left = [i for i in range(len(cands)) if i not in keep]
    if left and budget is not None:
        keep = _best(cands, budget - 1)
        left = [i for i in range(len(cands)) if i not in keep]
    out: list[Line] = []
    if left:
        n = sum(len(cands[i].lines) for i in left)
        see = list_sep().join(dict.fromkeys(_SEE[r] for r in sorted({cands[i].rank for i in left}, reverse=True) if r in _SEE))
        notes = (ngettext("{n} row left out: type {see}", "{n} rows left out: type {see}", n).format(n=n, see=see),
                 _("{n} left out: {see}").format(n=n, see=see))
        note = next((f"  … {t}" for t in notes if cell_len(f"  … {t}") <= width), "  … " + _("{n} left out").format(n=n))
        where = 0 if any(cands[i].block == "news" for i in left) else next(i for i, c in enumerate(cands) if c.block == "status")
    for i, c in enumerate(cands):
        if left and i == where:
            out.append(_crop([(note, DIM)], width))
        if i in keep:
            out += [_crop(_rstrip_segments(line), width) for line in c.lines]
    return out


def _squeeze(cands: list[_Candidate], budget: int) -> None:
    """The last resort of a very small terminal: the rows that are always shown each in one line
    (cut short), the longest first, until they fit."""
    always = sorted((c for c in cands if c.rank == ALWAYS and len(c.lines) > 1), key=lambda c: -len(c.lines))
    total = sum(len(c.lines) for c in cands if c.rank == ALWAYS)
    for c in always:
        if total <= budget:
            return
        total -= len(c.lines) - 1
        rest = [seg for line in c.lines[1:] for seg in [(" ", ""), *line]]
        c.lines = [_crop(c.lines[0] + rest, line_len(c.lines[0]) + 1 if line_len(c.lines[0]) < 10 else max(line_len(c.lines[0]), 20))]


def _best(cands: list[_Candidate], budget: int | None) -> set[int]:
    if budget is None:
        return set(range(len(cands)))
    order = sorted(range(len(cands)), key=lambda i: (cands[i].rank, cands[i].sub, i))
    keep: set[int] = set()
    used = 0
    story = True  # the story is kept from its latest line back, without a gap
    for i in order:
        c = cands[i]
        if c.rank == STORY and not story:
            continue
        if c.rank != ALWAYS and used + len(c.lines) > budget:
            story = story and c.rank != STORY
            continue
        keep.add(i)
        used += len(c.lines)
    return keep


def _rstrip_segments(line: Line) -> Line:
    while line and not line[-1][0].rstrip():
        line = line[:-1]
    if line:
        text, style = line[-1]
        line = [*line[:-1], (text.rstrip(), style)]
    return line


def plain(lines: list[Line]) -> str:
    """The screen as plain text (no newline after the last line)."""
    return "\n".join(text_of(line) for line in lines)
