"""The drawing primitives of the board picture: text made safe and measured, SVG elements written
through ElementTree (every value escaped), panels, and values read defensively from a STATE."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .style import INK, PANEL, PANEL_EDGE, SOFT

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


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font (DejaVu Sans is wide; its
    bold a tenth wider again)."""
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
    return total * size * (1.1 if bold else 1.0)


def _fit(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` clipped with ``…`` to about ``width`` px at font size ``size``."""
    if _text_width(text, size, bold) <= width:
        return text
    while text and _text_width(text + "\u2026", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def tile_label(tile: str) -> str:
    """A tile's display name: ``clear_a_frames`` → ``Clear A-Frames`` (as ``components.tile_name``),
    in the language in use."""
    from ...i18n import name

    return name("tile", " ".join(w.capitalize() for w in str(tile).split("_")).replace(" A Frames", " A-Frames"))


def dog_name(dog_id: str, names: Mapping[str, str] | None = None) -> str:
    """A dog's name: from ``names`` (the dog displays seen), else its id in words
    (``jack-russell-terrier`` → ``Jack Russell Terrier``, which is the name in the standard set),
    in the language in use."""
    from ...i18n import name

    if names and dog_id in names:
        return name("dog", str(names[dog_id]))
    return name("dog", " ".join(w.capitalize() for w in str(dog_id).split("-")))


# ----------------------------------------------------------------------------------------------
# Elements


def _num(x: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros (``12``, ``12.5``)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def attr_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _num(value)
    return clean(value)


def add_element(parent: ET.Element, tag: str, attrs: Mapping[str, object] | None = None, text: str | None = None) -> ET.Element:
    node = ET.SubElement(parent, tag, {k: attr_text(v) for k, v in (attrs or {}).items() if v is not None})
    if text is not None:
        node.text = clean(text)
    return node


def _group(parent: ET.Element, **attrs: object) -> ET.Element:
    return add_element(parent, "g", {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()})


def add_rect(parent: ET.Element, x: float, y: float, w: float, h: float, fill: str, *, rx: float = 0, stroke: str | None = None,
          width: float = 1, dash: str | None = None, opacity: float | None = None) -> ET.Element:
    return add_element(parent, "rect", {
        "x": float(x), "y": float(y), "width": float(w), "height": float(h), "rx": float(rx) if rx else None,
        "fill": fill, "stroke": stroke, "stroke-width": float(width) if stroke else None, "stroke-dasharray": dash,
        "opacity": None if opacity is None else float(opacity),
    })


def _text(parent: ET.Element, x: float, y: float, text: str, *, size: float = 12, weight: str | None = None,
          fill: str = INK, anchor: str | None = None, family: str | None = None, italic: bool = False,
          spacing: float | None = None, opacity: float | None = None) -> ET.Element:
    return add_element(parent, "text", {
        "x": float(x), "y": float(y), "font-size": float(size), "font-weight": weight, "fill": fill,
        "text-anchor": anchor, "font-family": family, "font-style": "italic" if italic else None,
        "letter-spacing": None if spacing is None else float(spacing),
        "opacity": None if opacity is None else float(opacity),
    }, text)


def _path(parent: ET.Element, d: str, *, fill: str = "none", stroke: str | None = INK, width: float = 1.5,
          cap: str | None = "round", join: str | None = "round", opacity: float | None = None) -> ET.Element:
    return add_element(parent, "path", {
        "d": d, "fill": fill, "stroke": stroke, "stroke-width": float(width) if stroke else None,
        "stroke-linecap": cap if stroke else None, "stroke-linejoin": join if stroke else None,
        "opacity": None if opacity is None else float(opacity),
    })


def _tip(parent: ET.Element, text: str) -> None:
    """A ``<title>`` child: the full text of something drawn clipped (shown as a tooltip)."""
    add_element(parent, "title", None, text)


def _panel(parent: ET.Element, x: float, y: float, w: float, h: float, heading: str, note: str = "") -> ET.Element:
    g = _group(parent)
    add_rect(g, x, y, w, h, PANEL, rx=10, stroke=PANEL_EDGE)
    _text(g, x + 14, y + 22, heading.upper(), size=11.5, weight="bold", fill="#4A463F", spacing=1.2)
    if note:
        _text(g, x + w - 14, y + 22, note, size=11, fill=SOFT, anchor="end")
    return g


# ----------------------------------------------------------------------------------------------
# Reading the state


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


LIMIT = 10**9  # a number of the state is shown clamped to ±LIMIT (a forged state may hold anything)


def as_int(value: Any, default: int = 0) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return max(-LIMIT, min(LIMIT, value))
    return default


def as_names(state: Mapping[str, Any]) -> list[str]:
    return [str(as_dict(p).get("name", f"player {i + 1}")) for i, p in enumerate(as_list(state.get("players")))]


def _seat_of(state: Mapping[str, Any], name: Any) -> int | None:
    if name is None:
        return None
    names = as_names(state)
    return names.index(name) if name in names else None
