"""The ``agility`` Typer application and its global options; the commands register on it from their modules."""

from __future__ import annotations

import sys
import typer


app = typer.Typer(
    name="agility",
    help=(
        "Play the board game Agility (Brent Povis) by log: every decision is one line of a JSON Lines\n"
        "game file, the state is re-derived by replaying it, and anyone can audit a finished game.\n\n"
        "Quick start:  agility new solo.jsonl --players alice bot:strong && agility play solo.jsonl"
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


@app.callback()
def _options(
    version_: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
) -> None:
    # Only the global options live here; the app's help is the Typer(help=…) text above.
    pass
