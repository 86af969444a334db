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
        shown.append(f"… {len(legal) - limit} more: {shell('agility', 'legal', path)}")
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
            shown.append(f"… {len(rows) - limit} more: {shell('agility', 'legal', path)}")
        elif any(len(row.moves) > 1 for row in rows):
            shown.append(f"options (reward, Flex …): {shell('agility', 'legal', path)}")
        return shown
    who = state.players[state.to_act].name
    lines = [f"{who}'s decision: {who} to {rules.awaited(state)}"]
    if session.is_bot(who):
        lines.append(shell("agility", "bot", path) + "   # let the bot decide")
    else:
        lines.append(f"not sent {who} your latest lines yet? {shell('agility', 'send', path)}")
        if session.in_git_work_tree(path):  # the lines your tool wrote since your last push go with it
            lines.append(f"  by git: {shell('agility', 'play', path, '--git')}")
    return lines



def plain_output() -> bool:
    """Plain text when piped, with NO_COLOR set or on a dumb terminal (FORCE_COLOR overrides)."""
    if os.environ.get("FORCE_COLOR"):
        return False
    return bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb" or not sys.stdout.isatty()


def show_board(path: str, state: State, viewer: Viewer, hints: Optional[list[str]] = None,
               verdict: Optional[tuple[Optional[str], str]] = None) -> None:
    """The board as ``viewer`` sees it (R39), with a line saying whose view it is; ``verdict``: a
    sealed game's (R42), said where the winner is."""

    if hints is None:
        hints = board_hints(path, state, viewer)
    view = seat_view(state, viewer.view_seat)
    if plain_output():
        # No rich at all on this path: the layout is ours, and importing rich costs more than it.
        sys.stdout.write(f"[{viewer.label()}]\n" + render.board_plain(view, hints, verdict=verdict) + "\n")
    else:
        from rich.text import Text

        console = make_console()
        console.print(Text(f"[{viewer.label()}]", style="dim"))
        console.print(render.board(view, hints, verdict=verdict))


def show_game(path: str, game: Game, viewer: Viewer, *, now: bool = False) -> None:
    """The board of ``game`` as ``viewer`` sees it, its decisions as commands; a sealed game paused
    for a player's keys (R44) says what it waits for instead.  ``now``: a ``now …`` line first."""
    waiting = session.awaited_text(game)
    found = session.verdict_of(game)
    if now and found is not None and found[0] is not None and game.state.winner is None:  # R42: aborted
        print(f"now the game is over: {found[0]} wins ({found[1]})")
    elif now:  # what it waits for in a few words: the board's last lines say the rest
        print(f"now {waiting.split(': ', 1)[0] if waiting else rules.status_text(game.state)}")
    show_board(path, game.state, viewer, [waiting] if waiting else None, verdict=found)


def tell(steps: list[Step], viewer: Viewer, heading: Optional[str] = None) -> None:
    """Narrate ``steps`` in the replay's sentences, as ``viewer`` sees them."""


    if not steps:
        return
    out = [heading] if heading else []
    for line in session.narration(steps, viewer.view_seat):
        # Within 80 columns, continued under the sentence (replay prints them unwrapped).
        out += textwrap.wrap(line, 80, subsequent_indent=" " * 8, break_on_hyphens=False) or [line]
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
        rows.append(wrap80("      " + row.label + (f"; options: {row.options}" if row.options else "")))
        if row.tile is not None:
            rows.append(wrap80("      " + _tile_hint(row.tile)))
    return "".join(rows)


def wrap80(line: str) -> str:
    """A line of prose within 80 columns, continued two columns further in; with its newline."""

    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    return "\n".join(textwrap.wrap(line, 80, subsequent_indent=indent, break_on_hyphens=False, break_long_words=True)) + "\n"


def menu_lines(rows: list[Any], width: int = 80) -> list[str]:
    """The numbered menu of ``agility play`` within ``width`` columns: ``  3) play t07 [3] …``, its
    options, and what the tile a card reaches does (the guide's one-line hint)."""


    out = []
    for k, row in enumerate(rows, 1):
        out += textwrap.wrap(row.label, width, initial_indent=f"{k:>3}) ", subsequent_indent=" " * 8, break_on_hyphens=False)
        if row.tile is not None:
            out += textwrap.wrap(_tile_hint(row.tile), width, initial_indent=" " * 8, subsequent_indent=" " * 10)
        if row.options:
            out += textwrap.wrap(f"options: {row.options}", width, initial_indent=" " * 8, subsequent_indent=" " * 10, break_on_hyphens=False)
    return out
