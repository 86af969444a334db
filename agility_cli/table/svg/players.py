"""The players' panels of the board picture: name and tags (to act, winner, Tiebreak, viewer),
cubes, Flex and Exchange tokens, turns, hand (known cards face up, the others as backs), dogs."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .draw import as_dict, add_element, _group, as_int, as_list, add_rect, _text, _text_width, _tip, clean, dog_name
from ...i18n import _, name as game_name
from .pieces import _card, _check, _cube
from .style import (
    COLOURS, DOG_CHARS, FAINT, INK, INNER, MARGIN, MAX_HAND, NAME_CHARS, PANEL, PANEL_EDGE, SEAT_DARK, SEAT_FILL, SOFT,
)

MINI_W, MINI_H = 52.0, 72.0


def _token(parent: ET.Element, x: float, y: float, letter: str, label: str, count: int) -> float:
    g = _group(parent, opacity=0.45 if not count else None)
    add_element(g, "circle", {"cx": x + 9, "cy": y + 9, "r": 9.0, "fill": "#F4E3B5", "stroke": "#8A6D1E", "stroke-width": 1.4})
    _text(g, x + 9, y + 13, letter, size=10, weight="bold", fill="#5C4508", anchor="middle")
    _text(g, x + 23, y + 13.5, f"{label} {count}", size=12.5, weight="bold" if count else None)
    return x + 23 + _text_width(f"{label} {count}", 12.5) + 14


def _player(svg: ET.Element, state: Mapping[str, Any], seat: int, x: float, y: float, w: float, h: float,
            dog_names: Mapping[str, str]) -> None:
    p = as_dict(as_list(state.get("players"))[seat])
    name = str(p.get("name", f"player {seat + 1}"))
    cubes = as_dict(p.get("cubes"))
    hand = [as_dict(c) for c in as_list(p.get("hand"))[:MAX_HAND]]
    hand_count = max(as_int(p.get("hand_count"), len(hand)), len(hand))
    dogs = [str(d) for d in as_list(p.get("dogs"))]
    attrs: dict[str, object] = {"class": "player", "data-seat": seat, "data-name": clean(name)}
    for colour in COLOURS:
        attrs[f"data-cube-{colour}"] = as_int(cubes.get(colour))
    attrs.update({
        "data-flex": as_int(p.get("flex")),
        "data-exchange": as_int(p.get("exchange")),
        "data-turns": as_int(p.get("turns")),
        "data-hand-count": hand_count,
        "data-hand-size": as_int(p.get("hand_size")),
        "data-hand-known": " ".join(clean(c.get("id", "?"), 16) for c in hand),
        "data-dogs": " ".join(clean(d, 32) for d in dogs),
    })
    g = add_element(svg, "g", attrs)
    to_act = state.get("to_act") == name
    winner = state.get("winner") == name
    edge = SEAT_DARK[seat % 2] if to_act or winner else PANEL_EDGE
    add_rect(g, x, y, w, h, PANEL, rx=10, stroke=edge, width=2.4 if to_act or winner else 1)
    add_rect(g, x, y, 7, h, SEAT_FILL[seat % 2], rx=3)
    # Name and tags
    nx = x + 18
    title = _text(g, nx, y + 26, clean(name, NAME_CHARS), size=16, weight="bold")
    _tip(title, clean(name))
    tags: list[tuple[str, str, str]] = []  # text, fill, ink
    if winner:
        tags.append((_("WINNER"), "#E69F00", "#111111"))
    if to_act:
        tags.append(("\u25b6 " + _("to act"), SEAT_DARK[seat % 2], "#FFFFFF"))
    elif state.get("active") == name and state.get("status") != "finished":
        tags.append((_("their turn"), "#EEEAE2", INK))
    if state.get("tiebreak") == name:
        tags.append((_("Tiebreak"), "#FFFFFF", INK))
    if state.get("viewer") == name:
        tags.append((_("viewer"), "#FFFFFF", SOFT))
    tx = x + w - 12
    for text, fill, ink in tags:
        tw = _text_width(text, 10.5) + 14
        tx -= tw
        add_rect(g, tx, y + 12, tw, 18, fill, rx=9, stroke="#8F897E" if fill == "#FFFFFF" else None)
        _text(g, tx + tw / 2, y + 25, text, size=10.5, weight="bold", fill=ink, anchor="middle")
        tx -= 6
    # Cubes
    cy = y + 40
    cx = nx
    for colour in COLOURS:
        n = as_int(cubes.get(colour))
        _cube(g, cx, cy, colour, 20, opacity=None if n else 0.35)
        _text(g, cx + 25, cy + 15.5, str(n), size=15, weight="bold" if n else None, fill=INK if n else FAINT)
        cx += 25 + _text_width(str(n), 15) + 14
    # Tokens and turns
    ty = y + 70
    tx2 = _token(g, nx, ty, "F", game_name("tile", "Flex"), as_int(p.get("flex")))
    tx2 = _token(g, tx2, ty, "X", game_name("tile", "Exchange"), as_int(p.get("exchange")))
    _text(g, tx2, ty + 13.5, _("turns {n}").format(n=as_int(p.get('turns'))), size=12.5, fill=SOFT)
    # Hand
    hy = y + 100
    hand_size = as_int(p.get("hand_size"))
    label = _("hand {held}/{size}").format(held=hand_count, size=hand_size)
    _text(g, nx, hy + 12, label, size=11.5, fill=SOFT)
    if p.get("must_discard"):
        _text(g, nx, hy + 26, _("must discard 1"), size=10.5, weight="bold", fill="#8A5A00")
    hx = nx + 72
    for card in hand:
        _card(g, hx, hy, card, w=MINI_W, h=MINI_H)
        hx += MINI_W + 6
    for _back in range(min(hand_count - len(hand), MAX_HAND - len(hand))):
        _card(g, hx, hy, None, w=MINI_W, h=MINI_H)
        hx += MINI_W + 6
    if not hand_count:
        _text(g, hx, hy + 12, _("no cards"), size=11.5, fill=FAINT, italic=True)
    # Dogs
    dy = y + 182
    _text(g, nx, dy + 12, _("dogs {held}/{most}").format(held=len(dogs), most=3), size=11.5, fill=SOFT)
    places = {str(as_dict(c).get("dog")): as_dict(c) for c in as_list(state.get("courses")) if as_dict(c).get("dog") is not None}
    for i, dog in enumerate(dogs[:4]):
        ly = dy + 12 + i * 17
        course = places.get(dog)
        dn = _text(g, nx + 72, ly, clean(dog_name(dog, dog_names), DOG_CHARS), size=12, weight="bold")
        _tip(dn, clean(dog, 32))
        if course is not None:
            length = len(as_list(course.get("obstacles")))
            pos = as_int(course.get("position"))
            done = bool(course.get("finished")) or pos >= length
            where = f"{clean(course.get('id', '?'), 8)} \u00b7 " + (_("finished") if done else f"{pos}/{length}")
            _text(g, x + w - 14, ly, where, size=11.5, fill="#1B7A3E" if done else SOFT, anchor="end",
                  weight="bold" if done else None)
            if done:
                _check(g, x + w - 14 - _text_width(where, 11.5) - 16, ly - 10, 11, "#1B7A3E", 2)
    if not dogs:
        _text(g, nx + 72, dy + 12, _("none yet"), size=11.5, fill=FAINT, italic=True)


PLAYER_H = 250.0


def draw_players(svg: ET.Element, state: Mapping[str, Any], y: float, dog_names: Mapping[str, str]) -> float:
    players = as_list(state.get("players"))
    w = (INNER - 12) / 2
    for seat in range(min(len(players), 2)):
        _player(svg, state, seat, MARGIN + seat * (w + 12), y, w, PLAYER_H, dog_names)
    return y + PLAYER_H
