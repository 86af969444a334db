"""Hardening, round 3 (issue 37): every input from an opponent or a hostile machine ends in a clear
message and an exit code of 0–3 — never a hang, never an internal error (exit 4).

* the mail reader's block stripper is linear (a mail of BEGIN lines with no END was quadratic);
* output paths with no file name, a folder, or a missing folder are usage errors before any work;
* an analysis file is decoded into typed, bounded Structs (inf, 10^30, unknown or missing keys,
  wrong types, a list, 100,000-deep nesting, undecodable bytes);
* a TOML components file's numbers are bounded before Python converts them;
* ``hint --seconds`` is at most an hour; a pull that shortens the file is said in true words.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from gamefiles import solo
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fair import Machine, send
from test_hostile import run

from agility_cli.cli.gitsettle import pulled_text
from agility_cli.record import keys
from agility_cli.record.mail.find import read_mail, without_blocks

BEGIN = "-----BEGIN AGILITY LINES game ab12 lines 1-2-----"
END = "-----END AGILITY LINES game ab12 lines 1-2-----"


# ----------------------------------------------------------------------------------------------
# The block stripper: the same lines as the regular expression it replaced, in one pass


_OLD = re.compile(r"^[^\n]*BEGIN AGILITY LINES.*?END AGILITY LINES[^\n]*$", re.M | re.S)


def _kept(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([BEGIN, "> " + END, "hello", "", '{"kind": "play"}', "x BEGIN AGILITY LINES y"]),
                max_size=12))
def test_without_blocks_keeps_what_the_old_expression_kept(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert _kept(without_blocks(text)) == _kept(_OLD.sub("", text))


def test_a_begin_without_end_keeps_the_rest_and_a_block_goes_whole() -> None:
    assert without_blocks(f"a\n{BEGIN}\nb\n") == f"a\n{BEGIN}\nb\n"
    assert without_blocks(f"a\n{BEGIN}\nQUJD\n{END}\nc\n") == "a\nc\n"


def test_100000_begin_lines_without_end_are_read_at_once(tmp_path: Path) -> None:
    """The hang of issue 37: 8,000 such lines took 18.9 s (quadratic); 100,000 would take hours.
    Through the real command in a subprocess, with a time-out only as a guard against a hang (the
    timings are the benchmark's): the mail is refused, the game file unchanged."""
    path = solo(tmp_path)
    before = path.read_bytes()
    mail = "BEGIN AGILITY LINES\n" * 100_000
    done = subprocess.run([sys.executable, "-m", "agility_cli", "apply", str(path), "-"], input=mail, text=True,
                          capture_output=True, timeout=120, env=os.environ | {"NO_COLOR": "1"})
    assert done.returncode in (1, 2), done.stderr[-500:]
    assert "Traceback" not in done.stderr and path.read_bytes() == before


def test_read_mail_of_begin_lines_finds_nothing() -> None:
    incoming = read_mail(("BEGIN AGILITY LINES\n" * 8_000).encode())
    assert incoming.found == [] and incoming.blocks == 0


# ----------------------------------------------------------------------------------------------
# Output paths


@pytest.mark.parametrize("where", [".", "/", "..", "sub/", "missing-folder/out.x", "solo.jsonl/inside"])
@pytest.mark.parametrize("command", [
    ["export", "--svg", "{game}", "-o"],
    ["export", "--html", "{game}", "-o"],
    ["key", "export", "{game}", "-o"],
    ["analyse", "{game}", "--simulations", "2", "--worlds", "2", "--out"],
    ["play", "{game}", "--reply"],
])
def test_an_output_path_with_no_file_name_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           command: list[str], where: str) -> None:
    path = solo(tmp_path)
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    r = run(*[str(path) if a == "{game}" else a for a in command], where, input="")
    assert r.exit_code == 2, r.output
    assert "folder" in r.output or "not a folder" in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_new_in_a_missing_folder_or_on_a_folder_is_a_usage_error(tmp_path: Path) -> None:
    r = run("new", tmp_path / "missing" / "g.jsonl", "--seed", "3", "-q")
    assert r.exit_code == 2 and "does not exist" in r.stderr
    r = run("new", tmp_path, "--seed", "3", "-q")
    assert r.exit_code == 2 and "already exists" in r.stderr


