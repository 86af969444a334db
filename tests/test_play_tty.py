"""`agility play` in a real terminal: a pseudo-terminal of 80×24 (and 100×30), a whole game against
bot:greedy answered "1" at every prompt.

At every prompt the visible screen (the last rows of what was written since the previous prompt)
must hold the numbered choices, the help line, the prompt and the bot's latest decision, and the
bot's whole position (issue 32: its cubes and tokens, each of its dogs, the card it played last);
no line may be wider than the terminal or end in "…".  Nothing written between two prompts may be
taller than the terminal (a long text — the board, the news, the end of the game — pages with the
tool's "more" prompt), and the last screen of a game ends with who won and how.  (Many seeded games against bot:strong and
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
from agility_cli.table.screen import MORE_PROMPT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")

ROOT = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?")
PROMPT = "> "
MORE = MORE_PROMPT  # a long text's pages (board, news, help, the end of the game): Enter goes on


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
        self.tail = ""  # what the program wrote after its last prompt
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
        """What was written up to the next prompt, the decision's ("> ") or the "more" prompt of a
        long text (``None`` when the program ended; what it wrote last is then :attr:`tail`): the
        prompt is the output's end once nothing more comes for a moment."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            text = ANSI.sub("", self.buffer).replace("\r\n", "\n")
            if (text.endswith("\n" + PROMPT) or text == PROMPT or text.endswith(MORE)) and not self._more(0.1):
                self.buffer = ""
                return text
            if not self._read(0.5):
                self.tail = text
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


@dataclass
class Session:
    """A whole game at a terminal: the decisions' prompts, the pages before a "more" prompt, the
    rows on screen once the program ended, and whether everything written between two prompts was
    on the screen at the second (nothing scrolled away unseen: every text fits or is paged)."""

    prompts: list[Prompt]
    pages: list[list[str]]
    last: list[str]
    scrolled: list[str]  # the texts taller than the terminal, that scrolled away unseen
    code: int


def written_rows(text: str) -> int:
    """Rows a text written after a prompt fills: its first row is the prompt's, ended by the echo."""
    return len(text.split("\n")) - 1


def play_through(path: Path, columns: int, rows: int, home: Path, answer: str = "1",
                 limit: int = 400) -> tuple[list[Prompt], int]:
    """A whole game of ``agility play`` answered ``answer`` at every prompt: the prompts seen."""
    game = play_session(path, columns, rows, home, answer, limit)
    return game.prompts, game.code


def play_session(path: Path, columns: int, rows: int, home: Path, answer: str = "1",
                 limit: int = 400) -> Session:
    """A whole game of ``agility play`` answered ``answer`` at every decision, Enter at every
    "more" prompt."""
    term = Terminal(["play", str(path), "--plain"], columns, rows, path.parent, home)  # the line mode on a terminal (issue 51)
    prompts: list[Prompt] = []
    pages: list[list[str]] = []
    scrolled: list[str] = []
    try:
        for _ in range(limit):
            text = term.until_prompt()
            if text is None:
                break
            if written_rows(text) > rows:
                scrolled.append(text)
            if text.endswith(MORE):
                pages.append(screen_of(text, rows))
                term.send("")
                continue
            prompts.append(Prompt(screen_of(text, rows), len(path.read_bytes().splitlines())))
            term.send(answer)
        else:
            raise AssertionError(f"the game did not end within {limit} prompts")
    finally:
        code = term.close()
    if written_rows(term.tail) > rows:
        scrolled.append(term.tail)
    return Session(prompts, pages, screen_of(term.tail, rows), scrolled, code)


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
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, int], tuple[Path, Session]]:
    out = {}
    for columns, rows in ((80, 24), (100, 30)):
        home = tmp_path_factory.mktemp(f"home{columns}")
        with pytest.MonkeyPatch.context() as mp:  # this machine's records go to a fresh directory
            mp.setenv("AGILITY_HOME", str(home))
            path = solo(tmp_path_factory.mktemp(f"tty{columns}"), seed=7)
        out[(columns, rows)] = (path, play_session(path, columns, rows, home))
    return out


def check_the_end(path: Path, game: Session, columns: int, rows: int) -> None:
    """Issue 32: nothing of the game scrolled away unseen (every text fits or is paged, the end of
    the game too), every page fits the terminal, and the last screen ends with who won and how."""
    assert not game.scrolled, "\n----\n".join(game.scrolled)
    for page in game.pages:
        assert page[-1] == MORE and all(cell_len(line) <= columns for line in page), "\n".join(page)
    state = gamefile.load(path).state
    assert state.winner is not None
    winner = state.players[state.winner].name
    shown = [line for line in game.last if line.strip()]
    assert any(line.startswith(f"The game is over: {winner} wins (") for line in shown[-2:]), "\n".join(game.last)  # last
    assert len(game.last) <= rows and all(cell_len(line) <= columns for line in game.last)


def test_every_decision_fits_80_by_24_with_the_choices_the_prompt_and_the_bots_move(games) -> None:
    path, game = games[(80, 24)]
    prompts = game.prompts
    assert game.code == 0
    assert len(prompts) > 20
    complete = check_screens(path, prompts, 80)
    print(f"\n80x24 pty: decision screens with the bot's whole position: {complete}/{len(prompts)} prompts; "
          f"the end of the game in {len(game.pages) + 1} pages")
    seconds = sum(1 for p in prompts if any(line.endswith("onto which course?") for line in p.screen))
    assert complete == len(prompts) - seconds  # every screen but an adoption's second step (no board)
    check_the_end(path, game, 80, 24)


