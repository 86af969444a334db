"""The pages a player reads besides the play screen, in the pseudo-locale and in Chinese (issue 54).

- **qps** (every message bracketed and accented): ``agility rules`` for every topic (the guide so
  transformed; its code, commands and topic ids kept), ``games``, ``replay``, ``analyse`` and the
  HTML replay page of ``export --html --analysis`` leave no unbracketed English
  (:func:`test_i18n.bare_english`), but the names the players chose, the file's name, the topic
  ids and commands to copy, and a decision's own words (``play t07 red``: what ``agility move``
  reads, never translated).
- **zh in a browser**: the Chinese replay page, with its win-chance graph, opened in chromium
  (Playwright, as tests/test_browser.py) with the system's CJK font (fonts-noto-cjk, installed by
  ``.ci/run``): the font has every glyph of the page's Chinese (``document.fonts.check``), a CJK
  character is drawn as wide as the font's own glyph and not as a missing-glyph box, no console
  error; a screenshot goes to ``tests/artifacts/replay-zh.png`` (``docs/replay-zh.png`` is one,
  kept).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from gamefiles import new_game, play_random, run_cli
from test_i18n import bare_english

from agility_cli import i18n
from agility_cli.record import gamefile
from agility_cli.table import guide

NAMES = ("alice", "bob", "solo", "jsonl")


@pytest.fixture
def qps() -> Any:
    i18n.set_language("qps")
    yield
    i18n.set_language(None)


def left(text: str, *also: str) -> list[str]:
    """The bare English words of ``text`` but the players' names, the file's and ``also``."""
    return [w for w in bare_english(text) if w not in NAMES and w not in also]


# -- the rules guide: every topic ------------------------------------------------------------------

_FENCE = re.compile(r"```.*?```", re.S)
_CODE = re.compile(r"`[^`]*`")


@pytest.mark.parametrize("topic_id", [t.id for t in guide.topics()])
def test_pseudo_rules_topic_has_no_bare_english_but_its_code(qps: Any, topic_id: str) -> None:
    topic = guide.find(topic_id)
    prose = _CODE.sub("", _FENCE.sub("", topic.text))
    prose = re.sub(r"\bR\d+\b", "", prose)  # ruling ids
    assert left(topic.title) == [], topic.title
    assert left(prose) == [], prose


def test_pseudo_rules_command_lists_and_refuses_in_brackets(qps: Any) -> None:
    ids = [t.id for t in guide.topics()]
    out = run_cli("rules").output
    contents = "\n\n".join(out.split("\n\n")[:2])  # the topics, the tiles; then the overview, checked above
    assert "⟦" in contents and "sweep" in contents
    assert left(contents, *ids, "agility", "rules", "TOPIC", "all") == [], contents
    refused = run_cli("rules", "nosuch")
    assert refused.exit_code != 0 and "⟦" in refused.output
    assert left(refused.output, *ids, "nosuch", "agility", "rules") == [], refused.output
    near = run_cli("rules", "boots").output
    assert left(near, *ids, "boots", "agility", "rules") == [], near


# -- games, replay, analyse and the HTML page ----------------------------------------------------


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A whole game of alice and bob (random legal decisions), its text in qps from games, replay
    and analyse (a small budget), the analysis file, and the HTML page in qps and in zh."""
    folder = tmp_path_factory.mktemp("pages")
    out: dict[str, Any] = {"folder": folder}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AGILITY_HOME", str(folder / "home"))
        path = folder / "solo.jsonl"
        new_game(path, seed=7)  # alice and bob
        play_random(path, 5000, seed=7)  # to its end
        assert gamefile.load(path).state.winner is not None
        out["path"] = path
        i18n.set_language("qps")
        try:
            out["games"] = run_cli("games", folder, "--offline").output
            out["replay"] = run_cli("replay", path).output
            analysed = run_cli("analyse", path, "--simulations", "6", "--worlds", "3", "--out", folder / "r.json")
            assert analysed.exit_code == 0, analysed.output
            out["analyse"] = analysed.stdout
            out["qps.html"] = _page(path, folder / "r.json", folder / "qps.html")
            i18n.set_language("zh")
            out["zh.html"] = _page(path, folder / "r.json", folder / "zh.html")
        finally:
            i18n.set_language(None)
    out["analysis"] = json.loads((folder / "r.json").read_text())
    for key in ("games", "replay", "analyse"):  # the folder's path (a file's name is the player's)
        out[key] = out[key].replace(str(folder), "")
    return out