# ----------------------------------------------------------------------------------------------
# The analysis file


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("review")
    path = solo(folder)
    assert run("bot", path, "--moves", "12").exit_code == 0
    out = folder / "review.json"
    assert run("analyse", path, "--simulations", "3", "--worlds", "2", "--out", out).exit_code == 0
    doc = json.loads(out.read_text())
    assert doc["version"] == 4 and doc["decisions"] and doc["game"]["lines"] == 13 and doc["worlds"] == 2
    return path, doc


def _variants(doc: dict) -> dict[str, bytes]:
    first = dict(doc["decisions"][0])
    def with_first(**change: object) -> bytes:
        return json.dumps(dict(doc, decisions=[dict(first, **change)] + doc["decisions"][1:])).encode()
    return {
        "inf": with_first(chance=1e999).replace(b"Infinity", b"1e999"),
        "a chance of 10^30": with_first(chance=10**30),
        "simulations 10^30": json.dumps(dict(doc, simulations=10**30)).encode(),
        "an unknown key": json.dumps(dict(doc, extra=1)).encode(),
        "a missing key": json.dumps({k: v for k, v in doc.items() if k != "seed"}).encode(),
        "a missing verdict key": json.dumps(dict(doc, decisions=[{k: v for k, v in first.items() if k != "line"}])).encode(),
        "a wrong type": with_first(line="two"),
        "a list": json.dumps([doc]).encode(),
        "100,000-deep nesting": b'{"decisions":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "100,000-deep nesting elsewhere": b'{"players":["a"],"points":[],"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "undecodable bytes": b"\xff\xfe\x00{",
        "a line of no frame": json.dumps({"players": ["alice"], "points": [{"line": 99_999, "win": {"alice": 0.5}}]}).encode(),
        "a future version": json.dumps(dict(doc, version=99)).encode(),
        "a 100,000-character text": with_first(played="x" * 100_000),
    }


@pytest.mark.parametrize("variant", list(_variants({"decisions": [{}]})))
def test_a_malformed_analysis_file_is_a_usage_error(reviewed: tuple[Path, dict], tmp_path: Path, variant: str) -> None:
    path, doc = reviewed
    bad = tmp_path / "bad.json"
    bad.write_bytes(_variants(doc)[variant])
    r = run("export", path, "--html", "--analysis", bad, "-o", tmp_path / "page.html")
    assert r.exit_code == 2, (variant, r.output)
    assert "analysis" in r.stderr and not (tmp_path / "page.html").exists()


def test_the_analysis_file_written_by_analyse_is_read_back(reviewed: tuple[Path, dict], tmp_path: Path) -> None:
    path, doc = reviewed
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc))
    r = run("export", path, "--html", "--analysis", good, "-o", tmp_path / "page.html")
    assert r.exit_code == 0, r.output
    old = tmp_path / "old.json"  # a file of the day before the version number: still read
    old.write_text(json.dumps({k: v for k, v in doc.items() if k != "version"}))
    assert run("export", path, "--html", "--analysis", old, "-o", tmp_path / "old.html").exit_code == 0
    first = tmp_path / "v1.json"  # layout 1 (issue 33 made 2): no worlds, no "carried": still read
    v1 = {k: v for k, v in doc.items() if k != "worlds"}
    v1.update(version=1, decisions=[{k: v for k, v in d.items() if k != "carried"} for d in doc["decisions"]])
    first.write_text(json.dumps(v1))
    assert run("export", path, "--html", "--analysis", first, "-o", tmp_path / "v1.html").exit_code == 0


# ----------------------------------------------------------------------------------------------
# Components, budgets, words


def test_a_toml_components_file_with_a_5000_digit_number_is_refused(tmp_path: Path) -> None:
    comp = tmp_path / "big.toml"
    comp.write_text("x = " + "9" * 5000 + "\n")
    r = run("new", tmp_path / "g.jsonl", "--seed", "1", "--players", "a", "bot:greedy", "--components", comp)
    assert r.exit_code == 2 and "more than 30 digits" in r.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("x = [[[[\n")
    r = run("new", tmp_path / "h.jsonl", "--seed", "1", "--players", "a", "bot:greedy", "--components", broken)
    assert r.exit_code == 2 and not (tmp_path / "h.jsonl").exists()


