"""Narration in Chinese (issue 54): the sentences of ``replay``, ``log``'s story and what ``move``,
``apply`` and ``show`` say happened.  Every sentence is a whole message; names go through the
catalog; English is byte-identical (the golden narrations of tests/test_golden_games.py and
tests/test_session.py pin it)."""

from __future__ import annotations

import pytest

import builders as b
from agility_cli import i18n
from agility_cli.engine import view
from agility_cli.table import narrate, screen
from agility_cli.table.layout import cell_len
from test_i18n import bare_english
from test_i18n_board import english_left


@pytest.fixture
def lang():
    yield i18n.set_language
    i18n.set_language(None)


def sentences(seed: int, seats: bool = True) -> list[str]:
    """Every decision of a deterministic playout told completely and, face down where it must be,
    as each seat sees it (R39)."""
    out = []
    for _, s, m, after in b.playout(seed):
        out.append(narrate.describe(s, m, after))
        if seats:
            for seat in (0, 1):
                out.append(narrate.describe(view.seat_view(s, seat), view.move_view(s, m, seat), view.seat_view(after, seat)))
    return out


@pytest.mark.parametrize("seed", [2, 9, 15, 23])
def test_zh_sentences_have_no_english_left(lang, seed: int):
    lang("zh")
    told = sentences(seed)
    for sentence in told:
        assert english_left(sentence) == [], sentence
    text = "\n".join(told)
    assert "打出" in text and "计数标记" in text


def test_zh_sentences_use_the_glossary_words(lang):
    lang("zh")
    text = "\n".join(sentences(9) + sentences(23))
    for word in ("收养", "狗狗米宝", "训练卡展示区", "点心", "赛道"):
        assert word in text, word


def test_english_sentences_are_unchanged_by_the_catalog(lang):
    """The same playout told with no language set and with English chosen: the same bytes."""
    plain = sentences(15, seats=False)
    lang("en")
    assert sentences(15, seats=False) == plain
    assert any(" plays " in s for s in plain)


def test_pseudo_locale_leaves_no_bare_english_in_sentences(lang):
    lang("qps")
    for sentence in sentences(9, seats=False)[::5]:
        assert bare_english(sentence.replace("alice", "").replace("bob", "")) == [], sentence


def test_story_wraps_in_terminal_cells_within_80(lang):
    """A story line with CJK characters is wrapped in cells (two each), going on under itself."""
    lang("zh")
    line = "   123. " + "bot:random 打出 t03（1 点，奖励黑色），计数标记 2→3：胁迫；bot:random 的手牌上限恢复为 3；获得 3 黑色"
    lines = screen._story_wrap(line)
    assert len(lines) == 2
    assert lines[0].startswith("   123. bot:random 打出")
    assert lines[1].startswith(" " * 8) and not lines[1].startswith(" " * 9)
    assert all(cell_len(x) <= 80 for x in lines)
    assert "".join(x.strip() for x in lines).replace(" ", "") == line.replace(" ", "")
    english = "  12. " + "alice plays t07 (a 3, reward red), marker 0→3: Clear Tunnels; moves the dog on 4B " * 2
    assert screen._story_wrap(english.rstrip()) == __import__("textwrap").wrap(
        english.rstrip(), 80, subsequent_indent=" " * 8, break_on_hyphens=False)


def test_turn_heading_and_news_heading_in_zh(lang):
    from agility_cli.table import session

    lang("zh")
    news = session.News(game=None, steps=[], first={}, decided=frozenset({"alice"}))  # type: ignore[arg-type]
    assert news.heading("alice") == "自 alice 上次决定以来："
    assert news.heading("bob") == "到目前为止："


def test_replay_story_in_zh_wraps_in_cells_and_english_is_unchanged(lang):
    from pathlib import Path

    from agility_cli.table.replay import story

    data = (Path(__file__).resolve().parents[1] / "games" / "random-b-all-extras.jsonl").read_bytes()
    english = list(story.story(data, "g.jsonl", None))
    lang("zh")
    told = list(story.story(data, "g.jsonl", None))
    assert told[0].startswith("对局 g.jsonl：") and told[-1] == "结果：bot:greedy 获胜。每一行都已核验。"
    assert "  组件：标准" in told[1] and "第 1 回合 — bot:greedy" in told
    lines = list(story.wrapped(iter(told), 80))
    assert all(cell_len(line) <= 80 for line in lines)
    for line in told[3:]:
        assert english_left(line, ("bot:greedy", "bot:random")) == [], line
    lang("en")
    assert list(story.story(data, "g.jsonl", None)) == english
    assert english[0].startswith("Game g.jsonl: ") and "  board: 0 sweep, 1 exchange" in english[1]
