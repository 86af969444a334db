"""The ``play`` screen's own words in Chinese (issue 54): the numbered choices (table/choices.py)
and how the screen shortens them (table/screenfit.py).

A row's label is translated (the game's names through the catalog, the card's rewards by their
colour names); its options keep the words a player types (colour names and course ids, which
``agility move`` reads in English always).  A short move still finds its row by the English name
of a dog (``adopt golden``) on a zh screen.  English stays byte-identical (tests/test_screen.py
and the golden games pin it).
"""

from __future__ import annotations

import pytest

from agility_cli import i18n
from agility_cli.engine.moves import Adopt, Exchange, Play
from agility_cli.table import choices, screenfit
from agility_cli.table.layout import cell_len, text_of
from test_i18n_board import english_left, playout_states


@pytest.fixture
def zh():
    i18n.set_language("zh")
    yield
    i18n.set_language(None)


def _labels(seed: int) -> list[tuple[choices.Row, str]]:
    out = []
    for s in _complete(seed):
        out += [(row, row.label) for row in choices.menu(s)]
    return out


def _complete(seed: int, every: int = 2) -> list:
    """The complete states of a playout (not a seat's view), the game not over."""
    return [s for s in playout_states(seed, every)[::3] if s.winner is None]


@pytest.mark.parametrize("seed", [2, 9])
def test_zh_menu_labels_have_no_english_left(zh, seed: int):
    rows = _labels(seed)
    kinds = {type(row.moves[0]) for row, _label in rows}
    assert {Play, Exchange} <= kinds, kinds
    for row, label in rows:
        assert english_left(label) == [], label
        if isinstance(row.moves[0], Play):
            assert label.startswith("打出 ") and "(计数标记 " in label, label


def test_zh_adoption_row_names_the_dog_in_chinese_and_is_found_by_its_english_name(zh):
    for s in _complete(9, 1):
        rows = choices.menu(s)
        adopt = [k for k, row in enumerate(rows, 1) if isinstance(row.moves[0], Adopt)]
        if adopt:
            row = rows[adopt[0] - 1]
            english = s.cat.dogs[row.moves[0].dog].name
            assert row.label.startswith("收养") and english not in row.label or english == "Mighty Mutt", row.label
            assert adopt[0] in choices.rows_named(rows, ["adopt", english.split()[0]])
            assert row.options.startswith("赛道 ")
            return
    pytest.fail("no adoption row in the playout")


def test_zh_card_row_is_shortened_in_letters_then_loses_its_verb(zh):
    """screenfit shortens a card row the same way in both languages: the marker's move goes,
    then the rewards become letters (3r|2k), then the verb."""
    for s in _complete(2, 1):
        rows = choices.menu(s)
        card = [k for k, row in enumerate(rows) if isinstance(row.moves[0], Play)]
        if card:
            break
    k = card[0]
    wide = text_of(screenfit._label_lines(s, rows[k], k, 80)[0])
    assert wide.endswith(")") and "计数标记" in wide
    for width in (44, 36, 30):
        lines = screenfit._label_lines(s, rows[k], k, width)
        assert len(lines) == 1 and cell_len(text_of(lines[0])) <= width, (width, lines)
    narrow = text_of(screenfit._label_lines(s, rows[k], k, 30)[0])
    assert "计数标记" not in narrow and "→" in narrow


def test_english_menu_words_unchanged():
    """In English a row says what it said before the catalog: what ``legal --json`` says of a
    decision (``notation.describe``, never translated) is the label of a row of its own."""
    from agility_cli.engine import notation

    i18n.set_language("en")
    try:
        labels = []
        for s in _complete(2, 1):
            for row in choices.menu(s):
                labels.append(row.label)
                if row.base[0] not in ("play", "exchange", "distract", "advance", "adopt", "rush"):  # their obstacles named
                    assert row.label == notation.describe(s, row.moves[0])
        assert any(label.startswith("play t") and " (marker " in label for label in labels), labels
        assert any(label.startswith("adopt ") for label in labels)
    finally:
        i18n.set_language(None)
