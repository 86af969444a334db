"""The win-chance analysis of a replay: its shape (:class:`Analysis`), checked against the frames,
and drawn as the graph under the board (inline SVG, every text escaped by ElementTree)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict

from ...i18n import N_, _
from ..picture import SEAT_DARK, SEAT_FILL, clean
from ..svg.style import sans

Mark = Literal["inaccuracy", "mistake", "blunder"]
#: The marks an analysis may put on a decision, with the symbol drawn for each.
MARKS: dict[str, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
#: Each mark's word, as the review writes it (the glossary's 欠佳 / 错误 / 大错 in Chinese); the
#: analysis file and ``--json`` keep the English key.
MARK_WORDS: dict[str, str] = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}


def mark_word(mark: str) -> str:
    """A mark's word in the language in use (an unknown mark as it is)."""
    return _(MARK_WORDS[mark]) if mark in MARK_WORDS else mark


class AnalysisPoint(TypedDict):
    """The analysis of one line: each player's win chance after it, and an optional mark."""

    line: int
    win: dict[str, float]
    mark: NotRequired[Mark | None]
    by: NotRequired[str]
    note: NotRequired[str]


class Analysis(TypedDict):
    """Win chances over a game (the shape is in :mod:`agility_cli.table.replay.html`'s docstring)."""

    players: list[str]
    points: list[AnalysisPoint]


def _float(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or not 0 <= value <= 1:
        raise ValueError(f"{what}: a win chance must be a number from 0 to 1, not {value!r}")
    return float(value)


def _analysis(analysis: Mapping[str, Any], lines: Sequence[int]) -> tuple[list[str], dict[int, dict[str, Any]]]:
    """The analysis checked against the frames' ``lines``: its players and, by frame index,
    ``{"win": [...], "mark", "by", "note"}``."""
    players = analysis.get("players")
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        raise ValueError("analysis.players: a list of the player names")
    points = analysis.get("points")
    if not isinstance(points, list):
        raise ValueError("analysis.points: a list of {line, win, mark?, by?, note?}")
    index = {line: i for i, line in enumerate(lines)}
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


MARK_R = 7.0  # a mark's disc; two marks' centres stay 2 * MARK_R apart, never overlapping


def _first_chance(win: list[float | None]) -> float | None:
    """The first player's chance at a point: given, or the mirror of the second's."""
    if win[0] is not None:
        return win[0]
    return None if len(win) < 2 or win[1] is None else 1.0 - win[1]


def _free_spot(x: float, y: float, placed: list[tuple[float, float]]) -> float:
    """The height nearest ``y`` (within the plot) where a mark at ``x`` overlaps none ``placed``."""
    gap = 2 * MARK_R
    for k in range(0, 40):
        step = (k + 1) // 2 * (1 if k % 2 else -1)  # 0, +1, -1, +2, -2 … mark widths away
        cand = min(max(y + step * gap, Y0 - 8), Y1 + 8)
        if all((cand - py) ** 2 + (x - px) ** 2 >= gap * gap - 1e-9 for px, py in placed):
            return cand
    return y


def _graph(players: list[str], points: dict[int, dict[str, Any]], n: int) -> str:
    """The win-chance graph as inline SVG (ElementTree: every text escaped)."""
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {G_W} {G_H}", "id": "winchance",
                             "class": "winchance", "role": "img", "font-family": sans()})
    ET.SubElement(svg, "title").text = _("Win chance over the game (click to jump)")
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
    # One line: the first player's chance (the other's is its mirror, 100 % less it).
    line = {i: _first_chance(points[i]["win"]) for i in order}
    shown = [i for i in order if line[i] is not None]
    colour = SEAT_DARK[0]
    coords = [(_gx(i, n), _gy(line[i] or 0.0)) for i in shown]
    if len(coords) > 1:
        ET.SubElement(svg, "polyline", {"points": " ".join(f"{_f(x)},{_f(y)}" for x, y in coords), "fill": "none",
                                        "stroke": colour, "stroke-width": "2", "stroke-linejoin": "round"})
    for i in shown if len(shown) <= 60 else []:  # more would only blur the line (a click finds the nearest)
        ET.SubElement(svg, "circle", {"cx": _f(_gx(i, n)), "cy": _f(_gy(line[i] or 0.0)), "r": "2.6",
                                      "fill": SEAT_FILL[0], "stroke": colour, "class": "wc-pt", "data-index": str(i)})
    ET.SubElement(svg, "line", {"x1": _f(X0 + 8), "x2": _f(X0 + 30), "y1": "138", "y2": "138", "stroke": colour,
                                "stroke-width": "2.5"})
    t = ET.SubElement(svg, "text", {"x": _f(X0 + 36), "y": "142", "font-size": "11.5", "fill": "#222222"})
    t.text = (_("{player}'s chance ({other}'s: the rest)").format(player=clean(players[0], 30), other=clean(players[1], 30))
              if len(players) > 1 else _("{player}'s chance").format(player=clean(players[0], 30)))
    placed: list[tuple[float, float]] = []
    for i in order:
        mark = points[i].get("mark")
        if not mark:
            continue
        by = points[i].get("by")
        chance = line[i]
        x, y0 = _gx(i, n), _gy(0.5 if chance is None else chance)
        y = _free_spot(x, y0, placed)
        placed.append((x, y))
        g = ET.SubElement(svg, "g", {"class": f"wc-mark wc-{mark}", "data-index": str(i)})
        said = _("{mark} by {player}").format(mark=mark_word(mark), player=by) if by else mark_word(mark)
        ET.SubElement(g, "title").text = said + (_(": {note}").format(note=points[i]["note"]) if points[i].get("note") else "")
        fill = {"inaccuracy": "#F0E442", "mistake": "#E69F00", "blunder": "#D55E00"}[mark]
        if y != y0:  # moved off the line to stay clear of its neighbours: a leader to its point
            ET.SubElement(g, "line", {"x1": _f(x), "y1": _f(y0), "x2": _f(x), "y2": _f(y), "stroke": "#222222",
                                      "stroke-width": "0.8", "pointer-events": "none"})
        ET.SubElement(g, "circle", {"cx": _f(x), "cy": _f(y), "r": _f(MARK_R), "fill": fill, "stroke": "#222222",
                                    "data-index": str(i)})
        t = ET.SubElement(g, "text", {"x": _f(x), "y": _f(y + 3), "font-size": "8.5", "font-weight": "bold",
                                      "text-anchor": "middle", "fill": "#222222", "data-index": str(i),
                                      "pointer-events": "none"})  # the click is the disc's
        t.text = MARKS[mark]
    legend = ET.SubElement(svg, "text", {"x": _f(X1), "y": "142", "font-size": "10.5", "fill": "#6B6B6B", "text-anchor": "end"})
    legend.text = " \u00b7 ".join(f"{MARKS[m]} {mark_word(m)}" for m in MARKS)
    return ET.tostring(svg, encoding="unicode")
