"""The board summary in Chinese (issue 54): what ``show``, ``move`` and ``apply`` print.

With the language zh every word of the board is Chinese, in the glossary's terms, except what is
not translated: player names, card ids (``t17``), course ids (``4B``), colour letters (``2k``, the
courses heading says what each means), the option letters A/B of Boost, the one dog name the
Chinese rules keep (Mighty Mutt) and commands to copy.  Widths are terminal cells (a CJK
character is two): at 80 columns nothing wraps past the edge.  English stays byte-identical (the
golden boards of tests/test_render.py pin it).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import builders as b
from agility_cli import i18n
from agility_cli.engine import explain, rules, view
from agility_cli.engine.state import State
from agility_cli.table import render
from agility_cli.table.layout import cell_len
from test_i18n import bare_english

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"

# ASCII that may stay on a zh board: ids, cube letters with their counts, the legend's letters,
# Boost's option letters, the slot numbers, and Mighty Mutt (the Chinese rules keep its name).
_KEPT = re.compile(
    r"\bt\d{2}\b|\b\d+[A-Z]\b|(?<![A-Za-z])(?:\d+[rgkyb])+(?![A-Za-z])|\b[rgkyb]\d+\b"
    r"|(?<![\w-])[rgkyb](?= )|(?<![A-Za-z])[AB](?![A-Za-z])|Mighty Mutt|#\d"
)
_COMMAND = re.compile(r"agility [^\n]*")


def english_left(text: str, names: tuple[str, ...] = ("alice", "bob")) -> list[str]:
    """The ASCII words of a zh board that should have been translated: what is left once player
    names, commands to copy and the kept ids and letters are taken out."""
    text = _COMMAND.sub("", text)
    for player in sorted(names, key=len, reverse=True):
        text = text.replace(player, "")
    text = _KEPT.sub("", text)
    return re.findall(r"[A-Za-z][A-Za-z-]*", text)


def test_english_left_finds_what_escaped():
    assert english_left("行动图板 t22 [5] 2k 4B r 红色 · A 跳板 · alice · Mighty Mutt（混种犬）") == []
    assert english_left("alice r0 g0 k3 · 跳栏 1r2g+1k · t21[5] 2b|2y→6") == []
    assert english_left("Action board · 2 red · alice to play") == ["Action", "board", "red", "to", "play"]
    assert english_left("  agility move g.jsonl done") == []


@pytest.fixture
def zh():
    i18n.set_language("zh")
    yield
    i18n.set_language(None)


def playout_states(seed: int, every: int = 3) -> list[State]:
    """States of a deterministic playout over a random board (every tile shows up over the seeds):
    the complete state and each seat's view, every few decisions and at the end."""
    out: list[State] = []
    s = b.new_game(seed=seed, board=rules.random_board(seed, "b"))
    for n, _, _, s in b.playout(seed):
        if n % every == 0:
            out += [s, view.seat_view(s, 0), view.seat_view(s, 1)]
    out.append(s)
    return out


def boards(seed: int) -> list[str]:
    return [render.board_plain(s, ["agility move g.jsonl done"]) for s in playout_states(seed)]


@pytest.mark.parametrize("seed", [2, 9, 15])
def test_zh_board_has_no_english_left_and_fits_80_cells(zh, seed: int):
    for text in boards(seed):
        assert english_left(text) == [], text
        too_wide = [line for line in text.splitlines() if cell_len(line) > render.WIDTH]
        assert not too_wide, text


def test_zh_board_speaks_the_glossary_terms(zh):
    text = "\n".join(boards(2))
    for word in ("行动图板", "训练卡展示区", "训练卡牌库", "弃牌堆", "敏捷狗展示区", "狗狗牌库", "赛道",
                 "玩家", "手牌", "点心", "弹性指示物", "交换指示物", "回合", "起始玩家", "获胜", "已通过"):
        assert word in text, word
    # the courses heading says what each colour letter means
    assert "点心：r 红色 · g 绿色 · k 黑色 · y 黄色 · b 蓝色" in text
    for english, chinese in (("Golden Retriever", "黄金猎犬"), ("Sweep", "扫除")):
        assert english not in text


def test_zh_names_go_through_the_catalog(zh):
    s = b.new_game(seed=1)
    text = render.board_plain(s)
    assert "0 扫除" in text and "弹性指示物" in text
    dog = s.cat.dogs[s.dog_display[0]]
    assert i18n.name("dog", dog.name) in text and dog.name not in text
    assert render.text_of(render.cubes_text({"red": 2, "black": 1})) == "2 红色、1 黑色"
    assert render.text_of(render.cubes_text([0, 0, 0, 0, 0])) == "无"
    assert render.text_of(render.features_text(s.cat.dogs["dutch-shepherd"])) == "跳栏：-1、A 跳板：通过"
    assert render.text_of(render.features_text(s.cat.dogs["mighty-mutt"])) == "全部：擅长"


