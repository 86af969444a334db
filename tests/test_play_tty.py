"""`agility play` in a real terminal: a pseudo-terminal of 80×24 (and 100×30), a whole game against
bot:greedy answered "1" at every prompt.

At every prompt the visible screen (the last rows of what was written since the previous prompt)
must hold the numbered choices, the help line, the prompt and the bot's latest decision, and the
bot's whole position (issue 32: its cubes and tokens, each of its dogs, the card it played last);
no line may be wider than the terminal or end in "…".  (Many seeded games against bot:strong and
bot:greedy are checked in-process, screen by screen, in tests/test_screen_whole.py.)  A taller, wider terminal shows more.
"""

from __future__ import annotations

import codecs
import fcntl
import json
import os
import pty
import re
import select
import struct
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from gamefiles import solo

from agility_cli.engine.components import tile_name
from agility_cli.engine.state import State
from agility_cli.record import gamefile
from agility_cli.table.layout import cell_len

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?")
PROMPT = "> "


@dataclass
class Prompt:
    """One prompt of the session: the rows on screen when it came, and the file's lines by then."""

    screen: list[str]
    lines: int  # lines of the game file when the prompt came


class Terminal:
    """`agility ARGS` on a pseudo-terminal of ``columns``×``rows``; :meth:`answer` types a line and
    waits for the next prompt."""

    def __init__(self, args: list[str], columns: int, rows: int, cwd: Path, home: Path):
        self.columns, self.rows = columns, rows
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
        env.update(TERM="xterm", PYTHONPATH=str(ROOT), AGILITY_HOME=str(home))
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its terminal, of the size asked
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            os.chdir(cwd)
            os.execvpe(sys.executable, [sys.executable, "-m", "agility_cli", *args], env)
        self.pid, self.fd = pid, fd
        self.buffer = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")  # a character split between reads

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the child is gone
            return False
        if not data:
            return False
        self.buffer += self.decoder.decode(data)
        return True

    def until_prompt(self, deadline: float = 60.0) -> str | None:
        """What was written up to the next prompt (``None`` when the program ended): the prompt
        is the output's end once nothing more comes for a moment."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            text = ANSI.sub("", self.buffer).replace("\r\n", "\n")
            if (text.endswith("\n" + PROMPT) or text == PROMPT) and not self._more(0.1):
                self.buffer = ""
                return text
            if not self._read(0.5):
                return None
        raise AssertionError(f"no prompt within {deadline} s; the screen ends: {self.buffer[-2000:]!r}")

    def _more(self, wait: float) -> bool:
        """Whether anything is written within ``wait`` seconds."""
        size = len(self.buffer)
        self._read(wait)
        return len(self.buffer) != size

    def send(self, line: str) -> None:
        os.write(self.fd, (line + "\r").encode())

    def close(self) -> int:
        try:
            os.close(self.fd)
        except OSError:
            pass
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def screen_of(text: str, rows: int) -> list[str]:
    """The rows a terminal of ``rows`` lines shows at the prompt: the last ones written."""
    return text.split("\n")[-rows:]


def play_through(path: Path, columns: int, rows: int, home: Path, answer: str = "1",
                 limit: int = 400) -> tuple[list[Prompt], int]:
    """A whole game of ``agility play`` answered ``answer`` at every prompt: the prompts seen."""
    term = Terminal(["play", str(path)], columns, rows, path.parent, home)
    prompts: list[Prompt] = []
    try:
        for _ in range(limit):
            text = term.until_prompt()
            if text is None:
                break
            prompts.append(Prompt(screen_of(text, rows), len(path.read_bytes().splitlines())))
            term.send(answer)
        else:
            raise AssertionError(f"the game did not end within {limit} prompts")
    finally:
        code = term.close()
    return prompts, code


def bot_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, player) of every decision line of the file."""
    out = []
    for k, raw in enumerate(path.read_bytes().splitlines()[1:], 2):
        out.append((k, json.loads(raw).get("player", "")))
    return out


def position_at(path: Path, lines: int) -> tuple[State, str | None]:
    """The complete state after the file's first ``lines`` lines, and the card the bot played last."""
    data = b"".join(path.read_bytes().splitlines(keepends=True)[:lines])
    state = None
    for item in gamefile.verify(data, str(path)):
        state = item.state if isinstance(item, gamefile.Start) else item.after
    assert state is not None
    plays = [json.loads(raw) for raw in data.splitlines()[1:]]
    cards = [x["card"] for x in plays if x.get("kind") == "play" and x.get("player", "").startswith("bot:")]
    return state, cards[-1] if cards else None


