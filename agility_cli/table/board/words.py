"""What the player types at the board's prompt: the line mode's words (``help``, ``hint``, ``news``,
``undo``, ``quit``, ``rules TOPIC``) and the choices (``choices.pick``, as the line mode reads them;
an adoption onto one of several free courses is a second step: the course, or ``back``)."""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol

from ...engine.moves import Adopt
from ...engine.notation import Refused, UsageError
from ...i18n import N_, _, name, pgettext
from ...said import message_of, tell as tell_said
from .. import choices, guide, playloop
from ..choices import MoreNeeded, Row
from ..screen import story_lines
from . import match
from .match import Match


class Board(Protocol):
    """What the words use of the board (``app.Board``)."""

    match: Match
    busy: str
    moment: str
    sub: Optional[list[Row]]
    course_title: str
    panel: Optional[tuple[str, list[str]]]

    @property
    def cols(self) -> int: ...
    def say(self, text: str) -> None: ...
    def think(self, what: str, work: Callable[[], Any], then: Optional[Callable[[Any], None]] = None) -> None: ...
    def show_panel(self, title: str, lines: list[str]) -> None: ...
    def rows_now(self) -> list[Row]: ...
    def step(self) -> None: ...
    def redraw(self) -> None: ...
    def action_quit_board(self) -> None: ...
    def exit(self) -> None: ...

#: The last line of ``help`` on the board: what the board adds to the line mode's words.
BOARD_KEYS = N_("On this board: arrows and Enter, or a click, choose too; PgUp/PgDn scroll the story, "
               "Shift+↑/↓ the board; Esc closes this panel; Ctrl-C quits.")


#: What the board answers to a word typed while it waits for the other player (``--wait``).
WAIT_WORDS = N_("waiting for the other player: quit or Ctrl-C stops the wait (the game stays whole)")


class Words:
    """The words typed at ``board``'s prompt."""

    def __init__(self, board: Board):
        self.board = board

    def submitted(self, text: str, highlighted: Optional[int]) -> None:
        """A line entered at the prompt; an empty one picks the highlighted choice (arrows)."""
        b = self.board
        waits = b.match.distance is not None and b.match.distance.active
        if waits and text.lower() in ("quit", "q", "exit"):
            b.action_quit_board()
        elif waits:
            b.say(_(WAIT_WORDS))
        elif b.busy:
            b.say(_("{busy}: a moment, please").format(busy=b.busy))
        elif b.moment == match.OVER:
            if text.lower() in ("", "q", "quit", "exit"):
                b.exit()
        elif text:
            self.typed(text)
        elif highlighted is not None and b.moment == match.DECIDE:
            self.typed(str(highlighted + 1))

    def typed(self, text: str) -> None:
        """A line typed at the prompt: the line mode's words, or a choice."""
        b = self.board
        word = text.lower()
        b.say("")
        if word in ("quit", "q", "exit"):
            b.action_quit_board()
        elif word in ("help", "?", "h"):
            s = b.match.game.state
            b.show_panel(_("help"), [*playloop.play_help(s, b.cols).split("\n"), "  " + _(BOARD_KEYS)])
        elif word == "hint":
            m = b.match
            b.think(_("the strong bot is looking for a hint"),
                       lambda: playloop.play_hint_lines(m.game, b.rows_now(), b.cols),
                       lambda lines: b.show_panel(_("hint"), lines))
        elif word == "news":
            m = b.match
            told = story_lines(m.steps, m.viewer, m.told[0] if m.told else None)
            b.show_panel(_("news"), told or [_("nothing happened since your last decision")])
        elif word.split()[:1] == ["rules"]:
            self.rules(text.split(None, 1)[1] if " " in text else "")
        elif word in ("board", "b", "show", "menu", "legal", "l", "more"):
            b.say(_("the whole board is on the screen; the choices scroll with the arrows"))
        elif word == "undo":
            answer = b.match.undo()
            if answer:
                b.say(answer)
            b.step()
        elif word in ("back", "0") and b.sub is not None:
            b.sub = None
            b.course_title = ""
            b.redraw()
        else:
            self.pick(text)

    def rules(self, topic: str) -> None:
        """``rules TOPIC``: the topic in the panel, or what topics there are."""
        b = self.board
        try:
            found = guide.find(topic) if topic else guide.topics()[0]
        except guide.TopicError as exc:
            b.say(f"{exc}")
            return
        b.show_panel(_("rules: {title}").format(title=found.title), guide.topic_plain(found, b.cols).split("\n"))

    def pick(self, text: str) -> None:
        """A choice typed (a row's number, its options, a move's words) or refused in a line."""
        b = self.board
        s = b.match.game.state
        rows = b.rows_now()
        try:
            move = choices.pick(s, rows, text)
        except MoreNeeded as exc:
            if exc.row.two_steps and b.sub is None:
                b.sub = choices.course_rows(s, exc.row)
                first = exc.row.moves[0]
                assert isinstance(first, Adopt)
                dog = s.cat.dogs[first.dog]
                b.course_title = _("{n}) adopt {dog} onto which course? (back: the other choices)").format(
                    n=exc.number, dog=name("dog", dog.name))
                b.redraw()
                return
            b.say(f"{exc}")
            return
        except (UsageError, Refused) as exc:
            said = tell_said(message_of(exc))
            if b.sub is not None:
                b.say(_("{refusal} — type a course's number, or back").format(refusal=said))
            elif "type " in said or pgettext("verb", "type") in said:  # it says already what to type
                b.say(said)
            else:  # the rows there are, not the line mode's example of another step
                b.say(_("{refusal} — type a row's number (1–{n}), a move's words, help or quit").format(refusal=said, n=len(rows)))
            return
        b.panel = None
        answer = b.match.choose(move)
        if answer:
            b.say(answer)
        b.step()

