"""The board and the narration on the terminal, as one seat sees them (R39), with the commands to copy."""

from __future__ import annotations

import os
import sys
import textwrap
from typing import Any, Optional

from ..engine import notation, rules
from ..engine.moves import Move
from ..engine.state import State
from ..engine.view import seat_view
from ..record.game import Game
from ..text import shell_command
from . import choices, render, session
from .layout import cell_len
from .prose import wrap_cells
from ..i18n import N_, _
from ..said import tell as told
from .session import Step, Viewer


def _tile_hint(tile: str) -> str:
    from . import guide  # the rules guide, only when a menu names an action tile (start-up time)

    return guide.tile_hint(tile)


def make_console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def commands_to_copy(path: str, state: State, legal: list[Move], limit: int) -> list[str]:
    """Up to ``limit`` legal decisions as commands to copy, then how many more there are."""

    # The decisions that matter first: exchanges are always there and rarely the point.
    legal = sorted(legal, key=lambda m: type(m).__name__ == "Exchange")
    shown = [shell("agility", "move", path, *notation.argv(state, m)) for m in legal[:limit]]
    if len(legal) > limit:
        shown.append(_("… {n} more: {command}").format(n=len(legal) - limit, command=shell('agility', 'legal', path)))
    return shown


def shell(*words: str) -> str:
    """A command to copy, quoted for the shell where a word needs it (``text.shell_command``)."""

    return shell_command(list(words))


def board_hints(path: str, state: State, viewer: Viewer, limit: int = 6) -> list[str]:
    """The viewer's own decisions as commands, or whose decision the game waits for (R39)."""

    if state.winner is not None or state.to_act is None:
        return []
    if viewer.complete or state.to_act == viewer.seat:

        # One command a row of the menu (a card to play is one row); `legal` lists the options.
        rows = choices.menu(state)
        shown = [shell("agility", "move", path, *notation.argv(state, row.default)) for row in rows[:limit]]
        if len(rows) > limit:
            shown.append(_("… {n} more: {command}").format(n=len(rows) - limit, command=shell('agility', 'legal', path)))
        elif any(len(row.moves) > 1 for row in rows):
            shown.append(_("options (reward, Flex …): {command}").format(command=shell('agility', 'legal', path)))
        return shown
    who = state.players[state.to_act].name
    lines = [_("{who}'s decision: {who} to {what}").format(who=who, what=render.awaited(state, mini=True))]
    if session.is_bot(who):
        lines.append(shell("agility", "bot", path) + "   # " + _("let the bot decide"))
    else:
        lines.append(_("not sent {who} your latest lines yet? {command}").format(who=who, command=shell('agility', 'send', path)))
        if session.in_git_work_tree(path):  # the lines your tool wrote since your last push go with it
            lines.append("  " + _("by git: {command}").format(command=shell('agility', 'play', path, '--git')))
    return lines



def plain_output() -> bool:
    """Plain text when piped, with NO_COLOR set or on a dumb terminal (FORCE_COLOR overrides)."""
    if os.environ.get("FORCE_COLOR"):
        return False
    return bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb" or not sys.stdout.isatty()


def board_view(path: str, state: State, viewer: Viewer, hints: Optional[list[str]] = None,
               verdict: Optional[tuple[Optional[str], str]] = None) -> list[render.Line]:
    """The lines of :func:`show_board`: whose view it is, then the board (``render.board_lines``)."""
    if hints is None:  # R42: a game an abort ended has no decision left to copy
        hints = [] if verdict is not None and verdict[0] is not None else board_hints(path, state, viewer)
    view = seat_view(state, viewer.view_seat)
    return [[(f"[{viewer.label()}]", "dim")], *render.board_lines(view, hints, verdict=verdict)]


def show_board(path: str, state: State, viewer: Viewer, hints: Optional[list[str]] = None,
               verdict: Optional[tuple[Optional[str], str]] = None) -> None:
    """The board as ``viewer`` sees it (R39), with a line saying whose view it is; ``verdict``: a
    sealed game's (R42), said where the winner is."""
    print_lines(board_view(path, state, viewer, hints, verdict))


def show_game(path: str, game: Game, viewer: Viewer, *, now: bool = False) -> None:
    """The board of ``game`` as ``viewer`` sees it, its decisions as commands; a sealed game paused
    for a player's keys (R44) says what it waits for instead.  ``now``: a ``now …`` line first."""
    waited = session.awaited_text(game)
    waiting = None if waited is None else told(waited)
    found = session.verdict_of(game)
    if now and found is not None and found[0] is not None and game.state.winner is None:  # R42: aborted
        print("\n".join(wrap_cells(_("now the game is over: {name} wins ({why})").format(name=found[0], why=found[1]), 80, 2)))
    elif now:  # what it waits for in a few words: the board's last lines say the rest
        print(_("now waiting for {who}'s keys for {what}").format(who=waited.params["who"], what=told(waited.params["what"]))
              if waited is not None else _("now {what}").format(what=told(rules.status_text(game.state))))
    show_board(path, game.state, viewer, [waiting] if waiting else None, verdict=found)
    if found is not None and found[0] is None and _keys_unsent(game):  # R42: say how they go
        print(_("Send your keys so that the audit can pass (by git: `{command}`):").format(command="play --git")
              + f"\n  {shell('agility', 'send', path)}")