def test_a_pull_that_shortens_the_file_is_said_in_true_words() -> None:
    assert pulled_text(b"a\nb\n", b"a\nb\nc\n", "g.jsonl").endswith("brought 1 new line of g.jsonl")
    shorter = pulled_text(b"a\nb\nc\nd\n", b"a\nb\n", "g.jsonl")
    assert "2 lines shorter" in shorter and "rewritten" in shorter and "-" not in shorter.split(":")[1][:20]
    assert "changed lines" in pulled_text(b"a\nb\n", b"a\nx\ny\n", "g.jsonl")


# ----------------------------------------------------------------------------------------------
# Key material checked against the game before it is stored or used


def _two_machines(tmp_path: Path, *deck: str) -> tuple[Machine, Machine]:
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob", *deck, "-q").exit_code == 0
    send(alice, bob)
    assert bob.run("join", bob.file).exit_code == 0
    send(bob, alice)
    assert alice.run("show", alice.file).exit_code == 0  # the reveal
    send(alice, bob)
    return alice, bob


def _store(machine: Machine, monkeypatch: pytest.MonkeyPatch, player: str, **entry: str) -> Path:
    monkeypatch.setenv("AGILITY_HOME", str(machine.home))
    gid = keys.game_id(machine.file.read_bytes())
    keys.store(gid, player, replace_wrong=True, **entry)
    return keys.store_path(gid)


