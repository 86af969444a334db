"""The courses of the board picture: one row per course, its obstacles (icon, cost, +1 and Rush
markers, the dog's feature), its owner and progress, and the dog standing at the obstacle it faces."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .draw import (
    as_dict, add_element, _fit, _group, as_int, as_list, _num, _panel, _path, add_rect, _seat_of, _text, _text_width, _tip, clean,
    dog_name,
)
from ...i18n import _
from .pieces import _check, draw_counts, _cube_row, _feature_badge, _flag, _icon
from .style import (
    feature_label, legend, obstacle_label,
    DOG_CHARS, INNER, MARGIN, MAX_COURSES, MONO, SEAT_DARK, SEAT_FILL, SOFT, WIDTH,
)

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
    add_rect(g, x, y, OB_W, OB_H, fill, rx=6, stroke=edge, width=edge_w)
    _icon(g, kind, x + 6, y + 6)
    label = clean(obstacle_label(kind), 12)
    size = 10.5  # within the tile, right of the icon ("open ground" and "weave poles" a little smaller)
    while size > 7.5 and _text_width(label, size, bold=True) > OB_W - 36:
        size -= 0.5
    _text(g, x + 32, y + 17, _fit(label, size, OB_W - 36, bold=True), size=size, weight="bold")
    if cleared:  # what it cost no longer matters (the text board shows ✓ and the type only)
        _check(parent, x + OB_W / 2 - 11, y + 28, 22, "#1B7A3E", 3)
        return
    # Cost: a pass feature makes the printed cost free (only +1 markers are paid): drawn faded.
    cost = as_dict(ob.get("cost"))
    faded = feature == "pass"
    cx = _cube_row(g, x + 6, y + 25, cost, size=13, room=OB_W - 12, opacity=0.3 if faded else None)
    if faded and draw_counts(cost):
        _path(g, f"M{_num(x + 4)} {_num(y + 38)}L{_num(cx)} {_num(y + 25)}", stroke="#2E2B27", width=1.4)
    bx = x + 6
    if feature:
        bx = _feature_badge(g, bx, y + 43, str(feature)) + 4
    plus = as_dict(ob.get("plus"))
    if draw_counts(plus):
        _text(g, bx, y + 53.5, "+", size=12, weight="bold")
        _cube_row(g, bx + 9, y + 43, plus, size=12, room=x + OB_W - bx - 14)
    if claimed:
        _text(g, x + OB_W - 5, y + OB_H - 5, str(index + 1), size=9, fill=SOFT, anchor="end", family=MONO)
    if ob.get("rush"):  # the Rush marker (gone once the obstacle is cleared): a sticker on the corner
        sg = _group(g, class_="rush")
        add_rect(sg, x + OB_W - 38, y - 7, 42, 15, "#111111", rx=3, stroke="#F0E442", width=1.2)
        _text(sg, x + OB_W - 17, y + 4, _("RUSH"), size=9.5, weight="bold", fill="#F0E442", anchor="middle", spacing=0.8)


def _dog_tag(parent: ET.Element, x: float, y: float, name: str, seat: int | None, *, right_limit: float,
             finished: bool = False) -> None:
    """The dog on its course: a tag in its owner's colour pointing down at the obstacle it faces."""
    text = ("\u2713 " if finished else "") + clean(name, DOG_CHARS)
    w = _text_width(text, 10.5, bold=True) + 14
    tx = min(x, right_limit - w)
    fill = SEAT_FILL[seat % 2] if seat is not None else "#DDDDDD"
    dark = SEAT_DARK[seat % 2] if seat is not None else "#777777"
    g = _group(parent, class_="dog-tag")
    add_rect(g, tx, y, w, 15, fill, rx=7.5, stroke=dark, width=1)
    _path(g, f"M{_num(x + 8)} {_num(y + 15)}L{_num(x + 12)} {_num(y + 19.5)}L{_num(x + 16)} {_num(y + 15)}Z", fill=fill,
          stroke=dark, width=1)
    _text(g, tx + w / 2, y + 11.2, text, size=10.5, weight="bold", fill="#111111", anchor="middle")


def draw_courses(svg: ET.Element, state: Mapping[str, Any], y: float, dog_names: Mapping[str, str]) -> float:
    courses = [as_dict(c) for c in as_list(state.get("courses"))[:MAX_COURSES]]
    h = 34 + max(len(courses), 1) * ROW_H + 4
    g = _panel(svg, MARGIN, y, INNER, h, _("Courses"), legend())
    # The feature marks, drawn as on the obstacles, left of the cube legend.
    lx = WIDTH - MARGIN - 14 - _text_width(legend(), 11) - 14
    for feature, meaning in (("featured", _("feature")), ("minus_one", _("one cube less")), ("pass", _("free"))):
        lx -= _text_width(meaning, 10.5) + 4
        _text(g, lx, y + 22, meaning, size=10.5, fill=SOFT)
        lx -= _text_width(feature_label(feature), 9.5) + 8 + 4
        _feature_badge(g, lx, y + 12, feature)
        lx -= 10
    g.set("class", "courses")
    for slot, course in enumerate(courses, 1):
        ry = y + 30 + (slot - 1) * ROW_H
        obstacles = [as_dict(o) for o in as_list(course.get("obstacles"))]
        dog = course.get("dog")
        owner = course.get("owner")
        seat = _seat_of(state, owner)
        position = as_int(course.get("position"))
        finished = bool(course.get("finished")) or (dog is not None and position >= len(obstacles))
        cid = clean(course.get("id", "?"), 8)
        cg = _group(svg, class_="course", data_slot=slot, data_course=cid, data_owner=None if owner is None else clean(owner),
                    data_dog=None if dog is None else clean(dog, 32), data_position=position, data_length=len(obstacles),
                    data_finished=finished)
        if slot > 1:
            _path(cg, f"M{_num(MARGIN + 12)} {_num(ry - 2)}H{_num(WIDTH - MARGIN - 12)}", stroke="#EEEAE2", width=1)
        if finished:
            add_rect(cg, MARGIN + 6, ry, INNER - 12, ROW_H - 4, "#EEF6EF", rx=6)
        lx = MARGIN + 14
        _text(cg, lx, ry + 34, f"#{slot}", size=11, fill=SOFT)
        _text(cg, lx + 24, ry + 34, cid, size=17, weight="bold")
        if dog is None:
            _text(cg, lx, ry + 54, _("free course"), size=11, fill=SOFT, italic=True)
        else:
            if seat is not None:
                add_element(cg, "circle", {"cx": lx + 5, "cy": ry + 50.5, "r": 5.0, "fill": SEAT_FILL[seat % 2],
                                   "stroke": SEAT_DARK[seat % 2], "stroke-width": 1.0})
            owner_text = _text(cg, lx + 15, ry + 54, clean(owner if owner is not None else "?", 18), size=11.5, weight="bold")
            _tip(owner_text, clean(owner if owner is not None else "?"))
            progress = _("finished") if finished else _("{cleared}/{total} cleared").format(cleared=position, total=len(obstacles))
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
