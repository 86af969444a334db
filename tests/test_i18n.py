"""The language the tool speaks (issue 54): chosen as gettext chooses it, overridden by
AGILITY_LANG and `agility --lang`, English as the fallback; the pseudo-locale; the game's names.

The suite runs in English (conftest sets AGILITY_LANG=en); each test here sets the environment it
means and forgets the language resolved before and after (``i18n.reset``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agility_cli import i18n
from agility_cli.engine.components import COLOURS, FEATURES, OBSTACLE_TYPES, TILES, tile_name
from agility_cli.table.layout import cell_len

ROOT = Path(__file__).resolve().parents[1]
VARIABLES = ("AGILITY_LANG", *i18n.GETTEXT_VARIABLES)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch):
    """A clean language environment: none of the variables set, no --lang chosen."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    i18n.set_language(None)
    yield monkeypatch
    i18n.set_language(None)


def lang_with(env: pytest.MonkeyPatch, **values: str) -> str:
    for name, value in values.items():
        env.setenv(name, value)
    i18n.reset()
    return i18n.language()


# -- which language --------------------------------------------------------------------------------


def test_nothing_set_is_english(env):
    assert i18n.language() == "en"
    assert i18n._("Print every topic.") == "Print every topic."


@pytest.mark.parametrize("value", ["zh_CN.UTF-8", "zh_CN", "zh", "zh_CN.utf8", "zh_SG.UTF-8"])
def test_lang_names_chinese_in_any_spelling(env, value):
    assert lang_with(env, LANG=value) == "zh"


@pytest.mark.parametrize("value", ["C", "C.UTF-8", "POSIX", "en_GB.UTF-8", "fr_FR.UTF-8", "klingon", "xx_YY.UTF-8"])
def test_a_language_without_a_catalog_is_english_without_an_error(env, value):
    assert lang_with(env, LANG=value) == "en"
    assert i18n.name("dog", "Golden Retriever") == "Golden Retriever"


def test_gettext_order_language_then_lc_all_then_lc_messages_then_lang(env):
    """As gettext: the first variable set decides, in the order LANGUAGE, LC_ALL, LC_MESSAGES, LANG."""
    assert lang_with(env, LANG="zh_CN.UTF-8", LC_MESSAGES="C") == "en"
    assert lang_with(env, LC_ALL="zh_CN.UTF-8") == "zh"  # LC_ALL above LC_MESSAGES
    assert lang_with(env, LANGUAGE="en") == "en"  # LANGUAGE above everything
    env.delenv("LANGUAGE")
    env.delenv("LC_ALL")
    assert lang_with(env) == "en"  # LC_MESSAGES=C above LANG=zh


def test_language_is_a_list_tried_in_turn(env):
    assert lang_with(env, LANGUAGE="fr:de:zh_CN", LANG="en_US.UTF-8") == "zh"
    assert lang_with(env, LANGUAGE="fr:en:zh") == "zh"  # en has no catalog: gettext goes on
    assert lang_with(env, LANGUAGE="fr:C:zh") == "en"  # C stops the search, as in gettext


def test_agility_lang_overrides_the_environment(env):
    assert lang_with(env, LANG="zh_CN.UTF-8", AGILITY_LANG="en") == "en"
    assert lang_with(env, LANG="en_US.UTF-8", LANGUAGE="en", AGILITY_LANG="zh") == "zh"
    env.delenv("LANGUAGE")
    assert lang_with(env, LANG="zh_CN.UTF-8", AGILITY_LANG="xx") == "en"  # an unknown override: English
    assert lang_with(env, LANG="zh_CN.UTF-8", AGILITY_LANG="") == "zh"  # empty is unset


def test_set_language_overrides_agility_lang_and_goes_back(env):
    env.setenv("AGILITY_LANG", "en")
    assert i18n.set_language("zh_CN.UTF-8") == "zh"
    assert i18n.name("tile", "Sweep") == "扫除"
    assert i18n.set_language("nope") == "en"
    assert i18n.set_language(None) == "en"  # back to AGILITY_LANG


