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
module and its parts (:mod:`agility_cli.table.svg`: the look, the drawing primitives, the pieces,
one module a region of the board) import nothing from the rest of the package, so they keep
working however the engine's modules are arranged, and they can draw a state received from
anywhere.  This module puts the regions together and is the API: the names in ``__all__``.

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
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from ..i18n import _, name
from .svg.courses import draw_courses
from .svg.displays import RONDEL_W, draw_dog_display, draw_rondel, draw_training
from .svg.draw import attr_text, as_dict, add_element, as_int, as_list, as_names, add_rect, clean, dog_name, tile_label
from .svg.header import draw_header
from .svg.pieces import CARD_H, draw_counts
from .svg.players import draw_players
from .svg.style import COLOURS, CUBE_FILL, CUBE_LETTER, MARGIN, PAGE, SANS, SEAT_DARK, SEAT_FILL, STYLE, WIDTH, page_language, sans

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


def _collect_names(state: Mapping[str, Any], extra: Mapping[str, str] | None) -> dict[str, str]:
    names = {str(k): str(v) for k, v in (extra or {}).items()}
    for dog in as_list(state.get("dog_display")):
        d = as_dict(dog)
        if "id" in d and "name" in d:
            names[str(d["id"])] = str(d["name"])
    return names


def _describe(state: Mapping[str, Any]) -> str:
    """A one-paragraph text summary for ``<desc>`` (screen readers, search)."""
    parts = [_("Agility board, turn {turn}, marker on space {space}.").format(
        turn=as_int(state.get('turn')), space=as_int(state.get('marker')))]
    for p in as_list(state.get("players")):
        d = as_dict(p)
        cubes = _(", ").join(f"{n} {name('colour', c)}" for c, n in draw_counts(as_dict(d.get("cubes")))) or _("no cubes")
        parts.append(_("{name}: {cubes}; {n} dogs.").format(name=clean(d.get('name', '?')), cubes=cubes, n=len(as_list(d.get('dogs')))))
    if state.get("winner") is not None:
        parts.append(_("{name} won.").format(name=clean(state.get('winner'))))
    return " ".join(parts)


def board_svg(state: Mapping[str, Any], *, title: str | None = None, line: int | None = None,
              dog_names: Mapping[str, str] | None = None) -> str:
    """The board of a STATE JSON (``public_state``) as a standalone SVG document, 800 px wide.

    ``title`` heads the picture (default: ``Agility — A vs B``; ``""``: no heading, as in the HTML
    replay, whose page has one); ``line``, when given, is the game
    file's line the state follows (``data-line`` on the root); ``dog_names`` maps dog ids to names
    for dogs no longer in the dog display (default: the id in words).  The same arguments always
    give the same string."""
    names = as_names(state)
    if title is None:
        title = (_("Agility \u2014 {first} vs {second}").format(first=names[0], second=names[1]) if len(names) == 2
                 else _("Agility"))
    all_names = _collect_names(state, dog_names)
    root_attrs: dict[str, object] = {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": str(WIDTH),
        "height": "0",  # set below
        "viewBox": "",
        "role": "img",
        "lang": page_language(),  # none in English, as the pictures always were; zh-CN in Chinese
        "font-family": sans(),  # a CJK font stack in Chinese
        "class": "agility-board",
        "data-line": line,
        "data-status": clean(state.get("status", "")),
        "data-turn": as_int(state.get("turn")),
        "data-marker": as_int(state.get("marker"), -1),
        "data-active": clean(state.get("active") or ""),
        "data-to-act": clean(state.get("to_act") or ""),
        "data-winner": clean(state.get("winner") or ""),
        "data-deck-size": as_int(state.get("deck_size")),
        "data-discard-size": as_int(state.get("discard_size")),
        "data-display": " ".join(clean(as_dict(c).get("id", "?"), 16) for c in as_list(state.get("display"))),
        "data-dog-display": " ".join(clean(as_dict(d).get("id", "?"), 32) for d in as_list(state.get("dog_display"))),
    }
    svg = ET.Element("svg", {k: attr_text(v) for k, v in root_attrs.items() if v is not None})
    add_element(svg, "title", None, clean(title or _("Agility board"), 200))
    add_element(svg, "desc", None, _describe(state))
    add_element(svg, "style", None, STYLE)
    background = add_rect(svg, 0, 0, WIDTH, 0, PAGE)
    y = draw_header(svg, state, title) + 4
    top_h = 28 + CARD_H + 30 + 12 + 250
    draw_rondel(svg, state, MARGIN, y, top_h)
    rx = MARGIN + RONDEL_W + 12
    rw = WIDTH - MARGIN - rx
    ty = draw_training(svg, state, rx, y, rw)
    draw_dog_display(svg, state, rx, ty + 12, rw, y + top_h - ty - 12)
    y = draw_courses(svg, state, y + top_h + 12, all_names)
    y = draw_players(svg, state, y + 12, all_names)
    height = int(math.ceil(y + MARGIN))
    svg.set("height", str(height))
    svg.set("viewBox", f"0 0 {WIDTH} {height}")
    background.set("height", str(height))
    return ET.tostring(svg, encoding="unicode")
