"""The drawn board (picture.py): valid XML, says what the state holds, hostile names escaped,
deterministic, and the same as the golden reference picture.

The golden reference is ``tests/golden/pictures/random-b-all-extras.final.svg``: the final board of
``games/random-b-all-extras.jsonl``, made by this same code.  After an intended change of the
picture run ``python tests/regen_pictures.py`` (or this file with ``AGILITY_REGEN_PICTURES=1``),
look at the result (``python tools/make_pictures.py``) and review the diff.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from agility_cli.table.picture import COLOURS, CUBE_LETTER, board_svg, clean, dog_name, tile_label

from pictures import GAMES, GOLDEN_GAME, GOLDEN_PICTURE, REGEN_VARIABLE, golden_picture, replay_records, show_state

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(node: ET.Element) -> list[str]:
    """Every text drawn under ``node`` (``<text>`` elements, their ``<tspan>`` joined; a tooltip
    ``<title>`` inside is not drawn)."""
    out = []
    for t in node.iter(f"{NS}text"):
        parts = [t.text or ""]
        for child in t:
            if child.tag == f"{NS}tspan":
                parts.append(child.text or "")
            parts.append(child.tail or "")
        out.append("".join(parts))
    return out


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


def final_state() -> dict[str, Any]:
    state: dict[str, Any] = replay_records()[-1]["state"]
    return state


def mid_view() -> dict[str, Any]:
    """Line 60 of the golden game as bot:random sees it: bot:greedy's hand partly hidden."""
    return show_state(GOLDEN_GAME, "--at", "60", "--as", "bot:random")


# --------------------------------------------------------------------------------------------
# Valid SVG, and only SVG


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_line_of_every_golden_game_draws_a_valid_svg_800_wide(path: Any) -> None:
    for record in replay_records(path)[::7] + replay_records(path)[-1:]:
        svg = board_svg(record["state"], line=record["line"])
        root = parse(svg)
        assert root.tag == f"{NS}svg"
        assert root.get("width") == "800"
        viewbox = root.get("viewBox", "").split()
        assert viewbox[:3] == ["0", "0", "800"] and int(viewbox[3]) == int(root.get("height", "0")) > 600
        assert root.get("data-line") == str(record["line"])
        assert root.get("data-marker") == str(record["state"]["marker"])


def test_the_picture_refers_to_nothing_outside_itself_and_names_only_generic_fonts() -> None:
    svg = board_svg(final_state())
    root = parse(svg)
    tags = {el.tag.removeprefix(NS) for el in root.iter()}
    assert tags <= {"svg", "g", "rect", "text", "tspan", "path", "circle", "title", "desc", "style"}, tags
    for el in root.iter():
        for name, value in el.attrib.items():
            assert "href" not in name and not name.startswith("on"), (el.tag, name)
            assert "url(" not in value and "http" not in value or name == "xmlns", (el.tag, name, value)
    fonts = set(re.findall(r'font-family="([^"]*)"', svg)) | set(re.findall(r"font-family:([^;}]*)", svg))
    assert fonts <= {"sans-serif", "monospace"}, fonts
    assert "@import" not in svg and "@font-face" not in svg


def test_every_cube_carries_its_colour_letter() -> None:
    root = parse(board_svg(final_state()))
    cubes = groups(root, "agc")
    assert len(cubes) > 40
    letters = set(CUBE_LETTER.values())
    for cube in cubes:
        (letter,) = texts(cube)
        assert letter in letters
        assert f"agc-{letter}" in (cube.get("class") or "")


# --------------------------------------------------------------------------------------------
# The picture says what the state holds


def test_texts_name_the_players_tiles_cards_and_dogs_of_the_state() -> None:
    state = mid_view()
    root = parse(board_svg(state))
    drawn = texts(root)
    everything = " ".join(drawn)
    for player in state["players"]:
        assert player["name"] in drawn
    # the rondel: each space shows its number and its tile's name (one or two lines)
    spaces = groups(root, "space")
    assert [g.get("data-space") for g in spaces] == [str(i) for i in range(10)]
    for space, g in zip(range(10), spaces):
        words = texts(g)
        assert words[0] == str(space)
        assert " ".join(words[1:]) == tile_label(state["board"][space])
        assert g.get("data-tile") == state["board"][space]
        assert (g.get("data-marker") == "true") == (space == state["marker"])
    # the training display: each card's number and id
    cards = {g.get("data-card"): g for g in groups(root, "card")}
    for card in state["display"]:
        g = cards[card["id"]]
        assert str(card["number"]) in texts(g) and card["id"] in texts(g)
        shown = [c.get("class", "").split()[1] for c in groups(g, "agc")]
        expected = [f"agc-{CUBE_LETTER[r['color']]}" for r in card["rewards"] for _ in range(r["count"])]
        assert shown == expected
    # the dog display: names, and the dogs on the courses
    for dog in state["dog_display"]:
        assert dog["name"] in drawn
    for course in state["courses"]:
        assert course["id"] in drawn
        if course["dog"]:
            assert dog_name(course["dog"]) in everything
    assert f"{state['deck_size']}" in drawn and f"{state['discard_size']}" in drawn


