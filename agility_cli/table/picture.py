"""STATE JSON → the board as a drawn SVG picture, for sharing a position and for the HTML replay.

:func:`board_svg` draws everything the text board (``render.py``) shows, as a picture 800 px wide:
the action board as a rondel of ten spaces with the counting marker; the training display, deck
and discard pile; the dog display with costs and features; the six courses as rows of obstacles
(icon, cost cubes, +1 markers, Rush marker, the feature of the dog on the course) with each dog
standing in front of the obstacle it faces; both players' cubes, Flex and Exchange tokens, turns,
hand (cards the viewer may know face up, the others as card backs) and dogs; whose turn it is or
who won.

**Input.** Only the public STATE JSON (``public_state``, the output of ``agility show --json`` and
``agility replay --json``), read defensively: a missing optional field is drawn as absent.  This
module imports nothing from the rest of the package, so it keeps working however the engine's
modules are arranged, and it can draw a state received from anywhere.

**How it is made, and why.** The SVG is written with :mod:`xml.etree.ElementTree` from the
standard library, not with string templates and not with a drawing library: the tree escapes
every text and attribute value (``&``, ``<``, ``>``, ``"``) by construction, so no text of the state
(player names and component ids are hostile input) can ever become markup, and there is no new
dependency to install or trust.  A dedicated SVG library (``svgwrite``, ``drawsvg``) would only add
shape helpers; nothing here needs more than rectangles, paths and text.  Characters XML 1.0 cannot
carry at all (C0 controls, lone surrogates, U+FFFE/U+FFFF) and those that could disturb the
display (C1 controls, bidi overrides and isolates) are shown escaped, ``\\x1b``, ``\\u202e``, as
the text board shows them (:func:`clean`).

**Look.** Cube colours are the Okabe–Ito colour-blind-safe palette, and every cube also carries
its letter (``r g k y b``, as the text board's costs); features are shown by a word and a badge
shape, never by colour alone.  Only the generic font families ``sans-serif`` and ``monospace``
are named: nothing to download, no external reference of any kind (no ``href``, no image, no
font, no script).

**Determinism.** The same state gives the same bytes: everything is laid out in fixed orders
(colours, obstacle types, seats), never in the order of a JSON object's keys, and every
coordinate is rounded to two decimals.

**For tests and tools.** The root ``<svg>`` and a few groups carry ``data-`` attributes with the
numbers they draw (see :data:`DATA_ATTRIBUTES`), so a browser test can check a picture against
the STATE it was drawn from.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

__all__ = [
    "COLOURS",
    "CUBE_FILL",
    "CUBE_LETTER",
    "DATA_ATTRIBUTES",
    "SEAT_DARK",
    "SEAT_FILL",
    "STYLE",
    "WIDTH",
    "board_svg",
    "clean",
    "dog_name",
    "tile_label",
]

WIDTH = 800  # the picture's width in px (its viewBox is 0 0 800 height)

#: The five cube colours in their fixed order (R1), as in ``components.COLOURS``.
COLOURS: tuple[str, ...] = ("red", "green", "black", "yellow", "blue")
#: Okabe–Ito colours for the cubes: vermillion, bluish green, black, yellow, blue.
CUBE_FILL: dict[str, str] = {
    "red": "#D55E00",
    "green": "#009E73",
    "black": "#000000",
    "yellow": "#F0E442",
    "blue": "#0072B2",
}
#: The letter in each cube, as the text board's short costs (``k`` is black, as in CMYK).
CUBE_LETTER: dict[str, str] = {"red": "r", "green": "g", "black": "k", "yellow": "y", "blue": "b"}
#: The letter's colour: the one of black and white with the better contrast on the cube.
CUBE_INK: dict[str, str] = {"red": "#000000", "green": "#000000", "black": "#FFFFFF", "yellow": "#000000", "blue": "#FFFFFF"}
#: Each seat's colour (Okabe–Ito sky blue and reddish purple), for its dogs and its panel.
SEAT_FILL: tuple[str, str] = ("#56B4E9", "#CC79A7")
SEAT_DARK: tuple[str, str] = ("#1F6E99", "#8E3F6C")

OBSTACLE_TYPES: tuple[str, ...] = ("hurdle", "tunnel", "weave_poles", "a_frame", "open_ground", "pause_box")
OBSTACLE_LABELS: dict[str, str] = {
    "hurdle": "hurdle",
    "tunnel": "tunnel",
    "weave_poles": "weave poles",
    "a_frame": "A-frame",
    "open_ground": "open ground",
    "pause_box": "pause box",
}
FEATURE_LABELS: dict[str, str] = {"pass": "pass", "minus_one": "\u22121", "featured": "feat"}
CLEAR_TILES: dict[str, str] = {
    "clear_hurdles": "hurdle",
    "clear_tunnels": "tunnel",
    "clear_a_frames": "a_frame",
    "clear_weave_poles": "weave_poles",
}
PHASE_WORDS: dict[str, str] = {
    "play": "play a training card",
    "reward": "choose the card's reward",
    "discard": "discard a card (Intimidation)",
    "break": "declare Break 1 or 2",
    "return": "return a cube (Break)",
    "put_back": "put a card back (Break)",
    "draw": "draw a card (Break)",
    "boost": "choose Boost A or B",
    "distract": "place a +1 marker",
    "rush": "place a Rush marker",
    "slip": "place the Slip tile",
    "inspire": "take an Inspiration cube",
    "dogs": "adopt or move dogs",
    "refill": "refill from the display",
    "prize": "choose a prize token",
}

#: The ``data-`` attributes a picture carries, by element (for tests and tools).
DATA_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "svg (root)": (
        "data-line (only when given)",
        "data-status",
        "data-turn",
        "data-marker",
        "data-active",
        "data-to-act",
        "data-winner",
        "data-deck-size",
        "data-discard-size",
        "data-display (card ids, blank-separated)",
        "data-dog-display (dog ids)",
    ),
    "g.player": (
        "data-seat",
        "data-name",
        "data-cube-red … data-cube-blue",
        "data-flex",
        "data-exchange",
        "data-turns",
        "data-hand-count",
        "data-hand-size",
        "data-hand-known (face-up card ids)",
        "data-dogs (dog ids)",
    ),
    "g.course": ("data-slot (1–6)", "data-course", "data-owner", "data-dog", "data-position", "data-length", "data-finished"),
    "g.obstacle (in g.course)": ("data-type", "data-index (1 = the first)"),
    "g.space": ("data-space (0–9)", "data-tile", "data-marker (on the marker's space only)"),
    "g.card (face up) / g.card-back": ("data-card (face up only)",),
    "g.dog (dog display)": ("data-dog",),
}

#: The picture's only style sheet: the look of a cube (the most repeated thing drawn).  Its classes
#: start with ``agc``, so that a page the picture is inlined in neither restyles it nor is restyled.
STYLE = (
    ".agc rect{stroke:#00000055;stroke-width:0.8px}"
    ".agc text{font-family:monospace;font-weight:bold;text-anchor:middle}"
    + "".join(
        f".agc-{CUBE_LETTER[c]} rect{{fill:{CUBE_FILL[c]}}}.agc-{CUBE_LETTER[c]} text{{fill:{CUBE_INK[c]}}}" for c in COLOURS
    )
)

# Layout
MARGIN = 16
INNER = WIDTH - 2 * MARGIN
PAGE = "#FAF8F3"
PANEL = "#FFFFFF"
PANEL_EDGE = "#DDD7CB"
INK = "#222222"
SOFT = "#6B6B6B"
FAINT = "#B9B4AA"
SANS = "sans-serif"
MONO = "monospace"

MAX_SPACES = 16  # at most this many rondel spaces, hand cards and course obstacles are drawn
MAX_HAND = 6
MAX_COURSES = 12
NAME_CHARS = 26  # a player name is clipped to this many characters where it must fit a column
DOG_CHARS = 22

# ----------------------------------------------------------------------------------------------
# Text


# C0 controls (tab and newline included: a name is one line), DEL, C1 controls; bidi marks,
# embeddings, overrides and isolates; line/paragraph separators; BOM; the non-characters U+FFFE and
# U+FFFF; lone surrogates (a JSON string may hold one).  Most are invalid in XML 1.0 even as
# character references; the others could reorder or hide the text around them.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: object, limit: int | None = None) -> str:
    """``text`` made fit for a picture: characters XML cannot carry, and controls and bidi
    overrides, shown escaped (``\\x1b``); clipped to ``limit`` characters with ``…``.  Markup
    characters (``<``, ``&``, quotes) are kept: ElementTree escapes them when it writes."""
    s = str(text)
    if limit is not None and len(s) > limit:
        s = s[: max(limit - 1, 1)] + "\u2026"
    return _UNSAFE.sub(_escape, s)


_NARROW = set("fijlrtI.,:;'!|()[] ")
_WIDE = set("mwMW@%")


def _text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font (DejaVu Sans is wide)."""
    total = 0.0
    for ch in text:
        if ch in _NARROW:
            total += 0.34
        elif ch in _WIDE:
            total += 0.92
        elif ch.isupper() or ch.isdigit():
            total += 0.68
        elif ord(ch) > 0x2E80:  # CJK and other wide scripts
            total += 1.0
        else:
            total += 0.6
    return total * size


