"""The rules guide in Chinese (issue 54): ``data/guide.zh.md`` has the English guide's structure
(the same topics in the same order, the same ruling ids R1… each naming the same topic, a hint for
the same tiles, every ``agility …`` command unchanged), the glossary's names for the tiles, and
``agility rules`` shows it in zh within 80 terminal cells (a CJK character is two), no character cut.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from agility_cli import i18n
from agility_cli.engine.components import TILES, tile_name
from agility_cli.table import guide
from agility_cli.table.layout import cell_len

DATA = Path(guide.__file__).resolve().parent.parent / "data"
ENGLISH = guide._parse((DATA / "guide.md").read_text(encoding="utf-8"))
CHINESE = guide._parse((DATA / "guide.zh.md").read_text(encoding="utf-8"))
_COMMAND = re.compile(r"`(agility [^`]*)`")


@pytest.fixture
def zh():
    i18n.set_language("zh")
    yield
    i18n.set_language(None)


def commands(topic: guide.Topic) -> Counter[str]:
    return Counter(_COMMAND.findall(" ".join(topic.text.split())))


def test_the_same_topics_in_the_same_order():
    assert [t.id for t in CHINESE.topics] == [t.id for t in ENGLISH.topics]


def test_the_same_rulings_naming_the_same_topics():
    assert list(CHINESE.rulings) == list(ENGLISH.rulings) == [f"R{n}" for n in range(1, len(ENGLISH.rulings) + 1)]
    assert {k: v[1] for k, v in CHINESE.rulings.items()} == {k: v[1] for k, v in ENGLISH.rulings.items()}


@pytest.mark.parametrize("topic_id", [t.id for t in ENGLISH.topics])
def test_every_agility_command_is_unchanged(topic_id: str):
    english = next(t for t in ENGLISH.topics if t.id == topic_id)
    chinese = next(t for t in CHINESE.topics if t.id == topic_id)
    assert commands(chinese) == commands(english)


def test_ruling_ids_appear_only_in_the_rulings_topic():
    for t in CHINESE.topics:
        if t.id != guide.RULINGS:
            assert not re.search(r"\bR\d+\b", t.text), t.id


def test_a_hint_for_the_same_tiles_within_60_cells():
    assert set(CHINESE.hints) == set(ENGLISH.hints) == set(TILES)
    for tile, hint in CHINESE.hints.items():
        assert cell_len(hint) <= guide.HINT_WIDTH, (tile, hint, cell_len(hint))


def test_a_tile_is_titled_and_hinted_with_its_catalog_name(zh):
    for topic in CHINESE.topics:
        if topic.id in TILES:
            name = i18n.name("tile", tile_name(topic.id))
            assert topic.title == name
            assert CHINESE.hints[topic.id].startswith(f"{name}：")


def test_the_translation_is_whole_not_a_summary():
    """Each topic keeps its paragraphs, list items and code blocks, one for one, and says as much:
    Chinese takes a third to a half of the characters of English; a topic under a quarter would
    have lost something."""
    def blocks(t: guide.Topic) -> list[str]:
        """A topic's paragraphs, list items and code blocks, each as its kind."""
        kinds, previous, fenced = [], "", False
        for line in t.text.splitlines():
            if line.startswith("```"):
                fenced = not fenced
                kinds += ["code"] if fenced else []
            elif not fenced and line.strip():
                kind = "item" if guide._ITEM.match(line) else "text" if previous == "" else ""
                kinds += [kind] if kind else []
            previous = line.strip()
        return kinds

    for english, chinese in zip(ENGLISH.topics, CHINESE.topics):
        assert blocks(chinese) == blocks(english), english.id
        assert len(chinese.text) >= len(english.text) / 4, english.id


def test_the_zh_guide_has_no_english_prose():
    """Outside code (board marks, commands) and names kept on purpose, no English words."""
    for t in CHINESE.topics:
        text = re.sub(r"```.*?```|`[^`]*`", "", t.text, flags=re.S)
        words = set(re.findall(r"[A-Za-z]{4,}", text)) - {"Agility", "Brent", "Povis", "Mighty", "Mutt", "README"}
        assert not words, (t.id, words)


# -- agility rules in zh ------------------------------------------------------------------------------