def check_position(path: Path, p: Prompt, where: str) -> bool:
    """The bot's rows on a decision screen: its cubes and tokens, each of its dogs, its last card.
    ``False`` for a screen that is not a decision's (a second step, a message)."""
    if not any(re.match(r"^Turn \d+ \(", line) for line in p.screen):
        return False
    state, card = position_at(path, p.lines)
    seat = next(k for k, x in enumerate(state.players) if x.name.startswith("bot:"))
    bot = state.players[seat]
    assert any(line.startswith(f"  {bot.name}") and "cubes " in line for line in p.screen), where
    assert f"Flex {bot.flex} · Exchange {bot.exchange}" in "\n".join(p.screen).replace("\n    ", " · "), where
    for c in state.courses:
        if c.owner == seat and c.dog is not None:
            name = state.cat.dogs[c.dog].name
            assert any(line.startswith((f"    {name} {c.id} ", f"    {name.split()[0]} {c.id}")) for line in p.screen), where
    last = [line for line in p.screen if line.startswith("    last card ")]
    assert last, where
    assert card is None or card in last[0] or "face down" in last[0], where
    return True


def check_screens(path: Path, prompts: list[Prompt], columns: int) -> int:
    """Every prompt's screen checked; how many were decision screens with the bot's whole position."""
    players = bot_lines(path)
    before = 1  # the header: the first prompt follows it (nothing was played yet)
    complete = 0
    for number, p in enumerate(prompts, 1):
        where = f"prompt {number}:\n" + "\n".join(p.screen)
        assert p.screen[-1] == PROMPT, where
        assert all(cell_len(line) <= columns for line in p.screen), where
        assert not any(line.rstrip().endswith("…") for line in p.screen), where  # nothing cut short
        complete += check_position(path, p, where)
        helps = [line for line in p.screen if line.lstrip().startswith("type 1")]
        assert helps, where  # the help line is on the screen
        span = re.search(r"type 1(?:–(\d+))?", helps[-1])
        assert span is not None
        last = int(span.group(1) or 1)
        shown = {int(m.group(1)) for line in p.screen if (m := re.match(r"^\s+(\d+)\) ", line))}
        more = [line for line in p.screen if "type more" in line]
        if more:
            assert shown and max(shown) <= last, where
        else:
            assert shown == set(range(1, last + 1)), where  # every choice is on the screen
        new = [(k, who) for k, who in players if before < k <= p.lines and who.startswith("bot:")]
        if new:
            k, who = new[-1]
            assert any(re.match(rf"^\s*{k}\. {re.escape(who)} ", line) for line in p.screen), where
        before = p.lines
    return complete


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int], tuple[Path, list[Prompt], int]]:
    out = {}
    for columns, rows in ((80, 24), (100, 30)):
        home = tmp_path_factory.mktemp(f"home{columns}")
        with pytest.MonkeyPatch.context() as mp:  # this machine's records go to a fresh directory
            mp.setenv("AGILITY_HOME", str(home))
            path = solo(tmp_path_factory.mktemp(f"tty{columns}"), seed=7)
        prompts, code = play_through(path, columns, rows, home)
        out[(columns, rows)] = (path, prompts, code)
    return out


def test_every_decision_fits_80_by_24_with_the_choices_the_prompt_and_the_bots_move(games) -> None:
    path, prompts, code = games[(80, 24)]
    assert code == 0
    assert len(prompts) > 20
    complete = check_screens(path, prompts, 80)
    print(f"\n80x24 pty: decision screens with the bot's whole position: {complete}/{len(prompts)} prompts")
    seconds = sum(1 for p in prompts if any(line.endswith("onto which course?") for line in p.screen))
    assert complete == len(prompts) - seconds  # every screen but an adoption's second step (no board)
    assert gamefile.load(path).state.winner is not None


def test_a_taller_wider_terminal_shows_more(games) -> None:
    path, prompts, code = games[(100, 30)]
    assert code == 0
    check_screens(path, prompts, 100)
    small = games[(80, 24)][1]
    assert len(small) == len(prompts)  # the same game, the same decisions
    filled = [sum(1 for line in p.screen if line.strip()) for p in prompts]
    filled_small = [sum(1 for line in p.screen if line.strip()) for p in small]
    assert sum(filled) > sum(filled_small)
    wide = [max(map(cell_len, p.screen)) for p in prompts]
    assert max(wide) > 80  # a long line is cut later on a wider terminal


@pytest.mark.slow
@pytest.mark.parametrize("columns", [60, 40])
def test_on_a_narrow_terminal_every_card_row_keeps_its_tile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    path = solo(tmp_path, seed=7)
    prompts, code = play_through(path, columns, 24, tmp_path / "home")
    assert code == 0
    tiles = {tile_name(t) for t in gamefile.load(path).state.board}  # the action board's tiles
    cards = 0
    for number, p in enumerate(prompts, 1):
        where = f"prompt {number}:\n" + "\n".join(p.screen)
        assert all(cell_len(line) <= columns for line in p.screen), where
        for line in p.screen:
            if re.match(r"^\s+\d+\) (?:play )?(?:t\d\d|the deck)", line):
                cards += 1
                tile = line.rsplit(" → ", 1)[-1] if " → " in line else ""
                assert tile.split(" (")[0] in tiles, where
    assert cards > 20