def test_english_board_is_unchanged_by_the_catalog_machinery():
    """In English the words are the project's own, whatever catalog exists (golden files pin the
    whole board; this pins the pieces other screens reuse)."""
    i18n.set_language("en")
    try:
        s = b.new_game(seed=1)
        assert render.text_of(render.features_text(s.cat.dogs["dutch-shepherd"])) == "hurdle:-1 a-frame:pass"
        assert render.legend() == render.LEGEND
        assert render.board_plain(s).splitlines()[0] == "Action board"
    finally:
        i18n.set_language(None)


def test_awaited_marks_the_engines_words():
    """R12: the status line's words on what the game waits for are the engine's (marked for the
    catalog in ``explain``); in English they are the engine's exactly, in zh every phase's are Chinese."""
    i18n.set_language("zh")
    try:
        assert all(i18n._(text) != text for text in render.AWAITED.values())
    finally:
        i18n.set_language(None)
    i18n.set_language("en")
    try:
        for s in playout_states(9, every=1)[::7]:
            if s.to_act is not None or s.winner is not None:
                assert render.awaited(s) == rules.awaited(s).removeprefix("mini-turn: ")
    finally:
        i18n.set_language(None)


def test_status_line_in_zh(zh):
    s = b.new_game(seed=1)
    first = s.players[s.active].name
    assert render.text_of(render.status_text(s)) == f"第 1 回合 · {first} 的回合 · 等待 {first}：打出一张训练卡"


def test_pseudo_locale_leaves_no_bare_english_on_the_board():
    i18n.set_language("qps")
    try:
        for text in boards(9)[::10]:
            text = text.replace("alice", "").replace("bob", "")
            assert "⟦" in text
            assert bare_english(text) == [], text
    finally:
        i18n.set_language(None)


def _show(path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("AGILITY_LANG", *i18n.GETTEXT_VARIABLES)}
    clean.update(env, NO_COLOR="1", COLUMNS="80")
    return subprocess.run([sys.executable, "-m", "agility_cli", "show", str(path)], capture_output=True,
                          text=True, env=clean, timeout=60, cwd=path.parent)


def test_show_in_zh_from_the_locale(tmp_path: Path):
    game = tmp_path / "game.jsonl"
    game.write_bytes((GAMES / "random-b-all-extras.jsonl").read_bytes())
    zh = _show(game, LANG="zh_CN.UTF-8")
    en = _show(game, LANG="C")
    assert zh.returncode == en.returncode == 0, zh.stderr
    assert "行动图板" in zh.stdout and "Action board" in en.stdout and "Action board" not in zh.stdout
    assert zh.stdout.startswith("自 bot:greedy 上次决定以来：\n第 26 回合 — bot:random\n")
    board = zh.stdout[zh.stdout.index("行动图板"):]
    players = ("bot:greedy", "bot:random")
    assert english_left(board, players) == [], board
    assert max(cell_len(line) for line in zh.stdout.splitlines()) <= 80
    assert game.read_bytes() == (GAMES / "random-b-all-extras.jsonl").read_bytes()


def test_custom_components_heading_in_zh(zh, tmp_path: Path):
    from agility_cli.record.verify import iter_game

    *_, last = iter_game((GAMES / "custom-components.jsonl").read_bytes())
    text = render.board_plain(last.after)  # type: ignore[union-attr]
    assert text.startswith("组件：自定义组件集 '")
    assert "（指纹 " in text.splitlines()[0]


@pytest.mark.parametrize("width", [80, 100])
def test_zh_full_screen_board_regions_have_no_english_left(zh, width: int):
    """The full-screen board of ``play`` (table/board/regions.py) in zh: every region's words
    translated, at 80 columns and wide, each line within the width."""
    from agility_cli.table.board import regions

    for s in playout_states(9, every=5):
        lines = [regions.status(s, 0), *regions.position(s, 0, width)]
        text = "\n".join(render.text_of(line) for line in lines)
        assert english_left(text) == [], text
        assert all(cell_len(render.text_of(line)) <= width for line in lines[1:]), text
    assert "行动图板" in text and "敏捷狗" in text and "训练卡牌库" in text and "狗狗牌库" in text


def test_full_screen_board_status_keeps_the_engines_english_words():
    from agility_cli.table.board import regions

    i18n.set_language("en")
    try:
        for s in playout_states(2, every=1)[::5]:
            if s.winner is None:
                assert render.text_of(regions.status(s, None)).endswith(rules.awaited(s)), s.phase
    finally:
        i18n.set_language(None)