def test_a_taller_wider_terminal_shows_more(games) -> None:
    path, game = games[(100, 30)]
    prompts = game.prompts
    assert game.code == 0
    check_screens(path, prompts, 100)
    check_the_end(path, game, 100, 30)
    small = games[(80, 24)][1]
    assert len(small.prompts) == len(prompts)  # the same game, the same decisions
    filled = [sum(1 for line in p.screen if line.strip()) for p in prompts]
    filled_small = [sum(1 for line in p.screen if line.strip()) for p in small.prompts]
    assert sum(filled) > sum(filled_small)
    wide = [max(map(cell_len, p.screen)) for p in prompts]
    assert max(wide) > 80  # a long line is cut later on a wider terminal
    assert len(game.pages) <= len(small.pages)  # the end of the game in as many pages or fewer


def typed(path: Path, columns: int, rows: int, home: Path, words: list[str]) -> list[str]:
    """``agility play`` typed ``words`` one at each decision's prompt (Enter at each "more"
    prompt, which takes no word): the text written before each prompt, and what came after the last."""
    term = Terminal(["play", str(path), "--plain"], columns, rows, path.parent, home)  # the line mode on a terminal (issue 51)
    texts: list[str] = []
    try:
        left = list(words)
        while (text := term.until_prompt()) is not None:
            texts.append(text)
            term.send("" if text.endswith(MORE) else left.pop(0))
    finally:
        assert term.close() == 0
    return [*texts, term.tail]


def test_board_news_and_help_inside_play_fit_the_terminal_or_are_paged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32: `board` (taller than 24 rows), `news` after the bot's turn and `help` at 80×24
    page with the tool's own "more" prompt, or fit: nothing scrolls away unseen, every page fits;
    at 100×30 a page holds more of the board."""
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    seen: dict[tuple[int, int], list[str]] = {}
    for columns, rows in ((80, 24), (100, 30)):
        (tmp_path / f"{columns}").mkdir()
        path = solo(tmp_path / f"{columns}", seed=7)
        words = ["board", "1", "1", "1", "news", "help", "quit"] if rows == 24 else ["board", "quit"]
        texts = typed(path, columns, rows, tmp_path / "home", words)
        for text in texts:
            assert written_rows(text) <= rows, text  # it fits, or a page ended where a prompt waits
            if text is not texts[-1]:  # the last: the command to go on with, whole (a long folder)
                assert all(cell_len(line) <= columns for line in text.split("\n")), text
        pages = [t for t in texts if t.endswith(MORE)]
        assert pages and "Action board" in pages[0]  # the board is paged: its first page
        assert written_rows(pages[0]) == rows  # a whole screen: the board's rows, then the "more" prompt
        after_board = texts[texts.index(pages[0]) + 1]
        assert "Turn 1 · alice" in after_board and "type menu (your choices again)" in after_board  # the rest
        seen[(columns, rows)] = pages
        if rows != 24:
            continue
        news = next(t for t in texts if t.startswith("news\n"))
        assert "bot:greedy " in news and news.endswith("\n" + PROMPT)
        assert any("Type a row's number" in t for t in texts)  # help, whole or paged
    assert written_rows(seen[(100, 30)][0]) > written_rows(seen[(80, 24)][0])  # a taller page shows more


def test_show_and_log_on_a_terminal_go_through_the_pager_when_taller_than_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32: a standalone command's text taller than the terminal goes to $PAGER (split into
    words, never run by a shell; `less -R` when unset), the whole of it; a pager that cannot be
    started prints the text as it is; a short text is printed as it is (piped: every line, as the
    other tests read it)."""
    monkeypatch.setenv("AGILITY_HOME", str(tmp_path / "home"))
    path = solo(tmp_path, seed=7)
    got = tmp_path / "paged.txt"
    pager = tmp_path / "pager.py"
    pager.write_text("import sys\nopen(sys.argv[1], 'w').write(sys.stdin.read())\n")
    monkeypatch.setenv("PAGER", f"{sys.executable} '{pager}' '{got}'")  # a folder with a space would be quoted
    term = Terminal(["show", str(path)], 80, 24, tmp_path, tmp_path / "home")
    assert term.until_prompt() is None and term.close() == 0
    text = got.read_text()
    assert "[alice's view]" in text and "Action board" in text and "Players" in text  # the whole board
    assert "Action board" not in term.tail  # not printed past the pager
    monkeypatch.setenv("PAGER", str(tmp_path / "no-such-pager"))
    term = Terminal(["show", str(path)], 80, 24, tmp_path, tmp_path / "home")
    assert term.until_prompt() is None and term.close() == 0
    assert "Action board" in term.tail and "Players" in term.tail  # no pager: the text as it is
    got.unlink()
    monkeypatch.setenv("PAGER", f"{sys.executable} '{pager}' '{got}'")
    term = Terminal(["log", str(path)], 80, 24, tmp_path, tmp_path / "home")  # nothing played: short
    assert term.until_prompt() is None and term.close() == 0
    assert not got.exists()


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