def _keys_unsent(game: Game) -> bool:
    from ..record import gamefile

    return gamefile.keys_unsent(game) is not None


def catch_up(news: session.News, name: str) -> list[Step]:
    """What the catch-up under ``news.heading(name)`` tells: the other side's lines since ``name``'s
    last decision.  After a restart in the middle of a turn the window also holds the lines ``name``
    made since the opponent's last line: those are no news and are left out; a line the rules forced
    on ``name`` (its only option) among the opponent's stays, as part of what happened to them."""
    steps = news.since(name)
    last = max((st.line for st in steps if st.move.player != name), default=0)
    return [st for st in steps if st.move.player != name
            or (st.line < last and len(rules.legal_moves(st.before)) == 1)]


def story_lines(steps: list[Step], viewer: Viewer, heading: Optional[str] = None) -> list[str]:
    """The narration of ``steps`` as ``viewer`` sees them, in the replay's sentences, within 80
    columns (a sentence goes on under itself); nothing when there are no steps."""
    if not steps:
        return []
    out = [heading] if heading else []
    for line in session.narration(steps, viewer.view_seat):
        out += _story_wrap(line)
    return out


def _story_wrap(line: str, width: int = 80) -> list[str]:
    """One line of the story within ``width`` terminal cells, going on under itself; a line with
    wide (CJK) characters is wrapped in cells and may break between two of them."""
    if cell_len(line) != len(line):
        return wrap_cells(line, width, 8)
    return textwrap.wrap(line, width, subsequent_indent=" " * 8, break_on_hyphens=False) or [line]


def tell(steps: list[Step], viewer: Viewer, heading: Optional[str] = None) -> None:
    """Narrate ``steps`` in the replay's sentences, as ``viewer`` sees them."""
    out = story_lines(steps, viewer, heading)
    if out:
        sys.stdout.write("\n".join(out) + "\n")
        sys.stdout.flush()


def terminal_size() -> tuple[int, Optional[int]]:
    """Columns and lines to fit: the terminal's real size (``shutil.get_terminal_size``, which
    COLUMNS and LINES override).  Output that is no terminal (a pipe, a file) is 80 columns unless
    COLUMNS says otherwise, and of no height unless LINES says one: every line is kept."""
    import shutil

    if sys.stdout.isatty():
        size = shutil.get_terminal_size()
        return max(size.columns, 20), max(size.lines, 5)

    def env(name: str) -> Optional[int]:
        value = os.environ.get(name, "")
        return int(value) if value.isdigit() and 0 < int(value) < 10_000 else None

    return max(env("COLUMNS") or 80, 20), env("LINES")


def print_lines(lines: list[render.Line]) -> None:
    """Styled lines on the terminal (plain text when piped or with NO_COLOR), none re-wrapped."""
    if plain_output():
        sys.stdout.write(render.plain_text(lines) + "\n")
    else:
        make_console().print(render.rich_text(lines))
    sys.stdout.flush()


def news_lines(steps: list[Step], viewer: Viewer) -> list[str]:
    """The narration of ``steps`` as ``viewer`` sees them, for a decision screen: the turn headings
    and one line a decision (``   12. bot:greedy plays …``), not wrapped."""
    return [line[2:] if line.startswith("  ") else line for line in session.narration(steps, viewer.view_seat)]


def legal_rows(path: str, s: State) -> str:
    """`legal`: one command to copy a decision (a card to play is one row), then what it does,
    its options and the guide's hint on the tile it reaches, within 80 columns."""

    rows = []
    for row in choices.menu(s):
        rows.append(f"  {shell('agility', 'move', path, *notation.argv(s, row.default))}\n")
        rows.append(wrap80("      " + row.label + (_("; options: {options}").format(options=row.options) if row.options else "")))
        if row.tile is not None:
            rows.append(wrap80("      " + _tile_hint(row.tile)))
    return "".join(rows)


def wrap80(line: str) -> str:
    """A line of prose within 80 columns, continued two columns further in; with its newline."""

    lead = len(line) - len(line.lstrip(" ")) + 2
    if cell_len(line) != len(line):  # wide characters (Chinese): wrapped in terminal cells
        return "\n".join(wrap_cells(line, 80, lead)) + "\n"
    indent = " " * lead
    return "\n".join(textwrap.wrap(line, 80, subsequent_indent=indent, break_on_hyphens=False, break_long_words=True)) + "\n"


