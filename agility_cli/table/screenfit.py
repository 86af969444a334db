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

Every line is a candidate with a rank; when the terminal is short, the lines of the lowest rank
are left out (:func:`_choose`), so that what matters most always shows: the choices and the help,
the status line, the latest thing that happened, then the rest in order of use for this phase.
No line is ever wrapped by the terminal: each is cut to the width, ending in ``…``.  A menu too
long for the screen is shown a page at a time, the last row saying how to see the next one; the
numbers stay those of the whole menu.  ``height=None`` (output to a pipe) shows every line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import rules
from ..engine.components import tile_name
from ..engine.moves import Adopt, Distract, Play, Rush, Slip
from ..engine.state import HIDDEN, CourseState, State
from ..text import safe
from . import guide
from . import choices
from .choices import Row
from .layout import Line, _crop, line_len, text_of
from .render import DIM, card_text, cubes_text, features_text, obstacle_text

#: Ranks, the lowest shown first: 0 always, then by use.
ALWAYS, FIRST, SECOND, THIRD, LAST = 0, 1, 2, 3, 4
HELP_STYLE = "cyan"
STATUS_STYLE = "bold"
MENU_STYLE = "bold"


@dataclass
class _Candidate:
    line: Line
    rank: int
    sub: int = 0  # within a rank: the lower first (news: how far from the latest line)
    block: str = ""
    cut: Line | None = None  # the line to show instead when its continuation is left out
    continues: int | None = None  # index of the line this one continues


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
    """``Turn 29 (alice's 15th)``: the turn counted for both players, and the active player's own."""
    p = s.players[s.active]
    return f"Turn {s.turn} ({p.name}'s {ordinal(max(p.turns, 1))})"


def status_line(s: State, note: str | None = None) -> Line:
    """``Turn 29 (alice's 15th) · alice to play a training card``, with the turn's flags."""
    flags = []
    if s.final_turn:
        flags.append("final turn")
    if s.minis:
        flags.append(f"{s.minis} mini-turn{'s' if s.minis > 1 else ''} to come")
    head = turn_words(s) + (f" ({', '.join(flags)})" if flags else "")
    assert s.to_act is not None
    out: Line = [(head, STATUS_STYLE), (" · ", ""), (f"{s.players[s.to_act].name} to {rules.awaited(s)}", "bold yellow")]
    if note:
        out.append((f"  [{note}]", DIM))
    return out


def help_line(rows: list[Row], pages: int, width: int = 80, typed: str = "") -> str:
    """What to type, in one short line: ``type 1–3 (or with options: 1 red), or help, hint, …``
    (``typed``: a row with options, as typed); shorter when the terminal is narrow."""
    more = ", more" if pages > 1 else ""
    span = "1" if len(rows) == 1 else f"1–{len(rows)}"
    options = f" (or with options: {typed})" if typed else ""
    for line in (f"type {span}{options}, or help, hint, board, undo{more}, quit",
                 f"type {span}, or help, hint, board, undo{more}, quit", f"type {span}, help{more} or quit"):
        if len(line) + 2 <= width:
            return line
    return f"type {span}{more}"


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
) -> Screen:
    """The screen of one decision, as the player who must decide sees it (``view``: their seat
    view, R39): ``news`` (narration lines, the latest last), the status, the parts of the board
    this decision needs and the ``rows`` to choose from, within ``width`` columns and, unless
    ``height`` is ``None``, ``height - 1`` lines (the last row is the prompt's).

    ``title`` replaces the status line for a second step (``adopt Papillon onto which course?``)
    and ``help_text`` the line on what to type; ``page`` is the page of a menu that does not fit;
    ``example`` a row typed with options (``1 red``: ``choices.example`` of the complete state)."""
    width = max(width, 20)
    budget = None if height is None else max(height - 1, 4)
    seat = view.to_act if view.to_act is not None else view.active
    rows_per_page, pages = _paging(len(rows), budget, len(news))
    page = min(max(page, 0), pages - 1)
    shown = list(range(page * rows_per_page, min(len(rows), (page + 1) * rows_per_page))) if pages > 1 else list(range(len(rows)))
    cands: list[_Candidate] = []
    cands += _news(news, width, budget)
    status: Line = [(title, MENU_STYLE)] if title else status_line(view, note)
    cands.append(_Candidate(status, ALWAYS, block="status"))
    if title is None:
        cands += _board_parts(view, seat, rows, width)
    cands += _menu(view, rows, shown, width)
    if pages > 1:
        nxt = (page + 1) % pages
        first, last = nxt * rows_per_page + 1, min(len(rows), (nxt + 1) * rows_per_page)
        cands.append(_Candidate([(f"  … rows {first}–{last}: type more (page {page + 1} of {pages})", DIM)], ALWAYS, block="menu"))
    typed = choices.example(view, rows) if example is None else example
    typing = help_text if help_text is not None else help_line(rows, pages, width, typed)
    cands.append(_Candidate([("  " + typing, HELP_STYLE)], ALWAYS, block="help"))
    lines = _choose(cands, budget, width)
    return Screen(lines, pages, page, [k + 1 for k in shown])


