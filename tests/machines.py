"""Two players' machines for end-to-end tests: a folder and a key store each (separate
``AGILITY_HOME``), commands run in-process as a person types them — no ``--as``, no
``AGILITY_PLAYER``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from agility_cli.cli import app

runner = CliRunner()


class Machine:
    """One player's machine: a folder with their copy of the game and their own key store."""

    def __init__(self, root: Path, name: str):
        self.name = name
        self.dir = root / name
        self.home = root / f"{name}-home"
        self.dir.mkdir()
        self.file = self.dir / "game.jsonl"

    def run(self, *args: Any, input: str | bytes | None = None, home: Path | None = None,
            env: dict[str, str | None] | None = None) -> Any:
        environment: dict[str, str | None] = {"AGILITY_HOME": str(home or self.home), "AGILITY_PLAYER": None}
        result = runner.invoke(app, [str(a) for a in args], input=input, env={**environment, **(env or {})})
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output, result.stderr)
        assert "Traceback" not in result.output + (result.stderr or "")
        return result


def start(tmp_path: Path, names: tuple[str, str] = ("alice", "bob"), deck: str = "seed") -> tuple[Machine, Machine]:
    """The handshake by mail, as the README tells it: new, apply, join, apply (the reveal follows).

    ``deck``: ``seed`` (a format-2 game, the deck drawn from the joint seed: the tests of what every
    game does, line for line) or ``sealed`` (the default of ``new``, format 4: R42)."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    created = alice.run("new", alice.file, "--players", *names, "--deck", deck)
    assert created.exit_code == 0, created.output
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text()).exit_code == 0
    joined = bob.run("join", bob.file)
    assert joined.exit_code == 0, joined.output
    applied = alice.run("apply", alice.file, "-", input=joined.stdout)
    assert applied.exit_code == 0, applied.output
    mail(alice, bob)
    return alice, bob


def mail(src: Machine, dst: Machine) -> list[Any]:
    """``send`` on one machine, ``apply`` of what it printed on the other; both outputs returned."""
    sent = src.run("send", src.file)
    if not sent.stdout.strip():
        return [sent]
    got = dst.run("apply", dst.file, "-", input=sent.stdout)
    assert got.exit_code == 0, got.output
    return [sent, got]


