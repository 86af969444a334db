"""The HTML replay page (table/replay/html.py) without a browser: self-contained, its data cannot end its
script element, every frame's SVG comes back exactly, the analysis is checked, the labels and
narration say what the lines did.  (test_browser.py runs the page in chromium.)"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from typing import Any

import pytest

from agility_cli.table.picture import STYLE
from agility_cli.table.replay.html import Frame, frames_from_replay, move_label, narrate_line, replay_html

from pictures import replay_records

DATA = re.compile(r'<script type="application/json" id="replay-data">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def frames() -> list[Frame]:
    return frames_from_replay(replay_records()[:30], title="")


def page_data(page: str) -> dict[str, Any]:
    (text,) = DATA.findall(page)
    data: dict[str, Any] = json.loads(text)
    return data


def svg_of(data: dict[str, Any], i: int) -> str:
    f = data["frames"][i]
    return str(f["head"] + "".join(data["parts"][k] for k in f["body"]) + f["tail"])


def test_the_page_is_self_contained(frames: list[Frame]) -> None:
    page = replay_html(frames, title="A game")
    assert page.startswith("<!DOCTYPE html>")
    without_svg_namespace = page.replace("http://www.w3.org/2000/svg", "")
    assert "http:" not in without_svg_namespace and "https:" not in without_svg_namespace
    for forbidden in ("<link", " src=", "@import", "url(", "<iframe", "<img", "fetch(", "XMLHttpRequest", ".innerHTML", "eval("):
        assert forbidden not in page, forbidden


def test_the_content_security_policy_allows_only_the_page_s_own_script_and_styles(frames: list[Frame]) -> None:
    page = replay_html(frames, title="A game")
    (csp,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    csp = html.unescape(csp)
    assert "default-src 'none'" in csp and "connect-src 'none'" in csp

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert len(scripts) == 1 and len(styles) == 1
    assert f"script-src {digest(scripts[0])}" in csp
    assert digest(styles[0]) in csp and digest(STYLE) in csp  # the page's, and the board pictures'


def test_every_frame_svg_comes_back_exactly_and_parts_are_shared(frames: list[Frame]) -> None:
    data = page_data(replay_html(frames, title="A game"))
    assert [f["line"] for f in data["frames"]] == [f.line for f in frames]
    for i, frame in enumerate(frames):
        assert svg_of(data, i) == frame.svg
        assert data["frames"][i]["label"] == frame.label
        assert data["frames"][i]["narration"] == list(frame.narration)
    total = sum(len(f.svg) for f in frames)
    stored = sum(map(len, data["parts"])) + sum(len(f["head"]) for f in data["frames"])
    assert stored < total / 3, "consecutive boards share most of their parts"


def test_an_svg_that_cannot_be_split_is_kept_whole() -> None:
    odd = "<svg xmlns='http://www.w3.org/2000/svg'><g><rect/></g>tail</svg>"
    data = page_data(replay_html([Frame(1, odd, ["x"], "start")], title="t"))
    assert svg_of(data, 0) == odd


HOSTILE = "</script><script>alert(1)</script><!--<script>"


def test_no_text_can_end_the_data_script_or_become_markup() -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>&lt;/script&gt;</text></svg>'
    frame = Frame(7, svg, [HOSTILE, "a\u2028b"], HOSTILE, turn=1, player=HOSTILE, seat=0)
    page = replay_html([frame], title=HOSTILE)
    (text,) = DATA.findall(page)
    assert "</" not in text and "<!--" not in text and "<script" not in text.lower()
    data = page_data(page)
    assert data["frames"][0]["narration"][0] == HOSTILE and data["frames"][0]["player"] == HOSTILE
    assert page.count("<script") == 2  # the data and the page's script, no other
    assert f"<title>{html.escape(HOSTILE)}</title>" in page
    assert f"<h1>{html.escape(HOSTILE)}</h1>" in page


def test_the_analysis_is_checked_and_carried_to_its_frames(frames: list[Frame]) -> None:
    names = ["bot:greedy", "bot:random"]
    points: list[dict[str, Any]] = [
        {"line": 2, "win": {"bot:greedy": 0.6, "bot:random": 0.4}},
        {"line": 5, "win": {"bot:greedy": 0.2, "bot:random": 0.8}, "mark": "blunder", "by": "bot:greedy", "note": "why"},
    ]
    page = replay_html(frames, title="t", analysis={"players": names, "points": points})
    data = page_data(page)
    assert data["players"] == names
    assert data["frames"][1]["win"] == [0.6, 0.4]
    assert data["frames"][4]["mark"] == "blunder" and data["frames"][4]["by"] == "bot:greedy"
    assert 'id="winchance"' in page and 'class="wc-mark wc-blunder" data-index="4"' in page
    for bad, message in (
        ({"line": 999, "win": {}}, "not the line of a frame"),
        ({"line": 2, "win": {"bot:greedy": 1.5}}, "from 0 to 1"),
        ({"line": 2, "win": {"bot:greedy": True}}, "from 0 to 1"),
        ({"line": 2, "win": {"bot:greedy": float("nan")}}, "from 0 to 1"),
        ({"line": 2, "win": {}, "mark": "oops"}, "inaccuracy, mistake, blunder"),
    ):
        with pytest.raises(ValueError, match=message):
            replay_html(frames, title="t", analysis={"players": names, "points": [bad]})
    with pytest.raises(ValueError, match="players"):
        replay_html(frames, title="t", analysis={"points": []})
    with pytest.raises(ValueError, match="at least one frame"):
        replay_html([], title="t")


def test_the_graph_draws_one_line_and_marks_that_never_overlap(frames: list[Frame]) -> None:
    """Issue 33: one player's chance (the other's is its mirror), and a mark on every one of ten
    neighbouring decisions still leaves each mark clear of the others."""
    import xml.etree.ElementTree as ET

    names = ["bot:greedy", "bot:random"]
    points: list[dict[str, Any]] = []
    for k, f in enumerate(frames[1:12]):
        p = 0.5 + (0.3 if k % 2 else -0.3)
        points.append({"line": f.line, "win": {names[0]: p, names[1]: round(1 - p, 4)},
                       "mark": ("inaccuracy", "mistake", "blunder")[k % 3], "by": names[k % 2]})
    page = replay_html(frames, title="t", analysis={"players": names, "points": points})
    svg = ET.fromstring(re.search(r'<svg[^>]*id="winchance".*?</svg>', page, re.S).group(0))  # type: ignore[union-attr]
    ns = "{http://www.w3.org/2000/svg}"
    assert len(svg.findall(f".//{ns}polyline")) == 1
    marks = [(float(c.get("cx", 0)), float(c.get("cy", 0)), float(c.get("r", 0)))
             for g in svg.iter(f"{ns}g") if "wc-mark" in (g.get("class") or "") for c in g.findall(f"{ns}circle")]
    assert len(marks) == 11
    for i, (x, y, r) in enumerate(marks):
        for x2, y2, r2 in marks[i + 1:]:
            assert (x - x2) ** 2 + (y - y2) ** 2 >= (r + r2) ** 2 - 1e-6


def test_move_labels() -> None:
    assert move_label(None) == "start"
    assert move_label({"kind": "play", "card": "t07", "reward": "red", "flex": -1, "player": "a"}) == "play t07 red flex-1"
    assert move_label({"kind": "play", "card": "?", "player": "a"}) == "play a card face down"
    assert move_label({"kind": "advance", "course": "2B", "spare": "blue"}) == "advance 2B spare blue"
    assert move_label({"kind": "distract", "course": "1A", "obstacle": 1, "color": "red"}) == "distract 1A 2 red"
    assert move_label({"kind": "exchange", "from": "red", "to": "blue"}) == "exchange red \u2192 blue"
    assert move_label({"kind": "boost_cube", "color": "green", "n": 3, "prev": "x", "digest": "y"}) == "boost-cube green"


def test_the_narration_tells_what_the_states_show() -> None:
    records = replay_records()
    told = [narrate_line(records[i - 1]["state"], records[i]["move"], records[i]["state"]) for i in range(1, len(records))]
    first = narrate_line(None, None, records[0]["state"])
    assert first[0] == "The game begins: bot:greedy vs bot:random; bot:greedy starts."
    assert told[0][0] == "bot:greedy: play t32 red."
    assert any(s.startswith("The marker moves from 0 to 8") for s in told[0])
    assert told[1] == ("bot:greedy: inspire red.", "bot:greedy gains 2 red.")  # the Inspiration cube and t32's red
    everything = [s for line in told for s in line]
    assert any(" adopts " in s and " onto course " in s for s in everything)
    assert any(" finishes course " in s for s in everything)
    assert any("A Rush marker goes on obstacle" in s for s in everything)
    assert any("An open ground tile is slipped into course" in s for s in everything)
    assert everything[-1] == "bot:greedy wins the game."


def test_a_keys_line_is_told_in_words_not_its_label_twice() -> None:
    """R42/R44: a sealed game's keys line has no decision; the panel's sentence says what the tool
    did (sent keys, or published its seal secret for the audit), as the terminal's story does, and
    ``replay --json``'s record of the audit line says so (``"audit": true``)."""
    from agility_cli.table.replay.narrate import move_label, narrate_line

    state = {"players": [{"name": "alice"}, {"name": "bob"}], "marker": 3}
    sent = narrate_line(state, {"kind": "keys", "player": "alice"}, state)
    assert sent[0] == "alice's tool sends keys of the sealed deck, without asking alice anything."
    audit = {"kind": "keys", "player": "bob", "audit": True}
    assert move_label(audit) == "seal secret for the audit"
    assert narrate_line(state, audit, state)[0] == "bob's tool publishes bob's seal secret for the audit."
    frames = frames_from_replay([{"line": 1, "state": state},
                                 {"line": 2, "move": None, "keys": "bob", "audit": True, "state": state}])
    assert frames[1].label == "seal secret for the audit" and frames[1].player == "bob"


def test_replay_json_marks_the_line_that_publishes_a_seal_secret_for_the_audit() -> None:
    """R42: in the golden sealed game, the last line (bob's keys, his seal secret for the audit)
    is ``"audit": true`` in ``replay --json``; the keys lines before it are not."""
    from pathlib import Path

    from agility_cli.record import gamefile
    from agility_cli.table.replay.story import json_lines

    path = Path(__file__).resolve().parents[1] / "games" / "sealed-by-mail.jsonl"
    data = path.read_bytes()
    records = [json.loads(row) for row in json_lines(data, str(path), None, game=gamefile.load(path))]
    keys = [(r["line"], r.get("audit")) for r in records if "keys" in r]
    assert keys[-1] == (records[-1]["line"], True) and all(audit is None for _, audit in keys[:-1])
