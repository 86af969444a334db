"""The full-screen board: a Textual application over one :class:`match.Match`.

Regions, top to bottom, redrawn in place at every decision (never scrolled away): the status line;
the position (``regions.position``: the action board, both players, the six courses, the two
displays); the story since the player's last decision (the opponent's card first; older lines by
scrolling: PgUp/PgDn; the latest lines show); the numbered choices; one line for what the board
answers; the prompt.  A region taller than its room scrolls, with a scroll bar, and says so in the
rule above the region under it or its own (:func:`marks`): ``▼ more board: shift+↓`` in the story's
rule, ``▲ more story: PgUp`` beside it, ``▼ more choices: ↓`` in the choices' rule.

Keys: type a choice's number and Enter (its options too: ``3 red``), as in the line mode; or the
arrows and Enter, or a click on a choice (or on the card, dog or course it is about:
:mod:`.clicks`). The words are the line mode's: ``help`` (a panel for the current step; Esc closes
it), ``hint``, ``news``, ``undo``, ``quit``, ``rules TOPIC``; Ctrl-C quits too. A bot's turn is
played in a worker thread while the status line says it thinks.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...engine.notation import Refused, UsageError
from ...i18n import N_, _
from ...said import tell as tell_said
from .. import choices, guide, playloop, session
from ..choices import MoreNeeded, Row
from ..layout import cell_len, wrap
from ..render import plain_text, rich_text
from ..screen import story_lines
from . import clicks, match, regions, waiting
from .match import Match
from .words import Words

MIN_WIDTH, MIN_HEIGHT = 80, 24
STORY_MIN, CHOICES_MIN = 3, 4  # rows, with the rule above each
PROMPT = N_("type a number, or help · hint · news · undo · quit")  # what the empty prompt says


def wrapped(text: str, width: int, indent: int = 2) -> list[str]:
    """Prose within ``width`` columns, going on ``indent`` columns in (never cut)."""
    import textwrap

    return textwrap.wrap(text, max(width, 20), subsequent_indent=" " * indent, break_on_hyphens=False) or [""]


#: Each scrolling region's marks (the message and its keys), down then up: :func:`marks` says them and
#: :func:`cut` looks for them, in the language of the screen.
_MARKS: dict[str, Any] = {
    "position": ((N_("▼ more board: {keys}"), "shift+↓"), (N_("▲ more board: {keys}"), "shift+↑")),
    "story": ((N_("▼ more story: {keys}"), "PgDn"), (N_("▲ more story: {keys}"), "PgUp")),
    "choices": (N_("{mark} more choices: {keys}"), N_("{mark} more choices: {keys}")),
}


def marks(position: Any, story: Any, menu: Any) -> tuple[str, str]:
    """The scroll marks of the three regions that scroll: those of the board and the story go in
    the story's rule (the one between them), the choices' in the choices' rule."""
    said = []
    for name, box in (("position", position), ("story", story)):
        (down, down_keys), (up, up_keys) = _MARKS[name]
        if box.scroll_y > 0:
            said.append(_(up).format(keys=up_keys))
        if box.max_scroll_y > box.scroll_y:
            said.append(_(down).format(keys=down_keys))
    up_on, down_on = menu.scroll_y > 0, menu.max_scroll_y > menu.scroll_y
    ways = [(up_on, "▲", "↑"), (down_on, "▼", "↓")]
    mark, keys = "".join(m for on, m, _k in ways if on), "".join(k for on, _m, k in ways if on)
    return " · ".join(said), mark and _(_MARKS["choices"][0]).format(mark=mark, keys=keys)


def choice_label(k: int, row: Row, width: int) -> str:
    """``3) play t07 …``; on a wide terminal with the tile's hint and the options."""
    label = f"{k:>2}) {row.label}"
    if width >= regions.WIDE and row.tile is not None:
        label += f" — {guide.tile_hint(row.tile)}"
    if width >= regions.WIDE and row.options:
        label += _(" (options: {options})").format(options=row.options)
    return label


def cut_cells(text: str, cells: int) -> str:
    """The longest start of ``text`` within ``cells`` terminal cells (a CJK character takes two,
    never cut in half)."""
    used = 0
    for i, ch in enumerate(text):
        used += cell_len(ch)
        if used > cells:
            return text[:i]
    return text


