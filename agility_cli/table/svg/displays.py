"""The board picture's displays: the action board (a rondel of spaces with the counting marker),
the training display with the deck and discard pile, and the dog display."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .draw import as_dict, add_element, _group, as_int, as_list, _num, _panel, _path, add_rect, _text, _text_width, _tip, clean, tile_label
from .pieces import CARD_H, CARD_W, _card, draw_counts, _cube, _cube_row, _feature_badge, _icon
from ...i18n import _, name as game_name
from ..render import OBSTACLE_NAMES, obstacle_name
from .style import CLEAR_TILES, COLOURS, DOG_CHARS, FAINT, INK, MAX_SPACES, OBSTACLE_TYPES, SOFT, feature_label

# The rondel ---------------------------------------------------------------------------------

RONDEL_W = 372
RONDEL_R_OUT = 158.0
RONDEL_R_IN = 80.0

TILE_FILL: dict[str, str] = {
    "sweep": "#FCEFC7",
    "clear_hurdles": "#DCEAF6",
    "clear_tunnels": "#DCEAF6",
    "clear_a_frames": "#DCEAF6",
    "clear_weave_poles": "#DCEAF6",
    "flex": "#ECE3F2",
    "exchange": "#ECE3F2",
    "break": "#FBE5D2",
    "boost": "#FBE5D2",
    "inspiration": "#FBE5D2",
    "distraction": "#F3DCDC",
    "rush": "#F3DCDC",
    "slip": "#F3DCDC",
    "intimidation": "#F3DCDC",
}


def _polar(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    """A point at ``degrees`` clockwise from 12 o'clock."""
    a = math.radians(degrees)
    return cx + r * math.sin(a), cy - r * math.cos(a)


def _tile_lines(tile: str) -> list[str]:
    words = tile_label(tile).split()
    if len(words) <= 1:
        return words
    if words[0] == "Clear":
        return ["Clear", " ".join(words[1:])]
    return [" ".join(words[:1]), " ".join(words[1:])]


