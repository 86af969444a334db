"""The handshake commands on a real terminal (issue 31): ``new``, ``join`` and the creator's reveal
print what to mail as the armoured block ``agility send`` prints, never a raw line of several KB
(mail programs break it, and it fills the screen), and every line they print fits 80 columns.
To a pipe, or with ``--raw``, they print the raw line, as scripts expect.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def on_a_terminal(args: list[str], home: Path, cwd: Path, code: int = 0) -> str:
    """Run ``agility ARGS`` with standard output and error on a pseudo-terminal of 80 columns; what
    it printed."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("AGILITY_PLAYER", "COLUMNS", "LINES")}
    env |= {"AGILITY_HOME": str(home), "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80"}
    proc = subprocess.Popen([sys.executable, "-m", "agility_cli", *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, env=env, cwd=cwd)
    os.close(slave)
    out = read_until_closed(master)
    proc.wait(timeout=120)
    os.close(master)
    assert proc.returncode == code, out.decode(errors="replace")
    return out.decode().replace("\r\n", "\n")


def read_until_closed(master: int) -> bytes:
    """What the other side of a pseudo-terminal wrote, until it closed."""
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture
def short_path() -> Iterator[Path]:
    """A folder with a short name: a path longer than a line cannot fit one (the folders pytest
    makes for a worker are long), and the test is about everything else."""
    folder = Path(tempfile.mkdtemp(prefix="ag", dir="/tmp" if os.path.isdir("/tmp") else None))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_the_handshake_prints_blocks_that_fit_80_columns_on_a_terminal(short_path: Path) -> None:
    tmp_path = short_path
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    alice.mkdir()
    bob.mkdir()
    made = on_a_terminal(["new", "game.jsonl", "--players", "alice", "bob"], tmp_path / "alice-home", alice)
    raw = (alice / "game.jsonl").read_bytes()
    assert "BEGIN AGILITY LINES" in made and '{"kind"' not in made, made[:500]
    assert max(map(len, made.splitlines())) <= 80, max(made.splitlines(), key=len)
    # bob takes the block in, joins; his join is a block too
    done = subprocess.run([sys.executable, "-m", "agility_cli", "apply", "game.jsonl", "-"], input=made, text=True,
                          capture_output=True, cwd=bob, env=os.environ | {"AGILITY_HOME": str(tmp_path / "bob-home")})
    assert done.returncode == 0, done.stderr
    assert (bob / "game.jsonl").read_bytes() == raw
    joined = on_a_terminal(["join", "game.jsonl"], tmp_path / "bob-home", bob)
    assert "BEGIN AGILITY LINES" in joined and '{"kind"' not in joined
    assert max(map(len, joined.splitlines())) <= 80, max(joined.splitlines(), key=len)


def test_to_a_pipe_or_with_raw_the_line_itself(tmp_path: Path) -> None:
    piped = subprocess.run([sys.executable, "-m", "agility_cli", "new", "g.jsonl", "--players", "alice", "bob"],
                           capture_output=True, text=True, cwd=tmp_path,
                           env=os.environ | {"AGILITY_HOME": str(tmp_path / "home")})
    assert piped.returncode == 0 and piped.stdout.startswith('{"kind":"game"'), piped.stdout[:200]
    raw = on_a_terminal(["new", "h.jsonl", "--players", "alice", "bob", "--raw"], tmp_path / "home2", tmp_path)
    assert raw.startswith('{"kind":"game"') and "BEGIN AGILITY LINES" not in raw


def test_a_refusal_on_a_terminal_is_wrapped_to_its_width(short_path: Path) -> None:
    """Refusals and warnings are wrapped at the terminal's width on a terminal (a 200-column
    line was the rule), and left whole on a pipe, where scripts match their phrases."""
    game = short_path / "g.jsonl"
    done = subprocess.run([sys.executable, "-m", "agility_cli", "new", str(game), "--seed", "4", "--players", "alice",
                           "bot:greedy", "-q"], capture_output=True, env=os.environ | {"AGILITY_HOME": str(short_path / "h")})
    assert done.returncode == 0
    for _ in range(3):
        subprocess.run([sys.executable, "-m", "agility_cli", "bot", str(game), "--moves", "1"], capture_output=True,
                       env=os.environ | {"AGILITY_HOME": str(short_path / "h")})
    refused = on_a_terminal(["move", str(game), "play", "99"], short_path / "h", short_path, code=1)
    assert "refused" in refused and max(map(len, refused.splitlines())) <= 80, refused
    piped = subprocess.run([sys.executable, "-m", "agility_cli", "move", str(game), "play", "99"], capture_output=True,
                           text=True, env=os.environ | {"AGILITY_HOME": str(short_path / "h")})
    first = piped.stderr.splitlines()[0]
    assert piped.returncode == 1 and "refused" in first and first.endswith(")")  # one line, whole


def test_replay_s_story_fits_a_terminal_and_80_columns_on_a_pipe(short_path: Path) -> None:
    game = short_path / "g.jsonl"
    env = os.environ | {"AGILITY_HOME": str(short_path / "h")}
    assert subprocess.run([sys.executable, "-m", "agility_cli", "new", str(game), "--seed", "4", "--players", "alice",
                           "bot:greedy", "-q"], capture_output=True, env=env).returncode == 0
    subprocess.run([sys.executable, "-m", "agility_cli", "bot", str(game), "--moves", "20"], capture_output=True, env=env)
    told = on_a_terminal(["replay", str(game)], short_path / "h", short_path)
    assert "Result" in told or "Game in progress" in told
    assert max(map(len, told.splitlines())) <= 80, max(told.splitlines(), key=len)
    piped = subprocess.run([sys.executable, "-m", "agility_cli", "replay", str(game)], capture_output=True, text=True,
                           env=env).stdout
    assert max(map(len, piped.splitlines())) <= 80  # to a pipe too, 80 columns (issue 52; --json for programs)
