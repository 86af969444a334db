"""Tamper evidence (R35, INTERFACE.md): every corruption of a game file is caught at its line.

Each test corrupts a valid game file one way — an edited value, a dropped, swapped or duplicated
line, bad JSON, an unknown field, a changed seed, an empty file, a non-JSON file, a partial last
line, a fork, git conflict markers, CRLF endings — and checks that ``agility replay`` exits 3
naming the right line and saying what is wrong, never with a traceback.  A hypothesis property
test mutates valid files at random: each mutant replays (exit 0) or is refused with exit 3 and a
line number, nothing else.  A second one puts hostile values in every field — control characters
and escape sequences, deep nesting, huge strings and numbers — and runs the reading and writing
commands on the mutant: exit 0, 1 or 3 only (never 4, an internal error), and no control character
reaches the terminal.

The valid games are built with ``agility new`` and moves picked from ``rules.legal_moves`` with
the game's own seeded PRNG, appended through ``gamefile.append_moves`` (no bots involved).
"""

from __future__ import annotations

import atexit
import functools
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from storytext import unwrapped
from gamefiles import new_game, play_random
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from agility_cli.record import gamefile
from agility_cli.engine import rules
from agility_cli.cli import app
from agility_cli.engine.moves import Header
from agility_cli.engine.state import digest

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


# ----------------------------------------------------------------------------------------------
# Building valid games


def build_game(path: Path, *, seed: int = 42, moves: int = 50, play_seed: int = 7) -> list[bytes]:
    new_game(path, seed)
    play_random(path, moves, play_seed)
    return path.read_bytes().split(b"\n")[:-1]