def draw_rondel(svg: ET.Element, state: Mapping[str, Any], x: float, y: float, h: float) -> None:
    g = _panel(svg, x, y, RONDEL_W, h, _("Action board"))
    g.set("class", "rondel")
    cx, cy = x + RONDEL_W / 2, y + 28 + (h - 28) / 2
    board = [str(t) for t in as_list(state.get("board"))[:MAX_SPACES]]
    marker = as_int(state.get("marker"), -1)
    n = len(board) or 10
    step = 360.0 / n
    for space, tile in enumerate(board):
        here = space == marker
        sg = _group(g, class_="space", data_space=space, data_tile=clean(tile, 30), data_marker="true" if here else None)
        a0, a1 = space * step - step / 2 + 0.8, space * step + step / 2 - 0.8
        p1, p2 = _polar(cx, cy, RONDEL_R_OUT, a0), _polar(cx, cy, RONDEL_R_OUT, a1)
        p3, p4 = _polar(cx, cy, RONDEL_R_IN, a1), _polar(cx, cy, RONDEL_R_IN, a0)
        d = (f"M{_num(p1[0])} {_num(p1[1])}A{_num(RONDEL_R_OUT)} {_num(RONDEL_R_OUT)} 0 0 1 {_num(p2[0])} {_num(p2[1])}"
             f"L{_num(p3[0])} {_num(p3[1])}A{_num(RONDEL_R_IN)} {_num(RONDEL_R_IN)} 0 0 0 {_num(p4[0])} {_num(p4[1])}Z")
        fill = "#2B2B2B" if here else TILE_FILL.get(tile, "#EEEEEE")
        _path(sg, d, fill=fill, stroke="#FFFFFF" if here else "#C9C2B4", width=1.2)
        ink = "#FFFFFF" if here else INK
        nx, ny = _polar(cx, cy, RONDEL_R_OUT - 17, space * step)
        _text(sg, nx, ny + 5, str(space), size=15, weight="bold", fill=ink, anchor="middle")
        lines = _tile_lines(tile)
        mx, my = _polar(cx, cy, (RONDEL_R_OUT + RONDEL_R_IN) / 2 - 9, space * step)
        icon = CLEAR_TILES.get(tile)
        top = my - (len(lines) - 1) * 6 + (4 if icon else 0)
        if icon:
            _icon(sg, icon, mx - 11, top - 22, "#FFFFFF" if here else "#3D3A35")
        for k, text in enumerate(lines):
            _text(sg, mx, top + 4 + k * 12, clean(text, 16), size=10.5, weight="bold" if here else None, fill=ink,
                  anchor="middle")
        if here:  # the counting marker: a pawn on the outer edge of its space
            px, py = _polar(cx, cy, RONDEL_R_OUT + 2, space * step)
            add_element(sg, "circle", {"cx": px, "cy": py, "r": 10.0, "fill": "#E69F00", "stroke": "#222222", "stroke-width": 2.0})
            add_element(sg, "circle", {"cx": px, "cy": py, "r": 3.5, "fill": "#222222"})
    # The centre: the marker and what the tile holds.
    add_element(g, "circle", {"cx": cx, "cy": cy, "r": RONDEL_R_IN - 6, "fill": "#F4F0E8", "stroke": "#C9C2B4"})
    _text(g, cx, cy - 30, _("MARKER"), size=10, fill=SOFT, anchor="middle", spacing=1.5)
    _text(g, cx, cy + 8, str(marker) if 0 <= marker < len(board) else "\u2013", size=38, weight="bold", anchor="middle")
    if 0 <= marker < len(board):
        _text(g, cx, cy + 26, clean(tile_label(board[marker]), 18), size=11, anchor="middle")
    if "inspiration" in board:
        left = [str(c) for c in as_list(state.get("inspiration"))]
        _text(g, cx, cy + 44, _("Inspiration left") if left else _("Inspiration: none left"), size=9, fill=SOFT, anchor="middle")
        ordered = [c for c in COLOURS if c in left]
        cx0 = cx - (len(ordered) * 13 - 2) / 2
        for i, colour in enumerate(ordered):
            _cube(g, cx0 + i * 13, cy + 48, colour, 11)


# Training display ---------------------------------------------------------------------------


def _pile(parent: ET.Element, x: float, y: float, label: str, count: int, *, back: bool) -> None:
    g = _group(parent, class_="pile")
    if count > 0:
        for k in (2, 1):
            add_rect(g, x + k * 3, y - k * 3 + 6, CARD_W - 12, CARD_H - 12, "#3E4A61" if back else "#F1EEE7", rx=6,
                  stroke="#283041" if back else "#A8A297", width=1)
        add_rect(g, x, y + 6, CARD_W - 12, CARD_H - 12, "#3E4A61" if back else "#F1EEE7", rx=6,
              stroke="#283041" if back else "#A8A297", width=1.2)
    else:
        add_rect(g, x, y + 6, CARD_W - 12, CARD_H - 12, "none", rx=6, stroke=FAINT, width=1.2, dash="4 3")
    ink = "#FFFFFF" if back and count > 0 else INK
    _text(g, x + (CARD_W - 12) / 2, y + CARD_H / 2 + 4, str(count), size=20, weight="bold", fill=ink, anchor="middle")
    _text(g, x + (CARD_W - 12) / 2, y + CARD_H + 8, label, size=10.5, fill=SOFT, anchor="middle")


def draw_training(svg: ET.Element, state: Mapping[str, Any], x: float, y: float, w: float) -> float:
    h = 28 + CARD_H + 30
    g = _panel(svg, x, y, w, h, _("Training display"))
    g.set("class", "training")
    display = [as_dict(c) for c in as_list(state.get("display"))]
    cx = x + 14
    for card in display[:4]:
        _card(g, cx, y + 34, card)
        cx += CARD_W + 8
    if not display:
        _text(g, cx, y + 34 + CARD_H / 2, _("empty"), size=12, fill=SOFT)
    px = x + w - 14 - 2 * (CARD_W - 12) - 14
    _pile(g, px, y + 30, _("deck"), as_int(state.get("deck_size")), back=True)
    _pile(g, px + CARD_W - 12 + 14, y + 30, _("discard"), as_int(state.get("discard_size")), back=False)
    return y + h


