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
from agility_cli.table import choices, hintview, screenfit
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


# What a zh screen keeps in English: the words a player types at the prompt (its commands, and the
# colours an option takes, which ``agility move`` reads in English), and Mighty Mutt, whose name the
# Chinese rules keep (shortened to its first word on a narrow screen).
_TYPED = {"help", "hint", "board", "undo", "quit", "more", "news", "red", "green", "black", "yellow", "blue", "Mighty"}


@pytest.mark.parametrize("seed", [9, 15])
@pytest.mark.parametrize("size", [(80, 24), (80, 30), (100, 40)])  # as tests/test_screen.py
def test_zh_decision_screen_has_no_english_left_and_fits(zh, seed: int, size: tuple[int, int]):
    """The decision screen of ``play`` (screenfit.decision_screen) in zh: the status line, the
    board's parts, the menu and what to type, within the terminal's cells (a CJK character is two)."""
    from agility_cli.engine import view

    width, height = size
    seen = set()
    for s in _complete(seed, 2):
        rows = choices.menu(s)
        shown = screenfit.decision_screen(view.seat_view(s, s.to_act), rows, [], width, height,
                                          example=choices.example(s, rows))
        lines = [text_of(line) for line in shown.lines]
        text = "\n".join(lines)
        assert len(lines) <= height - 1 and all(cell_len(line) <= width for line in lines), text
        assert set(english_left(text)) <= _TYPED, text
        seen.add(lines[-1].split("，")[0].strip()[:2])
        assert "回合" in text and "输入" in lines[-1], text
    assert seen == {"输入"}


def test_zh_status_line_counts_the_players_turn_without_an_english_ordinal(zh):
    s = _complete(2, 1)[6]
    head = text_of(screenfit.status_line(s))
    assert head.startswith(f"第 {s.turn} 回合（") and "等待" in head and not any(x in head for x in ("st）", "nd）", "th）")), head


def test_english_status_and_help_line_unchanged():
    i18n.set_language("en")
    try:
        s = _complete(2, 1)[6]
        assert text_of(screenfit.status_line(s)).startswith(f"Turn {s.turn} (")
        rows = choices.menu(s)
        assert screenfit.help_line(rows, 1, 80) == f"type 1–{len(rows)}, or help, hint, board, undo, quit"
        assert screenfit.help_line(rows, 2, 80, "1 red") == \
            f"type 1–{len(rows)} (or with options: 1 red), or help, hint, board, undo, more, quit"
    finally:
        i18n.set_language(None)


def test_hint_json_text_stays_english_in_zh(zh, tmp_path, monkeypatch: pytest.MonkeyPatch):
    """``agility hint --json``'s ``text`` is for programs: English whatever the language (the
    interface's values are never translated), while the language in use is left as it was."""
    from gamefiles import solo

    from agility_cli.engine import notation, rules
    from agility_cli.players import search
    from agility_cli.record import gamefile
    from agility_cli.table import playloop

    game = gamefile.load(solo(tmp_path, seed=7))
    legal = rules.legal_moves(game.state)
    stats = [search.MoveStat(m, 10 - k, 0.5) for k, m in enumerate(legal[:3])]
    monkeypatch.setattr(hintview, "_analyse", lambda *a: search.Analysis(0, 30, 0.1, stats))
    result = playloop.hint_result(game, 0, "strong1", None)
    assert result["best"]["text"] == notation.describe(game.state, legal[0]).replace("_", " ") or \
        result["best"]["text"].isascii(), result["best"]["text"]
    assert all(entry["text"].replace("→", "").replace("–", "").isascii() for entry in result["ranked"]), result
    assert i18n.language() == "zh" and choices.describe(game.state, legal[0]) != result["best"]["text"]


def test_zh_legal_and_menu_lines_fit_80_cells(zh):
    """``agility legal`` and the line mode's menu (screen.legal_rows, screen.menu_lines) wrap a
    Chinese row in terminal cells: within 80, nothing cut."""
    from agility_cli.table import screen

    for s in _complete(9, 2):
        text = screen.legal_rows("g.jsonl", s) + "\n".join(screen.menu_lines(choices.menu(s)))
        assert all(cell_len(line) <= 80 for line in text.splitlines()), text
        assert "选项：" in text or not any(row.options for row in choices.menu(s))