def joined(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


@functools.lru_cache(maxsize=None)
def base_lines(seed: int = 42, moves: int = 50, play_seed: int = 7) -> tuple[bytes, ...]:
    with tempfile.TemporaryDirectory() as d:
        return tuple(build_game(Path(d) / "g.jsonl", seed=seed, moves=moves, play_seed=play_seed))


def edit(lines: list[bytes], index: int, change: Callable[[dict[str, Any]], None]) -> list[bytes]:
    obj = json.loads(lines[index])
    change(obj)
    out = list(lines)
    out[index] = json.dumps(obj, separators=(",", ":")).encode()
    return out


def first_index(lines: list[bytes], kind: str, start: int = 1) -> int:
    return next(i for i in range(start, len(lines)) if json.loads(lines[i])["kind"] == kind)


def forked(lines: list[bytes]) -> tuple[list[bytes], int, int, int]:
    """Two branches from a common prefix with different first decisions.

    Returns the merged file (prefix, branch A, branch B) and the line numbers where A starts, where B
    starts and where B ends.
    """
    with tempfile.TemporaryDirectory() as d:
        base = Path(d) / "base.jsonl"
        # A fork point where the player has a real choice.
        cut = next(
            k for k in range(20, len(lines))
            if len(rules.legal_moves(gamefile.load_bytes(joined(lines[:k])).state)) >= 2
        )
        base.write_bytes(joined(lines[:cut]))
        branches = []
        for pick in (0, 1):
            path = Path(d) / f"b{pick}.jsonl"
            path.write_bytes(joined(lines[:cut]))
            gamefile.append_moves(path, lambda g, pick=pick: [rules.legal_moves(g.state)[pick]])
            play_random(path, 3, 100 + pick)
            branches.append(path.read_bytes().split(b"\n")[cut:-1])
    a, b = branches
    assert a[0] != b[0]
    merged = list(lines[:cut]) + a + b
    return merged, cut + 1, cut + 1 + len(a), cut + len(a) + len(b)


# ----------------------------------------------------------------------------------------------
# Running replay


def replay(path: Path, *extra: str) -> Any:
    r = runner.invoke(app, ["replay", str(path), *extra])
    assert "Traceback" not in r.output
    assert "Traceback" not in (r.stderr or "")
    return r


def check_refused(tmp_path: Path, data: bytes, line: int, *words: str) -> str:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    for extra in ((), ("--json",)):
        r = replay(path, *extra)
        assert r.exit_code == 3, (extra, r.output)
        assert f", line {line}:" in r.stderr, r.stderr
        for word in words:
            assert word in r.stderr, (word, r.stderr)
    assert path.read_bytes() == data  # replay never writes
    return r.stderr


def test_the_base_game_replays(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(joined(list(base_lines())))
    r = replay(path)
    assert r.exit_code == 0, r.output
    assert "Every line verified" in unwrapped(r.stdout)  # to a pipe the story is wrapped at 80 (issue 52)


# ----------------------------------------------------------------------------------------------
# One test per corruption


def test_edited_value_is_caught_at_its_line(tmp_path: Path):
    lines = list(base_lines())
    i = first_index(lines, "play", 5)
    bad = edit(lines, i, lambda o: o.update(card="t01" if o["card"] != "t01" else "t02"))
    check_refused(tmp_path, joined(bad), i + 1, "illegal decision", "legal there:")


def test_edited_digest_is_a_digest_mismatch(tmp_path: Path):
    lines = list(base_lines())
    i = first_index(lines, "done", 5)
    bad = edit(lines, i, lambda o: o.update(digest="0" * 64))
    check_refused(tmp_path, joined(bad), i + 1, "digest mismatch", f"line {i + 1} was edited")


def test_edited_line_with_recomputed_digest_breaks_the_next_line(tmp_path: Path):
    """A careful forger recomputes the digest; the next line's prev still gives the edit away."""
    lines = list(base_lines())
    i = first_index(lines, "play", 5)
    before = gamefile.load_bytes(joined(lines[:i])).state
    obj = json.loads(lines[i])
    alternative = next(
        m for m in rules.legal_moves(before)
        if type(m).__name__ == "Play" and (m.card, m.reward, m.flex) != (obj["card"], obj["reward"], obj["flex"])
    )
    after = rules.apply(before, alternative)
    bad = edit(lines, i, lambda o: o.update(card=alternative.card, reward=alternative.reward,
                                            flex=alternative.flex, digest=digest(after)))
    check_refused(tmp_path, joined(bad), i + 2, "broken hash chain", f"line {i + 1} was likely edited")


def test_edited_prev_is_caught(tmp_path: Path):
    lines = list(base_lines())
    bad = edit(lines, 10, lambda o: o.update(prev="x" * 12))
    check_refused(tmp_path, joined(bad), 11, "prev", "not a SHA-256")


def test_wrong_player_is_caught(tmp_path: Path):
    lines = list(base_lines())
    bad = edit(lines, 10, lambda o: o.update(player="bob" if o["player"] == "alice" else "alice"))
    check_refused(tmp_path, joined(bad), 11, "wrong player")


def test_dropped_line(tmp_path: Path):
    lines = list(base_lines())
    bad = lines[:12] + lines[13:]
    check_refused(tmp_path, joined(bad), 13, "n=12 is missing", "dropped")


def test_two_dropped_lines(tmp_path: Path):
    lines = list(base_lines())
    bad = lines[:12] + lines[14:]
    check_refused(tmp_path, joined(bad), 13, "n=12–13 is missing", "2 lines were dropped")


def test_swapped_lines(tmp_path: Path):
    lines = list(base_lines())
    bad = lines[:12] + [lines[13], lines[12]] + lines[14:]
    check_refused(tmp_path, joined(bad), 13, "out of order", "swap lines 13 and 14")


def test_duplicated_line(tmp_path: Path):
    lines = list(base_lines())
    bad = lines[:13] + [lines[12]] + lines[13:]
    check_refused(tmp_path, joined(bad), 14, "exact copy of line 13", "delete line 14")


def test_duplicated_line_far_away(tmp_path: Path):
    lines = list(base_lines())
    bad = lines + [lines[5]]
    check_refused(tmp_path, joined(bad), len(lines) + 1, "exact copy of line 6")


def test_bad_json(tmp_path: Path):
    lines = list(base_lines())
    bad = list(lines)
    bad[20] = bad[20][:-3]
    check_refused(tmp_path, joined(bad), 21, "not valid JSON")


def test_bad_json_in_the_middle_of_a_line(tmp_path: Path):
    lines = list(base_lines())
    bad = list(lines)
    bad[20] = bad[20].replace(b'":', b'" ', 1)
    check_refused(tmp_path, joined(bad), 21, "not valid JSON", "near")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda o: o.update(mood="happy"), ("unknown field `mood`",)),
        (lambda o: o.pop("digest"), ("missing field `digest`",)),
        (lambda o: o.update(n=str(o["n"])), ("wrong type for `n`", "expected int, got str")),
        (lambda o: o.update(kind="teleport"), ("unknown kind of line 'teleport'", "known kinds:")),
    ],
    ids=["unknown-field", "missing-field", "wrong-type", "unknown-kind"],
)
def test_schema_violations(tmp_path: Path, change: Callable[[dict[str, Any]], None], words: tuple[str, ...]):
    lines = list(base_lines())
    check_refused(tmp_path, joined(edit(lines, 15, change)), 16, "does not match the format", *words)