def mark_more(board: Any) -> None:
    """The scroll marks (:func:`marks`) in the rules above the story and the choices."""
    story, menu = board.query_one("#story"), board.query_one("#choices")
    for box, title, mark in zip((story, menu), (board.story_title, board.choices_title),
                                marks(board.query_one("#position"), story, menu)):
        room = board.cols - 4 - (cell_len(mark) + 3 if mark else 0)  # the mark whole; the title shortened
        box.border_title = " · ".join(x for x in (title if cell_len(title) <= room else cut_cells(title, room - 1) + "…", mark) if x)


def story_at_start(board: Any, top: bool) -> None:
    """A panel from its top; the story at its latest lines (older ones: PgUp)."""
    story = board.query_one("#story", VerticalScroll)
    (story.scroll_home if top else story.scroll_end)(animate=False, immediate=True)
    board.call_after_refresh(mark_more, board)


def cut(board: App[None]) -> list[str]:
    """The regions cut without a scroll mark (none, on a board that works): a region outside
    the screen or of no rows, one wider than its room, or taller without a scroll bar and
    without its mark in a rule on the screen (:func:`marks`)."""
    out = []
    for name in ("status", "position", "story", "choices", "say", "prompt"):
        widget = board.query_one(f"#{name}")
        region = widget.region
        if name != "say" and (region.height < 1 or region.bottom > board.size.height):
            out.append(f"{name} off the screen")
    for name in ("position", "story", "choices"):
        box = board.query_one(f"#{name}")
        assert isinstance(box, (VerticalScroll, OptionList))
        if box.max_scroll_x > 0:
            out.append(f"{name} wider than its room")
        if box.max_scroll_y > 0 and not box.show_vertical_scrollbar:
            out.append(f"{name} taller than its room, no scroll bar")
        rule = board.query_one("#choices" if name == "choices" else "#story")
        down, up = _MARKS[name]
        if name == "choices":  # the mark of both ways at once: "▲▼ more choices: ↑↓"
            both = "".join(m for on, m in ((box.scroll_y > 0, "▲"), (box.max_scroll_y > box.scroll_y, "▼")) if on)
            keys = "".join(k for on, k in ((box.scroll_y > 0, "↑"), (box.max_scroll_y > box.scroll_y, "↓")) if on)
            down = up = _(down).format(mark=both, keys=keys)
        else:
            down, up = _(down[0]).format(keys=down[1]), _(up[0]).format(keys=up[1])
        if box.max_scroll_y > box.scroll_y and down not in str(rule.border_title):
            out.append(f"{name} taller than its room, no ▼ more in a rule")
        if box.scroll_y > 0 and up not in str(rule.border_title):
            out.append(f"{name} scrolled, no ▲ more in a rule")
    return out


def rows_of(height: int, status: int, said: int, position: int, menu: int,
            least: int = CHOICES_MIN) -> tuple[int, int, int]:
    """The rows of the position, the choices and the story: the status line and the answer take
    what they need; the position what it needs, up to what the story's and the choices' least rows
    and the prompt leave (more, it scrolls); the choices what they need, up to what leaves the story
    its least; the story the rest.  ``least``: the choices' least rows (1, their rule alone, once
    the game is over; while a bot thinks they keep their rows, so that nothing moves)."""
    room = height - status - said - STORY_MIN - least - 1
    position = max(min(position, room), 3)
    rest = height - status - said - position - 1
    menu = max(min(menu + 1, rest - STORY_MIN), least)
    return position, menu, max(rest - menu, 1)


STYLE = """
    Screen { layout: vertical; overflow: hidden; }
    #status { height: auto; }
    #position { height: 14; scrollbar-size-vertical: 1; }
    #story { height: 3; border-top: solid $secondary; scrollbar-size-vertical: 1;
             border-title-align: left; border-subtitle-align: right; }
    #choices { height: 4; max-height: 100%; border: none; border-top: solid $secondary; padding: 0;
               scrollbar-size-vertical: 1; border-title-align: left; border-subtitle-align: right; }
    #say { height: auto; color: $warning; }
    #prompt { height: 1; border: none; padding: 0; }
    """


