"""Sharing a game: ``agility export`` (a drawn board, a self-contained HTML replay) and
``agility analyse`` (the search's verdict on every decision)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Optional

import typer

from .application import app
from .common import CLUSTER_HELP, AS_HELP, history_notice, boundary, check_line_number, err, output_path, print_json, view_for
from ..engine.notation import UsageError
from ..i18n import N_, _, ngettext
from ..said import said
from ..engine.state import public_state
from ..engine.view import PUBLIC, seat_view
from ..players.batch import INSTALL_HINT
from ..record import gamefile
from ..table import picture, review
from ..table.layout import cell_len
from ..table.prose import wrap_cells
from ..table.replay import html as replayhtml, story as replaying
from ..text import PATH_LIMIT, quoted, safe


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
    _write_out(out, text.encode(), what=f"the export {out}")


def _write_out(out: Path, data: bytes, what: str, tell: bool = True) -> None:
    """``data`` written whole at ``out`` (``storage.write_new``: a device, FIFO, socket or folder,
    or a link to one, is refused).  A symbolic link there to a regular file is replaced by the new
    file, never written through: the file it pointed at stays as it was, and the message says so."""
    try:
        link = os.readlink(out) if os.path.islink(out) else None
    except OSError:
        link = None
    gamefile.write_new(out, data, what=what, replace=True)
    shown = safe(str(out), PATH_LIMIT)
    if link is None:
        if tell:
            err(_("agility: wrote {file}").format(file=shown))
    else:
        err(_("agility: wrote {file}; it was a symbolic link to {link}: the link is replaced by the new file, and the "
              "file it pointed at is unchanged").format(file=shown, link=quoted(link, PATH_LIMIT)))


@app.command(
    help=_(
        "Draw the board (--svg) or write a replay to step through in a browser (--html).\n"
        "\n"
        "A game in play is shown as the public sees it (no hand of either seat; --as your seat adds\n"
        "yours); a finished game shows everything.  The page needs no network: open it from disk.\n"
        "\n"
        "\b\n"
        "Examples:\n"
        "  agility export game.jsonl --svg --at 40 -o board.svg\n"
        "  agility analyse game.jsonl --out review.json\n"
        "  agility export game.jsonl --html --analysis review.json -o game.html"
    ),
)
def export(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    svg: bool = typer.Option(False, "--svg", help=_("The board at line N as an SVG picture.")),
    as_html: bool = typer.Option(False, "--html", help=_("One self-contained HTML page that replays the game.")),
    at: Optional[int] = typer.Option(None, "--at", help=_("With --svg: the board after line N (default: the last line).")),
    analysis: Optional[Path] = typer.Option(None, "--analysis", metavar="FILE.json", help=_("With --html: the win-chance graph of `agility analyse --out` (an analysis of this game: one of another game, or of another copy of it, is refused).")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", callback=output_path, metavar="OUT", help=_("Write here (whole or not at all; a symbolic link there is replaced, never written through) instead of printing.")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP) + " " + _("Adds your hand to a game in play.")),
) -> None:
    with boundary():
        if svg == as_html:
            raise UsageError(_("say --svg (a picture of the board) or --html (a replay page)"))
        check_line_number("--at", at)
        data, game, seat = _seat(file, as_player)
        records = [json.loads(line) for line in replaying.json_lines(data, str(file), seat, game=game, shared=True)]
        if svg:
            pick = [r for r in records if at is None or r["line"] <= at][-1]
            _write(picture.board_svg(pick["state"], title=_("{file}, line {line}").format(file=file.name, line=pick["line"]),
                                     line=pick["line"]), out)
            return
        shape = None if analysis is None else _analysis_of(analysis, game, file)
        try:
            page = replayhtml.replay_html_from_records(records, title=_("{file}: {players}").format(file=file.name, players=_(" vs ").join(game.header.players)),
                                                       analysis=shape)
        except ValueError as exc:  # the analysis does not fit this game's lines (graph._analysis)
            raise UsageError(_("{file} is not an analysis of this game: {error}").format(
                file=safe(str(analysis), PATH_LIMIT), error=exc)) from None
        _write(page, out)


def _analysis_of(analysis: Path, game: Any, file: Path) -> dict[str, Any]:
    """The win-chance graph of the analysis file ``analysis``, checked against ``game`` (read from
    ``file``): an analysis of another game, or a file that is no analysis (a FIFO, a device, a
    folder, JSON of another shape), is a usage error (exit 2) naming the file, nothing written."""
    where = safe(str(analysis), PATH_LIMIT)
    try:
        raw = gamefile.read_bytes(analysis, what="analysis file", limit=review.MAX_ANALYSIS_BYTES)
    except gamefile.GameFileError as exc:  # not a game file's fault: exit 2, not 3
        raise UsageError(said(N_("{file} {why}"), file=where, why=exc.message) if exc.message.startswith("is ") else
                         said(N_("{file} cannot be read: {why}"), file=where, why=exc.message)) from None
    try:
        return review.load_analysis(raw, where, list(game.header.players), game, safe(str(file), PATH_LIMIT))
    except review.AnalysisFileError as exc:
        raise UsageError(exc.args[0]) from None


@app.command(
    help=_(
        "The search's verdict on every decision: win chances, the better choice, marks.\n"
        "\n"
        "At each decision the search runs from the decider's own view (what they could know then),\n"
        "the hidden cards weighted by what the opponent's plays revealed; the played and the best\n"
        "decision are then valued on the same sampled worlds, and the chances are corrected by a\n"
        "calibration map measured on self-play games (of the decisions given a 60 % win chance, about\n"
        "60 % are won).  Loss = the chance after the best decision minus the chance after the decision\n"
        "played; marks: inaccuracy ≥ 5 points,\n"
        "mistake ≥ 10, blunder ≥ 20, only beyond the search's noise (the loss's 99-percent interval past the\n"
        "threshold, else a second look at 4x the simulations decides); a decision the hint called the\n"
        "best or about equal is marked only when that longer look confirms it.  Mid-game only your own past\n"
        "decisions are reviewed.  The review is the same with any --jobs or --cluster (each turn is\n"
        "one task; --cluster sends them to Dask workers as pickles: only machines you control).\n"
        "\n"
        "Example:  agility analyse game.jsonl --jobs 2 --out review.json"
    ),
)
def analyse(
    file: Path = typer.Argument(..., metavar="FILE", help=_("The game file.")),
    simulations: int = typer.Option(review.DEFAULT_SIMULATIONS, "--simulations", help=_("The tree search's simulations at each decision, to find the best (reproducible).")),
    worlds: int = typer.Option(review.DEFAULT_WORLDS, "--worlds", help=_("The sampled worlds the played and the best decision are both valued on.")),
    seed: int = typer.Option(0, "--seed", help=_("Seed of the search's random streams.")),
    jobs: int = typer.Option(1, "--jobs", help=_("Search this many turns at once (processes); the result is the same.")),
    cluster: Optional[str] = typer.Option(None, "--cluster", metavar="ADDRESS", help=_(CLUSTER_HELP).format(install=INSTALL_HINT)),
    as_json: bool = typer.Option(False, "--json", help=_("Print the review as JSON.")),
    out: Optional[Path] = typer.Option(None, "--out", "-o", callback=output_path, metavar="FILE.json", help=_("Also store the review as JSON (for export --html --analysis).")),
    as_player: Optional[str] = typer.Option(None, "--as", envvar="AGILITY_PLAYER", help=_(AS_HELP)),
) -> None:
    with boundary():
        if simulations < 1 or simulations > 100_000 or jobs < 1 or jobs > 64 or worlds < 1 or worlds > 10_000:
            raise UsageError(_("--simulations counts from 1 to 100000, --worlds from 1 to 10000, --jobs from 1 to 64"))
        data = gamefile.read_revealed(file)
        game = gamefile.load_bytes(data, str(file))
        held = gamefile.published_secrets(game)  # R42: a finished sealed game's cards, every one open
        whole = game.state.winner is not None and (game.sealed is None or held is not None)
        only = None if whole else view_for(game, as_player).name  # mid-game (or audit pending): your own
        with _progress() as progress:
            result = review.review(data, str(file), sims=simulations, seed=seed, only=only, jobs=jobs,
                                   progress=progress, held=held, cluster=cluster, worlds=worlds)
        result.game = review.game_mark(game)  # the analysis file names the file it is of
        doc = result.to_json()
        if out is not None:
            _write_out(out, json.dumps(doc, indent=1).encode() + b"\n", what=f"the review {out}", tell=False)
        if as_json:
            print_json(doc)
            return
        sys.stdout.write(review_text(result))


@contextmanager
def _progress() -> Iterator[Any]:
    """A progress bar on stderr while the review runs, when stderr is a terminal (rich)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn(_("analysing")), BarColumn(), MofNCompleteColumn(), TextColumn(_("decisions")), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("analyse", total=None)

        def show(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield show


def _cells(head: str, text: str) -> list[str]:
    """``head`` and then ``text`` within 80 terminal cells (a CJK character takes two; a line may
    break between two of them, never inside an English word), going on four cells in; ``head``
    (a row's line number and player) kept as it is, its blanks too."""
    lines = wrap_cells(" " * cell_len(head) + text, 80, 4)
    return [head + lines[0][cell_len(head):], *lines[1:]]


def review_text(result: review.Review) -> str:
    """The review as a person reads it: the marked decisions, then a summary per player."""
    from ..text import safe

    word = replayhtml.mark_word  # a mark's word: the glossary's 欠佳 / 错误 / 大错 in Chinese
    wide = any(cell_len(x) != len(x) for x in (_("Summary:"), word("blunder")))  # a CJK language
    rows = []
    for v in result.verdicts:
        if v.mark:
            row = _("line {line}  {player}: {mark} — {note}")
            note = safe(review.verdict_note(v))
            head = "  " + row.format(line=f"{v.line:>4}", player=safe(v.player), mark=word(v.mark), note="")
            if not row.endswith("{note}"):  # a language that says the note first: the row wrapped whole
                head, note = "", head + note
            rows += _cells(head, note) if wide else [head + note]
    head = _("Review ({simulations} simulations and {worlds} common worlds a decision, seed {seed}; chances are "
             "the decider's, after the decision):").format(simulations=result.simulations, worlds=result.worlds,
                                                          seed=result.seed)
    body = rows or ["  " + _("no decision marked")]
    summary = ["  " + ngettext("{player}: {n} decision, {marks}, average loss {loss} points",
                               "{player}: {n} decisions, {marks}, average loss {loss} points", s["decisions"]).format(
        player=safe(name), n=s["decisions"], loss=f"{100 * s['average_loss']:.1f}",
        marks=_(", ").join(_("{n} {mark}").format(n=n, mark=word(k)) for k, n in s["marks"].items()))
        for name, s in result.summary().items()]
    lines = [*(_cells("", head) if wide else [head]), *body, _("Summary:"),
             *(line for x in summary for line in (_cells("", x) if wide else [x]))]
    return "\n".join(lines) + "\n"