def test_changed_seed_breaks_line_2(tmp_path: Path):
    lines = list(base_lines())
    bad = edit(lines, 0, lambda o: o.update(seed=o["seed"] + 1))
    check_refused(tmp_path, joined(bad), 2, "the header was changed")


def test_changed_board_breaks_line_2(tmp_path: Path):
    lines = list(base_lines())

    def swap(o: dict[str, Any]) -> None:
        o["board"][1], o["board"][2] = o["board"][2], o["board"][1]

    check_refused(tmp_path, joined(edit(lines, 0, swap)), 2, "the header was changed")


def test_reformatted_header_is_named(tmp_path: Path):
    lines = list(base_lines())
    bad = [json.dumps(json.loads(lines[0])).encode()] + lines[1:]  # spaces after : and ,
    stderr = check_refused(tmp_path, joined(bad), 2, "re-formatted", "restore line 1 byte for byte")
    assert lines[0].decode() in stderr


def test_empty_file(tmp_path: Path):
    check_refused(tmp_path, b"", 1, "empty")


def test_non_json_file(tmp_path: Path):
    check_refused(tmp_path, b"Dear Bob,\nhere is my move.\n", 1, "not an agility game file", "not JSON")


def test_binary_file(tmp_path: Path):
    check_refused(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, "not an agility game file", "binary")


def test_headerless_file(tmp_path: Path):
    lines = list(base_lines())
    check_refused(tmp_path, joined(lines[1:]), 1, "must be the game header", "'play' line")


def test_partial_last_line(tmp_path: Path):
    lines = list(base_lines())
    data = joined(lines)[:-30]
    check_refused(tmp_path, data, len(lines), "incomplete last line", "agility repair")


def test_missing_final_newline(tmp_path: Path):
    lines = list(base_lines())
    check_refused(tmp_path, joined(lines)[:-1], len(lines), "no newline at the end", "adds the missing newline")


def test_partial_header(tmp_path: Path):
    lines = list(base_lines())
    check_refused(tmp_path, lines[0][:40], 1, "incomplete")


def test_fork_after_a_merge_names_both_lines(tmp_path: Path):
    merged, a, b, end = forked(list(base_lines()))
    n = a - 1
    check_refused(
        tmp_path, joined(merged), b,
        f"decision n={n} appears twice, on line {a}", f"and on line {b}", "forked",
        f"the first is lines {a}–{b - 1} (", f"the second lines {b}–{end} (", "git checkout --ours",
        "--git` keeps your side",
    )


def test_git_conflict_markers(tmp_path: Path):
    merged, a, b, end = forked(list(base_lines()))
    prefix, ours, theirs = merged[: a - 1], merged[a - 1: b - 1], merged[b - 1:]
    data = joined(prefix + [b"<<<<<<< HEAD"] + ours + [b"======="] + theirs + [b">>>>>>> bob/main"])
    check_refused(tmp_path, data, a, "git conflict marker", "git show :2:", "git show :3:", "keep one side")


def test_crlf_line_endings(tmp_path: Path):
    data = joined(list(base_lines())).replace(b"\n", b"\r\n")
    check_refused(tmp_path, data, 1, "carriage return", "CRLF")


def test_quoted_mail_line_in_the_file(tmp_path: Path):
    lines = list(base_lines())
    bad = lines[:9] + [b"> " + lines[9]] + lines[10:]
    check_refused(tmp_path, joined(bad), 10, "quoted mail text", "agility apply")


def test_blank_line(tmp_path: Path):
    lines = list(base_lines())
    check_refused(tmp_path, joined(lines[:9] + [b""] + lines[9:]), 10, "blank line")


