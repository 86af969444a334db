"""A whole game as one self-contained HTML page: the drawn board at every line, to step through.

:func:`replay_html` takes one :class:`Frame` per line of the game file (the SVG of the board after
that line, from :func:`agility_cli.table.picture.board_svg`, the narration of the line and a short label
of its decision) and returns one HTML document with everything inline: its CSS, its script and
its data.  It loads nothing, from anywhere: no CDN, no font, no image, no other file; its Content
Security Policy forbids every fetch and allows only its own script and styles (by hash), so even
a bug could not make it load something.  The page shows the board of the current line, a range
slider, first/previous/next/last buttons, the left/right arrow keys (Home/End too), the narration
of the line beside the board, and the list of moves (a click jumps there); ``#line=N`` in the
address opens line N.  It is responsive down to a phone's width (~360 px): the board scales and
the side panel goes below it.

:func:`frames_from_replay` builds the frames from the records of ``agility replay --json``
(``{"line", "state"}`` then ``{"line", "move", "state"}``), with a move label
(:func:`move_label`) and a narration made from the difference of the states around the line
(:func:`narrate_line`: marker moves, cubes and tokens gained and paid, adoptions, dogs advancing,
markers placed, the winner).  ``python -m agility_cli.table.replay.html`` does it from the command line:

    agility replay game.jsonl --json | python -m agility_cli.table.replay.html - -o game.html

**Analysis.** ``analysis`` (optional, see :class:`Analysis`) adds a small win-chance graph under
the board: one line over the game, the first player's chance (the other's is its mirror), the marked
decisions (inaccuracy ``?!``, mistake ``?``, blunder ``??``) drawn on it, each moved clear of its
neighbours; a click on the graph jumps to that line.  The shape::

    {"players": ["alice", "bob"],                     # the series, in seat order
     "points": [{"line": 12,                          # a line of the frames
                 "win": {"alice": 0.62, "bob": 0.38}, # each player's win chance in [0, 1]
                 "mark": "mistake",                   # optional: inaccuracy | mistake | blunder
                 "by": "alice",                       # optional: whose decision is marked
                 "note": "Break was better"}]}        # optional: a short comment

**Untrusted text.** Player names and ids come from the game file.  The frame data is JSON inside
``<script type="application/json">`` with every ``</`` written ``<\\/`` and every ``<!--`` and
``<script`` as ``\\u003c!--``, ``\\u003cscript``, so no text can end the script element; the
script sets every text with ``textContent``, never ``innerHTML``; the SVG of a frame is parsed as
XML (``DOMParser``, where ElementTree's escaping holds) and scrubbed of anything but the drawing
elements picture.py writes before it is shown.

**Size.** Consecutive boards share most of their drawing, so a frame is stored as the root tag of
its SVG and a list of indexes into one table of distinct top-level parts (course rows, player
panels, the rondel …); the page reassembles each SVG exactly.  A game of 130 lines is about 2 MB.

**Where the parts are.** This module builds the frames and the page and is the API (the names in
``__all__``); a line is put in words by :mod:`agility_cli.table.replay.narrate`, the analysis is
checked and drawn by :mod:`agility_cli.table.replay.graph`, and the page's CSS and script are in
:mod:`agility_cli.table.replay.assets`.

**For tests.** Every frame's ``<svg>`` keeps picture.py's ``data-`` attributes (marker, line,
cubes, dogs' positions, hand sizes: ``picture.DATA_ATTRIBUTES``), and the page's own elements
have ids (``board``, ``slider``, ``first``, ``prev``, ``next``, ``last``, ``where``, ``label``,
``narration``, ``moves``, ``winchance``).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import html
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...i18n import N_, _
from ..picture import STYLE, board_svg, clean
from ..svg.style import CJK_SANS, page_language, sans
from .assets import CSS, JS
from .graph import G_W, MARKS, X0, X1, Analysis, AnalysisPoint, _analysis, _graph, mark_word
from .narrate import _num, _players, move_label, narrate_line

__all__ = [
    "MARKS",
    "Analysis",
    "AnalysisPoint",
    "Frame",
    "frames_from_replay",
    "mark_word",
    "move_label",
    "narrate_line",
    "replay_html",
    "replay_html_from_records",
]


@dataclass(frozen=True)
class Frame:
    """One line of the game: its number, the SVG of the board after it, its narration (sentences)
    and a short label of its decision; ``turn``, ``player`` (who decided) and ``seat`` (0 or 1) are
    optional and group and colour the move list."""

    line: int
    svg: str
    narration: Sequence[str]
    label: str
    turn: int | None = None
    player: str | None = None
    seat: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.narration, str):  # one sentence given as a string
            object.__setattr__(self, "narration", (self.narration,))
        else:
            object.__setattr__(self, "narration", tuple(self.narration))


# ----------------------------------------------------------------------------------------------
# Frames from `agility replay --json`


def _dog_names(records: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    names: dict[str, str] = {}
    for record in records:
        state = record.get("state")
        dogs = state.get("dog_display") if isinstance(state, dict) else None
        for dog in dogs if isinstance(dogs, list) else []:
            if isinstance(dog, dict) and "id" in dog and "name" in dog:
                names.setdefault(str(dog["id"]), str(dog["name"]))
    return names


def frames_from_replay(records: Iterable[Mapping[str, Any]], *, title: str | None = None) -> list[Frame]:
    """Frames from the records of ``agility replay --json`` (each ``{"line", "state"}`` or
    ``{"line", "move", "state"}``): the board drawn after every line, titled ``title``."""
    recs = [r for r in records if isinstance(r, Mapping) and isinstance(r.get("state"), dict)]
    names = _dog_names(recs)
    frames: list[Frame] = []
    before: Mapping[str, Any] | None = None
    for record in recs:
        state: Mapping[str, Any] = record["state"]
        move = record.get("move") if isinstance(record.get("move"), dict) else None
        if move is None and isinstance(record.get("keys"), str):  # R44: a sealed game's keys line
            move = {"kind": "keys", "player": record["keys"]}
            if isinstance(record.get("abort"), str):  # R42: the abort of a game whose opening failed
                move["abort"] = record["abort"]
            elif record.get("audit") is True:  # R42: the seal secret published for the audit
                move["audit"] = True
        line = _num(record.get("line"))
        player = str(move["player"]) if move and "player" in move else None
        seats = [str(p.get("name")) for p in _players(state)]
        frames.append(Frame(
            line=line,
            svg=board_svg(state, title=title, line=line, dog_names=names),  # "": the page has the heading
            narration=narrate_line(before, move, state, names),
            label=move_label(move),
            turn=_num(state.get("turn")) if before is None else _num(before.get("turn")),
            player=player,
            seat=seats.index(player) if player in seats else None,
        ))
        before = state
    return frames


def replay_html_from_records(records: Iterable[Mapping[str, Any]], *, title: str,
                             analysis: Mapping[str, Any] | None = None) -> str:
    """:func:`replay_html` of :func:`frames_from_replay`."""
    return replay_html(frames_from_replay(records, title=""), title=title, analysis=analysis)


# ----------------------------------------------------------------------------------------------
# The page

_TAG = re.compile(r"<(/?)[^\s>/!?]+[^>]*?(/?)>")


def _split_svg(svg: str) -> tuple[str, list[str], str]:
    """An SVG as (root start tag, top-level children, the rest), joining back to exactly ``svg``;
    anything it cannot split so is one start 'tag' holding it all."""
    first = _TAG.match(svg)
    if first is None or first.group(1) or first.group(2):
        return svg, [], ""
    depth, start = 0, 0
    parts: list[str] = []
    for tag in _TAG.finditer(svg, first.end()):
        close, empty = tag.group(1), tag.group(2)
        if close:
            if depth == 0:
                head, tail = first.group(0), svg[tag.start():]
                if head + "".join(parts) + tail == svg and tail == "</svg>":
                    return head, parts, tail
                break
            depth -= 1
            if depth == 0:
                parts.append(svg[start:tag.end()])
        else:
            if depth == 0:
                start = tag.start()
            if empty:
                if depth == 0:
                    parts.append(svg[start:tag.end()])
            else:
                depth += 1
    return svg, [], ""


_OPENERS = re.compile(r"<(?=!--|script)", re.IGNORECASE)  # what could open a comment or a nested script


def _script_json(data: object) -> str:
    """JSON for a ``<script type="application/json">``: nothing in it can end the element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    text = text.replace("</", "<\\/")  # (a "<" is only ever inside a JSON string)
    return _OPENERS.sub(r"\\u003c", text)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def replay_html(frames: Sequence[Frame], *, title: str, analysis: Mapping[str, Any] | None = None) -> str:
    """One self-contained HTML page replaying ``frames`` (at least one), titled ``title``, with a
    win-chance graph when ``analysis`` is given (:class:`Analysis`; a point on a line that is not a
    frame's, a chance outside [0, 1] or an unknown mark raises :class:`ValueError`)."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    players: list[str] = []
    points: dict[int, dict[str, Any]] = {}
    if analysis is not None:
        players, points = _analysis(analysis, [f.line for f in frames])
    table: dict[str, int] = {}
    data_frames = []
    for i, f in enumerate(frames):
        head, body, tail = _split_svg(f.svg)
        entry: dict[str, Any] = {
            "line": f.line,
            "label": clean(f.label, 300),
            "narration": [clean(s, 2000) for s in f.narration],
            "turn": f.turn,
            "player": None if f.player is None else clean(f.player, 60),
            "seat": f.seat if f.seat in (0, 1) else None,
            "head": head,
            "body": [table.setdefault(part, len(table)) for part in body],
            "tail": tail,
        }
        point = points.get(i)
        if point is not None:
            entry.update(point)
        data_frames.append(entry)
    data = {
        "frames": data_frames,
        "parts": list(table),
        "players": players,
        "marks": MARKS,
        "gw": G_W,
        "x0": X0,
        "x1": X1,
    }
    lang = page_language()
    if lang is not None:  # the script's words in the page's language (English ones are in it)
        data["words"] = {"undrawn": _("The board of line {line} could not be drawn."), "where": _("line {line}/{last}"),
                         "win": _("Win chance after this line: "), "turn": _("Turn {turn}"),
                         "played": _("{player} played {note}"), "marks": {m: mark_word(m) for m in MARKS},
                         "percent": _("{n} %")}
    fonts = f"body,button,input{{font-family:{sans()}}}" if sans() == CJK_SANS else ""  # a CJK font stack
    graph = _graph(players, points, len(frames)) if analysis is not None else ""
    csp = "; ".join([
        "default-src 'none'",
        f"script-src {_hash(JS)}",
        f"style-src {_hash(CSS)} {_hash(STYLE)}" + (f" {_hash(fonts)}" if fonts else ""),
        "img-src 'none'",
        "font-src 'none'",
        "connect-src 'none'",
        "form-action 'none'",
        "base-uri 'none'",
    ])
    safe_title = html.escape(clean(title, 200))
    last = frames[-1]
    sub = _("{n} positions \u00b7 lines {first}\u2013{last} \u00b7 \u2190 \u2192 keys step through the game").format(
        n=len(frames), first=frames[0].line, last=last.line)
    words = {key: html.escape(_(text)) for key, text in _PAGE_WORDS.items()}
    return "".join([
        f"<!DOCTYPE html>\n<html lang=\"{lang or 'en'}\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{html.escape(csp)}\">\n",
        "<meta name=\"referrer\" content=\"no-referrer\">\n",
        f"<title>{safe_title}</title>\n<style>{CSS}</style>\n" + (f"<style>{fonts}</style>\n" if fonts else "") + "</head>\n<body>\n",
        f"<header><h1>{safe_title}</h1><p class=\"sub\">{html.escape(sub)}</p></header>\n",
        f"<main class=\"layout\">\n<section class=\"stage\" aria-label=\"{words['board']}\">\n",
        f"<div id=\"board\" class=\"board\"><noscript><p class=\"error\">{words['script']}</p></noscript></div>\n",
        graph,
        f"\n</section>\n<aside class=\"side\">\n<div class=\"ctl\" role=\"group\" aria-label=\"{words['controls']}\">\n<div class=\"controls\">",
        f"<button id=\"first\" type=\"button\" title=\"{words['first_tip']}\" aria-label=\"{words['first']}\">\u00ab</button>",
        f"<button id=\"prev\" type=\"button\" title=\"{words['prev_tip']}\" aria-label=\"{words['prev']}\">\u2039</button>",
        "<span id=\"where\" class=\"where\" aria-live=\"polite\"></span>",
        f"<button id=\"next\" type=\"button\" title=\"{words['next_tip']}\" aria-label=\"{words['next']}\">\u203a</button>",
        f"<button id=\"last\" type=\"button\" title=\"{words['last_tip']}\" aria-label=\"{words['last']}\">\u00bb</button>",
        f"<button id=\"zoom\" type=\"button\" title=\"{words['zoom_tip']}\" aria-label=\"{words['zoom']}\" aria-pressed=\"false\">\u2922</button>",
        "</div>\n",
        f"<input id=\"slider\" type=\"range\" min=\"0\" max=\"{len(frames) - 1}\" step=\"1\" value=\"0\" aria-label=\"{words['slider']}\">\n",
        "</div>\n<div class=\"now\"><p id=\"label\" class=\"label\"></p><div id=\"narration\" class=\"narration\"></div><p id=\"win\" class=\"win\"></p><p id=\"verdict\" class=\"win\"></p></div>\n",
        f"<nav class=\"list\" aria-label=\"{words['moves']}\"><h2>{words['Moves']}</h2>\n<ol id=\"moves\" class=\"moves\"></ol></nav>\n</aside>\n</main>\n",
        f"<script type=\"application/json\" id=\"replay-data\">{_script_json(data)}</script>\n",
        f"<script>{JS}</script>\n</body>\n</html>\n",
    ])



#: The page's own words (its labels, tooltips and the message without JavaScript), by where they go.
_PAGE_WORDS: dict[str, str] = {
    "board": N_("board"), "script": N_("This replay needs JavaScript to show the board."),
    "controls": N_("replay controls"),
    "first_tip": N_("first line (Home)"), "first": N_("first line"),
    "prev_tip": N_("previous line (\u2190)"), "prev": N_("previous line"),
    "next_tip": N_("next line (\u2192)"), "next": N_("next line"),
    "last_tip": N_("last line (End)"), "last": N_("last line"),
    "zoom_tip": N_("the board at full size (scroll it sideways)"), "zoom": N_("full-size board"),
    "slider": N_("line of the game"), "moves": N_("moves"), "Moves": N_("Moves"),
}

# ----------------------------------------------------------------------------------------------
# Command line


def _read_records(text: str) -> list[dict[str, Any]]:
    records = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError(f"line {n}: not a JSON object")
            records.append(record)
    return records


def main(argv: list[str] | None = None) -> int:
    """``python -m agility_cli.table.replay.html REPLAY.jsonl -o OUT.html``: an HTML replay from the
    output of ``agility replay FILE --json`` (``-`` reads standard input)."""
    parser = argparse.ArgumentParser(prog="python -m agility_cli.table.replay.html", description=main.__doc__)
    parser.add_argument("replay", help="the output of `agility replay FILE --json` (- for standard input)")
    parser.add_argument("-o", "--output", required=True, help="the HTML file to write")
    parser.add_argument("--title", default=None, help="the page's title (default: Agility — A vs B)")
    parser.add_argument("--analysis", default=None, help="a JSON file of win chances (see the module docstring)")
    args = parser.parse_args(argv)
    text = sys.stdin.read() if args.replay == "-" else Path(args.replay).read_text(encoding="utf-8")
    records = _read_records(text)
    if not records:
        parser.error("no records to replay")
    title = args.title
    if title is None:
        names = [str(p.get("name")) for p in _players(records[0].get("state") or {})]
        title = "Agility" + (f" \u2014 {names[0]} vs {names[1]}" if len(names) == 2 else "")
    analysis = json.loads(Path(args.analysis).read_text(encoding="utf-8")) if args.analysis else None
    from ...engine.notation import UsageError
    from ...record import storage

    page = replay_html_from_records(records, title=title, analysis=analysis)
    try:
        storage.write_new(Path(args.output), page.encode(), what=f"the page {args.output}", replace=True)
    except (UsageError, OSError) as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
