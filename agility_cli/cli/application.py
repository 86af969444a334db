"""The ``agility`` Typer application and its global options; the commands register on it from their modules."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional

import typer
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandFunctionType

from ..i18n import N_, _
from . import helpwords


class _Words:
    """Click's and Typer's own words in the language in use (docs/translating.md): the usage line's
    ``Usage:``, ``-h, --help``'s line, a help text with wide characters wrapped in terminal cells
    (:class:`.helpwords.CellFormatter`), and a command's one-line summary cut in cells."""

    context_class = helpwords.Context

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=helpwords.usage_prefix())

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    def get_short_help_str(self, limit: int = 45) -> str:
        shown = self.shown_help()
        if getattr(self, "short_help", None) or not shown:
            return super().get_short_help_str(limit)  # type: ignore[misc, no-any-return]
        return helpwords.short_help(shown, limit)

    def shown_help(self) -> str | None:
        """The help text as shown: a command's is translated as the command is built."""
        return self.help  # type: ignore[attr-defined, no-any-return]


class Command(_Words, TyperCommand):  # type: ignore[misc]
    """A command whose usage line names its arguments as the help does: ``agility play [OPTIONS]
    FILE`` (Typer writes a required argument ``{FILE}``), in the language in use."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in pieces]


class Group(_Words, TyperGroup):  # type: ignore[misc]
    """``agility`` itself and ``agility key``: a group is made before ``--lang`` is read (the
    application at import), so its help text and its options' help are marked ``N_`` and
    translated when shown, Typer's completion options' too."""

    def shown_help(self) -> str | None:
        return _(self.help) if self.help else self.help

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        shown, self.help = self.help, self.shown_help()
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = shown

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)
        for param in params:
            english = getattr(param, "english_help", None) or param.help
            if english and param.name != "help":
                param.english_help = english
                param.help = _(english)
        return params


class App(typer.Typer):
    """The Typer application, its commands made with :class:`Command`, its groups with :class:`Group`."""

    def __init__(self, *args: Any, cls: type[TyperGroup] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, cls=cls or Group, **kwargs)

    def command(
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=cls or Command, **kwargs)


app = App(
    name="agility",
    help=N_(
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
    version_: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True, help=N_("Print the version and exit.")),
    lang: Optional[str] = typer.Option(
        None, "--lang", metavar="LANG", callback=_choose_language, is_eager=True,
        help=N_("The language to speak: zh (中文), en, or qps (the pseudo-locale); default: AGILITY_LANG, else LANG."),
    ),
) -> None:
    # Only the global options live here; the app's help is the Typer(help=…) text above.
    pass