def test_zh_reads_the_chinese_guide_and_english_the_english(zh):
    assert guide.title() == "敏捷犬竞赛：给玩家的规则"
    assert guide.find("pause").title == "静止箱与额外回合"
    assert guide.tile_hint("sweep").startswith("扫除：")
    i18n.set_language("en")
    assert guide.find("pause").title == "Pause box and mini-turns"


@pytest.mark.parametrize(
    ("word", "topic_id"),
    [("静止箱", "pause"), ("额外回合", "pause"), ("平手", "prizes"), ("冲刺", "rush"), ("弹性指示物", "flex"),
     ("通过摆杆", "clear_weave_poles"), ("邮件", "mail"), ("boost", "boost"), ("mini", "pause"), ("R21", "r21")],
)
def test_zh_topics_are_found_by_id_and_by_chinese_title_words(zh, word: str, topic_id: str):
    assert guide.find(word).id == topic_id


def test_a_chinese_word_of_several_titles_is_ambiguous_and_of_none_unknown(zh):
    """The lookup's refusals are in Chinese too, the topic ids to type kept as they are."""
    with pytest.raises(guide.TopicError, match="可能指多个话题：.*clear_hurdles.*请多输入几个字母"):
        guide.find("通过")
    with pytest.raises(guide.TopicError, match="没有话题 '象棋'；话题：overview, "):
        guide.find("象棋")
    with pytest.raises(guide.TopicError, match="你是想找 boost 吗"):
        guide.find("boots")
    with pytest.raises(guide.TopicError, match="请指定一个话题"):
        guide.find(" ")


def test_a_ruling_in_zh(zh):
    topic = guide.find("R21")
    assert topic.title == "裁定 R21"
    assert "冲刺指示物" in topic.text and "更多内容：`agility rules rush`（冲刺）。" in topic.text


def _check_fits(text: str, width: int) -> None:
    for line in text.splitlines():
        assert cell_len(line) <= width, (cell_len(line), line)


@pytest.mark.parametrize("topic_id", [t.id for t in CHINESE.topics])
def test_zh_topic_fits_80_cells_and_keeps_every_character(zh, topic_id: str):
    topic = guide.find(topic_id)
    out = guide.topic_plain(topic, 80)
    _check_fits(out, 80)
    # no character lost or cut: the text's characters (blanks and marks aside) all come out, in order
    plain = re.sub(r"[\s*`\"]", "", guide.to_plain(topic.text, 10_000))
    assert re.sub(r"[\s\"]", "", out.split("\n", 3)[3]) == plain
    title, underline = out.splitlines()[:2]
    assert cell_len(underline) == cell_len(title)


def test_zh_contents_fit_and_narrow_screens_too(zh):
    _check_fits(guide.contents(80), 80)
    for width in (40, 60):
        for topic in guide.topics():
            for line in guide.topic_plain(topic, width).splitlines():
                # a line is over only when one unbreakable word (a command, a board row) is wider
                assert cell_len(line) <= width or " " not in line.strip() or line.startswith("    "), line


def test_wrap_cells_breaks_between_cjk_characters_never_inside_a_word():
    text = "每条赛道都有一个静止箱，要花 4 个红色训练点心：agility rules pause。" * 3
    out = guide.wrap_cells(text, 30, "- ", "  ")
    for line in out.splitlines():
        assert cell_len(line) <= 30
        assert not line.strip().startswith(("，", "。", "：")), line  # a closing mark never begins a line
    assert "agility" in out and "rules" in out and "pause" in out  # words whole
    assert out.replace("\n  ", "").replace(" ", "") == ("- " + text).replace(" ", "")


def test_the_zh_rules_command_within_80_cells(zh):
    from typer.testing import CliRunner

    from agility_cli.cli import app

    for args in (["rules"], ["rules", "--all"], ["rules", "R44"], ["rules", "静止箱"]):
        result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        assert "静止箱" in result.output or "密封" in result.output
        _check_fits(result.output, 80)


def test_the_pseudo_locale_guide_is_the_english_one_transformed_and_forgotten_after():
    i18n.set_language("qps")
    try:
        topic = guide.find("pause")
        assert topic.title == i18n.pseudo("Pause box and mini-turns")
        assert "`agility rules goal`" in guide.find("overview").text  # commands kept to copy
        assert guide.find("boost").title.startswith("⟦")
        assert "```" in guide.find("legend").text and "  0 Sweep · 1 Clear Hurdles" in guide.find("legend").text
    finally:
        i18n.set_language("en")
    assert guide.find("pause").title == "Pause box and mini-turns"