def test_a_made_up_key_for_the_other_seat_is_never_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R39 rests on the key store: a key store edited to hold a made-up signing key for bob must not
    make alice's machine bob's (``show --as bob`` printed bob's real hand): exit 3, naming the file,
    blaming nobody."""
    alice, bob = _two_machines(tmp_path, "--deck", "seed")
    store = _store(alice, monkeypatch, "bob", signing_key=keys.new_signing_key())
    for command in (["show", alice.file], ["show", alice.file, "--as", "bob"], ["legal", alice.file]):
        r = alice.run(*command)
        assert r.exit_code == 3, (command, r.output)
        assert str(store) in r.stderr and "is not the one the game file names" in r.stderr
        assert "Hand" not in r.stdout and "cheat" not in r.stderr


def test_a_wrong_key_for_ones_own_seat_is_a_damaged_key_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = _two_machines(tmp_path, "--deck", "seed")
    store = _store(alice, monkeypatch, "alice", signing_key=keys.new_signing_key())
    r = alice.run("show", alice.file)
    assert r.exit_code == 3 and str(store) in r.stderr and "damaged" in r.stderr


def test_a_wrong_seal_secret_is_refused_at_import_and_never_blamed_on_anyone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R42: ``key import`` checks a seal secret against the passes it must make (the audit's check
    on its player's own passes) and stores nothing when it does not (exit 1); a key store entry
    already wrong is this machine's damaged record (exit 3, naming the file), never "alice
    cheated"; the right key file then replaces the entry proven wrong."""
    alice, bob = _two_machines(tmp_path)  # sealed, the default between two people
    keyfile = tmp_path / "alice.key"
    assert alice.run("key", "export", alice.file, "-o", keyfile).exit_code == 0
    wrong = json.loads(keyfile.read_text()) | {"seal": os.urandom(32).hex()}
    bad_file = tmp_path / "alice-wrong.key"
    bad_file.write_text(json.dumps(wrong))

    laptop = Machine(tmp_path, "laptop")  # alice's second machine
    send(alice, laptop)
    r = laptop.run("key", "import", laptop.file, bad_file)
    assert r.exit_code == 1 and "seal secret does not make alice's passes" in r.stderr, r.output
    assert not (laptop.home / "games").exists() or not any((laptop.home / "games").iterdir())

    store = _store(alice, monkeypatch, "alice", **{k: v for k, v in wrong.items()
                                                   if k in ("signing_key", "seal", "secret")})
    r = alice.run("show", alice.file)
    assert r.exit_code == 3 and str(store) in r.stderr and "seal secret" in r.stderr, r.output
    assert "cheat" not in r.stderr
    r = alice.run("key", "import", alice.file, keyfile)
    assert r.exit_code == 0 and "imported alice's key" in r.stdout, r.output
    assert alice.run("show", alice.file).exit_code == 0


def test_an_unsigned_game_never_takes_a_turn_in_the_receivers_name(tmp_path: Path) -> None:
    """R41 in an unsigned ``--seed`` game with ``--first bob``: alice's machine receives bob's lines
    before alice has played on it; that first mail names alice as this machine's seat, so a later
    mail in which bob's machine made alice's decision is refused (exit 1), the file unchanged."""
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--seed", "5", "--players", "alice", "bob", "--first", "bob", "-q").exit_code == 0
    bob.file.write_bytes(alice.file.read_bytes())

    def bob_plays_until(name: str) -> str:
        """Bob's machine decides until ``name`` is to act; the new lines, as mailed."""
        start = len(bob.file.read_bytes().splitlines())
        for _ in range(40):
            shown = json.loads(bob.run("show", bob.file, "--json").stdout)
            if shown["to_act"] == name:
                break
            assert bob.run("bot", bob.file, "--moves", "1").exit_code == 0
        return "\n".join(line.decode() for line in bob.file.read_bytes().splitlines()[start:]) + "\n"

    first = bob_plays_until("alice")
    r = alice.run("apply", alice.file, "-", input=first)
    assert r.exit_code == 0, r.output
    before = alice.file.read_bytes()
    taken = bob_plays_until("bob")  # bob's machine makes alice's decisions
    r = alice.run("apply", alice.file, "-", input=taken)
    assert r.exit_code == 1, r.output
    assert "alice" in r.stderr and alice.file.read_bytes() == before


def test_a_seal_error_that_reaches_the_boundary_is_exit_3_never_an_internal_error() -> None:
    """R42: wherever a check of the sealed deck fails without a line to name, the command says the
    file does not check (exit 3), never "internal error" (exit 4)."""
    from agility_cli.cli.common import EXIT_INVALID, _error_report
    from agility_cli.record.sealed.crypto import SealError
    from agility_cli.record.sealed.deck import SecretMismatch

    for exc in (SealError("position", "position #3 opens to no card of the set (a changed deck)"),
                SecretMismatch("deal-2", "the cards deal-2 pass is not the one its writer's seal secret makes", 1)):
        code, message = _error_report(exc)
        assert code == EXIT_INVALID and "internal error" not in message and str(exc) in message
    assert _error_report(ValueError("x"))[0] == 4  # a real bug is still reported as one


def test_apply_reads_a_saved_message_by_its_path(tmp_path: Path) -> None:
    """Issue 31: `agility apply FILE MESSAGE` with the path of a saved mail (here base64, as mail
    programs send it) applies it, as `play --mail` does; a folder is refused with what to give."""
    from email.message import EmailMessage

    alice, bob = _two_machines(tmp_path, "--deck", "seed")
    shown = json.loads(alice.run("show", alice.file, "--json").stdout)
    mover = alice if shown["to_act"] == "alice" else bob
    other = bob if mover is alice else alice
    assert mover.run("bot", mover.file, "--moves", "3").exit_code == 0
    block = mover.run("send", mover.file).stdout
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "a@example.org", "b@example.org", "agility"
    msg.set_content(block, cte="base64")
    saved = tmp_path / "saved.eml"
    saved.write_bytes(bytes(msg))
    r = other.run("apply", other.file, saved)
    assert r.exit_code == 0, r.output
    assert other.file.read_bytes() == mover.file.read_bytes()
    r = other.run("apply", other.file, tmp_path)
    assert r.exit_code == 2 and "is a folder" in r.stderr


def test_a_failing_mail_command_never_says_the_file_is_unchanged(tmp_path: Path) -> None:
    """Issue 31: with a failing AGILITY_MAIL_COMMAND, ``play --reply`` said "the game file is
    unchanged" after writing the decisions; it says they are saved, and to mail the reply."""
    game, reply = tmp_path / "g.jsonl", tmp_path / "reply.txt"
    assert run("new", game, "--seed", "7", "-q").exit_code == 0
    before = game.read_bytes()
    r = run("play", game, "--reply", reply, input="1\n1\nquit\n", env={"AGILITY_MAIL_COMMAND": "false"})
    assert game.read_bytes() != before and reply.exists()
    assert r.exit_code == 2 and "unchanged" not in r.stderr
    assert "your decisions are saved" in r.stderr and "failed (exit 1)" in r.stderr



def test_a_card_id_of_no_card_says_which_cards_would_work(tmp_path: Path) -> None:
    """Issue 32: `t99` was "neither a card number (1-9) nor a card id such as t07"; it says there is
    no such card and lists the cards the decision can name."""
    path = solo(tmp_path)
    r = run("move", path, "play", "t99")
    assert r.exit_code == 2 and "there is no card 't99'" in r.stderr and "cards in your hand: t" in r.stderr
