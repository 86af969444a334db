"""Typing in both languages (issue 54): `agility move` reads the move words and colour names in
English always and in Chinese where the glossary gives one (红/红色 for red, 完成 for done, 收养 for
adopt, a dog's Chinese name or any part of it), whatever the language the tool speaks; the line
recorded is the same as with the English words, and a refusal names the choices in the player's
language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import builders as b
from agility_cli import i18n
from agility_cli.cli import app
from agility_cli.engine import notation, rules
from agility_cli.engine.moves import Adopt, Done, Play
from agility_cli.engine.notation import UsageError
from agility_cli.said import tell, typed_names

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.jsonl"
    result = run("new", path, "--seed", "4", "--players", "alice", "bob")
    assert result.exit_code == 0, result.output
    return path


def _hand_card_number(path: Path) -> tuple[int, str]:
    """A card number in alice's hand and a colour its card rewards."""
    from agility_cli.record import gamefile

    s = gamefile.load(path).state
    card = s.cat.cards[s.players[0].hand[0]]
    return card.number, card.rewards[0].color


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_chinese_colour_records_the_same_line_as_the_english_one(game: Path, tmp_path: Path, lang: str):
    number, colour = _hand_card_number(game)
    chinese = typed_names("colour")[colour]
    assert chinese[0].endswith("色") and len(chinese[1]) == 1  # 红色 and 红
    results = {}
    for word in (colour, *chinese):
        copy = tmp_path / f"{word}.jsonl"
        shutil.copyfile(game, copy)
        i18n.set_language(lang)
        result = run("move", copy, "play", number, "--reward", word, "-q")
        i18n.set_language(None)
        assert result.exit_code == 0, result.output
        results[word] = copy.read_bytes()
    assert len(set(results.values())) == 1, "a Chinese colour recorded another line"
    # the short form `play 5 蓝` too
    copy = tmp_path / "short.jsonl"
    shutil.copyfile(game, copy)
    assert run("move", copy, "play", number, chinese[1], "-q").exit_code == 0
    assert copy.read_bytes() == results[colour]


def test_chinese_verbs_and_done():
    s = b.dogs_phase(b.new_game(), 0)
    assert notation.parse(s, ["完成"]) == notation.parse(s, ["done"]) == Done(player="alice")
    s = b.new_game()
    card = s.players[0].hand[0]
    colour = s.cat.cards[card].rewards[0].color
    english = notation.parse(s, ["play", card, "--reward", colour])
    assert notation.parse(s, ["打出", card, "--reward", typed_names("colour")[colour][0]]) == english
    assert isinstance(english, Play)


def _adoptable() -> tuple[object, str, str]:
    s = b.dogs_phase(b.new_game(), 0)
    b.cubes(s, 0, red=9, green=9, black=9, yellow=9, blue=9)
    dog = s.dog_display[0]
    course = next(c.id for c in s.courses if c.owner is None)
    return s, dog, course


def test_a_chinese_dog_name_adopts_as_the_english_one():
    s, dog, course = _adoptable()
    english_name = s.cat.dogs[dog].name
    chinese = typed_names("dog")[english_name][0]
    want = Adopt(player="alice", dog=dog, course=course)
    assert want in rules.legal_moves(s)
    assert notation.parse(s, ["adopt", english_name.split()[0].lower(), course]) == want
    assert notation.parse(s, ["adopt", chinese, "--course", course]) == want
    assert notation.parse(s, ["收养", chinese, course]) == want
    # a unique part of the Chinese name, as `golden` is of the English one
    parts = [chinese[i:j] for i in range(len(chinese)) for j in range(i + 2, len(chinese) + 1)]
    others = [n for d in s.cat.dogs if d != dog for n in typed_names("dog").get(s.cat.dogs[d].name, ())]
    unique = [p for p in parts if p != chinese and not any(p in o for o in others)]
    if unique:
        assert notation.parse(s, ["adopt", unique[0], course]) == want


def test_an_ambiguous_chinese_part_is_refused_naming_the_dogs():
    s, _dog, course = _adoptable()
    with pytest.raises(UsageError) as info:
        notation.dog_ref(s, "牧羊犬")  # several shepherds
    assert "ambiguous" in str(info.value)


def test_an_unknown_colour_is_refused_in_the_players_language(game: Path):
    number, _colour = _hand_card_number(game)
    before = game.read_bytes()
    i18n.set_language("zh")
    result = run("move", game, "play", number, "--reward", "紫")
    i18n.set_language(None)
    assert result.exit_code == 2
    assert "红色" in result.output and "未知的颜色" in result.output
    assert game.read_bytes() == before
    result = run("move", game, "play", number, "--reward", "purple")
    assert "choose from red, green, black, yellow, blue" in result.output  # English unchanged


def test_the_refusal_is_english_for_programs_and_chinese_for_people():
    s = b.new_game()
    with pytest.raises(notation.Refused) as info:
        notation.parse(s, ["play", "99"])
    message = info.value.message
    assert str(message).startswith("no card numbered 99 in your hand")  # the text programs read
    i18n.set_language("zh")
    try:
        assert tell(message).startswith("你的手牌中没有编号为 99 的训练卡")
    finally:
        i18n.set_language(None)


def test_the_play_prompt_reads_chinese_words_too():
    from agility_cli.table import choices

    s = b.dogs_phase(b.new_game(), 0)
    rows = choices.menu(s)
    assert choices.pick(s, rows, "完成") == choices.pick(s, rows, "done") == Done(player="alice")
    s = b.new_game()
    rows = choices.menu(s)
    k, row = next((k, r) for k, r in enumerate(rows, 1) if isinstance(r.default, Play))
    colour = s.cat.cards[row.default.card].rewards[0].color
    chinese = typed_names("colour")[colour][1]  # 红
    assert choices.pick(s, rows, f"{k} {chinese}") == choices.pick(s, rows, f"{k} {colour}")


def test_an_unknown_verb_lists_the_chinese_words_too_in_zh():
    s = b.new_game()
    with pytest.raises(UsageError) as info:
        notation.parse(s, ["fly"])
    message = info.value.args[0]
    assert "choose from play, reward," in str(message) and "（" not in str(message)  # English as it was
    i18n.set_language("zh")
    try:
        told = tell(message)
    finally:
        i18n.set_language(None)
    assert "play（打出）" in told and "done（完成）" in told and "adopt（收养）" in told
