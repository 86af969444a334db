"""The message catalogs (issue 54): every compiled ``.mo`` is its ``.po`` compiled (a stale one
fails), the zh catalog translates every message the code marks (none missing, none fuzzy, none left
over), a translation fills in the same placeholders as its message, and the zh words are the
players' terms of docs/glossary-zh.md (one word for one thing; the words we do not use never appear).

Babel (the ``test`` extra) extracts and compiles here exactly as docs/translating.md tells a
translator to.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from agility_cli import i18n

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary-zh.md"
GUIDE_ZH = ROOT / "agility_cli" / "data" / "guide.zh.md"
CATALOGS = sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/agility.po"))
# docs/translating.md gives this command (a test below checks it says the same)
EXTRACT = "pybabel extract -F babel.cfg -k _name:1c,2 --add-location=file --sort-output --project=agility-cli"


def read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, abort_invalid=True)


def messages(catalog: Catalog) -> dict[tuple[str | None, str], Message]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The messages the code marks today, by the extraction a translator runs."""
    pot = tmp_path_factory.mktemp("pot") / "agility.pot"
    argv = ["pybabel", "-q", *EXTRACT.split()[1:], "-o", str(pot), str(ROOT)]
    argv[argv.index("babel.cfg")] = str(ROOT / "babel.cfg")
    CommandLineInterface().run(argv)
    return read(pot)


def test_there_is_a_zh_catalog():
    assert [p.parent.parent.name for p in CATALOGS] == ["zh"]


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_the_committed_mo_is_its_po_compiled(po: Path):
    """A .po edited without `pybabel compile` (docs/translating.md) fails here."""
    compiled = io.BytesIO()
    write_mo(compiled, read(po))
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo} is missing: run pybabel compile -d agility_cli/locale -D agility"
    assert mo.read_bytes() == compiled.getvalue(), f"{mo} is stale: run pybabel compile -d agility_cli/locale -D agility"


def test_the_extraction_finds_the_names_and_the_rules_messages(extracted: Catalog):
    ids = messages(extracted)
    assert set(i18n.NAMES) <= set(ids)
    assert (None, "Print every topic.") in ids
    assert (None, "Ruling {rule_id}") in ids


def test_zh_translates_every_message_none_fuzzy_none_left_over(extracted: Catalog):
    zh = read(i18n.catalog_path("zh", ".po"))
    have, want = messages(zh), messages(extracted)
    missing = sorted(str(k) for k in set(want) - set(have))
    assert not missing, f"messages with no zh entry (pybabel update, then translate): {missing}"
    untranslated = sorted(str(k) for k, m in have.items() if not (m.string if isinstance(m.string, str) else all(m.string)))
    assert not untranslated, f"zh entries with no translation: {untranslated}"
    fuzzy = sorted(str(k) for k, m in have.items() if m.fuzzy)
    assert not fuzzy and not zh.fuzzy, f"fuzzy zh entries (check them, then drop the flag): {fuzzy}"
    left_over = sorted(str(k) for k in set(have) - set(want))
    assert not left_over, f"zh entries no code marks any more (pybabel update drops them): {left_over}"
    assert not zh.obsolete, "obsolete (#~) entries: remove them"


_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\([a-z_]+\))?[sd]")


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_a_translation_fills_in_the_same_placeholders(po: Path):
    for m in read(po):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        for s in strings:
            assert sorted(_PLACEHOLDER.findall(s)) == sorted(_PLACEHOLDER.findall(ids[-1])), (m.id, s)


def test_translating_md_gives_the_extraction_the_tests_run():
    assert EXTRACT in " ".join((ROOT / "docs" / "translating.md").read_text(encoding="utf-8").replace("\\\n", " ").split())


# -- the glossary ---------------------------------------------------------------------------------


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _words(cell: str) -> list[str]:
    """``通过跳栏 (tile name 跳栏)`` → ``[通过跳栏]``; ``决定 / 行动`` → both; ``红色（信任）`` → ``[红色]``."""
    cell = re.sub(r"（[^）]*）|\s*\([^)]*\)", "", cell)
    return [w.strip() for w in cell.split(" / ") if w.strip()]


def glossary() -> tuple[list[tuple[str, list[str]]], list[str]]:
    """The glossary's terms, ``(English, [accepted zh words])``, and the words we do not use."""
    terms: list[tuple[str, list[str]]] = []
    rejected: list[str] = []
    section = ""
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line
            continue
        if not line.startswith("| ") or line.startswith("| ---") or line.startswith("| English") or line.startswith("| not this"):
            continue
        cells = _cells(line)
        if "do not use" in section:
            rejected.append(cells[0])
            continue
        for english in _words(cells[0]):
            terms.append((english, _words(cells[1])))
    return terms, rejected


