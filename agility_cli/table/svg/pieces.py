"""The game's pieces as the board picture draws them wherever they appear: cubes, obstacle icons,
check marks and the finish flag, training cards, feature badges."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .draw import as_dict, add_element, _group, as_int, as_list, _num, _path, add_rect, _text, _text_width, _tip, clean
from ...i18n import _
from .style import COLOURS, CUBE_LETTER, FEATURE_LABELS, INK, MONO, SOFT, feature_label

# ----------------------------------------------------------------------------------------------
# Cubes


def _cube(parent: ET.Element, x: float, y: float, colour: str, size: float = 14, *, opacity: float | None = None) -> None:
    """One cube: a rounded square of its colour with its letter (styled by :data:`STYLE`)."""
    letter = CUBE_LETTER.get(colour)
    g = _group(parent, class_=f"agc agc-{letter}" if letter else "agc", opacity=None if opacity is None else float(opacity))
    add_element(g, "rect", {"x": float(x), "y": float(y), "width": float(size), "height": float(size), "rx": size * 0.2,
                    "fill": None if letter else "#999999"})
    add_element(g, "text", {"x": x + size / 2, "y": y + size * 0.73, "font-size": size * 0.68}, letter or "?")


def draw_counts(cubes: Mapping[str, Any] | None) -> list[tuple[str, int]]:
    """``{colour: n}`` as (colour, n) pairs in COLOURS order, zeros and junk left out."""
    if not isinstance(cubes, Mapping):
        return []
    out = []
    for colour in COLOURS:
        n = as_int(cubes.get(colour, 0))
        if n > 0:
            out.append((colour, n))
    return out


def _cube_row(parent: ET.Element, x: float, y: float, cubes: Mapping[str, Any] | None, *, size: float = 14,
              room: float = 240, opacity: float | None = None) -> float:
    """Cubes left to right, one drawn per cube; when they do not fit ``room``, one cube per colour
    with its count (``3×``).  Returns the x after the last."""
    pairs = draw_counts(cubes)
    step = size + 2
    total = sum(n for _, n in pairs)
    if total * step <= room:
        for colour, n in pairs:
            for _k in range(n):
                _cube(parent, x, y, colour, size, opacity=opacity)
                x += step
        return x
    for colour, n in pairs:
        label = f"{n}\u00d7"
        _text(parent, x, y + size * 0.78, label, size=size * 0.78, weight="bold", fill=INK, opacity=opacity)
        x += _text_width(label, size * 0.78) - 1
        _cube(parent, x, y, colour, size, opacity=opacity)
        x += step + 3
    return x


# ----------------------------------------------------------------------------------------------
# Icons: each drawn in a box of 22 × 14 at (x, y)


def _icon(parent: ET.Element, kind: str, x: float, y: float, colour: str = "#3D3A35") -> None:
    g = _group(parent)

    def p(d: str, *, width: float = 1.5, fill: str = "none") -> None:
        _path(g, d, stroke=colour, width=width, fill=fill)

    if kind == "hurdle":
        p(f"M{_num(x + 3)} {_num(y + 14)}V{_num(y + 1)}M{_num(x + 19)} {_num(y + 14)}V{_num(y + 1)}", width=1.8)
        p(f"M{_num(x + 1)} {_num(y + 4)}H{_num(x + 21)}M{_num(x + 3)} {_num(y + 9)}H{_num(x + 19)}", width=2.2)
    elif kind == "tunnel":
        p(f"M{_num(x + 1)} {_num(y + 14)}V{_num(y + 9)}A10 8 0 0 1 {_num(x + 21)} {_num(y + 9)}V{_num(y + 14)}Z",
          fill="#E8E2D6", width=1.6)
        p(f"M{_num(x + 6)} {_num(y + 14)}V{_num(y + 10)}A5 4.5 0 0 1 {_num(x + 16)} {_num(y + 10)}V{_num(y + 14)}",
          fill=colour, width=1)
    elif kind == "weave_poles":
        for i in range(5):
            px = x + 2 + i * 4.5
            p(f"M{_num(px)} {_num(y + 14)}V{_num(y + (1 if i % 2 == 0 else 4))}", width=1.6)
        p(f"M{_num(x)} {_num(y + 14)}H{_num(x + 22)}", width=1)
    elif kind == "a_frame":
        p(f"M{_num(x + 1)} {_num(y + 14)}L{_num(x + 11)} {_num(y + 1)}L{_num(x + 21)} {_num(y + 14)}", width=1.8)
        p(f"M{_num(x + 6)} {_num(y + 8.5)}H{_num(x + 16)}", width=1.2)
    elif kind == "open_ground":
        p(f"M{_num(x)} {_num(y + 13)}H{_num(x + 22)}", width=1.2)
        for gx in (x + 3, x + 10, x + 17):
            p(f"M{_num(gx)} {_num(y + 13)}L{_num(gx - 2)} {_num(y + 7)}M{_num(gx)} {_num(y + 13)}L{_num(gx + 0.5)} {_num(y + 5)}"
              f"M{_num(gx)} {_num(y + 13)}L{_num(gx + 3)} {_num(y + 8)}", width=1.1)
    elif kind == "pause_box":
        add_rect(g, x + 3, y, 16, 14, "none", rx=2, stroke=colour, width=1.6)
        p(f"M{_num(x + 9)} {_num(y + 4)}V{_num(y + 10)}M{_num(x + 13)} {_num(y + 4)}V{_num(y + 10)}", width=2)
    else:
        add_rect(g, x + 3, y, 16, 14, "none", rx=2, stroke=colour, width=1.2, dash="2 2")


def _check(parent: ET.Element, x: float, y: float, size: float = 14, colour: str = INK, width: float = 2.4) -> None:
    """A check mark (✓ drawn, not a glyph: every font has it then)."""
    _path(parent, f"M{_num(x)} {_num(y + size * 0.55)}L{_num(x + size * 0.38)} {_num(y + size * 0.9)}"
          f"L{_num(x + size)} {_num(y + size * 0.1)}", stroke=colour, width=width)


def _flag(parent: ET.Element, x: float, y: float) -> None:
    """The finish: a chequered flag on a pole, in a box of 18 × 26."""
    g = _group(parent)
    _path(g, f"M{_num(x + 2)} {_num(y + 26)}V{_num(y)}", stroke="#3D3A35", width=1.8)
    for row in range(3):
        for col in range(4):
            fill = "#222222" if (row + col) % 2 == 0 else "#FFFFFF"
            add_rect(g, x + 3 + col * 3.5, y + 1 + row * 3.5, 3.5, 3.5, fill)
    add_rect(g, x + 3, y + 1, 14, 10.5, "none", stroke="#222222", width=0.6)


# ----------------------------------------------------------------------------------------------
# Cards

CARD_W, CARD_H = 66.0, 92.0


def _card(parent: ET.Element, x: float, y: float, card: Mapping[str, Any] | None, *, w: float = CARD_W, h: float = CARD_H) -> None:
    """A training card face up (number, its two rewards as cubes, its id), or its back (``None``)."""
    if card is None:
        g = _group(parent, class_="card-back")
        add_rect(g, x, y, w, h, "#3E4A61", rx=6, stroke="#283041", width=1.2)
        add_rect(g, x + 4, y + 4, w - 8, h - 8, "none", rx=4, stroke="#8C97AD", width=1, dash="3 2")
        _text(g, x + w / 2, y + h / 2 + 5, "?", size=h * 0.2, weight="bold", fill="#C9D0DD", anchor="middle")
        _tip(g, _("a card you cannot see"))
        return
    cid = clean(card.get("id", "?"), 16)
    g = _group(parent, class_="card", data_card=cid)
    _tip(g, _("card {card}").format(card=cid))
    add_rect(g, x, y, w, h, "#FFFFFF", rx=6, stroke="#5A554C", width=1.3)
    size = h * 0.3
    _text(g, x + w / 2, y + size * 1.02, str(as_int(card.get("number"))), size=size, weight="bold", anchor="middle")
    rewards = [as_dict(r) for r in as_list(card.get("rewards"))[:2]]
    cube = min(13.0, (w - 10) / 3.4)
    top = y + size * 1.3
    row_h = (h - (top - y) - 14) / 2
    for i, r in enumerate(rewards):
        count = min(as_int(r.get("count")), 6)
        width = count * (cube + 2) - 2
        ry = top + i * row_h + (row_h - cube) / 2
        _cube_row(g, x + (w - width) / 2, ry, {str(r.get("color")): count}, size=cube, room=w - 6)
        if i == 0 and len(rewards) > 1:
            _path(g, f"M{_num(x + 8)} {_num(top + row_h)}H{_num(x + w - 8)}", stroke="#D5D0C6", width=1)
    _text(g, x + w / 2, y + h - 5, cid, size=max(8.0, h * 0.1), fill=SOFT, anchor="middle", family=MONO)


# ----------------------------------------------------------------------------------------------
# Features


def _feature_badge(parent: ET.Element, x: float, y: float, feature: str, *, size: float = 9.5, label: str | None = None) -> float:
    """A feature mark: ``pass`` solid, ``−1`` outlined, ``feat`` dashed; returns the x after it."""
    text = (label + " " if label else "") + (feature_label(feature) if feature in FEATURE_LABELS else clean(feature, 10))
    w = _text_width(text, size) + 8
    h = size + 5
    if feature == "pass":
        add_rect(parent, x, y, w, h, "#2E2B27", rx=h / 2)
        _text(parent, x + w / 2, y + h - 4, text, size=size, weight="bold", fill="#FFFFFF", anchor="middle")
    elif feature == "minus_one":
        add_rect(parent, x, y, w, h, "#FFFFFF", rx=h / 2, stroke="#2E2B27", width=1.3)
        _text(parent, x + w / 2, y + h - 4, text, size=size, weight="bold", anchor="middle")
    else:
        add_rect(parent, x, y, w, h, "#FFFFFF", rx=h / 2, stroke="#2E2B27", width=1.1, dash="2.5 1.5")
        _text(parent, x + w / 2, y + h - 4, text, size=size, anchor="middle", italic=True)
    return x + w
