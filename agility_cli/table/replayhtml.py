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
markers placed, the winner).  ``python -m agility_cli.table.replayhtml`` does it from the command line:

    agility replay game.jsonl --json | python -m agility_cli.table.replayhtml - -o game.html

**Analysis.** ``analysis`` (optional, see :class:`Analysis`) adds a small win-chance graph under
the board: one line per player over the game, the marked decisions (inaccuracy ``?!``, mistake
``?``, blunder ``??``) drawn on it; a click on the graph jumps to that line.  The shape::

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
import math
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NotRequired, TypedDict

from .picture import SEAT_DARK, SEAT_FILL, STYLE, board_svg, clean, dog_name, tile_label

__all__ = [
    "MARKS",
    "Analysis",
    "AnalysisPoint",
    "Frame",
    "frames_from_replay",
    "move_label",
    "narrate_line",
    "replay_html",
    "replay_html_from_records",
]

Mark = Literal["inaccuracy", "mistake", "blunder"]
#: The marks an analysis may put on a decision, with the symbol drawn for each.
MARKS: dict[str, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


class AnalysisPoint(TypedDict):
    """The analysis of one line: each player's win chance after it, and an optional mark."""

    line: int
    win: dict[str, float]
    mark: NotRequired[Mark | None]
    by: NotRequired[str]
    note: NotRequired[str]


class Analysis(TypedDict):
    """Win chances over a game (see the module docstring)."""

    players: list[str]
    points: list[AnalysisPoint]


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

_META = {"kind", "n", "prev", "player", "digest", "sig"}
_HIDDEN = "?"


def _face(card: Any) -> str:
    return "a card face down" if card in (None, _HIDDEN) else clean(card, 16)


def move_label(move: Mapping[str, Any] | None) -> str:
    """A short label of a decision: ``play t07 red flex+1``, ``adopt golden-retriever 3B``,
    ``advance 2B spare blue``, ``distract 1A 2 red`` (obstacles numbered from 1); ``start`` for
    the header."""
    if not move:
        return "start"
    kind = str(move.get("kind", "?"))
    if kind == "play":
        text = f"play {_face(move.get('card'))}"
        if move.get("reward"):
            text += f" {clean(move['reward'], 10)}"
        flex = move.get("flex")
        if isinstance(flex, int) and not isinstance(flex, bool) and flex:
            text += f" flex{flex:+d}"
        return text
    if kind in ("discard", "put_back", "take"):
        return f"{kind.replace('_', '-')} {_face(move.get('card'))}"
    if kind == "advance":
        return f"advance {clean(move.get('course', '?'), 8)}" + (f" spare {clean(move['spare'], 10)}" if move.get("spare") else "")
    if kind == "adopt":
        return f"adopt {clean(move.get('dog', '?'), 32)} {clean(move.get('course', '?'), 8)}"
    if kind == "distract":
        ob = move.get("obstacle")
        number = ob + 1 if isinstance(ob, int) and not isinstance(ob, bool) else "?"
        return f"distract {clean(move.get('course', '?'), 8)} {number} {clean(move.get('color', '?'), 10)}"
    if kind == "exchange":
        return f"exchange {clean(move.get('from', '?'), 10)} \u2192 {clean(move.get('to', '?'), 10)}"
    values = [clean(v, 32) for k, v in move.items() if k not in _META and v is not None and not isinstance(v, (dict, list))]
    return " ".join([kind.replace("_", "-"), *values])


def _players(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    players = state.get("players")
    return [p for p in players if isinstance(p, dict)] if isinstance(players, list) else []


def _courses(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    courses = state.get("courses")
    return [c for c in courses if isinstance(c, dict)] if isinstance(courses, list) else []


_COLOURS = ("red", "green", "black", "yellow", "blue")


def _cubes_words(pairs: Iterable[tuple[str, int]]) -> str:
    return ", ".join(f"{n} {c}" for c, n in pairs)


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _num(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def narrate_line(before: Mapping[str, Any] | None, move: Mapping[str, Any] | None, after: Mapping[str, Any],
                 dog_names: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Sentences telling a line, from its decision and the states around it: what was decided,
    then what changed (marker, cubes, tokens, hand size, adoptions, dogs advancing, +1 and Rush
    markers, Slip tiles, the winner).  Only what the two states show is said."""
    names = dog_names or {}
    if before is None or not move:
        players = [clean(p.get("name", "?"), 40) for p in _players(after)]
        first = clean(after.get("active", "?"), 40)
        vs = " vs ".join(players) if players else "the players"
        board = after.get("board")
        tiles = ", ".join(f"{i} {tile_label(str(t))}" for i, t in enumerate(board)) if isinstance(board, list) else ""
        out = [f"The game begins: {vs}; {first} starts."]
        if tiles:
            out.append(f"Action board: {tiles}.")
        return tuple(out)
    player = clean(move.get("player", "?"), 40)
    out = [f"{player}: {move_label(move)}."]
    m0, m1 = before.get("marker"), after.get("marker")
    spaces = after.get("board")
    if m0 != m1 and isinstance(m1, int) and isinstance(spaces, list) and 0 <= m1 < len(spaces):
        out.append(f"The marker moves from {m0} to {m1} ({tile_label(str(spaces[m1]))}).")
    by_name = {str(p.get("name")): p for p in _players(before)}
    for p in _players(after):
        name = str(p.get("name"))
        q = by_name.get(name)
        if q is None:
            continue
        c0, c1 = _map(q.get("cubes")), _map(p.get("cubes"))
        gains = [(c, _num(c1.get(c)) - _num(c0.get(c))) for c in _COLOURS]
        parts = []
        if any(d > 0 for _, d in gains):
            parts.append("gains " + _cubes_words((c, d) for c, d in gains if d > 0))
        if any(d < 0 for _, d in gains):
            parts.append("pays " + _cubes_words((c, -d) for c, d in gains if d < 0))
        for token, word in (("flex", "Flex"), ("exchange", "Exchange")):
            d = _num(p.get(token)) - _num(q.get(token))
            if d:
                parts.append(f"{'gains' if d > 0 else 'spends'} {abs(d)} {word} token{'s' if abs(d) > 1 else ''}")
        if _num(p.get("hand_size")) != _num(q.get("hand_size")):
            parts.append(f"hand size {_num(q.get('hand_size'))} \u2192 {_num(p.get('hand_size'))}")
        if parts:
            out.append(f"{clean(name, 40)} {'; '.join(parts)}.")
    old = {str(c.get("id")): c for c in _courses(before)}
    for c in _courses(after):
        cid = str(c.get("id"))
        o = old.get(cid)
        if o is None:
            continue
        dog = c.get("dog")
        obs0, obs1 = _seq(o.get("obstacles")), _seq(c.get("obstacles"))
        length = len(obs1)
        if dog is not None and o.get("dog") is None:
            out.append(f"{clean(c.get('owner', '?'), 40)} adopts {clean(dog_name(str(dog), names), 40)} onto course {clean(cid, 8)}.")
        p0, p1 = _num(o.get("position")), _num(c.get("position"))
        if dog is not None and p1 > p0:
            who = clean(dog_name(str(dog), names), 40)
            if p1 >= length:
                out.append(f"{who} finishes course {clean(cid, 8)}.")
            else:
                out.append(f"{who} advances on {clean(cid, 8)}: {p1}/{length} cleared.")
        if len(obs1) > len(obs0):
            out.append(f"An open ground tile is slipped into course {clean(cid, 8)}.")
        elif len(obs1) == len(obs0):
            for k, (a, b) in enumerate(zip(obs0, obs1)):
                if not isinstance(a, dict) or not isinstance(b, dict):
                    continue
                pa, pb = _map(a.get("plus")), _map(b.get("plus"))
                added = [(col, _num(pb.get(col)) - _num(pa.get(col))) for col in _COLOURS]
                if any(d > 0 for _, d in added):
                    what = _cubes_words((col, d) for col, d in added if d > 0)
                    out.append(f"A +1 marker ({what}) goes on obstacle {k + 1} of course {clean(cid, 8)}.")
                if b.get("rush") and not a.get("rush"):
                    out.append(f"A Rush marker goes on obstacle {k + 1} of course {clean(cid, 8)}.")
    if after.get("winner") is not None and before.get("winner") is None:
        out.append(f"{clean(after['winner'], 40)} wins the game.")
    return tuple(out)


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


def _float(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 <= value <= 1:
        raise ValueError(f"{what}: a win chance must be a number from 0 to 1, not {value!r}")
    return float(value)


def _analysis(analysis: Mapping[str, Any], frames: Sequence[Frame]) -> tuple[list[str], dict[int, dict[str, Any]]]:
    """The analysis checked: its players and, by frame index, ``{"win": [...], "mark", "by", "note"}``."""
    players = analysis.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise ValueError("analysis.players: a list of the player names")
    points = analysis.get("points")
    if not isinstance(points, list):
        raise ValueError("analysis.points: a list of {line, win, mark?, by?, note?}")
    index = {f.line: i for i, f in enumerate(frames)}
    out: dict[int, dict[str, Any]] = {}
    for k, point in enumerate(points):
        where = f"analysis.points[{k}]"
        if not isinstance(point, Mapping):
            raise ValueError(f"{where}: an object")
        line = point.get("line")
        if not isinstance(line, int) or isinstance(line, bool) or line not in index:
            raise ValueError(f"{where}.line: {line!r} is not the line of a frame")
        win = point.get("win")
        if not isinstance(win, Mapping):
            raise ValueError(f"{where}.win: an object of win chances by player name")
        chances = [_float(win[p], f"{where}.win[{p!r}]") if p in win else None for p in players]
        mark = point.get("mark")
        if mark is not None and mark not in MARKS:
            raise ValueError(f"{where}.mark: one of {', '.join(MARKS)}, not {mark!r}")
        entry: dict[str, Any] = {"win": chances, "mark": mark}
        for key in ("by", "note"):
            if point.get(key) is not None:
                entry[key] = clean(point[key], 300)
        out[index[line]] = entry
    return [clean(p, 40) for p in players], out


# The graph: x from X0 to X1 over the frames, y from Y0 (100 %) to Y1 (0 %).
G_W, G_H = 800, 150
X0, X1, Y0, Y1 = 44.0, 788.0, 16.0, 120.0


def _gx(i: int, n: int) -> float:
    return X0 if n < 2 else X0 + (X1 - X0) * i / (n - 1)


def _gy(p: float) -> float:
    return Y1 - (Y1 - Y0) * p


def _f(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _graph(players: list[str], points: dict[int, dict[str, Any]], n: int) -> str:
    """The win-chance graph as inline SVG (ElementTree: every text escaped)."""
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {G_W} {G_H}", "id": "winchance",
                             "class": "winchance", "role": "img", "font-family": "sans-serif"})
    ET.SubElement(svg, "title").text = "Win chance over the game (click to jump)"
    ET.SubElement(svg, "rect", {"x": "0", "y": "0", "width": str(G_W), "height": str(G_H), "fill": "#FFFFFF", "rx": "10"})
    for p, label in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        gy = _f(_gy(p))
        ET.SubElement(svg, "line", {"x1": _f(X0), "x2": _f(X1), "y1": gy, "y2": gy, "stroke": "#D9D3C7",
                                    "stroke-dasharray": "4 3" if p == 0.5 else "none"})
        t = ET.SubElement(svg, "text", {"x": _f(X0 - 6), "y": _f(_gy(p) + 4), "font-size": "10", "fill": "#6B6B6B",
                                        "text-anchor": "end"})
        t.text = label
    ET.SubElement(svg, "line", {"id": "wc-cursor", "x1": _f(X0), "x2": _f(X0), "y1": _f(Y0 - 6), "y2": _f(Y1 + 4),
                                "stroke": "#222222", "stroke-width": "1.5"})
    order = sorted(points)
    for s, name in enumerate(players):
        colour = SEAT_DARK[s % 2]
        coords = [(_gx(i, n), _gy(points[i]["win"][s])) for i in order if points[i]["win"][s] is not None]
        if len(coords) > 1:
            ET.SubElement(svg, "polyline", {"points": " ".join(f"{_f(x)},{_f(y)}" for x, y in coords), "fill": "none",
                                            "stroke": colour, "stroke-width": "2", "stroke-linejoin": "round",
                                            "stroke-dasharray": "none" if s == 0 else "6 3"})
        for i in order if len(order) <= 60 else []:  # more would only blur the line (a click finds the nearest)
            p = points[i]["win"][s]
            if p is None:
                continue
            ET.SubElement(svg, "circle", {"cx": _f(_gx(i, n)), "cy": _f(_gy(p)), "r": "2.6", "fill": SEAT_FILL[s % 2],
                                          "stroke": colour, "class": "wc-pt", "data-index": str(i)})
        # legend
        lx = X0 + 8 + s * 260
        ET.SubElement(svg, "line", {"x1": _f(lx), "x2": _f(lx + 22), "y1": "138", "y2": "138", "stroke": colour,
                                    "stroke-width": "2.5", "stroke-dasharray": "none" if s == 0 else "6 3"})
        t = ET.SubElement(svg, "text", {"x": _f(lx + 28), "y": "142", "font-size": "11.5", "fill": "#222222"})
        t.text = clean(name, 30)
    for i in order:
        mark = points[i].get("mark")
        if not mark:
            continue
        by = points[i].get("by")
        s = players.index(by) if by in players else 0
        p = points[i]["win"][s] if points[i]["win"][s] is not None else 0.5
        x, y = _gx(i, n), _gy(p)
        g = ET.SubElement(svg, "g", {"class": f"wc-mark wc-{mark}", "data-index": str(i)})
        ET.SubElement(g, "title").text = f"{mark}" + (f" by {by}" if by else "") + (f": {points[i]['note']}" if points[i].get("note") else "")
        fill = {"inaccuracy": "#F0E442", "mistake": "#E69F00", "blunder": "#D55E00"}[mark]
        ET.SubElement(g, "circle", {"cx": _f(x), "cy": _f(y), "r": "6", "fill": fill, "stroke": "#222222", "data-index": str(i)})
        t = ET.SubElement(g, "text", {"x": _f(x), "y": _f(y - 9 if y > 30 else y + 19), "font-size": "11", "font-weight": "bold",
                                      "text-anchor": "middle", "fill": "#222222", "data-index": str(i)})
        t.text = MARKS[mark]
    legend = ET.SubElement(svg, "text", {"x": _f(X1), "y": "142", "font-size": "10.5", "fill": "#6B6B6B", "text-anchor": "end"})
    legend.text = "?! inaccuracy \u00b7 ? mistake \u00b7 ?? blunder"
    return ET.tostring(svg, encoding="unicode")


_CSS = """
:root{color-scheme:light}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#FAF8F3;color:#222;font:15px/1.45 sans-serif}
header{padding:12px 16px 2px;max-width:1220px}
h1{font-size:1.25rem;margin:0;overflow-wrap:anywhere}
h2{font-size:.8rem;letter-spacing:.08em;text-transform:uppercase;color:#4A463F;margin:14px 0 6px}
.sub{margin:2px 0 0;color:#6B6B6B;font-size:.85rem;overflow-wrap:anywhere}
.layout{display:grid;grid-template-columns:minmax(0,800px) minmax(250px,380px);grid-template-areas:"stage side";column-gap:16px;padding:8px 16px 24px;align-items:start}
.stage{grid-area:stage;min-width:0}
.side{grid-area:side;position:sticky;top:8px;min-width:0}
.ctl,.now,.list{min-width:0}
.board{background:#FAF8F3;border-radius:10px;min-height:200px}
.board svg{display:block;width:100%;height:auto}
.board.zoomed{overflow-x:auto}
.board.zoomed svg{width:800px;max-width:none}
.winchance{display:block;width:100%;height:auto;margin-top:10px;cursor:pointer;border:1px solid #DDD7CB;border-radius:10px}
#zoom{display:none}
.controls{display:flex;align-items:center;gap:6px}
.controls button{font:inherit;font-size:1.15rem;line-height:1;min-width:44px;min-height:40px;border:1px solid #CFC8BA;background:#fff;border-radius:8px;cursor:pointer;color:#222}
.controls button:disabled{opacity:.4;cursor:default}
.controls button:focus-visible,.moves button:focus-visible,input:focus-visible{outline:3px solid #0072B2;outline-offset:1px}
.where{flex:1;text-align:center;font-variant-numeric:tabular-nums;font-size:.9rem;color:#4A463F;min-width:0;white-space:nowrap}
input[type=range]{width:100%;margin:10px 0 8px;accent-color:#2B2B2B}
.now{background:#fff;border:1px solid #DDD7CB;border-radius:10px;padding:10px 12px;min-height:7em;min-width:0}
.label{font-weight:bold;margin:0 0 6px;overflow-wrap:anywhere}
.narration p{margin:0 0 4px;overflow-wrap:anywhere}
.win{margin:8px 0 0;font-size:.9rem;color:#4A463F;overflow-wrap:anywhere}
.win:empty{display:none}
.moves{list-style:none;margin:0;padding:0 0 4px;max-height:46vh;overflow:auto;position:relative;border:1px solid #DDD7CB;border-radius:10px;background:#fff}
.moves ol{list-style:none;margin:0;padding:0}
.moves .turn{position:sticky;top:0;z-index:1;background:#F1EDE4;font-weight:bold;font-size:.78rem;padding:3px 10px;color:#4A463F}
.moves button{display:flex;align-items:baseline;gap:8px;width:100%;text-align:left;border:0;background:none;padding:3px 10px;font:inherit;font-size:.88rem;cursor:pointer;color:#222;overflow-wrap:anywhere}
.moves button:hover{background:#F4F1EA}
.moves button[aria-current]{background:#2B2B2B;color:#fff}
.moves .n{color:#8F897E;min-width:2.6em;text-align:right;font-variant-numeric:tabular-nums;flex:none}
.moves button[aria-current] .n{color:#D9D3C7}
.dot{width:.6em;height:.6em;border-radius:50%;flex:none;align-self:center;border:1px solid #0003}
.dot.s0{background:#56B4E9}.dot.s1{background:#CC79A7}
.markchip{font-weight:bold;margin-left:auto;flex:none}
.error{color:#8A1C00;padding:12px}
@media (max-width:900px){.side{display:contents}.ctl{grid-area:ctl}.now{grid-area:now}.list{grid-area:list}.layout{grid-template-columns:minmax(0,1fr);grid-template-areas:"ctl" "stage" "now" "list";padding:4px 8px 20px;row-gap:10px}.ctl{position:sticky;top:0;z-index:3;background:#FAF8F3;padding:6px 0 0}.moves{max-height:40vh}header{padding:10px 8px 0}#zoom{display:inline-block}input[type=range]{margin:8px 0 4px}}
"""

_JS = r"""
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var DRAWN = {svg: 1, g: 1, rect: 1, text: 1, tspan: 1, path: 1, circle: 1, line: 1, polyline: 1, title: 1, desc: 1, style: 1};
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, parts = data.parts, n = frames.length;
  var $ = function (id) { return document.getElementById(id); };
  var board = $("board"), slider = $("slider"), where = $("where"), label = $("label");
  var narration = $("narration"), win = $("win"), list = $("moves"), cursor = $("wc-cursor"), graph = $("winchance");
  var parser = new DOMParser();
  var buttons = [], current = -1;

  function scrub(root) {  /* keep only what picture.py draws: no script, no handler, no link */
    var all = [root].concat(Array.prototype.slice.call(root.getElementsByTagName("*")));
    for (var k = all.length - 1; k >= 0; k--) {
      var el = all[k];
      if (el.namespaceURI !== SVGNS || !DRAWN[el.localName]) { if (el !== root) { el.parentNode.removeChild(el); } continue; }
      for (var a = el.attributes.length - 1; a >= 0; a--) {
        var name = el.attributes[a].name.toLowerCase();
        if (name.slice(0, 2) === "on" || name.indexOf("href") >= 0) { el.removeAttribute(el.attributes[a].name); }
      }
    }
  }

  function picture(f) {
    var text = f.head + f.body.map(function (k) { return parts[k]; }).join("") + f.tail;
    var doc = parser.parseFromString(text, "image/svg+xml");
    var root = doc.documentElement;
    if (!root || root.namespaceURI !== SVGNS || root.localName !== "svg" || doc.getElementsByTagName("parsererror").length) {
      return null;
    }
    scrub(root);
    return document.importNode(root, true);
  }

  function percent(p) { return Math.round(p * 100) + "%"; }

  function show(i) {
    i = Math.max(0, Math.min(n - 1, Math.round(Number(i) || 0)));
    var f = frames[i];
    var svg = picture(f);
    if (svg) { board.replaceChildren(svg); }
    else { var e = document.createElement("p"); e.className = "error"; e.textContent = "The board of line " + f.line + " could not be drawn."; board.replaceChildren(e); }
    current = i;
    slider.value = String(i);
    where.textContent = "line " + f.line + "/" + frames[n - 1].line;
    label.textContent = (f.player ? f.player + " \u2014 " : "") + f.label;
    narration.replaceChildren();
    f.narration.forEach(function (s) { var p = document.createElement("p"); p.textContent = s; narration.appendChild(p); });
    win.textContent = "";
    if (f.win) {
      var bits = [];
      data.players.forEach(function (name, s) { if (f.win[s] !== null) { bits.push(name + " " + percent(f.win[s])); } });
      var text = "Win chance: " + bits.join(" \u00b7 ");
      if (f.mark) { text += " \u2014 " + f.mark + (f.by ? " by " + f.by : ""); }
      if (f.note) { text += ": " + f.note; }
      win.textContent = text;
    }
    $("first").disabled = $("prev").disabled = i === 0;
    $("next").disabled = $("last").disabled = i === n - 1;
    buttons.forEach(function (b, k) { if (k === i) { b.setAttribute("aria-current", "step"); } else { b.removeAttribute("aria-current"); } });
    var b = buttons[i];
    if (b) {
      var top = b.offsetTop, h = b.offsetHeight;
      if (top < list.scrollTop + 24 || top + h > list.scrollTop + list.clientHeight) { list.scrollTop = Math.max(0, top - list.clientHeight / 2); }
    }
    if (cursor) { var x = String(data.x0 + (n < 2 ? 0 : (data.x1 - data.x0) * i / (n - 1))); cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
    try { history.replaceState(null, "", "#line=" + f.line); } catch (err) { /* a file: page may refuse; the hash is a nicety */ }
  }

  var turn = null, group = list;
  frames.forEach(function (f, i) {
    if (f.turn !== null && f.turn !== turn) {  /* one group a turn, its heading sticky within it */
      turn = f.turn;
      var item = document.createElement("li"), head = document.createElement("div");
      item.className = "group";
      head.className = "turn";
      head.textContent = "Turn " + f.turn;
      group = document.createElement("ol");
      item.appendChild(head);
      item.appendChild(group);
      list.appendChild(item);
    }
    var li = document.createElement("li"), b = document.createElement("button");
    b.type = "button";
    b.dataset.index = String(i);
    if (f.player) { b.title = f.player; }
    var num = document.createElement("span"); num.className = "n"; num.textContent = String(f.line);
    var dot = document.createElement("span"); dot.className = "dot" + (f.seat === null ? "" : " s" + f.seat);
    var text = document.createElement("span"); text.textContent = f.label;
    b.appendChild(num); b.appendChild(dot); b.appendChild(text);
    if (f.mark) { var m = document.createElement("span"); m.className = "markchip"; m.textContent = data.marks[f.mark] || ""; m.title = f.mark; b.appendChild(m); }
    b.addEventListener("click", function () { show(i); });
    li.appendChild(b);
    group.appendChild(li);
    buttons.push(b);
  });

  slider.max = String(n - 1);
  slider.addEventListener("input", function () { show(slider.value); });
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(current - 1); });
  $("next").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(n - 1); });
  $("zoom").addEventListener("click", function () {
    var on = board.classList.toggle("zoomed");
    $("zoom").setAttribute("aria-pressed", on ? "true" : "false");
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) { return; }  /* the slider moves itself */
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: n - 1}[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(to);
  });
  if (graph) {
    graph.addEventListener("click", function (e) {
      var t = e.target, k = t && t.getAttribute ? t.getAttribute("data-index") : null;
      if (k === null) {
        var r = graph.getBoundingClientRect(), vx = (e.clientX - r.left) / r.width * data.gw;
        k = n < 2 ? 0 : Math.round((vx - data.x0) / (data.x1 - data.x0) * (n - 1));
      }
      show(k);
    });
  }
  function linked() {  /* the frame named by #line=N in the address, or -1 */
    var hash = /^#line=(\d+)$/.exec(location.hash), found = -1;
    if (hash) { frames.forEach(function (f, i) { if (String(f.line) === hash[1]) { found = i; } }); }
    return found;
  }
  window.addEventListener("hashchange", function () { var i = linked(); if (i >= 0 && i !== current) { show(i); } });
  show(Math.max(linked(), 0));
})();
"""


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
        players, points = _analysis(analysis, frames)
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
    graph = _graph(players, points, len(frames)) if analysis is not None else ""
    csp = "; ".join([
        "default-src 'none'",
        f"script-src {_hash(_JS)}",
        f"style-src {_hash(_CSS)} {_hash(STYLE)}",
        "img-src 'none'",
        "font-src 'none'",
        "connect-src 'none'",
        "form-action 'none'",
        "base-uri 'none'",
    ])
    safe_title = html.escape(clean(title, 200))
    last = frames[-1]
    sub = f"{len(frames)} lines \u00b7 lines {frames[0].line}\u2013{last.line} \u00b7 \u2190 \u2192 keys step through the game"
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{html.escape(csp)}\">\n",
        "<meta name=\"referrer\" content=\"no-referrer\">\n",
        f"<title>{safe_title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n",
        f"<header><h1>{safe_title}</h1><p class=\"sub\">{html.escape(sub)}</p></header>\n",
        "<main class=\"layout\">\n<section class=\"stage\" aria-label=\"board\">\n",
        "<div id=\"board\" class=\"board\"><noscript><p class=\"error\">This replay needs JavaScript to show the board.</p></noscript></div>\n",
        graph,
        "\n</section>\n<aside class=\"side\">\n<div class=\"ctl\" role=\"group\" aria-label=\"replay controls\">\n<div class=\"controls\">",
        "<button id=\"first\" type=\"button\" title=\"first line (Home)\" aria-label=\"first line\">\u00ab</button>",
        "<button id=\"prev\" type=\"button\" title=\"previous line (\u2190)\" aria-label=\"previous line\">\u2039</button>",
        "<span id=\"where\" class=\"where\" aria-live=\"polite\"></span>",
        "<button id=\"next\" type=\"button\" title=\"next line (\u2192)\" aria-label=\"next line\">\u203a</button>",
        "<button id=\"last\" type=\"button\" title=\"last line (End)\" aria-label=\"last line\">\u00bb</button>",
        "<button id=\"zoom\" type=\"button\" title=\"the board at full size (scroll it sideways)\" aria-label=\"full-size board\" aria-pressed=\"false\">\u2922</button>",
        "</div>\n",
        f"<input id=\"slider\" type=\"range\" min=\"0\" max=\"{len(frames) - 1}\" step=\"1\" value=\"0\" aria-label=\"line of the game\">\n",
        "</div>\n<div class=\"now\"><p id=\"label\" class=\"label\"></p><div id=\"narration\" class=\"narration\"></div><p id=\"win\" class=\"win\"></p></div>\n",
        "<nav class=\"list\" aria-label=\"moves\"><h2>Moves</h2>\n<ol id=\"moves\" class=\"moves\"></ol></nav>\n</aside>\n</main>\n",
        f"<script type=\"application/json\" id=\"replay-data\">{_script_json(data)}</script>\n",
        f"<script>{_JS}</script>\n</body>\n</html>\n",
    ])


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
    """``python -m agility_cli.table.replayhtml REPLAY.jsonl -o OUT.html``: an HTML replay from the
    output of ``agility replay FILE --json`` (``-`` reads standard input)."""
    parser = argparse.ArgumentParser(prog="python -m agility_cli.table.replayhtml", description=main.__doc__)
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
    Path(args.output).write_text(replay_html_from_records(records, title=title, analysis=analysis), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