def test_the_glossary_reads():
    terms, rejected = glossary()
    assert ("adopt", ["收养"]) in terms
    assert ("Clear Hurdles", ["通过跳栏"]) in terms
    assert ("decision", ["决定", "行动"]) in terms
    assert ("red", ["红色"]) in terms
    assert "领养" in rejected
    assert len(terms) > 80


_COMMANDS = re.compile(r"`[^`]*`|\bagility(?: [a-z0-9_./:|-]+| --[a-z]+| TOPIC| FILE)+")


def glossary_misses(msgid: str, msgstr: str, context: str | None, terms: list[tuple[str, list[str]]]) -> list[str]:
    """The glossary terms a message's English holds and its translation lacks.  Commands to copy and
    placeholders (``{obstacle}``) are not looked at.  Where terms overlap the longest wins: "sealed
    deck" is 密封牌库, and its "deck" is not also the training deck.  A message whose context is a
    glossary term (``pgettext("dog deck", "deck {deck}")``) means that term where it says its last
    word; the context ``verb`` says that its one-word terms are verbs here (``moves no dog``, ``turns
    up a card``: not a move, not a turn), and only its longer terms are checked."""
    english = _PLACEHOLDER.sub("", _COMMANDS.sub("", msgid))
    if context and " " in context and any(term == context for term, _words in terms):
        english = re.sub(rf"(?<![\w-]){re.escape(context.split()[-1])}(?![\w-])", context, english)
    wrong = []
    for term, words in sorted(terms, key=lambda t: -len(t[0])):
        if context == "verb" and " " not in term:
            continue
        flags = 0 if term[0].isupper() else re.IGNORECASE  # Boost the tile, not `boost` the topic id
        pattern = rf"(?<![\w-]){re.escape(term)}s?(?![\w-])"
        if re.search(pattern, english, flags):
            if not any(w in msgstr for w in words):
                wrong.append(f"{msgid!r}: {term!r} should read {' or '.join(words)} in {msgstr!r}")
            english = re.sub(pattern, "\0", english, flags=flags)  # a shorter term inside it is this one
    return wrong


def test_zh_catalog_uses_the_glossary_terms():
    """Where a message's English holds a glossary term (a whole word or words, plural s; any case for
    a lower-case term, as written for a name: Boost, Agility), its zh translation holds the glossary's
    word: one word for one thing (:func:`glossary_misses`)."""
    terms, _rejected = glossary()
    wrong = []
    for m in read(i18n.catalog_path("zh", ".po")):
        if not m.id or not m.string:
            continue
        chinese = m.string if isinstance(m.string, str) else "".join(m.string)
        wrong += glossary_misses(m.id if isinstance(m.id, str) else m.id[0], chinese, m.context, terms)
    assert not wrong, "\n".join(wrong)


def test_the_glossary_check_takes_the_longest_term_and_a_context():
    terms, _rejected = glossary()
    assert not glossary_misses("shown later (sealed deck)", "稍后显示（密封牌库）", None, terms)
    assert glossary_misses("deck {deck}", "狗狗牌库 {deck}", None, terms)
    assert not glossary_misses("deck {deck}", "狗狗牌库 {deck}", "dog deck", terms)
    assert glossary_misses("deck {deck}", "训练卡牌库 {deck}", "dog deck", terms)
    assert glossary_misses("Play a training card", "打出一张卡", None, terms)
    assert not glossary_misses("{obstacle}:{feature}", "{obstacle}：{feature}", None, terms)
    assert glossary_misses("moves no dog", "没有移动狗狗米宝", None, terms)
    assert not glossary_misses("moves no dog", "没有移动狗狗米宝", "verb", terms)
    assert glossary_misses("moves the dog pawn", "移动", "verb", terms)


def test_the_words_we_do_not_use_never_appear():
    _terms, rejected = glossary()
    texts = {"zh catalog": "".join(str(m.string) for m in read(i18n.catalog_path("zh", ".po"))),
             "guide.zh.md": GUIDE_ZH.read_text(encoding="utf-8")}
    found = [f"{word} in {where}" for word in rejected for where, text in texts.items() if word in text]
    assert not found, found


def test_the_rejected_words_check_can_fail():
    _terms, rejected = glossary()
    assert any(word in "收养还是领养" for word in rejected)