def _paging(n_rows: int, budget: int | None, n_news: int) -> tuple[int, int]:
    """Rows a page and pages: the menu's labels, the status, the help and one line of news must fit."""
    if budget is None:
        return n_rows, 1
    room = budget - 2 - (1 if n_news else 0)
    if n_rows <= room:
        return n_rows, 1
    per = max(room - 1, 1)  # a line says how to see the next page
    return per, -(-n_rows // per)


# ----------------------------------------------------------------------------------------------
# What happened


def _news(news: list[str], width: int, budget: int | None) -> list[_Candidate]:
    """Narration lines: the latest always, about a third of the screen before the board parts, the
    rest when there is room; a long sentence goes on in a second line when there is room."""
    out: list[_Candidate] = []
    early = max((budget or 0) // 3, 3)
    n = len(news)
    for i, text in enumerate(news):
        age = n - 1 - i
        rank = ALWAYS if age == 0 else FIRST if age < early else THIRD
        line: Line = [(safe(text, 1000), "bold" if not text.startswith(" ") else "")]
        if line_len(line) <= width:
            out.append(_Candidate(line, rank, age, "news"))
            continue
        first, rest = _split(text, width)
        out.append(_Candidate([(first, "")], rank, age, "news", cut=_crop(line, width)))
        out.append(_Candidate(_crop([(rest, "")], width), rank, age, "news", continues=len(out) - 1))
    return out


def _split(text: str, width: int) -> tuple[str, str]:
    """A sentence broken at the last blank within ``width``; the rest indented under it."""
    text = safe(text, 1000)
    cut = text.rfind(" ", 0, width + 1)
    if cut <= len(text) - len(text.lstrip()) + 4:
        cut = width
    indent = " " * (len(text) - len(text.lstrip(" ")) + 6)
    return text[:cut].rstrip(), indent + text[cut:].lstrip()


# ----------------------------------------------------------------------------------------------
# The board, in the parts this decision needs


def _board_parts(s: State, seat: int, rows: list[Row], width: int) -> list[_Candidate]:
    phase = "prize" if s.prizes else s.phase
    adopting = any(isinstance(r.moves[0], Adopt) for r in rows)
    aiming = any(isinstance(m, (Distract, Rush, Slip)) for r in rows for m in r.moves)
    me = s.players[seat]
    out = [_Candidate(_player_line(s, seat, width), FIRST, block="board")]
    if s.card is not None and s.phase != "dogs":
        line: Line = [("  playing ", ""), *card_text(s, s.card)]
        if s.reward is not None:
            line.append((f"  (reward {s.reward}" + (", Sweep: both)" if s.sweep else ")"), ""))
        out.append(_Candidate(line, FIRST if phase in ("reward", "boost", "inspire") else THIRD, block="board"))
    if s.boost_card is not None:
        out.append(_Candidate([("  Boost card ", ""), *card_text(s, s.boost_card)], FIRST, block="board"))
    if phase in ("break", "return", "put_back", "draw", "refill", "reward", "dogs", "discard", "prize"):
        out.append(_Candidate(_hand_line(s, me.hand), SECOND if phase in ("break", "draw", "refill") else THIRD, block="board"))
    for course in _courses_of(s, seat):
        out.append(_Candidate(_dog_line(s, course), SECOND if phase in ("dogs", "play", "reward", "boost") else THIRD, block="board"))
    if adopting:
        free = [(k, c) for k, c in enumerate(s.courses, 1) if c.dog is None]
        for k, c in free:
            out.append(_Candidate(_free_course_line(s, k, c), SECOND, block="board"))
        offered = {r.moves[0].dog for r in rows if isinstance(r.moves[0], Adopt)}
        for dog_id in s.dog_display:
            if dog_id == HIDDEN:  # R43: a sealed game's dog being turned up
                continue
            out.append(_Candidate(_display_dog_line(s, dog_id, dog_id in offered), THIRD if dog_id in offered else LAST, block="board"))
    out.append(_Candidate(_player_line(s, 1 - seat, width), SECOND if aiming else THIRD, block="board"))
    for course in _courses_of(s, 1 - seat):
        out.append(_Candidate(_dog_line(s, course), SECOND if aiming else LAST, block="board"))
    if phase in ("play", "boost"):
        out.append(_Candidate(_rondel_line(s), THIRD if me.flex else LAST, block="board"))
    return out


def _courses_of(s: State, seat: int) -> list[CourseState]:
    owned = {c.dog: c for c in s.courses if c.owner == seat and c.dog is not None}
    return [owned[d] for d in s.players[seat].dogs if d in owned]


def _player_line(s: State, seat: int, width: int) -> Line:
    """``  alice  cubes 2 red, 1 blue · Flex 1 · Exchange 0 · hand 3/3 · dogs 1/3`` (the cubes
    ``2r 1b`` when the words do not fit)."""
    p = s.players[seat]
    name: Line = [(f"  {p.name}", "bold")]
    if seat == s.tiebreak:
        name.append((" (Tiebreak)", ""))
    hand = f"hand {len(p.hand)}/{p.hand_size}" + ("  must discard 1" if p.must_discard else "")
    rest = (f" · Flex {p.flex} · Exchange {p.exchange} · {hand} · dogs {len(p.dogs)}/{rules.MAX_DOGS}", "")
    line = [*name, ("  cubes ", ""), *cubes_text(p.cubes), rest]
    if line_len(line) > width:
        line = [*name, ("  cubes ", ""), *cubes_text(p.cubes, short=True), rest]
    return line


def _hand_line(s: State, hand: list[str]) -> Line:
    """``  your hand  t17 [4] 2 black | 2 yellow · t14 …``."""
    out: Line = [("  your hand ", "")]
    if not hand:
        return out + [("empty", DIM)]
    for k, card in enumerate(hand):
        if k:
            out.append((" · ", DIM))
        out += card_text(s, card) if card != HIDDEN else [("a card face down", DIM)]
    return out


def _dog_line(s: State, course: CourseState) -> Line:
    """``  Papillon 2B 1/5: ▶2 a-frame 1k 2y · 3 open 3g · 4 tunnel 2r 2g`` (done: ``FINISHED``)."""
    assert course.dog is not None
    name = s.cat.dogs[course.dog].name
    head: Line = [(f"    {name} ", ""), (f"{course.id} ", "bold")]
    if course.finished:
        return head + [("FINISHED", "bold green")]
    head.append((f"{course.position}/{len(course.obstacles)}: ", DIM))
    for k in range(course.position, len(course.obstacles)):
        if k > course.position:
            head.append((" · ", DIM))
        head += obstacle_text(s, course, k)
    return head


def _free_course_line(s: State, slot: int, course: CourseState) -> Line:
    """``  free #3 6B  tunnel 2r 2g · a-frame 1k 2y · …``."""
    out: Line = [("  free ", DIM), (f"#{slot} ", DIM), (f"{course.id}  ", "bold")]
    for k in range(len(course.obstacles)):
        if k:
            out.append((" · ", DIM))
        out += obstacle_text(s, course, k)
    return out


def _display_dog_line(s: State, dog_id: str, offered: bool) -> Line:
    dog = s.cat.dogs[dog_id]
    lead = "  dog " if offered else "  dog (not enough cubes) "
    return [(lead, DIM), (dog.name, ""), ("  ", ""), *cubes_text(dog.cost, short=True), ("  ", ""), *features_text(dog)]


def _rondel_line(s: State) -> Line:
    """The action board from the marker on: ``  board ▶2 Flex · 3 Clear Tunnels · …``."""
    out: Line = [("  board ", DIM)]
    for k in range(10):
        space = (s.marker + k) % 10
        if k:
            out.append((" · ", DIM))
        out.append((f"▶{space} {tile_name(s.board[space])}", "bold reverse") if k == 0 else (f"{space} {tile_name(s.board[space])}", ""))
    return out


# ----------------------------------------------------------------------------------------------
# The choices


def _menu(s: State, rows: list[Row], shown: list[int], width: int) -> list[_Candidate]:
    out = []
    play = s.phase == "play" and not s.prizes
    for k in shown:
        row = rows[k]
        out.append(_Candidate([(f"{k + 1:>3}) ", MENU_STYLE), (safe(row.label, 1000), "")], ALWAYS, block="menu"))
        if row.tile is not None:
            out.append(_Candidate([(" " * 8 + guide.tile_hint(row.tile), DIM)], SECOND if play else THIRD, block="menu"))
        options = row.options.replace(row.flex, "").rstrip(" ·") if row.flex else row.options
        if row.two_steps:
            options += f" (or {k + 1} alone, then the course)"
        if options:
            urgent = row.spends_token or row.two_steps
            out.append(_Candidate([(" " * 8 + "options: " + safe(options, 1000), DIM)], FIRST if urgent else LAST, block="menu"))
        if row.flex:
            shifts = sorted({m.flex for m in row.moves if isinstance(m, Play) and m.flex})
            typed = " or ".join(f"{k + 1} {f:+d}" for f in shifts) if len(shifts) <= 2 else \
                f"{k + 1} {shifts[0]:+d} … {k + 1} {shifts[-1]:+d}"
            flex = row.flex.replace("Flex: ", f"Flex ({typed}): ", 1)
            out.append(_Candidate([(" " * 8 + safe(flex, 1000), DIM)], FIRST, block="menu"))
    return out


# ----------------------------------------------------------------------------------------------
# Fitting


def _choose(cands: list[_Candidate], budget: int | None, width: int) -> list[Line]:
    """The candidates that fit ``budget`` lines, best rank first, shown in their order; earlier
    news left out is said in one line."""
    keep = _best(cands, budget)
    dropped_news = [i for i, c in enumerate(cands) if c.block == "news" and c.continues is None and i not in keep]
    if dropped_news and budget is not None:
        keep = _best(cands, budget - 1)
        dropped_news = [i for i, c in enumerate(cands) if c.block == "news" and c.continues is None and i not in keep]
    out: list[Line] = []
    told = False
    for i, c in enumerate(cands):
        if c.block == "news" and dropped_news and not told and i not in keep and c.continues is None:
            n = len(dropped_news)
            out.append([(f"  … {n} earlier line{'s' if n > 1 else ''} (type news)", DIM)])
            told = True
        if i not in keep:
            continue
        line = c.line
        if c.cut is not None and i + 1 < len(cands) and cands[i + 1].continues == i and (i + 1) not in keep:
            line = c.cut
        out.append(_crop(_rstrip_segments(line), width))
    return out


def _best(cands: list[_Candidate], budget: int | None) -> set[int]:
    if budget is None:
        return set(range(len(cands)))
    order = sorted(range(len(cands)), key=lambda i: (cands[i].rank, cands[i].sub, i))
    keep: set[int] = set()
    for i in order:
        c = cands[i]
        if c.continues is not None and c.continues not in keep:
            continue
        if len(keep) >= budget and c.rank != ALWAYS:
            continue
        keep.add(i)
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