def _page(path: Path, analysis: Path, out: Path) -> str:
    result = run_cli("export", path, "--html", "--analysis", analysis, "-o", out)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_pseudo_games_and_replay_leave_no_bare_english(finished: dict[str, Any]) -> None:
    assert "⟦" in finished["games"] and left(finished["games"]) == [], finished["games"]
    replay = finished["replay"]
    assert "⟦" in replay
    words = " ".join(replay.split("\n"))
    # the short form of each decision (the move's words) stays, as agility log lists it
    assert left(re.sub(r"\b(?:play|take|adopt|draw|done|reward|move|return|put|back|discard|boost|distract|rush|slip|"
                       r"inspire|prize|flex|exchange|red|green|black|yellow|blue|deck|display|pay|more|minus|shift)\b", "",
                       words)) == [], replay


def _without_moves(text: str, analysis: dict[str, Any]) -> str:
    """``text`` without the decisions' own words (the longest first: ``play t17 black`` before
    ``play t17``)."""
    from agility_cli.table.narrate import told_short

    english = {d[k] for d in analysis["decisions"] for k in ("played", "best")}
    i18n.set_language("qps")  # the decisions' words as the pseudo-locale tells them (told_short)
    try:
        told = {told_short(words) for words in english}
    finally:
        i18n.set_language(None)
    for words in sorted(english | told, key=len, reverse=True):
        text = text.replace(words, "")
    return text


def test_pseudo_analyse_leaves_no_bare_english_but_the_decisions_words(finished: dict[str, Any]) -> None:
    text = finished["analyse"]
    assert "⟦" in text
    assert left(_without_moves(text, finished["analysis"])) == [], text