def _fit(text: str, size: float, width: float) -> str:
    """``text`` clipped with ``…`` to about ``width`` px at font size ``size``."""
    if _text_width(text, size) <= width:
        return text
    while text and _text_width(text + "\u2026", size) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def tile_label(tile: str) -> str:
    """A tile's display name: ``clear_a_frames`` → ``Clear A-Frames`` (as ``components.tile_name``)."""
    return " ".join(w.capitalize() for w in str(tile).split("_")).replace(" A Frames", " A-Frames")


def dog_name(dog_id: str, names: Mapping[str, str] | None = None) -> str:
    """A dog's name: from ``names`` (the dog displays seen), else its id in words
    (``jack-russell-terrier`` → ``Jack Russell Terrier``, which is the name in the standard set)."""
    if names and dog_id in names:
        return str(names[dog_id])
    return " ".join(w.capitalize() for w in str(dog_id).split("-"))


# ----------------------------------------------------------------------------------------------
# Elements


def _num(x: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros (``12``, ``12.5``)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attr(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _num(value)
    return clean(value)


def _el(parent: ET.Element, tag: str, attrs: Mapping[str, object] | None = None, text: str | None = None) -> ET.Element:
    node = ET.SubElement(parent, tag, {k: _attr(v) for k, v in (attrs or {}).items() if v is not None})
    if text is not None:
        node.text = clean(text)
    return node


def _group(parent: ET.Element, **attrs: object) -> ET.Element:
    return _el(parent, "g", {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()})


def _rect(parent: ET.Element, x: float, y: float, w: float, h: float, fill: str, *, rx: float = 0, stroke: str | None = None,
          width: float = 1, dash: str | None = None, opacity: float | None = None) -> ET.Element:
    return _el(parent, "rect", {
        "x": float(x), "y": float(y), "width": float(w), "height": float(h), "rx": float(rx) if rx else None,
        "fill": fill, "stroke": stroke, "stroke-width": float(width) if stroke else None, "stroke-dasharray": dash,
        "opacity": None if opacity is None else float(opacity),
    })


def _text(parent: ET.Element, x: float, y: float, text: str, *, size: float = 12, weight: str | None = None,
          fill: str = INK, anchor: str | None = None, family: str | None = None, italic: bool = False,
          spacing: float | None = None, opacity: float | None = None) -> ET.Element:
    return _el(parent, "text", {
        "x": float(x), "y": float(y), "font-size": float(size), "font-weight": weight, "fill": fill,
        "text-anchor": anchor, "font-family": family, "font-style": "italic" if italic else None,
        "letter-spacing": None if spacing is None else float(spacing),
        "opacity": None if opacity is None else float(opacity),
    }, text)


def _path(parent: ET.Element, d: str, *, fill: str = "none", stroke: str | None = INK, width: float = 1.5,
          cap: str | None = "round", join: str | None = "round", opacity: float | None = None) -> ET.Element:
    return _el(parent, "path", {
        "d": d, "fill": fill, "stroke": stroke, "stroke-width": float(width) if stroke else None,
        "stroke-linecap": cap if stroke else None, "stroke-linejoin": join if stroke else None,
        "opacity": None if opacity is None else float(opacity),
    })


def _tip(parent: ET.Element, text: str) -> None:
    """A ``<title>`` child: the full text of something drawn clipped (shown as a tooltip)."""
    _el(parent, "title", None, text)


def _panel(parent: ET.Element, x: float, y: float, w: float, h: float, heading: str, note: str = "") -> ET.Element:
    g = _group(parent)
    _rect(g, x, y, w, h, PANEL, rx=10, stroke=PANEL_EDGE)
    _text(g, x + 14, y + 22, heading.upper(), size=11.5, weight="bold", fill="#4A463F", spacing=1.2)
    if note:
        _text(g, x + w - 14, y + 22, note, size=11, fill=SOFT, anchor="end")
    return g


def _cube(parent: ET.Element, x: float, y: float, colour: str, size: float = 14, *, opacity: float | None = None) -> None:
    """One cube: a rounded square of its colour with its letter (styled by :data:`STYLE`)."""
    letter = CUBE_LETTER.get(colour)
    g = _group(parent, class_=f"agc agc-{letter}" if letter else "agc", opacity=None if opacity is None else float(opacity))
    _el(g, "rect", {"x": float(x), "y": float(y), "width": float(size), "height": float(size), "rx": size * 0.2,
                    "fill": None if letter else "#999999"})
    _el(g, "text", {"x": x + size / 2, "y": y + size * 0.73, "font-size": size * 0.68}, letter or "?")


def _counts(cubes: Mapping[str, Any] | None) -> list[tuple[str, int]]:
    """``{colour: n}`` as (colour, n) pairs in COLOURS order, zeros and junk left out."""
    if not isinstance(cubes, Mapping):
        return []
    out = []
    for colour in COLOURS:
        n = _int(cubes.get(colour, 0))
        if n > 0:
            out.append((colour, n))
    return out


def _cube_row(parent: ET.Element, x: float, y: float, cubes: Mapping[str, Any] | None, *, size: float = 14,
              room: float = 240, opacity: float | None = None) -> float:
    """Cubes left to right, one drawn per cube; when they do not fit ``room``, one cube per colour
    with its count (``3×``).  Returns the x after the last."""
    pairs = _counts(cubes)
    step = size + 2
    total = sum(n for _, n in pairs)
    if total * step <= room:
        for colour, n in pairs:
            for _ in range(n):
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
        _rect(g, x + 3, y, 16, 14, "none", rx=2, stroke=colour, width=1.6)
        p(f"M{_num(x + 9)} {_num(y + 4)}V{_num(y + 10)}M{_num(x + 13)} {_num(y + 4)}V{_num(y + 10)}", width=2)
    else:
        _rect(g, x + 3, y, 16, 14, "none", rx=2, stroke=colour, width=1.2, dash="2 2")


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
            _rect(g, x + 3 + col * 3.5, y + 1 + row * 3.5, 3.5, 3.5, fill)
    _rect(g, x + 3, y + 1, 14, 10.5, "none", stroke="#222222", width=0.6)


# ----------------------------------------------------------------------------------------------
# Reading the state


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


LIMIT = 10**9  # a number of the state is shown clamped to ±LIMIT (a forged state may hold anything)


def _int(value: Any, default: int = 0) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return max(-LIMIT, min(LIMIT, value))
    return default


def _names(state: Mapping[str, Any]) -> list[str]:
    return [str(_dict(p).get("name", f"player {i + 1}")) for i, p in enumerate(_list(state.get("players")))]


def _seat_of(state: Mapping[str, Any], name: Any) -> int | None:
    if name is None:
        return None
    names = _names(state)
    return names.index(name) if name in names else None


# ----------------------------------------------------------------------------------------------
# Sections


def _header(svg: ET.Element, state: Mapping[str, Any], title: str) -> float:
    """Title, status line, and the card in play; returns the y below."""
    top = 0.0 if title else -14.0  # no title: the status line moves up
    if title:
        _text(svg, MARGIN, 34, _fit(clean(title, 200), 21, INNER - 150), size=21, weight="bold")
    status: list[tuple[str, str, str | None]] = []  # (text, fill, weight)
    turn = _int(state.get("turn"))
    winner = state.get("winner")
    if state.get("status") == "finished" or winner is not None:
        status.append((f"Game over after turn {turn}", INK, "bold"))
        if winner is not None:
            status.append((f" \u2014 {clean(winner, NAME_CHARS)} wins", "#1B7A3E", "bold"))
    else:
        active = state.get("active")
        status.append((f"Turn {turn}", INK, "bold"))
        if active is not None:
            status.append((f" \u00b7 {clean(active, NAME_CHARS)}\u2019s turn", INK, None))
        flags = []
        if state.get("final_turn"):
            flags.append("final turn")
        if state.get("mini_turn"):
            flags.append("mini-turn")
        minis = _int(state.get("mini_turns_left"))
        if minis:
            flags.append(f"{minis} mini-turn{'s' if minis > 1 else ''} to come")
        if flags:
            status.append((f" ({', '.join(flags)})", INK, None))
        to_act = state.get("to_act")
        if to_act is not None:
            phase = str(state.get("phase", ""))
            what = PHASE_WORDS.get(phase, phase.replace("_", " "))
            status.append((f" \u00b7 {clean(to_act, NAME_CHARS)} to {what}", "#8A5A00", "bold"))
    line = _el(svg, "text", {"x": float(MARGIN), "y": 58.0 + top, "font-size": 13.0, "fill": INK})
    for text, fill, weight in status:
        _el(line, "tspan", {"fill": fill, "font-weight": weight}, text)
    # Right: components (a custom set is always said, R6) and the viewer.
    right = []
    comp = _dict(state.get("components"))
    if comp and not comp.get("standard", True):
        right.append(f"components: {clean(comp.get('name', '?'), 24)} ({clean(comp.get('fingerprint', ''), 16)})")
    viewer = state.get("viewer")
    if viewer is not None:
        complete = state.get("complete_view")
        right.append(f"as {clean(viewer, NAME_CHARS)} sees it" + (" (everything shown)" if complete else ""))
    version = state.get("rules")
    if isinstance(version, int) and not isinstance(version, bool):
        right.append(f"rules version {version}")
    if not title and right:  # one line above the status line
        right = [" \u00b7 ".join(right)]
    for i, text in enumerate(right):
        _text(svg, WIDTH - MARGIN, (30 if title else 22) + i * 15, text, size=11.5, fill=SOFT, anchor="end")
    y = 70.0 + top
    current = _dict(state.get("current_card"))
    boost = _dict(state.get("boost_card"))
    notes: list[tuple[str, dict[str, Any]]] = []
    if state.get("status") != "finished" and state.get("phase") != "dogs":
        if current:
            notes.append(("playing", current))
        elif state.get("current_card_face_down"):
            notes.append(("playing a card face down", {}))
    if boost:
        notes.append(("Boost card", boost))
    if notes:
        x = float(MARGIN)
        for label, card in notes:
            _text(svg, x, y + 13, label, size=12, fill=SOFT)
            x += _text_width(label, 12) + 6
            if card:
                x = _card_inline(svg, x, y, card) + 18
        reward = state.get("reward")
        if reward is not None and current:
            _text(svg, x, y + 13, f"reward chosen: {clean(reward, 10)}", size=12, fill=SOFT)
        y += 24
    return y


def _card_inline(parent: ET.Element, x: float, y: float, card: Mapping[str, Any]) -> float:
    """A card on one line: ``[5] 2 cubes | 2 cubes``; returns the x after it."""
    g = _group(parent, data_card=clean(card.get("id", "?"), 16))
    number = str(_int(card.get("number"), 0))
    _rect(g, x, y, 22, 18, "#FFFFFF", rx=3, stroke=INK, width=1.2)
    _text(g, x + 11, y + 13.5, number, size=12, weight="bold", anchor="middle")
    x += 28
    for i, reward in enumerate(_list(card.get("rewards"))[:2]):
        if i:
            _text(g, x, y + 13, "or", size=10.5, fill=SOFT)
            x += 16
        r = _dict(reward)
        x = _cube_row(g, x, y + 2, {str(r.get("color")): _int(r.get("count"))}, size=14) + 4
    _text(g, x, y + 13, clean(card.get("id", ""), 12), size=10, fill=SOFT, family=MONO)
    return x + _text_width(clean(card.get("id", ""), 12), 10)


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


def _rondel(svg: ET.Element, state: Mapping[str, Any], x: float, y: float, h: float) -> None:
    g = _panel(svg, x, y, RONDEL_W, h, "Action board")
    g.set("class", "rondel")
    cx, cy = x + RONDEL_W / 2, y + 28 + (h - 28) / 2
    board = [str(t) for t in _list(state.get("board"))[:MAX_SPACES]]
    marker = _int(state.get("marker"), -1)
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
            _el(sg, "circle", {"cx": px, "cy": py, "r": 10.0, "fill": "#E69F00", "stroke": "#222222", "stroke-width": 2.0})
            _el(sg, "circle", {"cx": px, "cy": py, "r": 3.5, "fill": "#222222"})
    # The centre: the marker and what the tile holds.
    _el(g, "circle", {"cx": cx, "cy": cy, "r": RONDEL_R_IN - 6, "fill": "#F4F0E8", "stroke": "#C9C2B4"})
    _text(g, cx, cy - 30, "MARKER", size=10, fill=SOFT, anchor="middle", spacing=1.5)
    _text(g, cx, cy + 8, str(marker) if 0 <= marker < len(board) else "\u2013", size=38, weight="bold", anchor="middle")
    if 0 <= marker < len(board):
        _text(g, cx, cy + 26, clean(tile_label(board[marker]), 18), size=11, anchor="middle")
    if "inspiration" in board:
        left = [str(c) for c in _list(state.get("inspiration"))]
        _text(g, cx, cy + 44, "Inspiration left" if left else "Inspiration: none left", size=9, fill=SOFT, anchor="middle")
        ordered = [c for c in COLOURS if c in left]
        cx0 = cx - (len(ordered) * 13 - 2) / 2
        for i, colour in enumerate(ordered):
            _cube(g, cx0 + i * 13, cy + 48, colour, 11)


# Training display ---------------------------------------------------------------------------

CARD_W, CARD_H = 66.0, 92.0


def _card(parent: ET.Element, x: float, y: float, card: Mapping[str, Any] | None, *, w: float = CARD_W, h: float = CARD_H) -> None:
    """A training card face up (number, its two rewards as cubes, its id), or its back (``None``)."""
    if card is None:
        g = _group(parent, class_="card-back")
        _rect(g, x, y, w, h, "#3E4A61", rx=6, stroke="#283041", width=1.2)
        _rect(g, x + 4, y + 4, w - 8, h - 8, "none", rx=4, stroke="#8C97AD", width=1, dash="3 2")
        _text(g, x + w / 2, y + h / 2 + 5, "?", size=h * 0.2, weight="bold", fill="#C9D0DD", anchor="middle")
        _tip(g, "a card you cannot see")
        return
    cid = clean(card.get("id", "?"), 16)
    g = _group(parent, class_="card", data_card=cid)
    _tip(g, f"card {cid}")
    _rect(g, x, y, w, h, "#FFFFFF", rx=6, stroke="#5A554C", width=1.3)
    size = h * 0.3
    _text(g, x + w / 2, y + size * 1.02, str(_int(card.get("number"))), size=size, weight="bold", anchor="middle")
    rewards = [_dict(r) for r in _list(card.get("rewards"))[:2]]
    cube = min(13.0, (w - 10) / 3.4)
    top = y + size * 1.3
    row_h = (h - (top - y) - 14) / 2
    for i, r in enumerate(rewards):
        count = min(_int(r.get("count")), 6)
        width = count * (cube + 2) - 2
        ry = top + i * row_h + (row_h - cube) / 2
        _cube_row(g, x + (w - width) / 2, ry, {str(r.get("color")): count}, size=cube, room=w - 6)
        if i == 0 and len(rewards) > 1:
            _path(g, f"M{_num(x + 8)} {_num(top + row_h)}H{_num(x + w - 8)}", stroke="#D5D0C6", width=1)
    _text(g, x + w / 2, y + h - 5, cid, size=max(8.0, h * 0.1), fill=SOFT, anchor="middle", family=MONO)


def _pile(parent: ET.Element, x: float, y: float, label: str, count: int, *, back: bool) -> None:
    g = _group(parent, class_="pile")
    if count > 0:
        for k in (2, 1):
            _rect(g, x + k * 3, y - k * 3 + 6, CARD_W - 12, CARD_H - 12, "#3E4A61" if back else "#F1EEE7", rx=6,
                  stroke="#283041" if back else "#A8A297", width=1)
        _rect(g, x, y + 6, CARD_W - 12, CARD_H - 12, "#3E4A61" if back else "#F1EEE7", rx=6,
              stroke="#283041" if back else "#A8A297", width=1.2)
    else:
        _rect(g, x, y + 6, CARD_W - 12, CARD_H - 12, "none", rx=6, stroke=FAINT, width=1.2, dash="4 3")
    ink = "#FFFFFF" if back and count > 0 else INK
    _text(g, x + (CARD_W - 12) / 2, y + CARD_H / 2 + 4, str(count), size=20, weight="bold", fill=ink, anchor="middle")
    _text(g, x + (CARD_W - 12) / 2, y + CARD_H + 8, label, size=10.5, fill=SOFT, anchor="middle")


def _training(svg: ET.Element, state: Mapping[str, Any], x: float, y: float, w: float) -> float:
    h = 28 + CARD_H + 30
    g = _panel(svg, x, y, w, h, "Training display")
    g.set("class", "training")
    display = [_dict(c) for c in _list(state.get("display"))]
    cx = x + 14
    for card in display[:4]:
        _card(g, cx, y + 34, card)
        cx += CARD_W + 8
    if not display:
        _text(g, cx, y + 34 + CARD_H / 2, "empty", size=12, fill=SOFT)
    px = x + w - 14 - 2 * (CARD_W - 12) - 14
    _pile(g, px, y + 30, "deck", _int(state.get("deck_size")), back=True)
    _pile(g, px + CARD_W - 12 + 14, y + 30, "discard", _int(state.get("discard_size")), back=False)
    return y + h


# Dog display --------------------------------------------------------------------------------


def _feature_badge(parent: ET.Element, x: float, y: float, feature: str, *, size: float = 9.5, label: str | None = None) -> float:
    """A feature mark: ``pass`` solid, ``−1`` outlined, ``feat`` dashed; returns the x after it."""
    text = (label + " " if label else "") + FEATURE_LABELS.get(feature, clean(feature, 10))
    w = _text_width(text, size) + 8
    h = size + 5
    if feature == "pass":
        _rect(parent, x, y, w, h, "#2E2B27", rx=h / 2)
        _text(parent, x + w / 2, y + h - 4, text, size=size, weight="bold", fill="#FFFFFF", anchor="middle")
    elif feature == "minus_one":
        _rect(parent, x, y, w, h, "#FFFFFF", rx=h / 2, stroke="#2E2B27", width=1.3)
        _text(parent, x + w / 2, y + h - 4, text, size=size, weight="bold", anchor="middle")
    else:
        _rect(parent, x, y, w, h, "#FFFFFF", rx=h / 2, stroke="#2E2B27", width=1.1, dash="2.5 1.5")
        _text(parent, x + w / 2, y + h - 4, text, size=size, anchor="middle", italic=True)
    return x + w


def _features(dog: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(obstacle type, feature) in obstacle order; ``("all", f)`` when one feature covers every type."""
    features = {str(k): str(v) for k, v in _dict(dog.get("features")).items()}
    types = [t for t in OBSTACLE_TYPES if t != "pause_box"]
    if all(t in features for t in types) and len({features[t] for t in types}) == 1:
        return [("all", features[types[0]])]
    out = [(t, features[t]) for t in OBSTACLE_TYPES if t in features]
    out += sorted((t, f) for t, f in features.items() if t not in OBSTACLE_TYPES)
    return out


SHORT_TYPES = {"weave_poles": "weave", "open_ground": "open", "pause_box": "pause", "a_frame": "A-frame"}


def _dog_row(parent: ET.Element, x: float, y: float, w: float, dog: Mapping[str, Any]) -> None:
    did = clean(dog.get("id", "?"), 32)
    g = _group(parent, class_="dog", data_dog=did)
    name = str(dog.get("name", did))
    _tip(g, f"{name} ({did})")
    _text(g, x, y + 12, clean(name, DOG_CHARS), size=12.5, weight="bold")
    cost = _dict(dog.get("cost"))
    n = sum(c for _, c in _counts(cost))
    _cube_row(g, x + w - n * 16 + 2 if n <= 8 else x + w - 130, y + 1, cost, size=14, room=130)
    features = [("all" if kind == "all" else SHORT_TYPES.get(kind, kind.replace("_", " ")), f) for kind, f in _features(dog)]
    chips = sum(_text_width(f"{label} {FEATURE_LABELS.get(f, f)}", 9.5) + 12 for label, f in features)
    fx = x
    if chips <= w:  # one chip per obstacle type: "hurdle −1", "A-frame pass"
        for label, feature in features:
            fx = _feature_badge(g, fx, y + 18, feature, label=clean(label, 12)) + 4
        return
    for feature in ("pass", "minus_one", "featured"):  # too many: one mark per feature, then its types
        kinds = [label for label, f in features if f == feature]
        if kinds:
            fx = _feature_badge(g, fx, y + 18, feature) + 3
            text = clean(", ".join(kinds), 60)
            _text(g, fx, y + 28, text, size=10)
            fx += _text_width(text, 10) + 10


def _dog_display(svg: ET.Element, state: Mapping[str, Any], x: float, y: float, w: float, h: float) -> None:
    dogs = [_dict(d) for d in _list(state.get("dog_display"))]
    deck = state.get("dog_deck_size")
    g = _panel(svg, x, y, w, h, "Dog display", f"dog deck {_int(deck)}" if deck is not None else "")
    g.set("class", "dog-display")
    if not dogs:
        _text(g, x + 14, y + 50, "empty", size=12, fill=SOFT)
    row = (h - 36) / max(len(dogs), 5)
    for i, dog in enumerate(dogs[:8]):
        ry = y + 32 + i * row
        if i:
            _path(g, f"M{_num(x + 14)} {_num(ry - 4)}H{_num(x + w - 14)}", stroke="#EEEAE2", width=1)
        _dog_row(g, x + 14, ry, w - 28, dog)


# Courses ------------------------------------------------------------------------------------

COURSE_LABEL_W = 150.0
OB_W, OB_H, OB_GAP = 92.0, 62.0, 5.0
LANE = 19.0
ROW_H = LANE + OB_H + 9


def _obstacle(parent: ET.Element, x: float, y: float, ob: Mapping[str, Any], index: int, *, claimed: bool,
              cleared: bool, facing: bool, seat: int | None) -> None:
    kind = str(ob.get("type", "?"))
    feature = ob.get("feature")
    g = _group(parent, class_="obstacle", data_type=clean(kind, 20), data_index=index + 1,
               opacity=0.42 if cleared else None)
    edge, edge_w = ("#8F897E", 1.0)
    if facing and seat is not None:
        edge, edge_w = SEAT_DARK[seat % 2], 2.6
    fill = "#F4F1EA" if kind == "pause_box" else "#FFFFFF"
    _rect(g, x, y, OB_W, OB_H, fill, rx=6, stroke=edge, width=edge_w)
    _icon(g, kind, x + 6, y + 6)
    label = OBSTACLE_LABELS.get(kind, kind.replace("_", " "))
    _text(g, x + 32, y + 17, clean(label, 12), size=10.5 if len(label) < 10 else 9.5, weight="bold")
    if cleared:  # what it cost no longer matters (the text board shows ✓ and the type only)
        _check(parent, x + OB_W / 2 - 11, y + 28, 22, "#1B7A3E", 3)
        return
    # Cost: a pass feature makes the printed cost free (only +1 markers are paid): drawn faded.
    cost = _dict(ob.get("cost"))
    faded = feature == "pass"
    cx = _cube_row(g, x + 6, y + 25, cost, size=13, room=OB_W - 12, opacity=0.3 if faded else None)
    if faded and _counts(cost):
        _path(g, f"M{_num(x + 4)} {_num(y + 38)}L{_num(cx)} {_num(y + 25)}", stroke="#2E2B27", width=1.4)
    bx = x + 6
    if feature:
        bx = _feature_badge(g, bx, y + 43, str(feature)) + 4
    plus = _dict(ob.get("plus"))
    if _counts(plus):
        _text(g, bx, y + 53.5, "+", size=12, weight="bold")
        _cube_row(g, bx + 9, y + 43, plus, size=12, room=x + OB_W - bx - 14)
    if claimed:
        _text(g, x + OB_W - 5, y + OB_H - 5, str(index + 1), size=9, fill=SOFT, anchor="end", family=MONO)
    if ob.get("rush"):  # the Rush marker (gone once the obstacle is cleared): a sticker on the corner
        sg = _group(g, class_="rush")
        _rect(sg, x + OB_W - 38, y - 7, 42, 15, "#111111", rx=3, stroke="#F0E442", width=1.2)
        _text(sg, x + OB_W - 17, y + 4, "RUSH", size=9.5, weight="bold", fill="#F0E442", anchor="middle", spacing=0.8)


def _dog_tag(parent: ET.Element, x: float, y: float, name: str, seat: int | None, *, right_limit: float,
             finished: bool = False) -> None:
    """The dog on its course: a tag in its owner's colour pointing down at the obstacle it faces."""
    text = ("\u2713 " if finished else "") + clean(name, DOG_CHARS)
    w = _text_width(text, 10.5) + 14
    tx = min(x, right_limit - w)
    fill = SEAT_FILL[seat % 2] if seat is not None else "#DDDDDD"
    dark = SEAT_DARK[seat % 2] if seat is not None else "#777777"
    g = _group(parent, class_="dog-tag")
    _rect(g, tx, y, w, 15, fill, rx=7.5, stroke=dark, width=1)
    _path(g, f"M{_num(x + 8)} {_num(y + 15)}L{_num(x + 12)} {_num(y + 19.5)}L{_num(x + 16)} {_num(y + 15)}Z", fill=fill,
          stroke=dark, width=1)
    _text(g, tx + w / 2, y + 11.2, text, size=10.5, weight="bold", fill="#111111", anchor="middle")


def _courses(svg: ET.Element, state: Mapping[str, Any], y: float, dog_names: Mapping[str, str]) -> float:
    courses = [_dict(c) for c in _list(state.get("courses"))[:MAX_COURSES]]
    h = 34 + max(len(courses), 1) * ROW_H + 4
    g = _panel(svg, MARGIN, y, INNER, h, "Courses", "r red \u00b7 g green \u00b7 k black \u00b7 y yellow \u00b7 b blue")
    # The feature marks, drawn as on the obstacles, left of the cube legend.
    lx = WIDTH - MARGIN - 14 - _text_width("r red \u00b7 g green \u00b7 k black \u00b7 y yellow \u00b7 b blue", 11) - 14
    for feature, meaning in (("featured", "feature"), ("minus_one", "one cube less"), ("pass", "free")):
        lx -= _text_width(meaning, 10.5) + 4
        _text(g, lx, y + 22, meaning, size=10.5, fill=SOFT)
        lx -= _text_width(FEATURE_LABELS[feature], 9.5) + 8 + 4
        _feature_badge(g, lx, y + 12, feature)
        lx -= 10
    g.set("class", "courses")
    for slot, course in enumerate(courses, 1):
        ry = y + 30 + (slot - 1) * ROW_H
        obstacles = [_dict(o) for o in _list(course.get("obstacles"))]
        dog = course.get("dog")
        owner = course.get("owner")
        seat = _seat_of(state, owner)
        position = _int(course.get("position"))
        finished = bool(course.get("finished")) or (dog is not None and position >= len(obstacles))
        cid = clean(course.get("id", "?"), 8)
        cg = _group(svg, class_="course", data_slot=slot, data_course=cid, data_owner=None if owner is None else clean(owner),
                    data_dog=None if dog is None else clean(dog, 32), data_position=position, data_length=len(obstacles),
                    data_finished=finished)
        if slot > 1:
            _path(cg, f"M{_num(MARGIN + 12)} {_num(ry - 2)}H{_num(WIDTH - MARGIN - 12)}", stroke="#EEEAE2", width=1)
        if finished:
            _rect(cg, MARGIN + 6, ry, INNER - 12, ROW_H - 4, "#EEF6EF", rx=6)
        lx = MARGIN + 14
        _text(cg, lx, ry + 34, f"#{slot}", size=11, fill=SOFT)
        _text(cg, lx + 24, ry + 34, cid, size=17, weight="bold")
        if dog is None:
            _text(cg, lx, ry + 54, "free course", size=11, fill=SOFT, italic=True)
        else:
            if seat is not None:
                _el(cg, "circle", {"cx": lx + 5, "cy": ry + 50.5, "r": 5.0, "fill": SEAT_FILL[seat % 2],
                                   "stroke": SEAT_DARK[seat % 2], "stroke-width": 1.0})
            owner_text = _text(cg, lx + 15, ry + 54, clean(owner if owner is not None else "?", 18), size=11.5, weight="bold")
            _tip(owner_text, clean(owner if owner is not None else "?"))
            progress = "finished" if finished else f"{position}/{len(obstacles)} cleared"
            _text(cg, lx, ry + 70, progress, size=11, fill="#1B7A3E" if finished else SOFT, weight="bold" if finished else None)
        ox = MARGIN + COURSE_LABEL_W
        for k, ob in enumerate(obstacles[:7]):
            _obstacle(cg, ox + k * (OB_W + OB_GAP), ry + LANE, ob, k, claimed=dog is not None,
                      cleared=dog is not None and k < position, facing=dog is not None and k == position, seat=seat)
        fx = ox + min(len(obstacles), 7) * (OB_W + OB_GAP)
        _flag(cg, fx, ry + LANE + 18)
        if dog is not None:
            name = dog_name(str(dog), dog_names)
            tag_x = fx - 4 if finished else ox + min(position, 6) * (OB_W + OB_GAP)
            _dog_tag(cg, tag_x, ry + 1, name, seat, right_limit=WIDTH - MARGIN - 6, finished=finished)
    return y + h


# Players ------------------------------------------------------------------------------------

MINI_W, MINI_H = 52.0, 72.0


def _token(parent: ET.Element, x: float, y: float, letter: str, label: str, count: int) -> float:
    g = _group(parent, opacity=0.45 if not count else None)
    _el(g, "circle", {"cx": x + 9, "cy": y + 9, "r": 9.0, "fill": "#F4E3B5", "stroke": "#8A6D1E", "stroke-width": 1.4})
    _text(g, x + 9, y + 13, letter, size=10, weight="bold", fill="#5C4508", anchor="middle")
    _text(g, x + 23, y + 13.5, f"{label} {count}", size=12.5, weight="bold" if count else None)
    return x + 23 + _text_width(f"{label} {count}", 12.5) + 14


def _player(svg: ET.Element, state: Mapping[str, Any], seat: int, x: float, y: float, w: float, h: float,
            dog_names: Mapping[str, str]) -> None:
    p = _dict(_list(state.get("players"))[seat])
    name = str(p.get("name", f"player {seat + 1}"))
    cubes = _dict(p.get("cubes"))
    hand = [_dict(c) for c in _list(p.get("hand"))[:MAX_HAND]]
    hand_count = max(_int(p.get("hand_count"), len(hand)), len(hand))
    dogs = [str(d) for d in _list(p.get("dogs"))]
    attrs: dict[str, object] = {"class": "player", "data-seat": seat, "data-name": clean(name)}
    for colour in COLOURS:
        attrs[f"data-cube-{colour}"] = _int(cubes.get(colour))
    attrs.update({
        "data-flex": _int(p.get("flex")),
        "data-exchange": _int(p.get("exchange")),
        "data-turns": _int(p.get("turns")),
        "data-hand-count": hand_count,
        "data-hand-size": _int(p.get("hand_size")),
        "data-hand-known": " ".join(clean(c.get("id", "?"), 16) for c in hand),
        "data-dogs": " ".join(clean(d, 32) for d in dogs),
    })
    g = _el(svg, "g", attrs)
    to_act = state.get("to_act") == name
    winner = state.get("winner") == name
    edge = SEAT_DARK[seat % 2] if to_act or winner else PANEL_EDGE
    _rect(g, x, y, w, h, PANEL, rx=10, stroke=edge, width=2.4 if to_act or winner else 1)
    _rect(g, x, y, 7, h, SEAT_FILL[seat % 2], rx=3)
    # Name and tags
    nx = x + 18
    title = _text(g, nx, y + 26, clean(name, NAME_CHARS), size=16, weight="bold")
    _tip(title, clean(name))
    tags: list[tuple[str, str, str]] = []  # text, fill, ink
    if winner:
        tags.append(("WINNER", "#E69F00", "#111111"))
    if to_act:
        tags.append(("\u25b6 to act", SEAT_DARK[seat % 2], "#FFFFFF"))
    elif state.get("active") == name and state.get("status") != "finished":
        tags.append(("their turn", "#EEEAE2", INK))
    if state.get("tiebreak") == name:
        tags.append(("Tiebreak", "#FFFFFF", INK))
    if state.get("viewer") == name:
        tags.append(("viewer", "#FFFFFF", SOFT))
    tx = x + w - 12
    for text, fill, ink in tags:
        tw = _text_width(text, 10.5) + 14
        tx -= tw
        _rect(g, tx, y + 12, tw, 18, fill, rx=9, stroke="#8F897E" if fill == "#FFFFFF" else None)
        _text(g, tx + tw / 2, y + 25, text, size=10.5, weight="bold", fill=ink, anchor="middle")
        tx -= 6
    # Cubes
    cy = y + 40
    cx = nx
    for colour in COLOURS:
        n = _int(cubes.get(colour))
        _cube(g, cx, cy, colour, 20, opacity=None if n else 0.35)
        _text(g, cx + 25, cy + 15.5, str(n), size=15, weight="bold" if n else None, fill=INK if n else FAINT)
        cx += 25 + _text_width(str(n), 15) + 14
    # Tokens and turns
    ty = y + 70
    tx2 = _token(g, nx, ty, "F", "Flex", _int(p.get("flex")))
    tx2 = _token(g, tx2, ty, "X", "Exchange", _int(p.get("exchange")))
    _text(g, tx2, ty + 13.5, f"turns {_int(p.get('turns'))}", size=12.5, fill=SOFT)
    # Hand
    hy = y + 100
    hand_size = _int(p.get("hand_size"))
    label = f"hand {hand_count}/{hand_size}"
    _text(g, nx, hy + 12, label, size=11.5, fill=SOFT)
    if p.get("must_discard"):
        _text(g, nx, hy + 26, "must discard 1", size=10.5, weight="bold", fill="#8A5A00")
    hx = nx + 72
    for card in hand:
        _card(g, hx, hy, card, w=MINI_W, h=MINI_H)
        hx += MINI_W + 6
    for _ in range(min(hand_count - len(hand), MAX_HAND - len(hand))):
        _card(g, hx, hy, None, w=MINI_W, h=MINI_H)
        hx += MINI_W + 6
    if not hand_count:
        _text(g, hx, hy + 12, "no cards", size=11.5, fill=FAINT, italic=True)
    # Dogs
    dy = y + 182
    _text(g, nx, dy + 12, f"dogs {len(dogs)}/3", size=11.5, fill=SOFT)
    places = {str(_dict(c).get("dog")): _dict(c) for c in _list(state.get("courses")) if _dict(c).get("dog") is not None}
    for i, dog in enumerate(dogs[:4]):
        ly = dy + 12 + i * 17
        course = places.get(dog)
        dn = _text(g, nx + 72, ly, clean(dog_name(dog, dog_names), DOG_CHARS), size=12, weight="bold")
        _tip(dn, clean(dog, 32))
        if course is not None:
            length = len(_list(course.get("obstacles")))
            pos = _int(course.get("position"))
            done = bool(course.get("finished")) or pos >= length
            where = f"{clean(course.get('id', '?'), 8)} \u00b7 " + ("finished" if done else f"{pos}/{length}")
            _text(g, x + w - 14, ly, where, size=11.5, fill="#1B7A3E" if done else SOFT, anchor="end",
                  weight="bold" if done else None)
            if done:
                _check(g, x + w - 14 - _text_width(where, 11.5) - 16, ly - 10, 11, "#1B7A3E", 2)
    if not dogs:
        _text(g, nx + 72, dy + 12, "none yet", size=11.5, fill=FAINT, italic=True)


PLAYER_H = 250.0


def _players(svg: ET.Element, state: Mapping[str, Any], y: float, dog_names: Mapping[str, str]) -> float:
    players = _list(state.get("players"))
    w = (INNER - 12) / 2
    for seat in range(min(len(players), 2)):
        _player(svg, state, seat, MARGIN + seat * (w + 12), y, w, PLAYER_H, dog_names)
    return y + PLAYER_H


# ----------------------------------------------------------------------------------------------
# The picture


def _collect_names(state: Mapping[str, Any], extra: Mapping[str, str] | None) -> dict[str, str]:
    names = {str(k): str(v) for k, v in (extra or {}).items()}
    for dog in _list(state.get("dog_display")):
        d = _dict(dog)
        if "id" in d and "name" in d:
            names[str(d["id"])] = str(d["name"])
    return names


def _describe(state: Mapping[str, Any]) -> str:
    """A one-paragraph text summary for ``<desc>`` (screen readers, search)."""
    parts = [f"Agility board, turn {_int(state.get('turn'))}, marker on space {_int(state.get('marker'))}."]
    for p in _list(state.get("players")):
        d = _dict(p)
        cubes = ", ".join(f"{n} {c}" for c, n in _counts(_dict(d.get("cubes")))) or "no cubes"
        parts.append(f"{clean(d.get('name', '?'))}: {cubes}; {len(_list(d.get('dogs')))} dogs.")
    if state.get("winner") is not None:
        parts.append(f"{clean(state.get('winner'))} won.")
    return " ".join(parts)


def board_svg(state: Mapping[str, Any], *, title: str | None = None, line: int | None = None,
              dog_names: Mapping[str, str] | None = None) -> str:
    """The board of a STATE JSON (``public_state``) as a standalone SVG document, 800 px wide.

    ``title`` heads the picture (default: ``Agility — A vs B``; ``""``: no heading, as in the HTML
    replay, whose page has one); ``line``, when given, is the game
    file's line the state follows (``data-line`` on the root); ``dog_names`` maps dog ids to names
    for dogs no longer in the dog display (default: the id in words).  The same arguments always
    give the same string."""
    names = _names(state)
    if title is None:
        title = "Agility" + (f" \u2014 {names[0]} vs {names[1]}" if len(names) == 2 else "")
    all_names = _collect_names(state, dog_names)
    root_attrs: dict[str, object] = {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": str(WIDTH),
        "height": "0",  # set below
        "viewBox": "",
        "role": "img",
        "font-family": SANS,
        "class": "agility-board",
        "data-line": line,
        "data-status": clean(state.get("status", "")),
        "data-turn": _int(state.get("turn")),
        "data-marker": _int(state.get("marker"), -1),
        "data-active": clean(state.get("active") or ""),
        "data-to-act": clean(state.get("to_act") or ""),
        "data-winner": clean(state.get("winner") or ""),
        "data-deck-size": _int(state.get("deck_size")),
        "data-discard-size": _int(state.get("discard_size")),
        "data-display": " ".join(clean(_dict(c).get("id", "?"), 16) for c in _list(state.get("display"))),
        "data-dog-display": " ".join(clean(_dict(d).get("id", "?"), 32) for d in _list(state.get("dog_display"))),
    }
    svg = ET.Element("svg", {k: _attr(v) for k, v in root_attrs.items() if v is not None})
    _el(svg, "title", None, clean(title or "Agility board", 200))
    _el(svg, "desc", None, _describe(state))
    _el(svg, "style", None, STYLE)
    background = _rect(svg, 0, 0, WIDTH, 0, PAGE)
    y = _header(svg, state, title) + 4
    top_h = 28 + CARD_H + 30 + 12 + 250
    _rondel(svg, state, MARGIN, y, top_h)
    rx = MARGIN + RONDEL_W + 12
    rw = WIDTH - MARGIN - rx
    ty = _training(svg, state, rx, y, rw)
    _dog_display(svg, state, rx, ty + 12, rw, y + top_h - ty - 12)
    y = _courses(svg, state, y + top_h + 12, all_names)
    y = _players(svg, state, y + 12, all_names)
    height = int(math.ceil(y + MARGIN))
    svg.set("height", str(height))
    svg.set("viewBox", f"0 0 {WIDTH} {height}")
    background.set("height", str(height))
    return ET.tostring(svg, encoding="unicode")
