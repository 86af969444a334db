"""Sharing a game: ``agility export`` (a drawn board, a self-contained HTML replay) and
``agility analyse`` (the search's verdict on every decision)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from .application import app
from .common import AS_HELP, history_notice, boundary, check_line_number, err, output_path, print_json, view_for
from ..engine.notation import UsageError
from ..engine.state import public_state
from ..engine.view import PUBLIC, seat_view
from ..players.batch import CLUSTER_HELP
from ..record import gamefile
from ..table import picture, review
from ..table.replay import html as replayhtml, story as replaying
from ..text import safe


def _seat(file: Path, as_player: Optional[str]) -> tuple[bytes, Any, int | None]:
    """The file, its game, and whose view a shared picture takes (R39): a finished game is complete;
    a game in play shows what is public, or with --as your own seat (a seat whose key is held here)."""
    data = gamefile.read_revealed(file)
    game = gamefile.load_bytes(data, str(file))
    history_notice(game)  # R41: a rewritten history is said here as by every other command
    if game.state.winner is not None:
        return data, game, None
    if as_player is None:
        return data, game, PUBLIC
    return data, game, view_for(game, as_player).view_seat


def _write(text: str, out: Optional[Path]) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    gamefile.write_new(out, text.encode(), what=f"the export {out}", replace=True)
    err(f"agility: wrote {out}")


@app.command()
def export(
    file: Path = typer.Argument(..., metavar="FILE", help="The game file."),
    svg: bool = typer.Option(False, "--svg", help="The board at line N as an SVG picture."),
    as_html: bool = typer.Option(False, "--html", help="One self-contained HTML page that replays the game."),
    at: Optional[int] = typer.Option(None, "--at", help="With --svg: the board after line N (default: the last line)."),
    analysis: Optional[Path] = typer.Option(None, "--analysis", metavar="FILE.json", help="With --html: the win-chance graph of `agility analyse --out`."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", callback=output_path, metavar="OUT", help="Write here (whole or not at all) instead of printing."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP + " Adds your hand to a game in play."),
) -> None:
    """Draw the board (--svg) or write a replay to step through in a browser (--html).

    A game in play is shown as the public sees it (no hand of either seat; --as your seat adds
    yours); a finished game shows everything.  The page needs no network: open it from disk.

    \b
    Examples:
      agility export game.jsonl --svg --at 40 -o board.svg
      agility analyse game.jsonl --out review.json && agility export game.jsonl --html --analysis review.json -o game.html
    """
    with boundary():
        if svg == as_html:
            raise UsageError("say --svg (a picture of the board) or --html (a replay page)")
        check_line_number("--at", at)
        data, game, seat = _seat(file, as_player)
        records = [json.loads(line) for line in replaying.json_lines(data, str(file), seat, game=game)]
        if svg:
            pick = [r for r in records if at is None or r["line"] <= at][-1]
            _write(picture.board_svg(pick["state"], title=f"{file.name}, line {pick['line']}", line=pick["line"]), out)
            return
        shape = None
        if analysis is not None:
            raw = gamefile.read_bytes(analysis, what="analysis file", limit=review.MAX_ANALYSIS_BYTES)
            try:
                shape = review.load_analysis(raw, safe(str(analysis)), list(game.header.players))
            except review.AnalysisFileError as exc:
                raise UsageError(str(exc)) from None
        try:
            page = replayhtml.replay_html_from_records(records, title=f"{file.name}: {' vs '.join(game.header.players)}",
                                                       analysis=shape)
        except ValueError as exc:  # the analysis does not fit this game's lines (graph._analysis)
            raise UsageError(f"{safe(str(analysis))} is not an analysis of this game: {exc}") from None
        _write(page, out)


@app.command()
def analyse(
    file: Path = typer.Argument(..., metavar="FILE", help="The game file."),
    simulations: int = typer.Option(review.DEFAULT_SIMULATIONS, "--simulations", help="The search's budget at each decision (reproducible)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the search's random streams."),
    jobs: int = typer.Option(1, "--jobs", help="Search this many turns at once (processes); the result is the same."),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS", help=CLUSTER_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the review as JSON."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", callback=output_path, metavar="FILE.json", help="Also store the review as JSON (for export --html --analysis)."),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=AS_HELP),
) -> None:
    """The search's verdict on every decision: win chances, the better choice, marks.

    At each decision the search runs from the decider's own view (what they could know then).
    Loss = the chance after the search's choice minus the chance after the decision played;
    marks: inaccuracy ≥ 5 points, mistake ≥ 10, blunder ≥ 20.  Mid-game only your own past
    decisions are reviewed.  The review is the same with any --jobs or --cluster (each turn is
    one task; --cluster sends them to Dask workers as pickles: only machines you control).

    Example:  agility analyse game.jsonl --jobs 2 --out review.json
    """
    with boundary():
        if simulations < 1 or simulations > 100_000 or jobs < 1 or jobs > 64:
            raise UsageError("--simulations counts from 1 to 100000, --jobs from 1 to 64")
        data = gamefile.read_revealed(file)
        game = gamefile.load_bytes(data, str(file))
        held = gamefile.published_secrets(game)  # R42: a finished sealed game's cards, every one open
        whole = game.state.winner is not None and (game.sealed is None or held is not None)
        only = None if whole else view_for(game, as_player).name  # mid-game (or audit pending): your own
        result = review.review(data, str(file), sims=simulations, seed=seed, only=only, jobs=jobs,
                               progress=_progress(), held=held, cluster=cluster)
        doc = result.to_json()
        if out is not None:
            gamefile.write_new(out, json.dumps(doc, indent=1).encode() + b"\n", what=f"the review {out}", replace=True)
        if as_json:
            print_json(doc)
            return
        sys.stdout.write(review_text(result))


def _progress() -> Any:
    """A progress line on stderr when it is a terminal (the review takes a while)."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        sys.stderr.write(f"\ranalysing: {done}/{total} decisions" + ("\n" if done == total else ""))
        sys.stderr.flush()

    return show


def review_text(result: review.Review) -> str:
    """The review as a person reads it: the marked decisions, then a summary per player."""
    from ..text import safe

    rows = []
    for v in result.verdicts:
        if v.mark:
            rows.append(f"  line {v.line:>4}  {safe(v.player)}: {v.mark} — {safe(v.played)} "
                        f"({100 * v.chance_played:.0f}%); {safe(v.best)} would have kept {100 * v.chance:.0f}%")
    head = f"Review ({result.simulations} simulations a decision, seed {result.seed}):"
    body = rows or ["  no decision marked"]
    summary = [f"  {safe(name)}: {s['decisions']} decisions, " + ", ".join(f"{n} {k}" for k, n in s["marks"].items())
               + f", average loss {100 * s['average_loss']:.1f} points" for name, s in result.summary().items()]
    return "\n".join([head, *body, "Summary:", *summary]) + "\n"