def test_zh_play_loop_speaks_chinese_from_a_pipe(tmp_path):
    """A whole game against bot:greedy in zh from a pipe: the prompt's refusals, ``board``'s
    what-to-type line, ``news``, the help's typing paragraph and the game-over line are Chinese; the
    game file is the one an English game writes (nothing translated is written)."""
    from gamefiles import run_cli, solo

    from agility_cli.record import gamefile
    from agility_cli.table import render

    path = solo(tmp_path)
    twin = solo(tmp_path / "en") if (tmp_path / "en").mkdir() is None else None
    r = run_cli("--lang", "zh", "play", path, input="fly\n0\nboard\nhelp\n" + "1\n" * 3000)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "'fly' 不是决定：" in out and "没有第 0 个决定：请选 1–3" in out and "is no decision" not in out, out[:3000]
    assert "\n    输入行号（3、3 red 即红色）" in out  # what to type, under the refusal
    assert "输入 menu（再看你的选择）" in out and "输入行号，愿意的话再加选项" in out
    i18n.set_language("zh")
    try:
        state = gamefile.load(path).state
        why = render.why_won(state)
    finally:
        i18n.set_language(None)
    last = out.rstrip()[out.rfind("对局结束："):]
    assert "".join(part.strip() for part in last.splitlines()) == \
        f"对局结束：{state.players[state.winner].name} 获胜（{why}）。".replace(" ", "") or \
        " ".join(part.strip() for part in last.splitlines()).startswith("对局结束："), last
    assert all(cell_len(line) <= 80 for line in last.splitlines()), last
    en = run_cli("play", twin, input="fly\n0\nboard\nhelp\n" + "1\n" * 3000)
    assert en.exit_code == 0 and "The game is over: " in en.stdout
    assert path.read_bytes() == twin.read_bytes()  # the same decisions write the same lines


def test_zh_play_hint_lines_fit_and_speak_chinese(zh, tmp_path, monkeypatch: pytest.MonkeyPatch):
    """``hint`` inside ``play`` in zh: its head, labels, chance and the about-equal sentence in
    Chinese, each line within the width in terminal cells."""
    from gamefiles import solo

    from agility_cli.engine import rules
    from agility_cli.players import search
    from agility_cli.record import gamefile
    from agility_cli.table import playloop

    game = gamefile.load(solo(tmp_path, seed=7))
    legal = rules.legal_moves(game.state)
    for stats in ([search.MoveStat(legal[0], 15, 0.55), search.MoveStat(legal[1], 14, 0.45)],
                  [search.MoveStat(legal[0], 60, 0.4), search.MoveStat(legal[1], 10, 0.6)]):
        monkeypatch.setattr(hintview, "_analyse", lambda *a, st=stats: search.Analysis(0, 80, 0.1, st))
        for width in (80, 60):
            lines = playloop.play_hint_lines(game, choices.menu(game.state), width)
            text = "\n".join(lines)
            assert lines[0].startswith("给 alice 的提示（80 次模拟") and "胜率 " in text, text
            assert all(cell_len(line) <= width for line in lines), text
            assert ("不相上下" in text) == (stats[0].visits == 15) and ("次佳：" in text) == (stats[0].visits == 60)


def test_fairness_text_in_zh_and_english_unchanged(zh):
    """R40, R41: where the seed came from and whether the lines are signed, as the replay's story
    says it: Chinese in zh, the English words as they were otherwise (human text only)."""
    from agility_cli.record.game import Trust
    from agility_cli.record.verify import fairness_text

    signed = Trust(keys={"alice": "00", "bob": "11"}, joint=True)
    assert fairness_text(Trust()) == "种子由创建者选择；未签名：没有密钥，文件无法证明每一行是谁写的"
    assert fairness_text(signed) == "共同种子（承诺与揭示）；已签名：每一行都已用 alice 和 bob 的密钥核验"
    i18n.set_language("en")
    assert fairness_text(signed) == ("joint seed (commit and reveal); signed: every line verified against the "
                                     "keys of alice and bob")
    assert fairness_text(Trust(keys={"alice": "00"})) == (
        "seed chosen by its creator; signed: every line verified against the key of alice")


def test_audit_verdict_text_in_zh_keeps_its_json_reason(zh):
    """R42: the verdict a person reads is in the language in use; ``reason`` (``show --json``'s
    value) stays English, and English text is unchanged."""
    from agility_cli.record.audit import UNSENT, Verdict

    forfeit = Verdict("forfeit", "bob", "the deal does not match the commitment")
    pending = Verdict("pending", "alice", UNSENT)
    assert forfeit.text() == "bob 判负：the deal does not match the commitment（R42）"
    assert pending.text() == "核验通过后胜负即成立：核验待定：你的密钥还没有发送（R42）"
    assert pending.reason == "audit pending: your keys are not sent"
    i18n.set_language("en")
    assert forfeit.text() == "bob forfeits the game: the deal does not match the commitment (R42)"
    assert pending.text() == "the win stands once the audit passes: audit pending: your keys are not sent (R42)"
