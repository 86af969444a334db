"""The ``agility`` command: Typer commands in a few modules by topic, each parse → one call → render.

The modules: :mod:`.application` (the Typer application), :mod:`.common` (exit codes, the one error
boundary, who is viewing), :mod:`.game` (a game's life), :mod:`.mailcmd` (join, send, apply),
:mod:`.keys` (signing keys), :mod:`.tools` (schema, self-play, the rules guide) and :mod:`.bench`
(the benchmark, ``python -m agility_cli.cli.bench``).  Only the invoked command's module is
imported (start-up time); ``from agility_cli.cli import app`` gives the application with every
command registered, in the order of use that ``agility --help`` lists.

Exit codes: 0 success · 1 decision refused (file unchanged) · 2 usage error · 3 invalid game file ·
4 internal error (a bug; never expected).  Messages go to stderr, never a traceback.
"""

from __future__ import annotations

import importlib
import io
import os
import sys
from typing import Any

from ..text import safe_message
from . import helpwords
from .application import app as _app
from .common import EXIT_BUG, EXIT_USAGE, err

#: Each command, in the order of use (``agility --help`` lists them so), and the module defining it.
COMMANDS: dict[str, str] = {
    "new": "game", "join": "mailcmd", "play": "play", "games": "games", "show": "game", "legal": "game", "move": "game",
    "send": "mailcmd", "apply": "mailcmd", "undo": "game", "log": "game", "replay": "game", "hint": "play",
    "bot": "play", "export": "share", "analyse": "share", "key": "keys", "rules": "tools", "selfplay": "tools", "schema": "tools", "repair": "game",
}


def load(names: list[str] | None = None) -> None:
    """Register the commands of ``names`` (every command when ``None``), in the order of use."""
    modules = sorted({COMMANDS[n] for n in (names or COMMANDS)})
    for module in modules:
        importlib.import_module(f"{__name__}.{module}")
    order = list(COMMANDS)

    def rank(name: str | None) -> int:
        return order.index(name) if name in order else len(order)

    from typer.main import get_command_name

    _app.registered_commands.sort(
        key=lambda info: rank(info.name or get_command_name(info.callback.__name__ if info.callback else ""))
    )


def __getattr__(name: str) -> Any:
    """``from agility_cli.cli import app`` (tests, front ends): the application with every command."""
    if name == "app":
        load()
        return _app
    raise AttributeError(name)


def _register_only(args: list[str]) -> None:
    """Start-up: Typer builds a Click command for every registered command before it runs one
    (about 0.6 ms each, measured); when the first word names a command exactly, only that one is
    built.  Anything else (``--help``, a typo, shell completion) sees every command."""
    if not args or args[0].startswith("-") or any(k.endswith("_COMPLETE") for k in os.environ) \
            or args[0] not in COMMANDS:
        load()
        return
    load([args[0]])
    from typer.main import get_command_name

    commands = [
        info for info in _app.registered_commands
        if (info.name or get_command_name(info.callback.__name__ if info.callback else "")) == args[0]
    ]
    groups = [info for info in _app.registered_groups if info.name == args[0]]
    if commands or groups:
        _app.registered_commands[:] = commands
        _app.registered_groups[:] = groups


def _global_language(args: list[str]) -> list[str]:
    """Start-up: ``agility --lang zh rules …`` chooses the language before any command module is
    imported, since the help texts are translated as the command tree is built.  Returns the words
    from the command on (the global options dropped) for :func:`_register_only`; Click still reads
    ``--lang`` itself (``application._options``)."""
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] == "--lang" and i + 1 < len(args):
            from .. import i18n

            i18n.set_language(args[i + 1])
            i += 2
            continue
        if args[i].startswith("--lang="):
            from .. import i18n

            i18n.set_language(args[i].partition("=")[2])
        elif args[i] in ("-h", "--help", "--version") or "completion" in args[i]:
            return args  # everything is loaded for these
        i += 1
    return args[i:]


def main() -> None:
    """Entry point of the ``agility`` script.

    Click's own usage errors (an unknown option, ``--at x``) quote the user's words: they are
    printed here, made safe for the terminal like every other message, instead of by Click.
    (Typer may bundle its own copy of Click, so its exceptions are recognised by their class names.)
    """
    _register_only(_global_language(sys.argv[1:]))
    try:
        code = _app(standalone_mode=False)
    except Exception as exc:
        names = {cls.__name__ for cls in type(exc).__mro__}
        if "ClickException" in names:
            shown = io.StringIO()
            exc.show(file=shown)  # type: ignore[attr-defined]
            sys.stderr.write(safe_message(helpwords.error_text(shown.getvalue())))
            sys.exit(getattr(exc, "exit_code", EXIT_USAGE))
        if "Abort" in names:
            err("agility: interrupted")
            sys.exit(130)
        err(f"agility: internal error ({type(exc).__name__}: {exc})")  # pragma: no cover - caught by each command
        sys.exit(EXIT_BUG)
    sys.exit(code if isinstance(code, int) else 0)
