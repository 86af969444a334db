"""The full-screen board in a real terminal (issue 51): tmux, 80×24, a whole game of alice against
bot:greedy played with keys only (Enter on the highlighted choice; "1" and Enter for a course), and
the board's last words left on the terminal once it closes."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from screengames import new_game

from agility_cli.record import gamefile

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


@pytest.mark.slow  # a whole game, a key at a time, in a real terminal
def test_a_whole_game_through_the_board_in_tmux_with_keys_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("AGILITY_HOME", str(home))
    path = new_game(tmp_path, "bot:greedy", 3)
    name = f"agility-board-{tmp_path.name}"
    command = (f"cd {tmp_path} && TERM=xterm-256color AGILITY_HOME={home} PYTHONPATH={ROOT} "
               f"{sys.executable} -m agility_cli play {path.name}; echo BOARD-EXIT=$?; sleep 600")
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    try:
        screens, last = 0, -1
        for _ in range(3000):
            time.sleep(0.15)
            screen = tmux("capture-pane", "-t", name, "-p")
            if "BOARD-EXIT=" in screen:
                break
            lines = gamefile.load(path).lines
            if "your choices" in screen and lines != last:
                screens += 1
                assert screen.startswith("Turn ") and "\nAction " in screen, screen  # the board, not the line mode
                last = lines
                tmux("send-keys", "-t", name, "Enter")
            elif "onto which course" in screen:
                tmux("send-keys", "-t", name, "1", "Enter")
            elif "close the board" in screen:
                tmux("send-keys", "-t", name, "Enter")
            elif "your choices" in screen:
                tmux("send-keys", "-t", name, "Enter")  # the same position: a refused choice, or not drawn yet
        screen = tmux("capture-pane", "-t", name, "-p")
        assert "BOARD-EXIT=0" in screen, screen
        assert "The game is over: " in screen and screen.count("The game is over") == 1
        assert gamefile.load(path).state.winner is not None
        print(f"\n{screens} decisions through the board in tmux")
        assert screens > 20
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
