"""Shared by the picture tests (test_picture.py, test_browser.py) and tests/regen_pictures.py:
the records of ``agility replay --json`` (in-process) and the golden reference picture."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from agility_cli.cli import app
from agility_cli.table.picture import board_svg

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
GOLDEN_GAME = GAMES / "random-b-all-extras.jsonl"
GOLDEN_DIR = Path(__file__).resolve().parent / "golden" / "pictures"
GOLDEN_PICTURE = GOLDEN_DIR / f"{GOLDEN_GAME.stem}.final.svg"
REGEN_VARIABLE = "AGILITY_REGEN_PICTURES"

_runner = CliRunner()


def cli_json_lines(*args: str) -> list[dict[str, Any]]:
    """``agility ARGS`` in-process, its standard output read as JSON Lines."""
    result = _runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


@lru_cache(maxsize=None)
def _replay(path: str, extra: tuple[str, ...]) -> str:
    return json.dumps(cli_json_lines("replay", path, "--json", *extra))


def replay_records(path: Path = GOLDEN_GAME, *extra: str) -> list[dict[str, Any]]:
    """The records of ``agility replay PATH --json EXTRA…``: ``{"line", "state"}`` then
    ``{"line", "move", "state"}`` (a fresh copy each call: tests may change them)."""
    records: list[dict[str, Any]] = json.loads(_replay(str(path), extra))
    return records


def show_state(path: Path, *extra: str) -> dict[str, Any]:
    """``agility show PATH --json EXTRA…``: one STATE, as its viewer sees it."""
    (state,) = cli_json_lines("show", str(path), "--json", *extra)
    return state


def golden_picture() -> str:
    """The picture the golden reference holds: the final board of the golden game."""
    last = replay_records()[-1]
    return board_svg(last["state"], line=last["line"])