class Board(App[None]):
    """The board of one game: ``Board(match).run()``; the words to leave on the terminal are then
    in ``match.closing``."""

    TITLE = "agility"
    CSS = STYLE
    BINDINGS = [
        Binding("ctrl+c", "quit_board('ctrl+c')", "quit", priority=True),
        Binding("pageup", "scroll('story', -1)", "older", show=False),
        Binding("pagedown", "scroll('story', 1)", "newer", show=False),
        Binding("shift+up", "scroll('position', -1)", "board up", show=False, priority=True),
        Binding("shift+down", "scroll('position', 1)", "board down", show=False, priority=True),
        Binding("escape", "back", "back", show=False),
    ]

    def __init__(self, game: Match):
        super().__init__()
        self.match = game
        self.words = Words(self)
        self.sub: Optional[list[Row]] = None  # a second step's rows (adopt: the course)
        self.course_title = ""
        self.panel: Optional[tuple[str, list[str]]] = None  # help, hint, news, rules: title and lines
        self.busy = ""  # a bot thinking, a hint searching
        self.status_rows, self.said_rows, self.position_rows, self.choice_rows = 1, 0, 3, 0
        self.drawn: dict[str, str] = {"status": "", "position": "", "story": "", "choices": "", "say": ""}
        self.since, self.moment = 0.0, ""
        self.redraws: list[float] = []  # seconds each redraw of the regions took (the benchmark)
        self.story_title, self.choices_title = _("since your last decision"), _("your choices")  # marks go after

    # ------------------------------------------------------------------------------------------
    # Layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll(id="position"):
            yield Static(id="board")
        with VerticalScroll(id="story"):
            yield Static(id="told")
        yield OptionList(id="choices")
        yield Static(id="say")
        yield Input(id="prompt", placeholder=PROMPT)

    def on_mount(self) -> None:
        self.query_one("#prompt", Input).focus()
        self.step()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.redraw)  # the screen's new size is known once it is laid out

    @property
    def cols(self) -> int:
        return max(self.size.width - 1, 40)  # a column for a scroll bar

    def fit(self) -> None:
        """Each region's rows (:func:`rows_of`)."""
        position, menu, story = rows_of(self.size.height, self.status_rows, self.said_rows, self.position_rows,
                                        self.choice_rows, 1 if self.moment == match.OVER else CHOICES_MIN)
        self.query_one("#position").styles.height = position
        self.query_one("#choices").styles.height = menu
        self.query_one("#story").styles.height = story
        self.query_one("#say").display = self.said_rows > 0

    # ------------------------------------------------------------------------------------------
    # Drawing

    def redraw(self) -> None:
        """Every region drawn again from the match (the benchmark times this)."""
        if not self.is_attached:
            return
        start = time.perf_counter()
        m = self.match
        width = self.cols
        self.redraw_status()
        seat = m.viewer.seat if m.viewer.plays else None
        position = regions.position(m.view, seat, width)
        self.drawn["position"] = plain_text(position)
        self.position_rows = len(position)
        self.query_one("#board", Static).update(rich_text(position))
        self.draw_story()
        self.draw_choices()
        self.fit()
        self.redraws.append(time.perf_counter() - start)

    def draw_story(self) -> None:
        story = self.query_one("#story", VerticalScroll)
        if self.panel is not None:
            title, lines = self.panel
            self.story_title = _("{title} · Esc: back").format(title=title)
        else:
            lines = [x for line in self.match.story() for x in wrapped(line, self.cols - 1, 8)] or [
                _("nothing happened since your last decision")]
            self.story_title = _("since your last decision")
        self.drawn["story"] = "\n".join(lines)
        self.query_one("#told", Static).update(Text(self.drawn["story"]))
        self.call_after_refresh(story_at_start, self, self.panel is not None)

    def rows_now(self) -> list[Row]:
        return self.sub if self.sub is not None else self.match.rows

    def draw_choices(self) -> None:
        menu = self.query_one("#choices", OptionList)
        menu.clear_options()
        self.drawn["choices"] = ""
        self.choice_rows = 0
        over = self.moment == match.OVER  # then Enter or q closes the board, and nothing else is read
        self.query_one("#prompt", Input).placeholder = waiting.prompt(self.match.distance, over, PROMPT)
        if self.moment != match.DECIDE:
            self.choices_title = _("no more choices") if over else _("please wait")
            menu.border_title = self.choices_title
            return
        width = self.cols - 1
        rows = self.rows_now()
        self.choices_title = self.course_title or _("your choices")
        menu.border_title = self.choices_title
        labels = ["\n".join(wrapped(choice_label(k, row, width), width, 6)) for k, row in enumerate(rows, 1)]
        menu.add_options([Option(Text(label)) for label in labels])
        self.drawn["choices"] = "\n".join(labels)
        self.choice_rows = len(self.drawn["choices"].split("\n")) if rows else 0
        if rows:
            menu.highlighted = 0

    def say(self, text: str) -> None:
        """An answer under the choices, wrapped within the width (a refusal's words stay whole)."""
        lines = wrapped(text, self.cols) if text else []
        self.said_rows = len(lines)
        self.drawn["say"] = "\n".join(lines)
        self.query_one("#say", Static).update(Text("\n".join(lines)))
        self.fit()

    # ------------------------------------------------------------------------------------------
    # The game's course

    def step(self) -> None:
        """What comes next: the viewer's decision, a bot's turn (in a worker), or the end."""
        m = self.match
        self.moment = m.moment()
        if waiting.takes_over(self, self.moment):  # --wait: the mail or push sent, the other awaited
            return
        if self.moment == match.DECIDE:
            m.begin()
            self.sub = None
            self.course_title = ""
        elif self.moment == match.BOT:
            self.think(f"{m.thinker()} is thinking", m.bot_turn)
        elif self.moment in (match.OTHER, match.KEYS):
            m.close(self.moment)
            self.exit()
            return
        elif self.moment == match.OVER:
            m.see_last_card()
            m.close(match.OVER)
            self.match.viewer = session.resolve_viewer(m.game, m.viewer.name if m.viewer.plays else None)
        self.redraw()

    def think(self, what: str, work: Callable[[], Any], then: Optional[Callable[[Any], None]] = None) -> None:
        """Run ``work`` in a worker thread, the status line saying ``what`` with its elapsed time."""
        self.busy, self.since = what, time.monotonic()
        timer = self.set_interval(1.0, self.redraw_status)

        def run() -> None:
            try:
                result = work()
            except Exception as exc:  # noqa: BLE001 - said at the prompt; the game file stays whole
                self.call_from_thread(self.failed, exc, timer)
                return
            self.call_from_thread(self.done_thinking, timer, then, result)

        self.run_worker(run, thread=True, exclusive=True)

    def redraw_status(self) -> None:
        m = self.match
        note = (waiting.note_of(m.distance) or self.busy and f"{self.busy} ({time.monotonic() - self.since:.0f} s)"
                or m.last_card(short=True))
        line = regions.status(m.view, m.viewer.seat if m.viewer.plays else None, note, m.verdict)
        status = wrap(line, self.cols, indent=2)
        self.status_rows = len(status)
        self.drawn["status"] = plain_text(status)
        self.query_one("#status", Static).update(rich_text(status))

    def done_thinking(self, timer: Any, then: Any, result: Any) -> None:
        timer.stop()
        self.busy = ""
        if then is not None:
            then(result)
            self.redraw()
        else:
            self.step()

    def failed(self, exc: Exception, timer: Any) -> None:
        timer.stop()
        self.busy = ""
        if isinstance(exc, Refused):
            self.say(_("refused: {why}").format(why=tell_said(exc.message)))
            self.step()
            return
        raise exc

    # ------------------------------------------------------------------------------------------
    # What the player types

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        menu = self.query_one("#choices", OptionList)
        self.words.submitted(text, menu.highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if not self.busy and self.moment == match.DECIDE:
            self.words.typed(str(event.option_index + 1))
            self.query_one("#prompt", Input).focus()

    def on_click(self, event: events.Click) -> None:
        """A click on a card, a dog or a course of the board: its choice (:mod:`.clicks`)."""
        at = event.get_content_offset(self.query_one("#board")) if event.widget is self.query_one("#board") else None
        if at is not None and not self.busy and self.moment == match.DECIDE:
            clicks.clicked(self, at.x, at.y)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.call_after_refresh(mark_more, self)  # the arrows scroll the choices

    def on_key(self, event: events.Key) -> None:
        if event.key in ("up", "down") and self.focused is self.query_one("#prompt", Input):
            menu = self.query_one("#choices", OptionList)
            if event.key == "up":
                menu.action_cursor_up()
            else:
                menu.action_cursor_down()
            event.stop()

    def show_panel(self, title: str, lines: list[str]) -> None:
        self.panel = (title, [x for line in lines for x in wrapped(line, self.cols - 1, 4)])
        self.draw_story()

    async def action_back(self) -> None:
        if self.panel is not None:
            self.panel = None
            self.draw_story()

    def action_scroll(self, name: str, way: int) -> None:
        """PgUp/PgDn the story, Shift+↑/↓ the board: a page less a row at a time."""
        box = self.query_one(f"#{name}", VerticalScroll)
        box.scroll_to(y=box.scroll_y + way * max(box.size.height - 1, 1), animate=False, immediate=True)
        mark_more(self)

    def action_quit_board(self, how: str = "quit") -> None:
        if waiting.stop(self, how):  # quit or Ctrl-C while waiting for the other player
            return
        if self.moment != match.OVER:
            self.match.close(match.DECIDE)
        self.exit()