# Dog display --------------------------------------------------------------------------------


def _features(dog: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(obstacle type, feature) in obstacle order; ``("all", f)`` when one feature covers every type."""
    features = {str(k): str(v) for k, v in as_dict(dog.get("features")).items()}
    types = [t for t in OBSTACLE_TYPES if t != "pause_box"]
    if all(t in features for t in types) and len({features[t] for t in types}) == 1:
        return [("all", features[types[0]])]
    out = [(t, features[t]) for t in OBSTACLE_TYPES if t in features]
    out += sorted((t, f) for t, f in features.items() if t not in OBSTACLE_TYPES)
    return out


SHORT_TYPES = {"weave_poles": "weave", "open_ground": "open", "pause_box": "pause", "a_frame": "A-frame"}


def _short_type(kind: str) -> str:
    """An obstacle type in a dog's features: ``weave``, ``A-frame``; the board's name in another language."""
    if kind in OBSTACLE_NAMES and obstacle_name(kind) != OBSTACLE_NAMES[kind]:
        return obstacle_name(kind)
    return SHORT_TYPES.get(kind, kind.replace("_", " "))


def _dog_row(parent: ET.Element, x: float, y: float, w: float, dog: Mapping[str, Any]) -> None:
    did = clean(dog.get("id", "?"), 32)
    g = _group(parent, class_="dog", data_dog=did)
    name = game_name("dog", str(dog.get("name", did)))
    _tip(g, f"{name} ({did})")
    _text(g, x, y + 12, clean(name, DOG_CHARS), size=12.5, weight="bold")
    cost = as_dict(dog.get("cost"))
    n = sum(c for _, c in draw_counts(cost))
    _cube_row(g, x + w - n * 16 + 2 if n <= 8 else x + w - 130, y + 1, cost, size=14, room=130)
    features = [(_("all") if kind == "all" else _short_type(kind), f) for kind, f in _features(dog)]
    chips = sum(_text_width(f"{label} {feature_label(f)}", 9.5) + 12 for label, f in features)
    fx = x
    if chips <= w:  # one chip per obstacle type: "hurdle −1", "A-frame pass"
        for label, feature in features:
            fx = _feature_badge(g, fx, y + 18, feature, label=clean(label, 12)) + 4
        return
    for feature in ("pass", "minus_one", "featured"):  # too many: one mark per feature, then its types
        kinds = [label for label, f in features if f == feature]
        if kinds:
            fx = _feature_badge(g, fx, y + 18, feature) + 3
            text = clean(_(", ").join(kinds), 60)
            _text(g, fx, y + 28, text, size=10)
            fx += _text_width(text, 10) + 10


def draw_dog_display(svg: ET.Element, state: Mapping[str, Any], x: float, y: float, w: float, h: float) -> None:
    dogs = [as_dict(d) for d in as_list(state.get("dog_display"))]
    deck = state.get("dog_deck_size")
    g = _panel(svg, x, y, w, h, _("Dog display"), _("dog deck {n}").format(n=as_int(deck)) if deck is not None else "")
    g.set("class", "dog-display")
    if not dogs:
        _text(g, x + 14, y + 50, _("empty"), size=12, fill=SOFT)
    row = (h - 36) / max(len(dogs), 5)
    for i, dog in enumerate(dogs[:8]):
        ry = y + 32 + i * row
        if i:
            _path(g, f"M{_num(x + 14)} {_num(ry - 4)}H{_num(x + w - 14)}", stroke="#EEEAE2", width=1)
        _dog_row(g, x + 14, ry, w - 28, dog)
