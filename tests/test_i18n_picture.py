"""The SVG board and the HTML replay page in Chinese (issue 54): ``lang="zh-CN"``, a CJK font
stack, every label in the players' words; in English both are as they always were (no ``lang`` on
the picture, ``lang="en"`` on the page; tests/golden/pictures pins the picture's bytes)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

from agility_cli import i18n
from agility_cli.table.picture import board_svg
from agility_cli.table.replay.html import frames_from_replay, replay_html
from agility_cli.table.svg.style import CJK_SANS
from pictures import replay_records
from test_i18n import bare_english
from test_i18n_board import english_left

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def records():
    return replay_records()


@pytest.fixture
def lang():
    yield i18n.set_language
    i18n.set_language(None)


def texts(svg: str) -> str:
    """Every text the picture draws (its ``<text>`` and ``<tspan>``), one a line, and its title
    and description."""
    root = ET.fromstring(svg)
    # a text's own <title> is its whole, unclipped value (a name, a dog's id): not drawn words
    out = [(t.text or "") + "".join(span.text or "" for span in t.iter(f"{SVG}tspan")) for t in root.iter(f"{SVG}text")]
    return "\n".join(out + [root.findtext(f"{SVG}title") or "", root.findtext(f"{SVG}desc") or ""])


def players(records) -> tuple[str, ...]:
    return tuple(p["name"] for p in records[0]["state"]["players"])


def test_zh_picture_has_its_language_a_cjk_font_and_no_english_left(lang, records):
    lang("zh")
    names = players(records)
    for record in records[:: max(1, len(records) // 12)] + records[-1:]:
        svg = board_svg(record["state"], line=record["line"])
        root = ET.fromstring(svg)
        assert root.get("lang") == "zh-CN"
        assert root.get("font-family") == CJK_SANS and "Noto Sans CJK SC" in CJK_SANS
        drawn = texts(svg)
        # the picture's own letters: F (Flex) and X (Exchange) on the tokens, the cubes' letters
        drawn = re.sub(r"(?m)^[FXrgkyb]$", "", drawn)
        assert english_left(drawn, names) == [], drawn
    assert "行动图板" in drawn.upper() and "赛道" in drawn and "训练卡牌库" in drawn


def test_english_picture_has_no_lang_and_the_plain_font(lang, records):
    lang("en")
    root = ET.fromstring(board_svg(records[-1]["state"]))
    assert root.get("lang") is None and root.get("font-family") == "sans-serif"
    assert "ACTION BOARD" in texts(board_svg(records[-1]["state"]))


def test_pseudo_picture_leaves_no_bare_english(lang, records):
    lang("qps")
    drawn = texts(board_svg(records[len(records) // 2]["state"]))
    for player in players(records):
        drawn = drawn.replace(player, "")
    drawn = re.sub(r"(?m)^[FXrgkyb]$", "", drawn)
    assert bare_english(drawn) == [], drawn


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_zh_page_has_its_language_a_font_style_allowed_by_its_policy_and_its_words(lang, records):
    lang("zh")
    page = replay_html(frames_from_replay(records[:20], title=""), title="对局")
    assert page.startswith('<!DOCTYPE html>\n<html lang="zh-CN">')
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert len(styles) == 2 and CJK_SANS in styles[1]
    (csp,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert all(_digest(style) in html.unescape(csp) for style in styles)
    (data,) = re.findall(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    words = json.loads(data)["words"]
    assert words["turn"] == "第 {turn} 回合" and words["where"] == "第 {line}/{last} 行"
    assert "<h2>行动</h2>" in page and 'aria-label="第一行"' in page and "这个回放需要 JavaScript" in page


def test_english_page_is_as_it_was(lang, records):
    lang("en")
    page = replay_html(frames_from_replay(records[:5], title=""), title="A game")
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert len(re.findall(r"<style>(.*?)</style>", page, re.S)) == 1 and "\"words\"" not in page
    assert "<h2>Moves</h2>" in page and 'title="first line (Home)"' in page


def test_zh_page_story_has_no_english_left_but_the_moves_words(lang, records):
    """The page tells each line in sentences (table/replay/narrate.py); the decision itself is
    labelled with the move's words (``play t07 red``), which ``agility move`` reads, as ``agility
    log`` lists them: those stay."""
    lang("zh")
    frames = frames_from_replay(records)
    names = players(records)
    assert frames[0].narration[0].startswith("对局开始：")
    for frame in frames[1:]:
        for sentence in frame.narration[1:]:
            assert english_left(sentence, names) == [], sentence
    told = "\n".join(s for f in frames for s in f.narration)
    assert "计数标记从" in told and "收养" in told
