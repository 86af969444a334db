"""The board's scroll marks, mouse, story and resize (issue 51), through Textual's pilot.

A region taller than its room says so in a rule on the screen: the board's mark
(``▼ more board: shift+↓``) and the story's (``▲ more story: PgUp``) in the story's rule, the
choices' in theirs; the story shows its latest lines; a click on a choice picks it; a larger
terminal after a resize gets the room (full names, a taller story).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Callable

import pytest
from screengames import new_game
from test_board import made, settle

from agility_cli.cli import benchboard
from agility_cli.engine.moves import Adopt, Play
from agility_cli.table.board import app as board
from agility_cli.table.board import match

Check = Callable[[Any, board.Board], Any]


def on_board(path: Path, size: tuple[int, int], check: Check, until: Callable[[board.Board], bool] = lambda a: True) -> None:
    """Alice takes the first choice until ``until`` holds at one of her decisions, then ``check``."""

    async def go() -> None:
        app = board.Board(made(path))
        async with app.run_test(size=size) as pilot:
            for _ in range(300):
                await settle(pilot, app)
                assert app.moment == match.DECIDE, "the game ended before the moment"
                if until(app):
                    break
                await pilot.press("1", "enter")
                await pilot.pause()
                if app.sub is not None:
                    await pilot.press("1", "enter")
            await check(pilot, app)

    asyncio.run(go())


def rule(app: board.Board, name: str) -> str:
    return str(app.query_one(f"#{name}").border_title)


def tall(app: board.Board) -> bool:
    """The board and the story both taller than their rooms (at 80×24)."""
    return app.query_one("#position").max_scroll_y > 0 and app.query_one("#story").max_scroll_y > 0


def test_the_board_taller_than_its_room_says_so_and_scrolls_with_shift_arrows(tmp_path: Path) -> None:
    async def check(pilot: Any, app: board.Board) -> None:
        position = app.query_one("#position")
        assert "▼ more board: shift+↓" in rule(app, "story") and "▲ more board" not in rule(app, "story")
        assert board.cut(app) == []
        await pilot.press("shift+down")
        await pilot.pause()
        await pilot.pause()
        assert position.scroll_y > 0
        assert "▲ more board: shift+↑" in rule(app, "story")
        assert board.cut(app) == []
        await pilot.press("shift+up")
        await pilot.pause()
        await pilot.pause()
        assert position.scroll_y == 0 and "▼ more board" in rule(app, "story")

    on_board(new_game(tmp_path, "bot:greedy", 5), (80, 24), check, tall)


def test_the_story_shows_its_latest_lines_and_older_ones_are_a_pgup_away(tmp_path: Path) -> None:
    async def check(pilot: Any, app: board.Board) -> None:
        story = app.query_one("#story")
        assert story.scroll_y == story.max_scroll_y > 0  # the latest lines show
        assert "▲ more story: PgUp" in rule(app, "story") and "▼ more story" not in rule(app, "story")
        await pilot.press("pageup")
        await pilot.pause()
        await pilot.pause()
        assert story.scroll_y < story.max_scroll_y
        assert "▼ more story: PgDn" in rule(app, "story")
        assert board.cut(app) == []

    on_board(new_game(tmp_path, "bot:greedy", 5), (80, 24), check, tall)


def test_a_click_on_a_choice_picks_it(tmp_path: Path) -> None:
    path = new_game(tmp_path, "bot:greedy", 5)

    async def check(pilot: Any, app: board.Board) -> None:
        rows = app.rows_now()
        assert len(rows) >= 2 and isinstance(rows[1].moves[0], Play)
        card = rows[1].moves[0].card
        before = path.read_bytes()
        await pilot.click("#choices", offset=(6, 2))  # the rule, then row 1, then row 2
        await settle(pilot, app)
        assert path.read_bytes() != before
        assert card not in app.match.game.state.players[0].hand

    on_board(path, (80, 24), check)


def test_a_larger_terminal_after_a_resize_gets_the_room(tmp_path: Path) -> None:
    async def check(pilot: Any, app: board.Board) -> None:
        assert "Distraction" not in app.drawn["position"]  # 80 columns: short names
        small = app.query_one("#story").size.height
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        await pilot.pause()
        assert "Distraction" in app.drawn["position"]
        assert app.query_one("#story").size.height > small + 10
        assert board.cut(app) == []

    on_board(new_game(tmp_path, "bot:greedy", 5), (80, 24), check)


def test_the_end_gives_the_story_the_room_and_names_the_card_that_ended_it(tmp_path: Path) -> None:
    path = new_game(tmp_path, "bot:greedy", 1)

    async def go() -> board.Board:
        app = board.Board(made(path))
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                await settle(pilot, app)
                if app.moment != match.DECIDE:
                    break
                await pilot.press("1", "enter")
                await pilot.pause()
                if app.sub is not None:
                    await pilot.press("1", "enter")
            assert app.moment == match.OVER
            await pilot.pause()
            assert app.query_one("#choices").outer_size.height == 1  # its rule alone: nothing left to choose
            assert str(app.query_one("#choices").border_title) == "no more choices"
            assert app.query_one("#prompt").placeholder == "Enter or q: close the board"  # nothing else is read
            assert board.cut(app) == []
        return app

    app = asyncio.run(go())
    status = app.drawn["status"]
    assert status.startswith("Game over") and status.count("wins") == 1
    s = app.match.game.state
    plays = [json.loads(line) for line in path.read_text().splitlines()]
    last = [x for x in plays if x["kind"] == "play" and x["player"] != "alice"][-1]["card"]
    assert f"{last}[{s.cat.cards[last].number}]" in status  # the card that ended it, not an older one
    assert app.match.closing.count("wins") == 1


def test_a_short_move_at_the_prompt_is_answered_with_the_prompt_s_words(tmp_path: Path) -> None:
    """`adopt lab` inside play: what to type here (the row's number), not `agility move FILE …`;
    a refusal says the rows there are, and leaves the game file as it was."""
    path = new_game(tmp_path, "bot:greedy", 1)

    def adoption(app: board.Board) -> bool:
        return any(isinstance(r.moves[0], Adopt) for r in app.rows_now())

    async def check(pilot: Any, app: board.Board) -> None:
        rows = app.rows_now()
        k, row = next((k, r) for k, r in enumerate(rows, 1) if isinstance(r.moves[0], Adopt))
        dog = app.match.game.state.cat.dogs[row.moves[0].dog].name.split()[0].lower()
        before = path.read_bytes()
        await pilot.press(*f"adopt {dog}", "enter")
        await pilot.pause()
        said = " ".join(app.drawn["say"].split())
        assert "agility move" not in said and f"here: {k} = {row.label}" in said, said
        await pilot.press(*"play t99", "enter")
        await pilot.pause()
        said = " ".join(app.drawn["say"].split())
        assert said.endswith(f"type a row's number (1–{len(rows)}), a move's words, help or quit"), said
        assert "(3, 3 red)" not in said
        assert all(len(line) <= app.cols for line in app.drawn["say"].split("\n"))
        assert path.read_bytes() == before

    on_board(path, (80, 24), check, adoption)


def test_the_benchmark_times_agility_play_to_its_first_screen_on_a_pty(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`agility play` on a pseudo-terminal of 80×24 draws the board (the choices' rule shows)
    and Ctrl-C leaves the game file as it was; the benchmark's `first_screen_pty_s` is this."""
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    path = new_game(tmp_path, "bot:greedy", 1)
    before = path.read_bytes()
    took = benchboard.first_screen(path)
    assert 0 < took < 20  # NaN when the board never showed its choices
    assert path.read_bytes() == before


def test_a_click_on_a_card_of_the_board_picks_its_choice(tmp_path: Path) -> None:
    """A card in alice's hand clicked on the board plays it, as its row's number would (the
    mouse where a choice is a card on the board); a click on a free course's row at the same
    decision chooses nothing."""
    path = new_game(tmp_path, "bot:greedy", 5)

    async def check(pilot: Any, app: board.Board) -> None:
        rows = app.rows_now()
        card = rows[-1].moves[0].card
        lines = app.drawn["position"].split("\n")
        y = next(k for k, line in enumerate(lines) if line.startswith("  hand "))
        x = lines[y].index(f"{card}[") + 1
        free = next(k for k, line in enumerate(lines) if " free " in line)
        before = path.read_bytes()
        await pilot.click("#board", offset=(lines[free].index("free") + 6, free))
        await pilot.pause()
        assert path.read_bytes() == before and app.rows_now() == rows  # no choice is a course here
        await pilot.click("#board", offset=(x, y))
        await settle(pilot, app)
        assert path.read_bytes() != before
        assert card not in app.match.game.state.players[0].hand

    on_board(path, (80, 24), check)


def test_what_a_click_is_on_is_read_from_the_board_as_drawn() -> None:
    from agility_cli.table.board import clicks

    class View:
        dog_display = ["d1"]
        courses = [type("C", (), {"id": "2A"})()]
        cat = type("Cat", (), {"dogs": {"d1": type("D", (), {"name": "Golden Retriever"})()}})()

    lines = ["Cards t22[5] 2k|1r · t34[8] 2y|1r", "2A free weave 2y · pause 4r", "     tun 1r1g",
             "Dogs  Golden 1k4b H✓ · deck 10"]
    assert clicks.under(View, lines, 21, 0, False) == ("card", "t34")
    assert clicks.under(View, lines, 26, 0, False) == ("card", "t34")  # its number's bracket too
    assert clicks.under(View, lines, 28, 0, False) is None  # its rewards
    assert clicks.under(View, lines, 8, 2, False) == ("course", "2A")  # the row going on under it
    assert clicks.under(View, lines, 8, 3, False) == ("dog", "d1")
    assert clicks.under(View, lines, 20, 3, False) is None


def test_a_long_panel_title_gives_way_to_the_scroll_marks(tmp_path: Path) -> None:
    async def check(pilot: Any, app: board.Board) -> None:
        app.show_panel("rules: " + "a very long topic title " * 4, ["line"] * 40)
        await pilot.pause()
        await pilot.pause()
        title = rule(app, "story")
        assert len(title) <= app.cols - 4 and title.endswith("▼ more board: shift+↓ · ▼ more story: PgDn"), title
        assert board.cut(app) == []

    on_board(new_game(tmp_path, "bot:greedy", 5), (80, 24), check, tall)
