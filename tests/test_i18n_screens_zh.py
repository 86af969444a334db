"""The play screen in Chinese and in the pseudo-locale, over whole games against the bots (issue 54).

bot:greedy and bot:strong1 in the line mode, bot:greedy on the full-screen board.

The line mode of ``agility play`` on a pseudo-terminal of 80×24 (tests/test_play_tty.py's
:class:`Terminal`), the language chosen by ``AGILITY_LANG``:

- **zh**: every screen fits 80 terminal cells (a CJK character takes two), nothing is cut short
  (``…``) or cut in half (no U+FFFD), nothing scrolls away unseen (a long text pages with the
  Chinese "more" prompt), every choice is on the screen with the line that says what to type, and
  the bot's whole position is there in Chinese (its training cubes and tokens, each of its dogs by
  its Chinese name and course, the card it played last); the last screen says who won;
- **qps** (the pseudo-locale): the same game finds no unbracketed English on any screen
  (:func:`test_i18n.bare_english`), but the names the players chose and the words a player types
  (``help``, ``board``, the colours of an option ``reward red|green``), which stay as they are.

The full-screen board's scroll marks say where more is in Chinese (Textual's pilot), and the step
``help`` explains, the guide's refusals and ``agility analyse``'s review speak Chinese.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import test_play_tty as tty
from screengames import new_game
from test_i18n import bare_english

from agility_cli import i18n
from agility_cli.record import gamefile
from agility_cli.table import guide, review
from agility_cli.table.layout import cell_len
from agility_cli.table.screen import MORE_PROMPT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")

COLUMNS, ROWS = 80, 24
#: What a player types, which the screen names as it is in every language (docs/translating.md).
TYPED = re.compile(r"\b(?:help|hint|board|news|undo|quit|more|back|red|green|black|yellow|blue)\b"
                   r"|\b[a-z]+(?:\|[a-z]+)+\b")


def translated(lang: str, message: str) -> str:
    i18n.set_language(lang)
    try:
        return i18n._(message)
    finally:
        i18n.set_language(None)


def whole_game(folder: Path, lang: str, monkeypatch: pytest.MonkeyPatch, bot: str = "bot:greedy",
               seed: int = 7) -> tuple[Path, tty.Session]:
    """A whole game of alice (answering 1 at every decision) against ``bot`` in ``lang``."""
    home = folder / "home"
    monkeypatch.setenv("AGILITY_HOME", str(home))
    path = new_game(folder, bot, seed)
    monkeypatch.setenv("AGILITY_LANG", lang)
    monkeypatch.setattr(tty, "MORE", translated(lang, MORE_PROMPT))  # the pages' prompt in that language
    return path, tty.play_session(path, COLUMNS, ROWS, home)


@pytest.fixture(scope="module", params=[("bot:greedy", 7), ("bot:strong1", 3)], ids=lambda p: p[0])
def zh_game(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tty.Session]:
    bot, seed = request.param
    with pytest.MonkeyPatch.context() as mp:
        return whole_game(tmp_path_factory.mktemp("zh"), "zh", mp, bot, seed)


def zh_name(kind: str, english: str) -> str:
    i18n.set_language("zh")
    try:
        return i18n.name(kind, english)
    finally:
        i18n.set_language(None)


def bot_position_in_chinese(path: Path, p: tty.Prompt, where: str) -> bool:
    """The bot's rows on a decision screen, in Chinese: its cubes and tokens, each of its dogs by
    its Chinese name with its course, its last card.  ``False`` for a screen that is not a
    decision's (the adoption's second step, which shows no board)."""
    if not any(re.match(r"^第 \d+ 回合（", line) for line in p.screen):
        return False
    state, card = tty.position_at(path, p.lines)
    seat = next(k for k, x in enumerate(state.players) if x.name.startswith("bot:"))
    bot = state.players[seat]
    text = "\n".join(p.screen)
    assert any(line.startswith(f"  {bot.name}") and "点心 " in line for line in p.screen), where
    assert f"弹性指示物 {bot.flex} · 交换指示物 {bot.exchange}" in text.replace("\n    ", " · "), where
    for c in state.courses:
        if c.owner == seat and c.dog is not None:
            name = zh_name("dog", state.cat.dogs[c.dog].name)
            assert any(line.startswith(f"    {name} {c.id} ") for line in p.screen), where
    last = [line for line in p.screen if line.startswith("    上一张卡 ")]
    assert last, where
    assert card is None or card in last[0] or "面朝下" in last[0], where
    return True


def test_zh_every_screen_of_a_whole_game_fits_80_by_24_whole(zh_game: tuple[Path, tty.Session]) -> None:
    path, game = zh_game
    assert game.code == 0
    assert len(game.prompts) > 20
    assert not game.scrolled, "\n----\n".join(game.scrolled)  # every text fits or is paged
    complete = 0
    for number, p in enumerate(game.prompts, 1):
        where = f"prompt {number}:\n" + "\n".join(p.screen)
        assert p.screen[-1] == tty.PROMPT, where
        assert all(cell_len(line) <= COLUMNS for line in p.screen), where  # no wrap: within 80 cells
        assert not any(line.rstrip().endswith("…") for line in p.screen), where  # nothing cut short
        assert "\ufffd" not in "".join(p.screen), where  # no character cut in half
        complete += bot_position_in_chinese(path, p, where)
        helps = [line for line in p.screen if line.lstrip().startswith("输入 1")]
        assert helps, where  # what to type, in Chinese
        span = re.search(r"输入 1(?:–(\d+))?", helps[-1])
        assert span is not None
        shown = {int(m.group(1)) for line in p.screen if (m := re.match(r"^\s+(\d+)\) ", line))}
        if not any("more" in line for line in helps):
            assert shown == set(range(1, int(span.group(1) or 1) + 1)), where  # every choice is on the screen
    assert complete >= len(game.prompts) - 5, (complete, len(game.prompts))  # all but an adoption's second step
    for page in game.pages:  # a long text (the board at the game's end): pages within the terminal
        assert page[-1] == translated("zh", MORE_PROMPT) and all(cell_len(line) <= COLUMNS for line in page)
    state = gamefile.load(path).state
    assert state.winner is not None
    winner = state.players[state.winner].name
    assert any(line.startswith(f"对局结束：{winner} 获胜") for line in game.last), "\n".join(game.last)
    assert len(game.last) <= ROWS and all(cell_len(line) <= COLUMNS for line in game.last)


def test_zh_screens_speak_chinese(zh_game: tuple[Path, tty.Session]) -> None:
    """No English sentence on a zh screen: what is left of plain ASCII letters is the names, the
    ids (t17, 2B), the typed words and the letters of the colours."""
    _path, game = zh_game
    words = set()
    for p in game.prompts:
        for line in p.screen:
            words |= {w for w in re.findall(r"[A-Za-z][A-Za-z-]+", TYPED.sub("", line))
                      if w not in ("alice", "bot", "greedy", "strong")}
    assert words <= {"Mighty", "Mutt", "Enter"}, sorted(words)


def test_pseudo_locale_run_of_a_whole_game_leaves_no_bare_english(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _path, game = whole_game(tmp_path, "qps", monkeypatch)
    assert game.code == 0 and len(game.prompts) > 20
    left: dict[str, str] = {}
    for screen in [p.screen for p in game.prompts] + game.pages + [game.last]:
        for line in screen:
            for word in bare_english(TYPED.sub("", line)):
                if word not in ("alice", "bot", "greedy"):
                    left.setdefault(word, line)
    assert not left, "\n".join(f"{w}: {line}" for w, line in left.items())


# -- the full-screen board's scroll marks ----------------------------------------------------------


def test_zh_board_scroll_marks_are_chinese_and_fit(tmp_path: Path) -> None:
    from test_board import made, settle

    from agility_cli.table.board import app as board
    from agility_cli.table.board import match

    async def go() -> None:
        app = board.Board(made(new_game(tmp_path, "bot:greedy", 5)))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(300):
                await settle(pilot, app)
                assert app.moment == match.DECIDE
                if app.query_one("#position").max_scroll_y > 0 and app.query_one("#story").max_scroll_y > 0:
                    break
                await pilot.press("1", "enter")
                await pilot.pause()
                if app.sub is not None:
                    await pilot.press("1", "enter")
            story = str(app.query_one("#story").border_title)
            assert "▼ 更多图板：shift+↓" in story and "▲ 更多经过：PgUp" in story, story
            assert "more" not in story
            assert cell_len(story) <= app.cols - 4, story
            assert board.cut(app) == []  # cut() finds the Chinese marks
            await pilot.press("shift+down")
            await pilot.pause()
            await pilot.pause()
            assert "▲ 更多图板：shift+↑" in str(app.query_one("#story").border_title)
            assert board.cut(app) == []

    i18n.set_language("zh")
    try:
        asyncio.run(go())
    finally:
        i18n.set_language(None)


def test_a_long_zh_panel_title_is_shortened_in_cells_never_halving_a_character(tmp_path: Path) -> None:
    from agility_cli.table.board.app import cut_cells

    assert cut_cells("静止箱与额外回合", 5) == "静止"  # 4 cells: the third character would cross 5
    assert cut_cells("abc", 5) == "abc"


# -- help's step, the guide's refusals, the review ---------------------------------------------------


@pytest.fixture
def zh() -> Any:
    i18n.set_language("zh")
    yield
    i18n.set_language(None)


PHASES = ["play", "reward", "discard", "break", "return", "put_back", "draw", "boost", "distract", "rush", "slip",
          "inspire", "dogs", "refill", "prize", "over", "no-such-phase"]


@pytest.mark.parametrize("phase", PHASES)
def test_zh_help_explains_each_step_in_chinese_and_names_its_topic(zh: Any, phase: str) -> None:
    text = guide.phase_help(phase)
    assert re.search(r"更多：agility rules [a-z_]+$", text), text
    english = re.sub(r"agility (?:rules|replay) [A-Za-z_]+|\b(?:done|pass|feat|A|B)\b", "", text)
    assert not re.search(r"[A-Za-z]{3,}", english), text
    assert any(w in text for w in ("回合", "训练卡", "训练点心", "手牌", "狗", "竞速奖励", "对局")), text


def test_zh_help_inside_play_wraps_the_step_in_cells() -> None:
    from builders import new_game as fresh

    from agility_cli.table.playloop import play_help

    s = fresh()
    i18n.set_language("zh")
    try:
        out = play_help(s, 80)
    finally:
        i18n.set_language(None)
    assert "从手牌打出一张训练卡" in out
    assert all(cell_len(line) <= 78 for line in out.splitlines()), out


def test_zh_review_speaks_the_glossarys_marks(zh: Any) -> None:
    from agility_cli.cli.share import review_text

    v = review.Verdict(line=12, player="alice", played="play t07 red", best="play t05", chance=0.6,
                       chance_played=0.35, loss=0.25, mark="blunder", forced=False, hint="about equal", looked=480)
    quiet = review.Verdict(line=14, player="bob", played="done", best="adopt golden 2B", chance=0.5, chance_played=0.44,
                           loss=0.06, mark=None, forced=False)
    out = review_text(review.Review(simulations=120, seed=3, verdicts=[v, quiet]))
    assert out.startswith("复盘（每个决定 120 次模拟")
    assert "第  12行  alice：大错 — 打出 t07 红色（35%）；最佳 打出 t05（60%）" in out
    assert "提示分不出两者；更长的计算能分出" in out
    assert "总结：" in out and "alice：1 个决定，大错 1、错误 0、欠佳 0" in out
    assert "不相上下，在搜索的误差之内" in review.verdict_note(quiet)
    assert all(cell_len(line) <= 80 for line in out.splitlines()), out
    english = re.sub(r"play t0\d(?: red)?|alice|bob", "", out)
    assert not re.search(r"[A-Za-z]{3,}", english), out
    i18n.set_language("en")
    assert "line   12  alice: blunder — play t07 red (35 %); best play t05 (60 %)" in review_text(
        review.Review(simulations=120, seed=3, verdicts=[v]))


# -- the full-screen board over a whole game in Chinese ------------------------------------------------


def test_zh_whole_game_on_the_full_screen_board_at_80x24_nothing_cut(tmp_path: Path) -> None:
    """Every decision of a whole game against bot:greedy on the full-screen board at 80×24 in
    Chinese: no region cut without its (Chinese) scroll mark (:func:`board.cut`), nothing shortened
    with ``…``, every choice in the menu, the status line in Chinese; the game over in Chinese."""
    import random

    from test_board import made, settle

    from agility_cli.table.board import app as board
    from agility_cli.table.board import match

    failures: list[str] = []
    seen = [0]
    told = [""]  # the opponent's last card, as the board tells it

    async def go() -> None:
        path = new_game(tmp_path, "bot:greedy", 1)
        m = made(path)
        app = board.Board(m)
        pick = random.Random(1)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                await settle(pilot, app)
                if app.moment != match.DECIDE:
                    break
                seen[0] += 1
                told[0] = told[0] or m.last_card()
                turn = app.match.game.state.turn
                where = f"turn {turn}"
                failures.extend(f"{where}: cut {name}" for name in board.cut(app))
                failures.extend(f"{where}: … in {name}" for name in ("status", "position", "choices")
                                if "…" in app.drawn[name])
                if f"第 {turn} 回合" not in app.drawn["status"]:
                    failures.append(f"{where}: status {app.drawn['status']!r}")
                for k, _row in enumerate(app.rows_now(), 1):
                    if f"{k:>2}) " not in app.drawn["choices"]:
                        failures.append(f"{where}: choice {k}")
                for name in ("status", "position", "choices"):
                    words = set(re.findall(r"[A-Za-z][A-Za-z-]{2,}", TYPED.sub("", app.drawn[name])))
                    words -= {"alice", "bot", "greedy", "Mighty", "Mutt", "pass", "feat", "RUSH"}
                    if words:
                        failures.append(f"{where}: English in {name}: {sorted(words)}")
                usable = [k for k, r in enumerate(app.rows_now(), 1) if not r.spends_token]
                number = usable[0] if pick.random() < 0.5 else pick.choice(usable)
                await pilot.press(*str(number), "enter")
                await pilot.pause()
                if app.sub is not None:
                    await pilot.press("1", "enter")
            assert app.moment == match.OVER, app.moment
            assert "对局结束" in app.drawn["status"], app.drawn["status"]

    i18n.set_language("zh")
    try:
        asyncio.run(go())
    finally:
        i18n.set_language(None)
    assert seen[0] > 20
    assert not failures, "\n".join(failures[:12])
    assert "打出了" in told[0] and "回合）" in told[0], told[0]  # the opponent's last card, in Chinese


def test_zh_agility_hint_says_what_each_decision_does_in_chinese_json_stays_english(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from gamefiles import run_cli

    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    path = new_game(tmp_path, "bot:greedy", 7)
    i18n.set_language("zh")
    try:
        said = run_cli("hint", path, "--as", "alice")
        as_json = run_cli("hint", path, "--as", "alice", "--json")
    finally:
        i18n.set_language(None)
    assert said.exit_code == 0, said.output
    comments = [line.strip() for line in said.stdout.splitlines() if line.strip().startswith("# ") and "胜率" not in line]
    assert len(comments) == 2 and all(c.startswith("# 打出 t") and "计数标记" in c for c in comments), said.stdout
    assert all(cell_len(line) <= 80 for line in said.stdout.splitlines() if "# " in line)  # (a command: the path's)
    doc = json.loads(as_json.stdout)
    assert doc["best"]["text"].startswith("play t") and "marker" in doc["best"]["text"]  # for programs: English
