"""The full-screen board's measures for ``agility bench`` (issue 51): its redraw time per decision
(every region laid out and handed to Textual, over a whole seeded game of alice against bot:greedy
played by Textual's pilot at 80×24: target ≤ 50 ms) and the time from ``agility play`` to the first
board (a new Python that starts as ``play`` does on a terminal and draws the board headless at
80×24: target ≤ 1 s)."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def _board(path: Path) -> Any:
    from ..table import session
    from ..table.board import app, match
    from ..table.screen import catch_up

    news = session.since_last(path)
    viewer = session.resolve_viewer(news.game)
    return app.Board(match.Match(path, news.game, viewer, False, catch_up(news, viewer.name), news.heading(viewer.name)))


async def _whole_game(board: Any) -> None:
    from ..table.board import match

    async with board.run_test(size=(80, 24)) as pilot:
        for _ in range(1000):
            await pilot.pause()
            while board.busy:
                await pilot.pause(0.01)
            if board.moment != match.DECIDE:
                break
            rows = board.rows_now()
            number = next(k for k, r in enumerate(rows, 1) if not r.spends_token)
            await pilot.press(*str(number), "enter")
            await pilot.pause()
            if board.sub is not None:
                await pilot.press("1", "enter")


def bench_board(tmp: Path) -> dict[str, Any]:
    """Redraw times over a whole game, and the time to the first board (median of 3 starts)."""
    import asyncio

    folder = tmp / "board"
    folder.mkdir()
    path = folder / "solo.jsonl"
    subprocess.run([sys.executable, "-m", "agility_cli", "new", str(path), "--players", "alice", "bot:greedy",
                    "--seed", "1", "-q"], check=True, capture_output=True)
    first = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "agility_cli.cli.benchboard", str(path)], check=True,
                       capture_output=True)
        first.append(time.perf_counter() - start)
    board = _board(path)
    asyncio.run(_whole_game(board))
    redraws = board.redraws
    return {"redraw_ms_median": 1000 * statistics.median(redraws), "redraw_ms_max": 1000 * max(redraws),
            "redraws": len(redraws), "first_board_s": statistics.median(first)}


async def _first(path: Path) -> None:
    board = _board(path)
    async with board.run_test(size=(80, 24)) as pilot:
        await pilot.pause()


if __name__ == "__main__":  # the child of bench_board: play's start on a terminal, to the first board
    import asyncio

    asyncio.run(_first(Path(sys.argv[1])))