def test_decision_after_the_end_of_the_game(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    new_game(path, seed=5)
    play_random(path, 2000, 3)
    game = gamefile.load(path)
    if game.state.winner is None:
        pytest.skip("the random game did not end")
    lines = path.read_bytes().split(b"\n")[:-1]
    extra = edit(lines, len(lines) - 1, lambda o: o.update(n=o["n"] + 1, prev=gamefile.line_hash(lines[-1])))
    check_refused(tmp_path, joined(lines + [extra[-1]]), len(lines) + 1, "after the end of the game")


def test_real_subprocess_replay(tmp_path: Path):
    lines = list(base_lines())
    path = tmp_path / "bad.jsonl"
    path.write_bytes(joined(lines[:12] + [lines[13], lines[12]] + lines[14:]))
    proc = subprocess.run(
        [sys.executable, "-m", "agility_cli", "replay", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 3
    assert ", line 13:" in proc.stderr and "out of order" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    path.write_bytes(b"")
    proc = subprocess.run(
        [sys.executable, "-m", "agility_cli", "replay", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 3 and ", line 1:" in proc.stderr and "Traceback" not in proc.stderr


def test_move_refuses_to_append_to_a_damaged_file(tmp_path: Path):
    lines = list(base_lines())
    path = tmp_path / "bad.jsonl"
    data = joined(lines[:12] + lines[13:])
    path.write_bytes(data)
    r = runner.invoke(app, ["move", str(path), "done"])
    assert r.exit_code == 3 and ", line 13:" in r.stderr
    assert path.read_bytes() == data


# ----------------------------------------------------------------------------------------------
# Random mutants


def _mutate(data: Any, lines: list[bytes]) -> bytes:
    kind = data.draw(
        st.sampled_from(["flip", "insert", "delete", "truncate", "field", "drop", "dup", "swap", "join"]),
        label="mutation",
    )
    raw = joined(lines)
    if kind == "flip":
        i = data.draw(st.integers(0, len(raw) - 1))
        x = data.draw(st.integers(1, 255))
        return raw[:i] + bytes([raw[i] ^ x]) + raw[i + 1:]
    if kind == "insert":
        i = data.draw(st.integers(0, len(raw)))
        return raw[:i] + data.draw(st.binary(min_size=1, max_size=8)) + raw[i:]
    if kind == "delete":
        i = data.draw(st.integers(0, len(raw) - 1))
        k = data.draw(st.integers(1, 40))
        return raw[:i] + raw[i + k:]
    if kind == "truncate":
        return raw[: data.draw(st.integers(0, len(raw)))]
    if kind == "join":  # two lines glued (a lost newline)
        i = data.draw(st.integers(0, len(lines) - 2))
        return joined(lines[:i] + [lines[i] + lines[i + 1]] + lines[i + 2:])
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    if kind == "field":
        obj = json.loads(lines[i])
        key = data.draw(st.sampled_from(sorted(obj)), label="field")
        value = data.draw(
            st.one_of(
                st.integers(-3, 10**20), st.text(max_size=8), st.none(), st.booleans(),
                st.sampled_from(["red", "green", "black", "yellow", "blue", "t01", "t39", "1A", "alice", "bob"]),
                st.lists(st.integers(0, 3), max_size=3),
            ),
            label="value",
        )
        if data.draw(st.booleans(), label="hostile"):
            value = data.draw(hostile_values(), label="hostile value")
        obj[key] = value
        out = list(lines)
        out[i] = _forged(obj)
        return joined(out)
    if kind == "drop":
        return joined(lines[:i] + lines[i + 1:])
    if kind == "dup":
        j = data.draw(st.integers(0, len(lines)), label="at")
        return joined(lines[:j] + [lines[i]] + lines[j:])
    j = data.draw(st.integers(0, len(lines) - 1), label="with")
    out = list(lines)
    out[i], out[j] = out[j], out[i]
    return joined(out)


#: Characters an opponent could use to rewrite a terminal: C0/C1 controls, DEL, bidi overrides.
CONTROL_CHARS = "".join(map(chr, [*range(0x00, 0x20), 0x7F, 0x9B, 0x85])) + "\u202e\u2066\u200f\ufeff"
TERMINAL_ESCAPES = ["\x1b[2J", "\x1b]8;;http://evil\x07", "\r\x1b[2Kapplied", "\x1b[8m", "\x9b31m"]


def _forged(obj: dict[str, Any]) -> bytes:
    """A forged line's bytes; a value nested too deep for Python's own encoder becomes a line of
    that depth written directly (the file reader must refuse it at its line either way)."""
    try:
        return json.dumps(obj, separators=(",", ":")).encode()
    except (ValueError, RecursionError):
        return b"[" * 5000 + b"]" * 5000


def _nested(depth: int, leaf: Any) -> Any:
    for _ in range(depth):
        leaf = [leaf] if depth % 2 else {"a": leaf}
    return leaf


def hostile_values() -> st.SearchStrategy[Any]:
    """Values an opponent might forge into any field of a line."""
    text = st.text(alphabet=st.sampled_from(CONTROL_CHARS + "ab{}[]\"'"), max_size=20)
    return st.one_of(
        text,
        st.builds(lambda pre, esc, post: pre + esc + post, st.sampled_from(["", "alice", "t01"]),
                  st.sampled_from(TERMINAL_ESCAPES), st.sampled_from(["", "bob", "x" * 50])),
        st.builds(_nested, st.sampled_from([40, 200, 3000]), st.sampled_from([0, "x", None])),
        st.builds(lambda n, ch: ch * n, st.sampled_from([300, 70_000, 1_100_000]), st.sampled_from(["x", "\x1b"])),
        st.sampled_from([10**30, -(10**30), 1.5e308, 2**63, -(2**63) - 1]),
    )


_MUTANT_DIR = tempfile.mkdtemp(prefix="agility-mutants-")
atexit.register(shutil.rmtree, _MUTANT_DIR, True)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_mutants_replay_or_are_refused_at_a_line(data: Any):
    lines = list(base_lines(42 + data.draw(st.integers(0, 1), label="game"), 40))
    mutant = _mutate(data, lines)
    path = Path(_MUTANT_DIR) / "mutant.jsonl"
    path.write_bytes(mutant)
    extra = data.draw(st.sampled_from([(), ("--json",)]), label="mode")
    r = runner.invoke(app, ["replay", str(path), *extra])
    assert "Traceback" not in r.output and "Traceback" not in (r.stderr or "")
    assert r.exit_code in (0, 3), r.output
    if r.exit_code == 3:
        assert re.search(r"line \d+", r.stderr), r.stderr
        with pytest.raises(gamefile.GameFileError):
            gamefile.load_bytes(mutant)
    else:
        game = gamefile.load_bytes(mutant)  # the same verification accepts it
        assert isinstance(gamefile.decode_line(mutant.split(b"\n", 1)[0]), Header)
        assert game.lines <= len(lines)


def _no_control_output(out: str) -> None:
    for ch in CONTROL_CHARS:
        if ch not in "\n":
            assert ch not in out, (repr(ch), out[:400])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_values_in_every_field_are_exit_0_1_or_3_never_4(data: Any):
    lines = list(base_lines(42, 40))
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    obj = json.loads(lines[i])
    key = data.draw(st.sampled_from(sorted(obj)), label="field")
    obj[key] = data.draw(hostile_values(), label="value")
    forged = _forged(obj)
    mutant = joined(lines[:i] + [forged] + lines[i + 1:])
    path = Path(_MUTANT_DIR) / "hostile.jsonl"
    command = data.draw(
        st.sampled_from([["replay"], ["replay", "--json"], ["show"], ["show", "--json"], ["legal"], ["log"],
                         ["move", "done"], ["undo"], ["repair"]]),
        label="command",
    )
    path.write_bytes(mutant)
    r = runner.invoke(app, [command[0], str(path), *command[1:]], env={"FORCE_COLOR": "1"} if command == ["show"] else None)
    assert "Traceback" not in r.output and "Traceback" not in (r.stderr or "")
    assert r.exit_code in (0, 1, 3), (command, r.exit_code, r.output[-2000:])
    if r.exit_code == 3:
        assert re.search(r"line \d+", r.stderr), r.stderr
        assert len(r.stderr) < 60_000
    _no_control_output((r.stderr or "") + ("" if command == ["show"] else r.stdout))
    # The same mutant mailed to a good copy is refused or applied, never a crash.
    path.write_bytes(joined(lines[:i] if i else lines[:1]))
    r = runner.invoke(app, ["apply", str(path), forged.decode("utf-8", "replace")])
    assert "Traceback" not in r.output and r.exit_code in (0, 1, 2, 3), (r.exit_code, r.output[-2000:])
    _no_control_output(r.stderr or "")
