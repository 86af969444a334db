"""The top lines of the board picture: the title, the status line (whose turn, who must act and
what, or who won), the components and viewer, and the card being played."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .draw import as_dict, add_element, _fit, _group, as_int, as_list, add_rect, _text, _text_width, clean
from .pieces import _cube_row
from ...i18n import _, name, ngettext
from .style import INK, INNER, MARGIN, MONO, NAME_CHARS, SOFT, WIDTH, phase_words


def draw_header(svg: ET.Element, state: Mapping[str, Any], title: str) -> float:
    """Title, status line, and the card in play; returns the y below."""
    top = 0.0 if title else -14.0  # no title: the status line moves up
    if title:
        _text(svg, MARGIN, 34, _fit(clean(title, 200), 21, INNER - 150), size=21, weight="bold")
    status: list[tuple[str, str, str | None]] = []  # (text, fill, weight)
    turn = as_int(state.get("turn"))
    winner = state.get("winner")
    if state.get("status") == "finished" or winner is not None:
        status.append((_("Game over after turn {turn}").format(turn=turn), INK, "bold"))
        if winner is not None:
            status.append((_(" \u2014 {name} wins").format(name=clean(winner, NAME_CHARS)), "#1B7A3E", "bold"))
        verdict = state.get("verdict")
        if isinstance(verdict, Mapping) and verdict.get("kind") == "forfeit":  # R42: a failed audit, an abort
            status.append((_(" ({name} forfeits)").format(name=clean(verdict.get('player'), NAME_CHARS)), "#9A5B00", "bold"))
        elif isinstance(verdict, Mapping) and verdict.get("kind") == "pending":  # R42: not audited yet
            status.append((f" \u00b7 {clean(verdict.get('reason'), 60)}", "#8A5A00", None))
    else:
        active = state.get("active")
        status.append((_("Turn {turn}").format(turn=turn), INK, "bold"))
        if active is not None:
            status.append((_(" \u00b7 {name}\u2019s turn").format(name=clean(active, NAME_CHARS)), INK, None))
        flags = []
        if state.get("final_turn"):
            flags.append(_("final turn"))
        if state.get("mini_turn"):
            flags.append(_("mini-turn"))
        minis = as_int(state.get("mini_turns_left"))
        if minis:
            flags.append(ngettext("{n} mini-turn to come", "{n} mini-turns to come", minis).format(n=minis))
        if flags:
            status.append((_(" ({text})").format(text=_(", ").join(flags)), INK, None))
        to_act = state.get("to_act")
        if to_act is not None:
            phase = str(state.get("phase", ""))
            what = phase_words(phase)
            status.append((_(" \u00b7 {name} to {what}").format(name=clean(to_act, NAME_CHARS), what=what), "#8A5A00", "bold"))
    line = add_element(svg, "text", {"x": float(MARGIN), "y": 58.0 + top, "font-size": 13.0, "fill": INK})
    for text, fill, weight in status:
        add_element(line, "tspan", {"fill": fill, "font-weight": weight}, text)
    # Right: components (a custom set is always said, R6) and the viewer.
    right = []
    comp = as_dict(state.get("components"))
    if comp and not comp.get("standard", True):
        right.append(_("components: {name} ({fingerprint})").format(
            name=clean(comp.get('name', '?'), 24), fingerprint=clean(comp.get('fingerprint', ''), 16)))
    viewer = state.get("viewer")
    if viewer is not None:
        complete = state.get("complete_view")
        seen = _("as {name} sees it (everything shown)") if complete else _("as {name} sees it")
        right.append(seen.format(name=clean(viewer, NAME_CHARS)))
    version = state.get("rules")
    if isinstance(version, int) and not isinstance(version, bool):
        right.append(_("rules version {version}").format(version=version))
    if not title and right:  # one line above the status line
        right = [" \u00b7 ".join(right)]
    for i, text in enumerate(right):
        _text(svg, WIDTH - MARGIN, (30 if title else 22) + i * 15, text, size=11.5, fill=SOFT, anchor="end")
    y = 70.0 + top
    current = as_dict(state.get("current_card"))
    boost = as_dict(state.get("boost_card"))
    notes: list[tuple[str, dict[str, Any]]] = []
    if state.get("status") != "finished" and state.get("phase") != "dogs":
        if current:
            notes.append((_("playing"), current))
        elif state.get("current_card_face_down"):
            notes.append((_("playing a card face down"), {}))
    if boost:
        notes.append((_("Boost card"), boost))
    if notes:
        x = float(MARGIN)
        for label, card in notes:
            _text(svg, x, y + 13, label, size=12, fill=SOFT)
            x += _text_width(label, 12) + 6
            if card:
                x = _card_inline(svg, x, y, card) + 18
        reward = state.get("reward")
        if reward is not None and current:
            _text(svg, x, y + 13, _("reward chosen: {colour}").format(colour=name("colour", clean(reward, 10))), size=12, fill=SOFT)
        y += 24
    return y


def _card_inline(parent: ET.Element, x: float, y: float, card: Mapping[str, Any]) -> float:
    """A card on one line: ``[5] 2 cubes | 2 cubes``; returns the x after it."""
    g = _group(parent, data_card=clean(card.get("id", "?"), 16))
    number = str(as_int(card.get("number"), 0))
    add_rect(g, x, y, 22, 18, "#FFFFFF", rx=3, stroke=INK, width=1.2)
    _text(g, x + 11, y + 13.5, number, size=12, weight="bold", anchor="middle")
    x += 28
    for i, reward in enumerate(as_list(card.get("rewards"))[:2]):
        if i:
            _text(g, x, y + 13, _("or"), size=10.5, fill=SOFT)
            x += 16
        r = as_dict(reward)
        x = _cube_row(g, x, y + 2, {str(r.get("color")): as_int(r.get("count"))}, size=14) + 4
    _text(g, x, y + 13, clean(card.get("id", ""), 12), size=10, fill=SOFT, family=MONO)
    return x + _text_width(clean(card.get("id", ""), 12), 10)
