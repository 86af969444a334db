"""Valid game files for the file-level tests (audit, tamper, concurrency), made through the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.cli import app
from agility_cli.engine.moves import Move
from agility_cli.engine.rng import Rng

runner = CliRunner()


def new_game(path: Path, seed: int = 42) -> None:
    """`agility new PATH --seed SEED --quiet`."""
    r = runner.invoke(app, ["new", str(path), "--seed", str(seed), "--quiet"])
    assert r.exit_code == 0, r.output


def play_random(path: Path, moves: int, seed: int) -> None:
    """Append up to ``moves`` decisions picked at random (seeded) from the legal ones."""
    rng = Rng.for_purpose(seed, "test")

    def decide(game: gamefile.Game) -> list[Move]:
        state = game.state.copy()
        chosen: list[Move] = []
        for _ in range(moves):
            legal = rules.legal_moves(state)
            if not legal:
                break
            chosen.append(legal[rng.below(len(legal))])
            rules.apply_in_place(state, chosen[-1])
        return chosen

    gamefile.append_moves(path, decide)


def one_player(lines: list[bytes]) -> list[bytes]:
    """The first lines of ``lines`` made by one player: what one mail holds (R41, a mail never
    decides for both seats)."""
    import json

    who = [json.loads(raw).get("player") for raw in lines]
    end = next((i for i, p in enumerate(who) if p != who[0]), len(lines))
    return lines[:end]


def assert_state_matches(expected: object, actual: object, where: str = "$") -> None:
    """``actual`` (a STATE JSON) holds every field of ``expected`` with the same value.

    STATE may gain fields over time (INTERFACE.md: "more are welcome"); a golden expected state
    pins every field it was recorded with.
    """
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is missing"
            assert_state_matches(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), f"{where}: {actual!r} != {expected!r}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_state_matches(e, a, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def run_cli(*args: object, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    """``agility ARGS`` in-process; no traceback may ever show."""
    result = runner.invoke(app, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in result.output
    assert "Traceback" not in (result.stderr or "")
    return result


def solo(tmp_path: Path, seed: int = 4) -> Path:
    """A game of alice against bot:greedy (``--seed``), as `agility new` writes it."""
    path = tmp_path / "solo.jsonl"
    assert run_cli("new", path, "--seed", seed, "--players", "alice", "bot:greedy", "-q").exit_code == 0
    return path
