"""``agility log``, ``apply``, ``undo`` and ``repair``: auditing a game and mending it safely.

* ``log`` prints one row per decision (``n  player  kind  fields``), for games in progress too.
* ``apply`` adds lines mailed by the opponent, tolerant of mail quoting, and refuses (exit 1, the
  file byte-for-byte unchanged) any line that does not continue the file's tip or does not verify.
* ``undo`` takes back the acting player's last decision of the current turn, with the forced lines
  after it, only while nothing hidden was revealed since (``State.reveals``); never the opponent's.
* ``repair`` removes only an incomplete last line, keeping ``FILE.bak``.
"""

from __future__ import annotations

import functools
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gamefiles import new_game, play_random
from typer.testing import CliRunner

from agility_cli.record import gamefile
from agility_cli.engine import rules, notation
from agility_cli.cli import app
from agility_cli.engine.moves import Header, Move
from agility_cli.engine.state import State

runner = CliRunner()


def run(*args: Any, input: bytes | str | None = None, env: dict[str, str] | None = None) -> Any:
    r = runner.invoke(app, [str(a) for a in args], input=input, env=env)
    assert "Traceback" not in r.output
    assert "Traceback" not in (r.stderr or "")
    return r


def joined(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


@dataclass
class Decision:
    line: int
    move: Move
    before: State
    after: State

    @property
    def forced(self) -> bool:
        return len(rules.legal_moves(self.before)) == 1

    @property
    def revealed(self) -> bool:
        return self.after.reveals != self.before.reveals


@functools.lru_cache(maxsize=None)
def history(seed: int = 42, play_seed: int = 7, moves: int = 400) -> tuple[tuple[bytes, ...], tuple[Decision, ...]]:
    """A random game's lines and, for every decision line, the states around it."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "g.jsonl"
        new_game(path, seed)
        play_random(path, moves, play_seed)
        data = path.read_bytes()
    decisions = []
    for item in gamefile.iter_game(data, keep_before=True):
        if isinstance(item, Header):
            continue
        assert item.before is not None
        decisions.append(Decision(item.line, item.move, item.before, item.after.copy()))
    return tuple(data.split(b"\n")[:-1]), tuple(decisions)


def write_prefix(tmp_path: Path, lines: tuple[bytes, ...], upto: int, name: str = "g.jsonl") -> Path:
    """A game file holding lines 1..upto."""
    path = tmp_path / name
    path.write_bytes(joined(list(lines[:upto])))
    return path


def actor(state: State) -> str | None:
    return None if state.to_act is None else state.players[state.to_act].name


# ----------------------------------------------------------------------------------------------
# help


@pytest.mark.parametrize("command", ["log", "apply", "undo", "repair"])
def test_each_new_command_has_help_with_an_example(command: str):
    r = run(command, "--help")
    assert r.exit_code == 0
    assert "Example" in r.output and f"agility {command}" in r.output


# ----------------------------------------------------------------------------------------------
# log


def test_log_prints_one_row_per_decision(tmp_path: Path):
    lines, decisions = history()
    path = write_prefix(tmp_path, lines, 31)
    r = run("log", path)
    assert r.exit_code == 0, r.output
    rows = r.stdout.splitlines()
    assert len(rows) == 30
    for n, row in enumerate(rows, 1):
        d = decisions[n - 1]
        # One numbering: the file's line numbers (decision n is line n + 1), as show --at and replay --to.
        assert re.match(rf"\s*{n + 1}\s+{d.move.player}\s+\w+", row), row
    first = decisions[0].move
    assert type(first).__name__ == "Play"
    reward = f" {first.reward}" if first.reward else ""  # type: ignore[attr-defined]
    assert re.match(rf"\s+2\s+alice\s+play\s+{first.card}{reward}$", rows[0])  # type: ignore[attr-defined]


def test_log_of_a_new_game_is_empty(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    new_game(path)
    r = run("log", path)
    assert r.exit_code == 0 and r.stdout == ""


def test_log_of_a_damaged_file_stops_at_the_bad_line(tmp_path: Path):
    lines, _ = history()
    path = tmp_path / "g.jsonl"
    path.write_bytes(joined(list(lines[:10]) + list(lines[11:20])))
    r = run("log", path)
    assert r.exit_code == 3
    assert len(r.stdout.splitlines()) == 9
    assert ", line 11:" in r.stderr and "missing" in r.stderr


# ----------------------------------------------------------------------------------------------
# apply


def mail_variants(block: bytes) -> dict[str, str]:
    text = block.decode()
    rows = text.splitlines()
    return {
        "plain": text,
        "quoted": "".join(f"> {r}\n" for r in rows),
        "nested-quote": "".join(f"> > {r}\n" for r in rows),
        "tight-quote": "".join(f">>{r}\n" for r in rows),
        "crlf-and-blank-lines": "\r\n".join(["", *rows, "", ""]),
        "indented-with-prose": "Hi Bob,\n\nmy turn:\n\n" + "".join(f"    {r}  \n" for r in rows) + "\n-- \nAlice\n",
        "wrapped": "".join(r[:70] + "\n" + r[70:150] + "\n" + r[150:] + "\n" for r in rows),
        "quoted-wrapped": "".join(f"> {r[:60]}\n> {r[60:]}\n" for r in rows),
    }


@pytest.mark.parametrize("variant", list(mail_variants(b"x\n")))
def test_apply_adds_mailed_lines_whatever_the_mail_did(tmp_path: Path, variant: str):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 24)
    mail = mail_variants(joined(list(lines[24:28])))[variant]  # bob's turn: a mail holds one player's lines
    r = run("apply", path, input=mail)
    assert r.exit_code == 0, r.output
    assert path.read_bytes() == joined(list(lines[:28]))
    assert "applied 4 lines" in r.stdout
    assert "now " in r.stdout


def test_apply_takes_lines_as_arguments(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 24)
    r = run("apply", path, *(line.decode() for line in lines[24:27]))
    assert r.exit_code == 0, r.output
    assert path.read_bytes() == joined(list(lines[:27]))


def test_apply_skips_lines_already_applied(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 21)
    r = run("apply", path, input=joined(list(lines[:24])))  # the whole game so far, header included
    assert r.exit_code == 0, r.output
    assert path.read_bytes() == joined(list(lines[:24]))
    assert "skipped 20 line(s) already in the file" in r.stdout
    again = run("apply", path, input=joined(list(lines[21:24])))
    assert again.exit_code == 0
    assert "nothing new" in again.stdout
    assert path.read_bytes() == joined(list(lines[:24]))


def test_apply_restores_respaced_json(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 20)
    spaced = lines[20].decode().replace(",", ", ").replace(":", ": ")
    r = run("apply", path, input=spaced + "\n")
    assert r.exit_code == 0, r.output
    assert path.read_bytes() == joined(list(lines[:21]))
    assert "re-encoded" in r.stdout


def test_apply_refuses_a_gap(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 20)
    before = path.read_bytes()
    r = run("apply", path, input=joined(list(lines[22:24])))
    assert r.exit_code == 1
    assert "the mail's line 23 does not follow your file, whose last line is line 20: lines 21–22 are missing" in r.stderr  # one numbering: lines of the file
    assert path.read_bytes() == before


def diverged_copy(tmp_path: Path, lines: tuple[bytes, ...], decisions: tuple[Decision, ...]) -> tuple[int, list[bytes]]:
    """The opponent's copy: the same first L lines, then a different decision n=L and a few more.

    Returns L and the copy's lines.
    """
    j = next(j for j in range(15, len(decisions)) if not decisions[j].forced)
    keep = decisions[j].line - 1
    alt = next(m for m in rules.legal_moves(decisions[j].before) if m != decisions[j].move)
    other = tmp_path / "other.jsonl"
    other.write_bytes(joined(list(lines[:keep])))
    gamefile.append_moves(other, lambda g: [alt])
    play_random(other, 3, 9)
    return keep, other.read_bytes().split(b"\n")[:-1]


def test_apply_refuses_a_line_of_a_diverged_copy(tmp_path: Path):
    lines, decisions = history()
    keep, theirs = diverged_copy(tmp_path, lines, decisions)
    path = write_prefix(tmp_path, lines, keep + 1)
    before = path.read_bytes()
    r = run("apply", path, input=joined(theirs[keep:]))
    assert r.exit_code == 1
    assert f"mailed line n={keep} differs from your line {keep + 1}" in r.stderr and "diverged" in r.stderr
    assert path.read_bytes() == before


def test_apply_refuses_a_line_that_continues_another_tip(tmp_path: Path):
    lines, decisions = history()
    keep, theirs = diverged_copy(tmp_path, lines, decisions)
    path = write_prefix(tmp_path, lines, keep + 1)
    before = path.read_bytes()
    r = run("apply", path, input=joined(theirs[keep + 1:]))  # only their lines after their own n=keep
    assert r.exit_code == 1
    assert f"the mail's line {keep + 2} does not follow your file" in r.stderr
    assert path.read_bytes() == before


def test_apply_refuses_a_tampered_line(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 20)
    before = path.read_bytes()
    forged = re.sub(rb'"digest":"[0-9a-f]', b'"digest":"x', lines[20])
    r = run("apply", path, input=joined(list(lines[19:20]) + [forged]))
    assert r.exit_code == 1
    assert "mailed line n=20" in r.stderr and "does not verify" in r.stderr and "digest" in r.stderr
    assert path.read_bytes() == before


def test_apply_refuses_a_broken_line(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 20)
    before = path.read_bytes()
    r = run("apply", path, input=lines[20][:-10].decode() + "\n")
    assert r.exit_code == 1
    assert "not a valid game line" in r.stderr
    assert path.read_bytes() == before


def test_apply_refuses_lines_of_another_game(tmp_path: Path):
    lines, _ = history()
    other_lines, _ = history(seed=43)
    path = write_prefix(tmp_path, lines, 20)
    before = path.read_bytes()
    r = run("apply", path, input=joined(list(other_lines[:25])))
    assert r.exit_code == 1
    assert "header of a different game" in r.stderr
    r = run("apply", path, input=joined(list(other_lines[19:25])))
    assert r.exit_code == 1
    assert path.read_bytes() == before


def test_apply_without_game_lines_is_a_usage_error(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 20)
    r = run("apply", path, input="Hi Bob, I'll move tomorrow.\n")
    assert r.exit_code == 2
    assert "no game line" in r.stderr


def test_apply_of_a_mistyped_saved_message_says_there_is_no_such_file(tmp_path: Path):
    """One word that names no file is a path typed wrong, not pasted text: the error says so
    (exit 2) and the game file is unchanged."""
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 20)
    before = path.read_bytes()
    r = run("apply", path, str(tmp_path / "saved-mial.eml"))
    assert r.exit_code == 2
    assert "saved-mial.eml is no file or folder here" in r.stderr
    assert path.read_bytes() == before
    r = run("apply", path, "Hi Bob, I'll move tomorrow.")  # pasted prose as one argument: as before
    assert r.exit_code == 2 and "no game line in the input" in r.stderr


def test_apply_to_a_damaged_file_is_exit_3(tmp_path: Path):
    lines, _ = history()
    path = tmp_path / "g.jsonl"
    data = joined(list(lines[:10]) + list(lines[11:20]))
    path.write_bytes(data)
    r = run("apply", path, input=joined(list(lines[20:22])))
    assert r.exit_code == 3 and ", line 11:" in r.stderr
    assert path.read_bytes() == data


# ----------------------------------------------------------------------------------------------
# undo


def find(predicate: Any, seeds: tuple[int, ...] = (7, 8, 9, 10)) -> tuple[tuple[bytes, ...], tuple[Decision, ...], int]:
    """The first (lines, decisions, k) over a few random games where ``predicate(decisions, k)`` holds.

    ``k`` indexes ``decisions``: the file to undo on holds lines 1..decisions[k].line.
    """
    for seed in seeds:
        lines, decisions = history(play_seed=seed)
        for k in range(len(decisions)):
            if decisions[k].after.winner is None and predicate(decisions, k):
                return lines, decisions, k
    pytest.skip("no such position in the random games")


def same_turn_own(decisions: tuple[Decision, ...], k: int) -> list[int]:
    """Indexes j ≤ k of the decisions the acting player made in the current turn, in order."""
    who = actor(decisions[k].after)
    turn = decisions[k].after.turn
    out: list[int] = []
    j = k
    while j >= 0 and decisions[j].move.player == who and decisions[j].before.turn == turn:
        out.insert(0, j)
        j -= 1
    return out


def test_undo_takes_back_the_last_decision(tmp_path: Path):
    def ok(ds: tuple[Decision, ...], k: int) -> bool:
        d = ds[k]
        return same_turn_own(ds, k) != [] and not d.forced and not d.revealed

    lines, decisions, k = find(ok)
    line = decisions[k].line
    path = write_prefix(tmp_path, lines, line)
    r = run("undo", path)
    assert r.exit_code == 0, r.output
    assert path.read_bytes() == joined(list(lines[: line - 1]))
    assert f"line {line}:" in r.stdout and "removed 1 line" in r.stdout
    assert gamefile.load(path).state.to_act == decisions[k].before.to_act


def test_undo_removes_the_forced_lines_after_the_decision(tmp_path: Path):
    def ok(ds: tuple[Decision, ...], k: int) -> bool:
        own = same_turn_own(ds, k)
        return (
            len(own) >= 2 and ds[k].forced and not ds[k - 1].forced
            and not ds[k].revealed and not ds[k - 1].revealed
        )

    lines, decisions, k = find(ok)
    line = decisions[k].line
    path = write_prefix(tmp_path, lines, line)
    r = run("undo", path)
    assert r.exit_code == 0, r.output
    assert path.read_bytes() == joined(list(lines[: line - 2]))
    assert "removed 2 lines" in r.stdout


def test_undo_after_agility_move_restores_the_file(tmp_path: Path):
    """`move` appends a decision and the forced lines after it; `undo` takes all of them back."""
    path = tmp_path / "g.jsonl"
    new_game(path, seed=11)
    before = path.read_bytes()
    state = gamefile.load(path).state
    for m in rules.legal_moves(state):
        after = rules.apply(state, m)
        if len(rules.legal_moves(after)) == 1 and after.reveals == state.reveals and actor(after) == m.player:
            break
    else:
        pytest.skip("no first decision followed by a forced one")
    r = run("move", path, *notation.argv(state, m), "--quiet")
    assert r.exit_code == 0, r.output
    appended = r.stdout.splitlines()
    assert len(appended) >= 2  # the decision and at least one forced line
    u = run("undo", path, "--as", m.player)
    assert u.exit_code == 0, u.output
    assert f"removed {len(appended)} lines" in u.stdout
    assert path.read_bytes() == before


def test_undo_all_turn_goes_back_to_the_turns_first_decision(tmp_path: Path):
    def ok(ds: tuple[Decision, ...], k: int) -> bool:
        own = same_turn_own(ds, k)
        choices = [j for j in own if not ds[j].forced]
        return len(choices) >= 2 and not any(ds[j].revealed for j in own if j >= choices[0])

    lines, decisions, k = find(ok)
    own = same_turn_own(decisions, k)
    first = next(j for j in own if not decisions[j].forced)
    path = write_prefix(tmp_path, lines, decisions[k].line)
    r = run("undo", path, "--all-turn")
    assert r.exit_code == 0, r.output
    assert path.read_bytes() == joined(list(lines[: decisions[first].line - 1]))


def test_undo_refuses_once_something_was_revealed(tmp_path: Path):
    def ok(ds: tuple[Decision, ...], k: int) -> bool:
        return same_turn_own(ds, k) != [] and not ds[k].forced and ds[k].revealed

    lines, decisions, k = find(ok)
    path = write_prefix(tmp_path, lines, decisions[k].line)
    before = path.read_bytes()
    r = run("undo", path)
    assert r.exit_code == 1
    assert re.search(r"(card was turned up|dog was turned up|reshuffled|hidden information)", r.stderr), r.stderr
    assert f"at line {decisions[k].line}" in r.stderr and "choose again" in r.stderr
    assert "unchanged" in r.stderr
    assert path.read_bytes() == before


def test_undo_never_removes_the_opponents_lines(tmp_path: Path):
    def ok(ds: tuple[Decision, ...], k: int) -> bool:
        return ds[k].move.player != actor(ds[k].after)

    lines, decisions, k = find(ok)
    path = write_prefix(tmp_path, lines, decisions[k].line)
    before = path.read_bytes()
    r = run("undo", path)
    assert r.exit_code == 1
    assert "never removes the opponent's decisions" in r.stderr
    assert path.read_bytes() == before
    # Asking as the player who made that last line is refused too: it is not their decision now.
    r = run("undo", path, "--as", decisions[k].move.player)
    assert r.exit_code == 1 and "not " + decisions[k].move.player in r.stderr
    assert path.read_bytes() == before


def test_undo_checks_the_player(tmp_path: Path):
    def ok(ds: tuple[Decision, ...], k: int) -> bool:
        return same_turn_own(ds, k) != [] and not ds[k].forced and not ds[k].revealed

    lines, decisions, k = find(ok)
    path = write_prefix(tmp_path, lines, decisions[k].line)
    before = path.read_bytes()
    other = next(n for n in ("alice", "bob") if n != decisions[k].move.player)
    r = run("undo", path, env={"AGILITY_PLAYER": other})
    assert r.exit_code == 1 and f"not {other}'s" in r.stderr
    assert path.read_bytes() == before
    r = run("undo", path, env={"AGILITY_PLAYER": decisions[k].move.player})
    assert r.exit_code == 0, r.output


def test_undo_with_no_decision_or_after_the_end(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    new_game(path)
    r = run("undo", path)
    assert r.exit_code == 1 and "no decision" in r.stderr
    play_random(path, 5000, 3)
    if gamefile.load(path).state.winner is None:
        pytest.skip("the random game did not end")
    before = path.read_bytes()
    r = run("undo", path)
    assert r.exit_code == 1 and "game is over" in r.stderr
    assert path.read_bytes() == before


def test_undo_on_a_damaged_file_is_exit_3(tmp_path: Path):
    lines, _ = history()
    path = tmp_path / "g.jsonl"
    data = joined(list(lines[:10]) + list(lines[11:20]))
    path.write_bytes(data)
    r = run("undo", path)
    assert r.exit_code == 3 and ", line 11:" in r.stderr
    assert path.read_bytes() == data


# ----------------------------------------------------------------------------------------------
# repair


def test_repair_with_nothing_to_repair(tmp_path: Path):
    lines, _ = history()
    path = write_prefix(tmp_path, lines, 30)
    before = path.read_bytes()
    r = run("repair", path)
    assert r.exit_code == 0
    assert "nothing to repair" in r.stdout
    assert path.read_bytes() == before
    assert not (tmp_path / "g.jsonl.bak").exists()


def test_repair_removes_an_incomplete_last_line_and_keeps_a_backup(tmp_path: Path):
    lines, _ = history()
    path = tmp_path / "g.jsonl"
    damaged = joined(list(lines[:30])) + lines[30][:57]
    path.write_bytes(damaged)
    assert run("replay", path).exit_code == 3
    r = run("repair", path)
    assert r.exit_code == 0, r.output
    assert "removed the incomplete line 31" in r.stdout
    assert path.read_bytes() == joined(list(lines[:30]))
    assert (tmp_path / "g.jsonl.bak").read_bytes() == damaged
    assert run("replay", path).exit_code == 0


def test_repair_never_overwrites_a_backup_without_force(tmp_path: Path):
    lines, _ = history()
    path = tmp_path / "g.jsonl"
    damaged = joined(list(lines[:30])) + lines[30][:57]
    path.write_bytes(damaged)
    backup = tmp_path / "g.jsonl.bak"
    backup.write_bytes(b"precious")
    r = run("repair", path)
    assert r.exit_code == 1 and "--force" in r.stderr
    assert path.read_bytes() == damaged and backup.read_bytes() == b"precious"
    r = run("repair", path, "--force")
    assert r.exit_code == 0
    assert path.read_bytes() == joined(list(lines[:30])) and backup.read_bytes() == damaged


def test_repair_adds_a_missing_final_newline_to_a_complete_line(tmp_path: Path):
    lines, _ = history()
    path = tmp_path / "g.jsonl"
    path.write_bytes(joined(list(lines[:30]))[:-1])
    r = run("repair", path)
    assert r.exit_code == 0, r.output
    assert "added it" in r.stdout
    assert path.read_bytes() == joined(list(lines[:30]))


@pytest.mark.parametrize(
    "damage, line",
    [
        (lambda ls: joined(ls[:10] + ls[11:30]) + ls[30][:40], 11),  # a dropped line, then a partial one
        (lambda ls: joined(ls[:10] + ls[11:30]), 11),  # a dropped line
        (lambda ls: b"", 1),  # empty
        (lambda ls: ls[0][:50], 1),  # a partial header
        (lambda ls: joined(ls[:5] + [b"<<<<<<< HEAD"] + ls[5:8]), 6),  # conflict markers
    ],
    ids=["dropped+partial", "dropped", "empty", "partial-header", "conflict"],
)
def test_repair_touches_nothing_else(tmp_path: Path, damage: Any, line: int):
    lines, _ = history()
    path = tmp_path / "g.jsonl"
    data = damage(list(lines))
    path.write_bytes(data)
    r = run("repair", path)
    assert r.exit_code == 3, r.output
    assert f", line {line}:" in r.stderr
    assert path.read_bytes() == data
    assert not (tmp_path / "g.jsonl.bak").exists()


def test_repair_of_a_missing_file(tmp_path: Path):
    r = run("repair", tmp_path / "nope.jsonl")
    assert r.exit_code == 3 and "no such game file" in r.stderr