def test_data_attributes_match_the_state() -> None:
    for record in replay_records()[::10]:
        state = record["state"]
        root = parse(board_svg(state, line=record["line"]))
        assert root.get("data-turn") == str(state["turn"])
        assert root.get("data-status") == state["status"]
        assert root.get("data-deck-size") == str(state["deck_size"])
        assert root.get("data-display", "").split() == [c["id"] for c in state["display"]]
        players = groups(root, "player")
        assert [p.get("data-name") for p in players] == [p["name"] for p in state["players"]]
        for g, player in zip(players, state["players"]):
            for colour in COLOURS:
                assert g.get(f"data-cube-{colour}") == str(player["cubes"][colour])
            assert g.get("data-flex") == str(player["flex"])
            assert g.get("data-exchange") == str(player["exchange"])
            assert g.get("data-hand-count") == str(player["hand_count"])
            assert g.get("data-hand-size") == str(player["hand_size"])
            assert g.get("data-dogs", "").split() == player["dogs"]
        courses = groups(root, "course")
        assert [c.get("data-course") for c in courses] == [c["id"] for c in state["courses"]]
        for g, course in zip(courses, state["courses"]):
            assert g.get("data-position") == str(course["position"])
            assert g.get("data-dog") == course["dog"]
            assert g.get("data-owner") == course["owner"]
            assert g.get("data-finished") == ("true" if course["finished"] else "false")
            assert len(groups(g, "obstacle")) == len(course["obstacles"])


def test_hidden_cards_are_drawn_as_card_backs_and_known_ones_face_up() -> None:
    state = mid_view()
    root = parse(board_svg(state))
    hidden_somewhere = False
    for g, player in zip(groups(root, "player"), state["players"]):
        backs = groups(g, "card-back")
        faces = groups(g, "card")
        assert len(backs) == player["hand_count"] - len(player["hand"])
        assert [f.get("data-card") for f in faces] == [c["id"] for c in player["hand"]]
        hidden_somewhere |= bool(backs)
    assert hidden_somewhere, "line 60 as bot:random sees it hides some of bot:greedy's hand"
    assert "as bot:random sees it" in texts(root)


def test_the_winner_and_the_player_to_act_are_said() -> None:
    final = parse(board_svg(final_state()))
    assert "WINNER" in texts(final)
    assert any("Game over" in t and "bot:greedy wins" in t for t in texts(final))
    first = replay_records()[0]["state"]
    root = parse(board_svg(first))
    assert any(t.startswith("Turn 1") and f"{first['to_act']} to play" in t for t in texts(root))


# --------------------------------------------------------------------------------------------
# Hostile names


HOSTILE = [
    '<script>alert("x")</script>',
    "O'Brien & \"Sons\" </svg><svg onload=alert(1)>",
    "\x1b[2J\u202eevil\x00",
    "lone \ud800 surrogate \ufffe",
    "]]><!-- --><![CDATA[",
    "名前 Ünïcødé 👾",
    "x" * 300,
]


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_player_names_are_escaped_and_shown_as_text(name: str) -> None:
    other = "bob"
    for state in (mid_view(), final_state()):
        state = _renamed(state, {"bot:greedy": name, "bot:random": other})
        svg = board_svg(state, title=name)
        svg.encode("utf-8")  # no lone surrogate left
        root = parse(svg)  # still well-formed XML
        assert "<script" not in svg and "<svg onload" not in svg and "<!--" not in svg and "<![CDATA[" not in svg
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff\u202e]", svg)
        shown = clean(name)
        drawn = " ".join(texts(root))
        # the name appears as text (clipped where a column is narrow), never as markup
        assert shown[:10] in drawn
        assert [p.get("data-name") for p in groups(root, "player")] == [shown, other]
        if len(name) < 20 and name.isprintable():
            assert name in texts(root)


def test_control_and_bidi_characters_are_shown_escaped() -> None:
    assert clean("\x1b[2J\u202eevil") == "\\x1b[2J\\u202eevil"
    assert clean("a\ud800b") == "a\\ud800b"
    assert clean("abcdef", 4) == "abc\u2026"


# --------------------------------------------------------------------------------------------
# Deterministic


def _reversed_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(v) for v in value]
    return value


def test_the_same_state_gives_the_same_bytes_whatever_the_order_of_its_keys() -> None:
    state = mid_view()
    first = board_svg(state, line=60)
    assert board_svg(copy.deepcopy(state), line=60) == first
    assert board_svg(_reversed_keys(state), line=60) == first
    assert board_svg(json.loads(json.dumps(state, sort_keys=True)), line=60) == first


def test_a_state_with_fields_missing_still_draws() -> None:
    state = final_state()
    for key in ("dog_display", "inspiration", "components", "current_card", "rules", "deck_size"):
        state.pop(key, None)
    state["players"][0].pop("hand_count")
    parse(board_svg(state))
    parse(board_svg({}))


# --------------------------------------------------------------------------------------------
# The golden reference


def _diff_hint(expected: str, actual: str) -> str:
    def split(svg: str) -> list[str]:  # one tag a line, for a readable diff
        return svg.replace("><", ">\n<").splitlines()

    lines = list(difflib.unified_diff(split(expected), split(actual), "golden", "now", n=1, lineterm=""))
    shown = "\n".join(lines[:40]) + (f"\n… {len(lines) - 40} more diff lines" if len(lines) > 40 else "")
    return (
        f"the final picture of {GOLDEN_GAME.name} differs from {GOLDEN_PICTURE.relative_to(GOLDEN_PICTURE.parents[3])}.\n"
        f"If the change is intended: python tests/regen_pictures.py (or {REGEN_VARIABLE}=1 pytest tests/test_picture.py), "
        f"look at it (python tools/make_pictures.py) and review the diff.\n{shown}"
    )


def test_the_final_picture_of_the_golden_game_is_the_reference() -> None:
    actual = golden_picture()
    if os.environ.get(REGEN_VARIABLE):
        GOLDEN_PICTURE.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN_PICTURE.write_text(actual, encoding="utf-8")
    expected = GOLDEN_PICTURE.read_text(encoding="utf-8")
    assert actual == expected, _diff_hint(expected, actual)
