"""The work a verified replay does, counted (issue 35): one SHA-256 per line for the chain, one
digest per decision, one decode per line — so that hashing a line twice, or reading the file
again to build the game's chain, cannot come back without a test failing.  Nothing is timed
(the benchmark times it: ``python -m agility_cli.cli.bench``, replay ÷ floor)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from agility_cli.cli import bench
from agility_cli.engine.moves import LINE_DECODER
from agility_cli.engine.state import canonical
from agility_cli.record import gamefile, lines as lines_module
from agility_cli.record.lines import MAX_DEPTH, _too_deep, line_hash, sealed_header

GAMES = Path(__file__).resolve().parents[1] / "games"
FILES = sorted(GAMES.glob("*.jsonl"))
FAIR = [p for p in FILES if not sealed_header(p.read_bytes())]


class _Hashes:
    """``hashlib.sha256`` through a counter: the bytes of every call."""

    def __init__(self) -> None:
        self.real = hashlib.sha256
        self.inputs: list[bytes] = []

    def __call__(self, data: Any = b"", *args: Any, **kwargs: Any) -> Any:
        self.inputs.append(bytes(data))
        return self.real(data, *args, **kwargs)


class _Decodes:
    """A decoder through a counter (``decode`` only, as the record layer calls it)."""

    def __init__(self, decoder: Any) -> None:
        self.decoder = decoder
        self.inputs: list[bytes] = []

    def decode(self, raw: bytes) -> Any:
        self.inputs.append(bytes(raw))
        return self.decoder.decode(raw)


def _counted(monkeypatch: pytest.MonkeyPatch) -> _Hashes:
    counter = _Hashes()
    monkeypatch.setattr(hashlib, "sha256", counter)
    return counter


def test_the_fair_golden_games_are_the_replay_benchmarks_files() -> None:
    assert len(FAIR) >= 6 and len(FAIR) < len(FILES)  # the sealed one left out
    assert bench.fair_games(FILES) == FAIR


@pytest.mark.parametrize("path", FAIR, ids=[p.stem for p in FAIR])
def test_a_verified_replay_hashes_each_line_once_and_each_state_once(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    rows = data.split(b"\n")[:-1]
    gamefile.load_bytes(data, str(path))  # the component set and the decoders made before counting
    hashes = _counted(monkeypatch)
    game = gamefile.load_bytes(data, str(path))
    monkeypatch.undo()
    on_lines = Counter(raw for raw in hashes.inputs if raw in set(rows))
    assert set(on_lines) == set(rows), "every line's hash is the next line's prev: each is hashed"
    assert max(on_lines.values()) == 1, [rows.index(raw) + 1 for raw, n in on_lines.items() if n > 1]
    others = [raw for raw in hashes.inputs if raw not in on_lines]
    prng = [raw for raw in others if raw.startswith(b"agility:")]  # setup's seeded streams (R11)
    assert len(others) - len(prng) == game.lines - 1, "one digest a decision"
    assert all(raw == canonical(game.state) for raw in others[-1:]), "the last digest is the final state's"
    assert len(prng) <= 2
    assert game.hashes == [line_hash(raw) for raw in rows] and game.tip == line_hash(rows[-1])


@pytest.mark.parametrize("path", FAIR[:3], ids=[p.stem for p in FAIR[:3]])
def test_a_verified_replay_decodes_each_line_once(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = path.read_bytes()
    decodes, peeks = _Decodes(lines_module.LINE_DECODER), _Decodes(lines_module._PEEK_DECODER)
    monkeypatch.setattr(lines_module, "LINE_DECODER", decodes)
    monkeypatch.setattr(lines_module, "_PEEK_DECODER", peeks)
    game = gamefile.load_bytes(data, str(path))
    assert decodes.inputs == data.split(b"\n")[:-1]
    assert peeks.inputs == [], "the deciders come from the lines decoded, not from a second look"
    assert game.deciders == [""] + [LINE_DECODER.decode(raw).player for raw in decodes.inputs[1:]]


def test_the_counter_sees_a_line_hashed_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test above can fail: reading the chain from the file again (as ``chain_of`` does for a
    start that :func:`verify` did not make) hashes every line a second time, and the counter sees it."""
    path = FAIR[0]
    data = path.read_bytes()
    hashes = _counted(monkeypatch)
    game = gamefile.load_bytes(data, str(path))
    assert gamefile.chain_of(data, game.lines)[0] == game.hashes
    monkeypatch.undo()
    assert max(Counter(hashes.inputs).values()) == 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_chain_a_replay_keeps_is_the_files(path: Path) -> None:
    """Each step's hash, the game's hashes, deciders and tip: those read from the file again,
    for a fair game and for the sealed one (a handshake, read twice: the second time from the
    checkpoint of its verified bytes, whose lines are not verified again)."""
    data = path.read_bytes()
    rows = data.split(b"\n")[:-1]
    for _ in range(2):
        game = gamefile.load_bytes(data, str(path))
        assert (game.hashes, game.deciders) == gamefile.chain_of(data, len(rows))
        assert game.tip == line_hash(rows[-1]) and game.lines == len(rows)
    for item in gamefile.verify(data, str(path), held={}):
        if isinstance(item, gamefile.Start):
            assert item.hashes == [line_hash(raw) for raw in rows[: item.line]]
        else:
            assert item.hash == line_hash(item.raw)


def test_the_chain_of_a_handshake_game(tmp_path: Path) -> None:
    """R40: a fair game whose seed was drawn by the handshake: the header, the join and the
    reveal come before the first decision, and the chain names their makers."""
    from test_fair import handshake

    alice, _ = handshake(tmp_path)
    assert alice.run("move", alice.file, "done").exit_code in (0, 1)
    data = alice.bytes()
    game = gamefile.load_bytes(data, str(alice.file))
    assert (game.hashes, game.deciders) == gamefile.chain_of(data, game.lines)
    assert game.deciders[:3] == ["", "bob", "alice"] and game.lines >= 3


def test_too_deep_skips_strings_and_counts_every_bracket() -> None:
    deep = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    assert _too_deep(deep) and not _too_deep(deep[1:-1])
    hidden = json.dumps({"kind": "x", "s": '\\"' + "[" * 60, "t": "{" * 40}).encode()
    assert not _too_deep(hidden)  # brackets inside strings, escaped quotes among them
    assert _too_deep(b'["' + b"]" * 5 + b'",' + deep + b"]")
    assert _too_deep(b"[]" * 40 + b"[" * (MAX_DEPTH + 1)) and not _too_deep(b"[]" * 40 + b"[" * MAX_DEPTH)
    assert not _too_deep(b'"' + b"[" * 50)  # an unclosed string runs to the end of the line


def test_the_benchmark_measures_replay_against_its_floor_and_the_sealed_game() -> None:
    floor = bench.bench_floor(FAIR[:2], 1)
    assert floor["decisions"] == sum(p.read_bytes().count(b"\n") - 1 for p in FAIR[:2])
    assert floor["ratio"] > 0 and floor["ratio_msgspec"] > 0 and floor["lines"] == floor["decisions"] + 2  # no timing asserted
    sealed = bench.bench_sealed_verify(GAMES / "sealed-by-mail.jsonl", 1)
    assert 0 < sealed["decisions"] < sealed["lines"] and sealed["decisions_per_s"] > 0
    assert ("replay_floor", "ratio", "<=", 5) in [row[:4] for row in bench.TARGETS]


def test_the_benchmarks_replay_option_prints_the_floors_row(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--replay", "--runs", "1"])
    out = capsys.readouterr().out
    assert "parse+hash floor" in out and "<= 5" in out and "sealed golden game verified" in out