class _Visible(HTMLParser):
    """The text a page shows (outside scripts and styles) and its titles and labels."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        self.out += [v or "" for k, v in attrs if k in ("title", "aria-label")]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(data)


def page_words(page: str) -> tuple[list[str], dict[str, Any]]:
    seen = _Visible()
    seen.feed(page)
    (raw,) = re.findall(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    return seen.out, json.loads(raw)


def test_pseudo_html_page_leaves_no_bare_english(finished: dict[str, Any]) -> None:
    shown, data = page_words(finished["qps.html"])
    text = "\n".join(shown)
    assert "⟦" in text and 'id="winchance"' in finished["qps.html"]
    # the page's labels, the graph's legend and its marks' titles (each with its note: the decisions' words kept)
    assert left(_without_moves(text, finished["analysis"])) == [], text
    words = data["words"]
    said = " ".join(v for v in words.values() if isinstance(v, str)) + " " + " ".join(words["marks"].values())
    assert left(re.sub(r"\{\w+\}", "", said)) == [], said  # the script fills in its placeholders
    for frame in data["frames"]:
        told = " ".join(frame["narration"]).replace(frame["label"], "")  # the decision labelled by its words
        assert left(told, "agility") == [], (frame["label"], frame["narration"])
        if frame.get("note"):
            assert left(_without_moves(frame["note"], finished["analysis"])) == [], frame["note"]


def test_zh_html_page_speaks_chinese_with_its_graph(finished: dict[str, Any]) -> None:
    page = finished["zh.html"]
    shown, data = page_words(page)
    text = "\n".join(shown)
    assert page.startswith('<!DOCTYPE html>\n<html lang="zh-CN">')
    assert "整局的胜率（点击跳转）" in text and "?! 欠佳 · ? 错误 · ?? 大错" in text
    assert "alice 的胜率（bob 的：其余）" in text
    assert data["words"]["marks"] == {"inaccuracy": "欠佳", "mistake": "错误", "blunder": "大错"}
    assert data["words"]["percent"] == "{n}%"
    assert "solo.jsonl：alice 对 bob" in page


# -- the zh page in chromium with the system's CJK font --------------------------------------------


from test_browser import browser  # noqa: E402,F401 (the chromium fixture, launched once)


def test_zh_replay_page_in_chromium_draws_every_glyph(finished: dict[str, Any], browser: Any) -> None:
    from test_browser import ARTIFACTS, Watched

    path = finished["folder"] / "zh.html"
    watched = Watched(browser, 1280, 900)
    page = watched.open(path)
    page.keyboard.press("End")  # the last line: its narration, the win chance and a verdict
    page.wait_for_timeout(200)
    # the system font holds every glyph of the page's Chinese (the title, the list, the story)
    shown = page.evaluate("() => document.body.innerText")
    chinese = "".join(sorted({ch for ch in shown if "\u4e00" <= ch <= "\u9fff"}))
    assert len(chinese) > 50, shown
    assert page.evaluate("(t) => document.fonts.check('16px \"Noto Sans CJK SC\"', t)", chinese)
    # drawn: a CJK character as wide as the font's own glyph (1 em), unlike a missing-glyph
    # box of a font without it; the page's font stack picks the CJK font
    widths = page.evaluate(
        """() => {
          const c = document.createElement('canvas').getContext('2d');
          const font = getComputedStyle(document.body).fontFamily;
          c.font = '100px ' + font;
          const cjk = c.measureText('敏捷犬竞赛训练点心').width / 9;
          c.font = '100px "Noto Sans CJK SC"';
          const noto = c.measureText('敏捷犬竞赛训练点心').width / 9;
          c.font = '100px monospace';
          const tofu = c.measureText('\\u{10FFFD}').width;
          return {font, cjk, noto, tofu};
        }"""
    )
    assert "Noto Sans CJK SC" in widths["font"], widths
    assert abs(widths["cjk"] - widths["noto"]) < 1 and abs(widths["cjk"] - 100) < 2, widths
    assert page.evaluate("() => document.documentElement.lang") == "zh-CN"
    verdicts = page.evaluate("() => document.getElementById('win').textContent")
    assert verdicts.startswith("这一行之后的胜率") or verdicts == "", verdicts
    ARTIFACTS.mkdir(exist_ok=True)  # docs/replay-zh.png is a copy of it
    page.screenshot(path=str(ARTIFACTS / "replay-zh.png"))
    watched.check_clean()  # no console error, no request but file://
    watched.close()


def test_zh_games_invitation_row_and_empty_machine_speak_chinese(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from agility_cli.cli import games
    from agility_cli.table.layout import cell_len

    inv = SimpleNamespace(creator="alice", joiner="bob", game="0123456789abcdef", sender="alice@example.org")
    i18n.set_language("zh")
    try:
        rows = games._invitation_rows([("imaps://mail.example.org/INBOX", inv)])
        monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
        monkeypatch.chdir(tmp_path)
        empty = run_cli("games", "--offline")
    finally:
        i18n.set_language(None)
    text = "\n".join(rows)
    assert "alice 邀请 bob（对局 01234567，来自 alice@example.org" in text and "用以下命令加入：" in text
    assert "agility play GAME.jsonl --mail imaps://mail.example.org/INBOX" in text  # the command to copy
    assert all(cell_len(line) <= 80 for line in text.split("\n")), text
    assert "这台机器上还没有对局" in empty.output and "agility new game.jsonl --players YOU THEM" in empty.output
