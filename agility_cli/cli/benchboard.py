"""The full-screen board's measures for ``agility bench`` (issue 51): its redraw time per decision
(every region laid out and handed to Textual, over a whole seeded game of alice against bot:greedy
played by Textual's pilot at 80×24: target ≤ 50 ms) and the time from ``agility play`` to the first
board (a new Python that starts as ``play`` does on a terminal and draws the board headless at
80×24: target ≤ 1 s), and the same for ``agility play FILE`` itself on a pseudo-terminal of 80×24:
from its start to the first screen that shows the choices (median of 5; :func:`first_screen`)."""

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


def first_screen(path: Path, timeout: float = 30.0) -> float:
    """Seconds from starting ``python -m agility_cli play path`` on a pseudo-terminal of 80×24
    (TERM=xterm-256color) to the first output that shows the rule of the choices; then Ctrl-C."""
    import os
    import pty
    import re
    import select
    import signal
    import struct

    pid, fd = pty.fork()
    if pid == 0:  # the child: play, as a person starts it (never back into the caller's code)
        try:
            os.environ["TERM"] = "xterm-256color"
            os.execv(sys.executable, [sys.executable, "-m", "agility_cli", "play", str(path)])
        finally:
            os._exit(127)
    import fcntl
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start, seen, took = time.perf_counter(), b"", float("nan")
    try:
        while time.perf_counter() - start < timeout:
            if select.select([fd], [], [], 0.02)[0]:
                seen += os.read(fd, 1 << 16)
                if b"your choices" in re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", seen):
                    took = time.perf_counter() - start
                    break
        os.write(fd, b"\x03")
        end = time.perf_counter()
        while time.perf_counter() - end < 5 and select.select([fd], [], [], 0.1)[0] and os.read(fd, 1 << 16):
            pass
    except OSError:
        pass
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    return took


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
    on_a_pty = [first_screen(path) for _ in range(5)]
    board = _board(path)
    asyncio.run(_whole_game(board))
    redraws = board.redraws
    return {"redraw_ms_median": 1000 * statistics.median(redraws), "redraw_ms_max": 1000 * max(redraws),
            "redraws": len(redraws), "first_board_s": statistics.median(first),
            "first_screen_pty_s": statistics.median(on_a_pty)}


async def _first(path: Path) -> None:
    board = _board(path)
    async with board.run_test(size=(80, 24)) as pilot:
        await pilot.pause()


if __name__ == "__main__":  # the child of bench_board: play's start on a terminal, to the first board
    import asyncio

    asyncio.run(_first(Path(sys.argv[1])))