def test_available_lists_english_the_catalogs_and_the_pseudo_locale():
    assert i18n.available() == ["en", "zh", "qps"]


def test_ngettext_chooses_the_form(env):
    assert i18n.ngettext("{n} card", "{n} cards", 1) == "{n} card"
    assert i18n.ngettext("{n} card", "{n} cards", 2) == "{n} cards"
    i18n.set_language("qps")
    assert i18n.ngettext("{n} card", "{n} cards", 2).startswith("⟦{n} çárdš")


# -- the pseudo-locale ------------------------------------------------------------------------------


def test_pseudo_brackets_lengthens_by_a_third_and_keeps_placeholders_and_commands():
    out = i18n.pseudo("Play {card} now with `agility rules boost`, %s and %(n)d")
    assert out.startswith("⟦") and out.endswith("⟧")
    assert "{card}" in out and "`agility rules boost`" in out and "%s" in out and "%(n)d" in out
    message = "Play the card you chose"
    assert len(i18n.pseudo(message)) - 2 == len(message) + -(-len(message) // 3)
    assert "Play" not in i18n.pseudo(message)  # accented: English that escaped stands out
    assert i18n.pseudo("a\n\n  - b") == "⟦á~⟧\n\n  - ⟦b~⟧"  # each line, list marks outside
    assert i18n.pseudo("") == ""


def test_pseudo_locale_translates_every_message_and_name(env):
    i18n.set_language("qps")
    assert i18n.language() == "qps"
    assert i18n._("Print every topic.") == i18n.pseudo("Print every topic.")
    assert i18n._("More: {command} ({title}).").format(command="X", title="Y").startswith("⟦Móré: X")
    assert i18n.name("dog", "Golden Retriever") == "⟦Góldéñ Rétríévér~~~~~~⟧"


# -- the game's names ---------------------------------------------------------------------------------


def test_names_cover_every_dog_tile_obstacle_colour_and_feature_of_the_game():
    """Every name a renderer will ask for has its entry, so none escapes the catalog."""
    data = json.loads((ROOT / "agility_cli" / "data" / "standard.json").read_text(encoding="utf-8"))
    names = set(i18n.NAMES)
    assert {("dog", d["name"]) for d in data["dogs"]} <= names
    assert {("tile", tile_name(t)) for t in TILES} <= names
    from agility_cli.table.render import FEATURE_TAGS, OBSTACLE_NAMES

    assert {("obstacle", OBSTACLE_NAMES[t]) for t in OBSTACLE_TYPES} <= names
    assert {("obstacle", t.replace("_", " ").title().replace("A Frame", "A-Frame")) for t in OBSTACLE_TYPES} <= names
    assert {("colour", c) for c in COLOURS} <= names
    assert {("feature", FEATURE_TAGS[f]) for f in FEATURES} <= names


@pytest.mark.parametrize(
    ("kind", "english", "chinese"),
    [
        ("dog", "Golden Retriever", "黄金猎犬"),
        ("dog", "Siberian Husky", "哈士奇"),
        ("dog", "Mighty Mutt", "Mighty Mutt（混种犬）"),
        ("tile", "Clear A-Frames", "通过 A 跳板"),
        ("tile", "Flex", "弹性指示物"),
        ("tile", "Slip", "过失"),
        ("obstacle", "pause", "静止箱"),
        ("obstacle", "Weave Poles", "摆杆"),
        ("colour", "red", "红色"),
        ("feature", "feat", "擅长"),
        ("course", "Paw Prints", "狗脚印"),
    ],
)
def test_names_in_chinese_are_the_players_words(env, kind, english, chinese):
    i18n.set_language("zh")
    assert i18n.name(kind, english) == chinese


def test_a_name_the_catalog_does_not_know_is_shown_as_written(env):
    i18n.set_language("zh")
    assert i18n.name("dog", "Rex the Wonder Dog") == "Rex the Wonder Dog"
    assert i18n.name("tile", "dog") == "dog"  # a name is looked up in its own kind only
    with pytest.raises(ValueError, match="no kind of name"):
        i18n.name("card", "t17")


def test_ids_and_colour_letters_are_not_names():
    """Card ids (t17), course ids (4B) and colour letters stay: none is a catalog name."""
    english = {e for _k, e in i18n.NAMES}
    assert not english & {"t17", "4B", "r", "g", "k", "y", "b"}


# -- the command line -------------------------------------------------------------------------------


def agility(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    clean.update(env, PYTHONPATH=str(ROOT), COLUMNS="80")
    return subprocess.run(
        [sys.executable, "-m", "agility_cli", *args], capture_output=True, text=True, env=clean, timeout=60
    )


def test_lang_option_chooses_the_language_of_help_and_text():
    zh = agility("--lang", "zh", "rules", "--help")
    assert zh.returncode == 0, zh.stderr
    assert "打印全部话题。" in zh.stdout and "Print every topic." not in zh.stdout
    assert "agility rules --all | less" in zh.stdout  # the commands to copy stay
    assert agility("--lang=zh", "rules", "pause").stdout.startswith("静止箱与额外回合\n")


def test_lang_option_above_agility_lang_above_lang():
    assert agility("rules", "pause", LANG="zh_CN.UTF-8").stdout.startswith("静止箱")
    assert agility("rules", "pause", LANG="zh_CN.UTF-8", AGILITY_LANG="en").stdout.startswith("Pause box")
    assert agility("--lang", "zh", "rules", "pause", AGILITY_LANG="en").stdout.startswith("静止箱")
    assert agility("--lang", "en", "rules", "pause", AGILITY_LANG="zh").stdout.startswith("Pause box")


def test_unknown_lang_option_is_english_with_no_error():
    result = agility("--lang", "tlh", "rules", "pause")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("Pause box")


def test_lang_option_is_listed_in_the_root_help():
    out = agility("--help").stdout
    assert "--lang LANG" in out and "AGILITY_LANG" in out


_COMMAND = re.compile(r"`[^`]*`|\bagility(?: (?:[a-z0-9_.:/|-]+|--[a-z]+))+")
_ENGLISH_WORD = re.compile(r"(?<![\w`-])[A-Za-z]*[aeiouAEIOU][A-Za-z]*(?![\w`])")


def bare_english(text: str) -> list[str]:
    """The English words of ``text`` that escaped the pseudo-locale: a word of plain letters with
    an unaccented vowel (every vowel of a translated message is accented)."""
    text = _COMMAND.sub("", text)  # the commands to copy stay as they are
    return [w for w in _ENGLISH_WORD.findall(text) if len(w) >= 3]


def test_bare_english_finds_what_escaped():
    assert bare_english(i18n.pseudo("Print every topic (`agility rules boost`).")) == []
    assert bare_english("⟦Príñt~⟧ every topic: agility rules boost") == ["every", "topic"]


def test_pseudo_locale_on_the_command_line_leaves_no_bare_english_in_rules_help():
    out = agility("--lang", "qps", "rules", "--help").stdout
    # Click's own words (Usage, Arguments, Options, --help's line) are translated too (cli.helpwords)
    ours = out.split("\n", 1)[1].replace("[TOPIC]", "")  # the usage line names the program
    assert "⟦" in ours and "⟦Óptíóñš" in ours and "⟦Šhów thíš méššágé" in ours
    assert bare_english(ours) == []
    assert bare_english(agility("--lang", "qps", "rules", "R21").stdout.replace("R21", "")) == []


def test_zh_rules_help_fits_80_cells():
    out = agility("--lang", "zh", "rules", "--help").stdout
    assert max(cell_len(line) for line in out.splitlines()) <= 80
