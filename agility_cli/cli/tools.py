"""Tools: the JSON Schema, bot self-play statistics, and the rules guide for players."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional
import typer
import msgspec
import time
import shutil

from ..engine.notation import UsageError
from ..engine.notation import UsageError
from ..engine.components import load_components
from ..engine.notation import UsageError
from ..table import guide
from ..i18n import N_, _, _name
from ..said import message_of, said_in, tell
from ..players import bots
from ..engine.notation import UsageError, prefix_match
from ..engine.components import components_schema
from ..engine.moves import line_schema
from ..engine.notation import UsageError
from ..players import selfplay as sp
from ..players.batch import INSTALL_HINT
from .application import app
from .common import CLUSTER_HELP, EXIT_USAGE, boundary, err, fail, print_json
from ..table.screen import make_console, paged, plain_output


@app.command(
    help=_(
        "Print the JSON Schema of a game-file line (or of a components file).\n"
        "\n"
        "Example:  agility schema > line.schema.json"
    ),
)
def schema(
    components: bool = typer.Option(False, "--components", help=_("Print the schema of a components file instead.")),
) -> None:
    with boundary():

        if components:

            doc = components_schema()
        else:

            doc = line_schema()
        sys.stdout.write(msgspec.json.format(msgspec.json.encode(doc), indent=2).decode() + "\n")


@app.command(
    help=_(
        "Play many bot-vs-bot games in memory and print statistics.\n"
        "\n"
        "Strategies alternate seats from game to game; the start player is drawn from each game's seed.\n"
        "Game i is exactly the game `agility new FILE --seed G --players bot:A bot:B --first random`\n"
        "plays by itself (G is shown in the files written with --out).  The statistics and the files\n"
        "are the same whatever --jobs or --cluster (only the thinking times differ).  --cluster sends\n"
        "the games to Dask workers as pickles: use it only on machines you control.\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility selfplay --games 200 --strategy greedy --vs random --seed 1 --jobs 2\n"
        "  agility selfplay --strategy strong3 --cluster tcp://HOST:8786 --out ladder\n"
        "  agility selfplay --strategy strong3 --out ladder --resume  # goes on"
    ),
)
def selfplay(
    games: int = typer.Option(100, "--games", "-n", help=_("How many games to play.")),
    strategy: str = typer.Option("greedy", "--strategy", help=_("Strategy A: random, greedy, strong, strong1 … strong3.")),
    vs: str = typer.Option("random", "--vs", help=_("Strategy B: random, greedy, strong, strong1 … strong3.")),
    seed: int = typer.Option(0, "--seed", help=_("Master seed; game i is seeded by (seed, i) through the game's PRNG.")),
    jobs: int = typer.Option(1, "--jobs", "-j", help=_("Worker processes (0: one per CPU); results do not depend on it.")),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS", help=_(CLUSTER_HELP).format(install=INSTALL_HINT)),
    out: Optional[Path] = typer.Option(None, "--out", help=_("Also write every game as a game file in this directory (in game order, through a journal kept there until the run is whole).")),
    resume: bool = typer.Option(False, "--resume", help=_("Go on with the stopped run whose journal is in --out (same options): no game is played twice.")),
    board: str = typer.Option("recommended", "--board", help=_("recommended, random-a, random-b, or mixed (cycles the three).")),
    components: Optional[Path] = typer.Option(None, "--components", help=_("A components file to play with (embedded in written games).")),
    as_json: bool = typer.Option(False, "--json", help=_("Print the statistics as JSON instead of tables.")),
) -> None:
    with boundary():

        names = list(bots.STRATEGIES)
        comp_bytes = None
        if components is not None:

            comp_bytes = msgspec.json.encode(load_components(components))
        config = sp.Config(
            games=games,
            strategy=prefix_match(strategy, names, N_("strategy")),
            vs=prefix_match(vs, names, N_("strategy")),
            seed=seed,
            board=prefix_match(board, list(sp.BOARD_MODES), said_in(_name("board mode", "board"))),
            jobs=jobs if jobs > 0 else (os.cpu_count() or 1),
            out=None if out is None else str(out),
            components=comp_bytes,
            cluster=cluster,
            resume=resume,
        )
        try:
            sp.check(config)
        except sp.ConfigError as exc:
            raise UsageError(message_of(exc)) from None
        started = time.perf_counter()
        results = sp.run_with_progress(config, make_console(stderr=True))
        elapsed = time.perf_counter() - started
        summary = sp.summarize(config, results)
        if as_json:
            print_json(summary)
            return
        make_console().print(sp.render(summary))
        err(_("{games} games in {seconds} s ({rate} games/s, {where})").format(
            games=games, seconds=f"{elapsed:.1f}", rate=f"{games / elapsed:.0f}", where=tell(config.where().describe())))


@app.command(
    "rules",
    help=_(
        "Explain the rules of the game, topic by topic: goal, a turn, each tile, dogs, pause box…\n\n"
        "Without a TOPIC: the list of topics, then the overview.  A ruling's number (R21, as refusals "
        "cite it) shows that ruling and the topic that explains it.  On a terminal, a text taller than "
        "it goes through your pager ($PAGER, else less -R).\n\n"
        "\b\nExamples:\n"
        "  agility rules boost\n"
        "  agility rules mini\n"
        "  agility rules --all | less"
    ),
)
def rules_(
    topic: Optional[str] = typer.Argument(
        None,
        metavar="[TOPIC]",
        help=_("A topic: its id, or the first letters of its id or of a word of its title (boost, mini, pause)."),
        autocompletion=lambda incomplete: _topic_ids(incomplete),
    ),
    all_: bool = typer.Option(False, "--all", help=_("Print every topic.")),
) -> None:
    """`agility rules`: the guide's contents, a topic or all of them, in the language in use (its help
    text is a message of the catalog, translated as the command is built: the worked example of
    docs/translating.md)."""
    with boundary():

        if topic is not None and all_:
            fail(EXIT_USAGE, _("agility: give a TOPIC or --all, not both"))
        try:
            chosen = guide.topics() if all_ else [guide.find(topic)] if topic is not None else [guide.topics()[0]]
        except guide.TopicError as exc:
            fail(EXIT_USAGE, _("agility rules: {error}").format(error=exc))
        head = guide.contents(_width()) + "\n\n" if topic is None and not all_ else ""
        with paged():  # issue 32: taller than the terminal, through a pager
            _print_topics(head, chosen)


def _print_topics(head: str, chosen: list[guide.Topic]) -> None:
    """`agility rules`: the contents (``head``) and the topics, styled on a terminal."""
    if plain_output():
        body = "\n\n".join(guide.topic_plain(t, _width()) for t in chosen)
        sys.stdout.write(head + body + "\n")
        return
    from rich.markdown import Markdown
    from rich.text import Text

    console = make_console()
    if head:
        console.print(Text(head.rstrip("\n") + "\n"))
    for t in chosen:
        console.print(Text(t.title, style="bold underline"))
        console.print()
        console.print(Markdown(t.text))
        console.print()


def _topic_ids(incomplete: str) -> list[str]:
    """Shell completion of `agility rules TOPIC`: the topic ids that start with what was typed."""

    return [t.id for t in guide.topics() if t.id.startswith(incomplete.lower())]


def _width() -> int:
    """The terminal's width (80 when piped, unless COLUMNS says otherwise), at most 100."""

    return min(shutil.get_terminal_size((80, 24)).columns, 100)
