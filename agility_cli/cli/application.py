"""The ``agility`` Typer application and its global options; the commands register on it from their modules."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

import typer
from typer.core import TyperCommand
from typer.models import CommandFunctionType


class Command(TyperCommand):
    """A command whose usage line names its arguments as the help does: ``agility play [OPTIONS]
    FILE`` (Typer writes a required argument ``{FILE}``)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]


class App(typer.Typer):
    """The Typer application, its commands made with :class:`Command`."""

    def command(
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=cls or Command, **kwargs)


app = App(
    name="agility",
    help=(
        "Play the board game Agility (Brent Povis) by log: every decision is one line of a JSON Lines\n"
        "game file, the state is re-derived by replaying it, and anyone can audit a finished game.\n\n"
        "\b\nQuick start:\n"
        "  agility new solo.jsonl --players alice bot:strong\n"
        "  agility play solo.jsonl\n\n"
        "\b\nExit status:\n"
        "  0    done\n"
        "  1    refused: not a legal decision now, or not yours (the file is unchanged)\n"
        "  2    usage error: a word or an option that cannot be read\n"
        "  3    invalid game file, or no game file there\n"
        "  4    internal error (a bug: please report it with the game file)\n"
        "  130  interrupted (Ctrl-C); the game file is whole"
    ),
    no_args_is_help=True,
    add_completion=True,  # Typer's --install-completion / --show-completion (README: Shell completion)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _print_version(value: bool) -> None:
    """``agility --version``: the installed version (importlib.metadata), else the package's own."""
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("agility-cli")
    except PackageNotFoundError:  # run from a source tree that was never installed
        from .. import __version__ as number
    sys.stdout.write(f"agility {number}\n")
    raise typer.Exit(0)


def _choose_language(value: str | None) -> None:
    """``agility --lang zh``: the language of what the tool says (``main`` chose it already, from
    the command line, before the help texts were built; this keeps a caller of the app in step)."""
    if value:
        from .. import i18n

        i18n.set_language(value)


@app.callback()
def _options(
    version_: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    lang: Optional[str] = typer.Option(
        None, "--lang", metavar="LANG", callback=_choose_language, is_eager=True,
        help="The language to speak: zh (中文), en, or qps (the pseudo-locale); default: AGILITY_LANG, else LANG.",
    ),
) -> None:
    # Only the global options live here; the app's help is the Typer(help=…) text above.
    pass
