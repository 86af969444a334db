"""SVG snapshots of the full-screen board's key screens at 80×24 (issue 51), kept under
tests/__snapshots__/ and looked at: the first decision, a Break draw, an adoption and the game over
(no seeded game of first choices reached a mini-turn of alice's).  A seeded game of alice against bot:greedy, the first choice at every decision,
played by Textual's pilot until each moment; ``snap_compare`` (pytest-textual-snapshot) compares
the screen with the kept SVG (``pytest --snapshot-update`` writes them again, to look at).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from screengames import new_game

from agility_cli.engine.moves import Adopt
from agility_cli.table import session
from agility_cli.table.board import app as board
from agility_cli.table.board import match
from agility_cli.table.screen import catch_up

MOMENTS: dict[str, Callable[[board.Board], bool]] = {
    "first-decision": lambda app: True,
    "break-draw": lambda app: app.match.game.state.phase in ("return", "put_back", "draw"),
    "adoption": lambda app: any(isinstance(r.moves[0], Adopt) for r in app.match.rows),
    "game-over": lambda app: app.moment == match.OVER,
}


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_the_key_screens_of_the_board(moment: str, snap_compare: Any, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    path = new_game(tmp_path, "bot:greedy", 1)
    news = session.since_last(path)
    viewer = session.resolve_viewer(news.game)
    app = board.Board(match.Match(path, news.game, viewer, False, catch_up(news, viewer.name),
                                  news.heading(viewer.name)))
    reached = MOMENTS[moment]

    async def until(pilot: Any) -> None:
        for _ in range(400):
            await pilot.pause()
            while app.busy:
                await pilot.pause(0.01)
            await pilot.pause()
            if reached(app) or app.moment != match.DECIDE:
                break
            rows = app.rows_now()
            number = next(k for k, r in enumerate(rows, 1) if not r.spends_token)
            await pilot.press(*str(number), "enter")
            await pilot.pause()
            if app.sub is not None:
                await pilot.press("1", "enter")
        assert reached(app), moment

    assert snap_compare(app, terminal_size=(80, 24), run_before=until)