def menu_lines(rows: list[Any], width: int = 80) -> list[str]:
    """The numbered menu of ``agility play`` within ``width`` columns: ``  3) play t07 [3] …``, its
    options, and what the tile a card reaches does (the guide's one-line hint)."""


    out = []
    for k, row in enumerate(rows, 1):
        out += _wrapped(row.label, width, f"{k:>3}) ", 8)
        if row.tile is not None:
            out += _wrapped(_tile_hint(row.tile), width, " " * 8, 10, hyphens=True)
        if row.options:
            out += _wrapped(_("options: {options}").format(options=row.options), width, " " * 8, 10)
    return out


def _wrapped(text: str, width: int, first: str, indent: int, hyphens: bool = False) -> list[str]:
    """``text`` after ``first`` within ``width`` columns, going on ``indent`` columns in; in terminal
    cells when it holds wide characters (Chinese), else as :mod:`textwrap` always wrapped it."""
    if cell_len(text) != len(text):
        return wrap_cells(first + text, width, indent)
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=" " * indent, break_on_hyphens=hyphens)


# ----------------------------------------------------------------------------------------------
# Text taller than the terminal: the "more" prompt inside play, a pager for a command's output

#: The prompt between two pages of a long text inside ``agility play``.
#: (A message: ``_(MORE_PROMPT)`` is the prompt in the language in use.)
MORE_PROMPT = N_("-- more: Enter for the next page, q to stop -- ")


def interactive() -> bool:
    """Someone at a terminal: standard input and output both one (a pipe or a file gets every
    line at once, and a scripted session's input is never read by a pager)."""
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def plain_lines(lines: list[str]) -> list[render.Line]:
    """Lines of plain text as styled lines of one unstyled segment each."""
    return [[(line, "")] for line in lines]


def more(lines: list[render.Line], after: int = 1) -> bool:
    """Print ``lines`` inside ``agility play``; taller than the terminal (with the ``after`` lines
    that follow them, the prompt among them), a page at a time, each page but the last ending in
    :data:`MORE_PROMPT` (Enter: the next page; q: stop).  ``False`` when the reader stopped.  Not
    at a terminal, every line at once."""
    height = terminal_size()[1]
    if height is None or not interactive() or len(lines) + after <= height:
        print_lines(lines)
        return True
    page = max(height - 1, 1)  # the prompt takes the last row
    rest = lines
    while rest and len(rest) + after > height:
        print_lines(rest[:page])
        rest = rest[page:]
        try:
            answer = input(_(MORE_PROMPT))
        except EOFError:
            answer = "q"
        if answer.strip().lower() in ("q", "quit"):
            return False
    if rest:
        print_lines(rest)
    return True


class _Capture:
    """Standard output held while a command writes its text, so that it can be paged whole; it
    answers ``isatty`` as the real one does, so the text is styled as for the terminal."""

    def __init__(self, real: Any):
        import io

        self.real = real
        self.buffer_text = io.StringIO()
        self.encoding = getattr(real, "encoding", "utf-8")

    def write(self, text: str) -> int:
        return self.buffer_text.write(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return int(self.real.fileno())


def pager_command() -> list[str]:
    """The pager to run: ``$PAGER`` split into words as a shell would (never run by a shell),
    ``less -R`` when it is unset or empty."""
    import shlex

    try:
        words = shlex.split(os.environ.get("PAGER", ""))
    except ValueError:  # an unbalanced quote: the default
        words = []
    return words or ["less", "-R"]


def page_text(text: str) -> None:
    """``text`` on the terminal: through the pager (:func:`pager_command`) when it is taller than
    the terminal, else as it is; a pager that cannot be started prints it as it is."""
    import shutil
    import subprocess

    rows = shutil.get_terminal_size().lines
    if text.count("\n") + 1 < rows:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    env = dict(os.environ)
    env.setdefault("LESS", "-R")  # less keeps the colours (as git does with its own LESS)
    try:
        subprocess.run(pager_command(), input=text.encode("utf-8", "replace"), env=env, check=False)
    except (OSError, ValueError):  # no such pager
        sys.stdout.write(text)
        sys.stdout.flush()
    except KeyboardInterrupt:  # the pager had the keys; Ctrl-C ends the reading, not in error
        pass


class paged:
    """``with paged():`` around a command's text: on a terminal (:func:`interactive`), text taller
    than it goes through a pager (:func:`page_text`); to a pipe or a file, every line as it comes."""

    def __enter__(self) -> None:
        self.real = sys.stdout
        self.capture: Optional[_Capture] = _Capture(self.real) if interactive() else None
        if self.capture is not None:
            sys.stdout = self.capture

    def __exit__(self, *exc: object) -> None:
        if self.capture is None:
            return
        sys.stdout = self.real
        text = self.capture.buffer_text.getvalue()
        if text:
            page_text(text)
