"""What every command shares: the exit codes, the one error boundary, who is viewing (R39) with the
history check (R41), and the help texts of the common options."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Iterator, NoReturn, Optional

import msgspec
import typer

from ..engine.components import Components, ComponentsError, describe_set
from ..engine.notation import Refused, UsageError
from ..engine.rules import RulesError
from ..engine.state import State
from ..record import history, keys
from ..record.gamefile import Game, GameFileError
from ..record.keys import DamagedKeyStore, KeyStoreError
from ..table import session
from ..table.screen import commands_to_copy, show_game, tell
from ..table.session import Viewer
from ..i18n import _
from ..said import message_of, os_words, tell as told
from ..text import safe_message
from .helptexts import ACCEPT_HELP as ACCEPT_HELP, AS_HELP as AS_HELP, CLUSTER_HELP as CLUSTER_HELP  # re-exported
from .helptexts import GIT_HELP as GIT_HELP, RESTORE_HELP as RESTORE_HELP, REVEAL_HELP as REVEAL_HELP

EXIT_REFUSED = 1


EXIT_USAGE = 2


EXIT_INVALID = 3


EXIT_BUG = 4


def err(message: str) -> None:
    """A message on stderr, made safe: names, paths and mailed text may hold escape sequences.
    On a terminal it is wrapped to the terminal's width (:func:`fit`: at words, a command in
    backticks kept whole); to a pipe or a file it is left as it is, for scripts to match."""
    text = safe_message(message.rstrip("\n"))
    if sys.stderr.isatty():
        import shutil

        text = fit(text, max(shutil.get_terminal_size((80, 24)).columns, 40))
    sys.stderr.write(text + "\n")


def say(message: str) -> None:
    """A note of several lines on stderr (:func:`err`), fitted to 80 columns (:func:`fit`)."""
    err(fit(message))


def fit(message: str, width: int = 80) -> str:
    """``message`` with each line too long for ``width`` columns wrapped at its words, going on
    under its own text (a numbered step under its words).  A command in backticks is never split,
    so that it can be copied whole."""
    import re
    import textwrap

    from ..table.layout import cell_len

    out = []
    for line in message.rstrip("\n").split("\n"):
        if cell_len(line) <= width:
            out.append(line)
            continue
        lead = re.match(r" *(\d+\. )?", line)
        indent = " " * (lead.end() if lead else 0)
        if not line.isascii():  # wide (CJK) characters: wrapped in terminal cells, between two of them
            from ..table.prose import wrap_cells

            out += wrap_cells(line, width, len(indent) or 2)
            continue
        glued = re.sub(r"`[^`]*`", lambda m: m.group().replace(" ", "\0"), line)
        out.append(textwrap.fill(glued, width, subsequent_indent=indent or "  ", break_long_words=False,
                                 break_on_hyphens=False).replace("\0", " "))
    return "\n".join(out)


def output_path(value: Optional[Path]) -> Optional[Path]:
    """A Typer callback for an option naming a file to write: refused at once (exit 2, before any
    work) when it has no file name, is a folder, or its folder is missing (``storage.check_output``)."""
    if value is None:
        return None
    from ..record.storage import check_output

    try:
        return check_output(value, "the path")
    except UsageError as exc:
        raise typer.BadParameter(safe_message(told(message_of(exc)))) from None


def handshake_text(file: Path, raw_line: bytes, sender: Optional[str], raw: bool) -> tuple[str, bool]:
    """What a handshake command (``new``, ``join``, a reveal) prints to send: the armoured block
    that ``agility send`` prints when standard output is a terminal (a raw line of several KB
    breaks in mail programs and fills the screen), the raw line with ``raw`` or to a pipe (scripts
    read it).  Returns the text and whether it is the block."""
    if raw or not sys.stdout.isatty():
        return raw_line.decode() + "\n", False
    from ..table import mailing

    return mailing.outgoing(file, sender).text(), True


def fail(code: int, message: str) -> NoReturn:
    err(message)
    raise typer.Exit(code)


@contextlib.contextmanager
def boundary() -> Iterator[None]:
    """Turn every library error into one clean message on stderr and an exit code."""
    try:
        yield
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        fail(130, _("agility: interrupted"))
    except BrokenPipeError:
        sys.stderr.close()
        raise typer.Exit(0) from None
    except Exception as exc:
        fail(*_error_report(exc))


def _error_report(exc: Exception) -> tuple[int, str]:
    """The exit code and message for an error (the error classes are imported only when needed)."""

    said = told(message_of(exc))  # in the language in use where the message was made to be (said.Said)
    if isinstance(exc, GameFileError):
        return EXIT_INVALID, _("agility: invalid game file: {error}").format(error=exc.told())
    if isinstance(exc, Refused):
        return EXIT_REFUSED, refusal_text(exc) + "\n" + _("the game file is unchanged")
    if isinstance(exc, UsageError):
        return EXIT_USAGE, _("agility: {error}").format(error=said)
    if isinstance(exc, ComponentsError):
        return EXIT_USAGE, _("agility: invalid components file: {error}").format(error=said)
    if isinstance(exc, RulesError):  # a setup's error names its ruling (R7: …), as str(exc) says it
        return EXIT_USAGE, _("agility: {error}").format(error=told(exc.told()) if exc.code.startswith("setup/") else said)
    if isinstance(exc, DamagedKeyStore):  # this machine's own record is wrong: exit 3, naming the file
        return EXIT_INVALID, _("agility: {error}").format(error=said)
    if isinstance(exc, KeyStoreError):
        return EXIT_USAGE, _("agility: {error}").format(error=said)
    if isinstance(exc, FileExistsError):
        return EXIT_USAGE, _("agility: {file} already exists; `new` never overwrites a game (choose another "
                             "name)").format(file=exc.filename)
    if isinstance(exc, OSError):
        return EXIT_USAGE, _("agility: {file}: {error}").format(file=exc.filename or "", error=told(os_words(exc)))
    if type(exc).__name__ in ("SealError", "SecretMismatch") and type(exc).__module__.startswith("agility_cli.record.sealed"):
        # R42: a check of the sealed deck that failed where no line could be named (the verifier
        # names the line and its writer wherever it can): the game cannot go on from this file,
        # which is no bug of this tool (the sealed deck is not imported here to test the class)
        return EXIT_INVALID, _("agility: invalid game file: the sealed deck does not check ({error}); the game file is "
                               "unchanged: restore it from your opponent's copy or from git (R42)").format(error=said)
    # A bug; still no traceback for the user.
    return EXIT_BUG, _("agility: internal error ({error}); please report it with the game file").format(
        error=f"{type(exc).__name__}: {exc}")


def print_json(obj: Any) -> None:

    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def view_for(game: Game, as_player: Optional[str], reveal: bool = False, state: Optional[State] = None,
            whole: bool = True) -> Viewer:
    """Who is looking (R39; ``session.resolve_viewer``); warns on stderr when --reveal shows hidden cards."""

    try:
        viewer = session.resolve_viewer(game, as_player, reveal=reveal, state=state)
    except session.ViewerError as exc:
        raise UsageError(message_of(exc)) from None
    s = game.state if state is None else state
    if reveal and s.winner is None:
        err(_("agility: warning: --reveal shows every hidden card (both hands, face-down cards, the deck order) "
              "while the game is still being played"))
    if whole:  # the file as it stands, not cut at a line (show --at): compare it with what this machine saw
        history_notice(game)
    return viewer


def history_notice(game: Game) -> None:
    """R41: say on stderr when the file dropped lines this machine saw; else remember what it saw."""

    if not game.hashes:
        return
    if not game.trust.signed:
        session.remember(game)  # where the file is and when it changed (`agility games`)
        return
    rewrite = history.check(game.game_id, game.hashes)
    if rewrite is not None:
        err(_("agility: warning: {what}").format(what=told(rewrite.message(game.path))))
    else:
        session.remember(game)


def note_components(game: Game | Components) -> None:
    """On stderr, when the game is not played with the shipped component set: which set it is."""

    custom = describe_set(game if isinstance(game, Components) else game.components)
    if custom is not None:
        err(_("agility: note: this game is played with a {set}, not the shipped standard set; check that both "
              "players agreed on it").format(set=custom))


def refusal_text(exc: Any) -> str:
    """``agility: refused: WHY (agility rules R12)``, in the language in use (the guide says what the
    ruling is)."""
    if exc.rule:
        return _("agility: refused: {why} (agility rules {rule})").format(why=told(exc.message), rule=exc.rule)
    return _("agility: refused: {why}").format(why=told(exc.message))


def refuse_with_legal(path: str, state: State, exc: Any) -> NoReturn:
    lines = [refusal_text(exc)]
    if exc.legal:
        lines.append(_("legal now:"))
        lines += [f"  {command}" for command in commands_to_copy(path, state, exc.legal, 12)]
    lines.append(_("the game file is unchanged"))
    fail(EXIT_REFUSED, "\n".join(lines))


def check_line_number(option: str, value: Optional[int]) -> None:
    if value is not None and value < 1:

        raise UsageError(_("{option} counts lines of the file from 1 (line 1 is the header; decision n is line "
                           "n+1)").format(option=option))


def _tell_reveal(lines: list[bytes]) -> None:
    """R40: this command also wrote the creator's seed reveal, which the other player needs too."""
    if lines:
        err(_("your seed secret is revealed (R40): the game has started; the reveal line goes to the other player "
              "with your moves (`agility send` includes it)"))


def key_home() -> str:

    return str(keys.home())


def decider_view(game: Game, as_player: Optional[str], what: str, accept_rewrite: bool) -> Viewer:
    """The viewer, who must be the one to decide now (R39, R41), on a history this machine accepts."""

    try:
        viewer = session.resolve_viewer(game, as_player)
    except session.ViewerError as exc:
        raise UsageError(message_of(exc)) from None
    session.require_decider(game, viewer, what)
    session.check_history(game, accept=accept_rewrite)
    return viewer


def after_append(file: Path, out: Any, viewer: Viewer, quiet: bool) -> None:
    """What `move` and `bot` print after appending: the raw lines (-q), or the story and the board."""

    session.remember(out.game, [st.move for st in out.steps])
    if quiet:
        sys.stdout.write("".join(raw.decode() + "\n" for raw in [*out.handshake, *(st.raw for st in out.steps)]))
        return
    _tell_reveal(out.handshake)
    # The decider's view (in a game at one screen the player to act is someone else now).
    after = view_for(out.game, viewer.name if viewer.plays else None, whole=False)
    tell(out.steps, after)
    show_game(str(file), out.game, after)
