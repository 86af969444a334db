"""R42's abort, through the command line as two players and a spectator run it (two key stores, no
``--as``): a pass that plants a point which is no card — possible in a format-3 game, whose shuffle
proofs check only a sum, and here injected into a format-4 game by a verifier that accepts every
shuffle proof — is found when a position opens; the honest tool writes an abort (its seal secret at
once) instead of its line, and every machine gives the same verdict: the planter forfeits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agility_cli.engine.moves import Header, KeysLine, LINE_DECODER
from agility_cli.record import keys
from agility_cli.record.lines import encode_line
from agility_cli.record.sealed import crypto as sc
from agility_cli.record.sealed import deck as sealdeck
from agility_cli.record.sealed import shuffle as sh
from machines import Machine, mail, runner
from agility_cli.cli import app


def _accept_every_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fault injected: a verifier whose shuffle check passes anything (format 3's sum proof is
    as weak against such a plant; format 4's binding proof would refuse it at its line)."""
    monkeypatch.setattr(sh, "verify_shuffle", lambda *args, **kw: True)


def _modified_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cheater's own tool does not compare its pass with what its secret makes."""
    monkeypatch.setattr(sealdeck.Deck, "_check_mine", lambda self, *args, **kw: None)


def _plant_header(alice: Machine) -> None:
    """Alice's modified client replaces every output of its first pass of the training cards by a
    point that is no card, and signs the header again with her own key."""
    raw = alice.file.read_bytes().split(b"\n")[0]
    header = msgspec.json.decode(raw, type=Header)
    gid = keys.game_id(raw)
    signing = _with_home(alice, lambda: keys.signing_key(gid, "alice"))
    assert signing is not None
    text = header.sealed.shuffle["cards"]  # type: ignore[union-attr]
    outputs = sc.unpack(text.points, 32, "points")
    planted = [sc.hash_point(b"planted %d" % i) for i in range(len(outputs))]
    forged = msgspec.structs.replace(text, points=sc.pack(planted))
    changed = msgspec.structs.replace(header, sig=msgspec.UNSET, sealed=msgspec.structs.replace(
        header.sealed, shuffle={**header.sealed.shuffle, "cards": forged}))  # type: ignore[union-attr]
    assert keys.game_id(encode_line(changed)) == gid
    alice.file.write_bytes(keys.with_signature(encode_line(changed), signing) + b"\n")


def _with_home(m: Machine, fn):  # type: ignore[no-untyped-def]
    import os

    old = os.environ.get("AGILITY_HOME")
    os.environ["AGILITY_HOME"] = str(m.home)
    try:
        return fn()
    finally:
        if old is None:
            del os.environ["AGILITY_HOME"]
        else:
            os.environ["AGILITY_HOME"] = old


def _state(m: Machine, home: Path | None = None) -> dict:  # type: ignore[type-arg]
    shown = m.run("show", m.file, "--json", home=home)
    assert shown.exit_code == 0, shown.output
    return json.loads(shown.stdout)


def _last(m: Machine):  # type: ignore[no-untyped-def]
    return LINE_DECODER.decode(m.file.read_bytes().rstrip(b"\n").split(b"\n")[-1])


def test_R42_a_planted_deck_is_aborted_by_the_honest_tool_and_the_planter_forfeits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _accept_every_shuffle(monkeypatch)
    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob").exit_code == 0
    _plant_header(alice)
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text()).exit_code == 0
    joined = bob.run("join", bob.file)
    assert joined.exit_code == 0, joined.output
    with monkeypatch.context() as m:
        _modified_client(m)
        applied = alice.run("apply", alice.file, "-", input=joined.stdout)
        assert applied.exit_code == 0, applied.output
        sent = alice.run("send", alice.file)
    got = bob.run("apply", bob.file, "-", input=sent.stdout)  # the reveal: bob's tool deals, and the deal fails
    assert got.exit_code == 0, got.output
    abort = _last(bob)
    assert isinstance(abort, KeysLine) and abort.player == "bob" and abort.seal.abort is not None
    assert abort.seal.abort.secret == _with_home(bob, lambda: keys.seal_secret(keys.game_id(
        bob.file.read_bytes().split(b"\n")[0]), "bob")).hex()
    assert "abort" in got.stderr + got.stdout and "alice forfeits" in got.stderr + got.stdout
    for state in (_state(bob), _state(bob, home=tmp_path / "spectator")):
        assert state["verdict"]["kind"] == "forfeit" and state["verdict"]["player"] == "alice", state["verdict"]
        assert state["winner"] == "bob"
        assert "a pass of alice's was false" in state["verdict"]["reason"]
    seen = bob.run("replay", bob.file, home=tmp_path / "spectator")
    assert seen.exit_code == 0, seen.output
    assert "alice forfeits" in seen.stdout
    # alice's tool reads the abort and answers with its secret (an audit line): the verdict stands
    with monkeypatch.context() as m:
        _modified_client(m)
        back = mail(bob, alice)
        assert back[-1].exit_code == 0
        assert _state(alice)["verdict"]["player"] == "alice"
        sent = alice.run("send", alice.file)
    answer = _last(alice)
    assert isinstance(answer, KeysLine) and answer.player == "alice" and answer.seal.audit is not None
    assert bob.run("apply", bob.file, "-", input=sent.stdout).exit_code == 0
    assert alice.file.read_bytes() == bob.file.read_bytes()
    final = _state(bob)
    assert final["verdict"]["player"] == "alice" and final["winner"] == "bob"
    moved = bob.run("move", bob.file, "pass")
    assert moved.exit_code != 0 and bob.file.read_bytes() == alice.file.read_bytes()


def test_R42_an_abort_over_a_sound_position_forfeits_its_writer(tmp_path: Path) -> None:
    """A modified client that aborts a sound game (to escape a lost one) over a card of its own hand,
    which opens to a card of the set not seen: the abort line reads, and its writer forfeits, on
    the opponent's machine and a spectator's alike."""
    from agility_cli.record import gamefile
    from agility_cli.record.sealed import game as sealgame
    from agility_cli.engine.state import digest, is_position
    from machines import start

    alice, bob = start(tmp_path, deck="sealed")
    game = _with_home(bob, lambda: gamefile.load(bob.file))
    sealed, state = game.sealed, game.public
    mine = [q for q in state.players[1].hand if is_position(q)]
    assert mine, state.players[1].hand
    made = sealgame.compose_abort(sealed, state, 1, game.next_n, mine[0])
    line = KeysLine(n=game.next_n, prev=game.tip, player="bob", seal=made.seal, digest=digest(made.state))
    signing = _with_home(bob, lambda: keys.signing_key(game.game_id, "bob"))
    raw = keys.with_signature(encode_line(line), signing)
    bob.file.write_bytes(bob.file.read_bytes() + raw + b"\n")
    for state_json in (_state(bob, home=tmp_path / "spectator"), _state(bob)):
        assert state_json["verdict"]["kind"] == "forfeit" and state_json["verdict"]["player"] == "bob"
        # R42: an abort over a card of bob's own hand, out of bob's turn, claims no live opening
        assert state_json["winner"] == "alice" and "R42" in state_json["verdict"]["reason"]
    got = mail(bob, alice)[-1]
    assert got.exit_code == 0, got.output
    assert _state(alice)["verdict"]["player"] == "bob"
    answer = _last(alice)  # alice's tool publishes her secret: the audit completes, bob's forfeit stands
    assert isinstance(answer, KeysLine) and answer.seal.audit is not None


def planted_pair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Machine, Machine, Any]:
    """alice and bob after the handshake of a game whose deck bob planted: a point that is no card
    at #0 of his join's shuffle (moved by +D, #1 by −D: the sum kept), his modified client sending
    it; returns them with bob's ``send`` of line 4 (his re-key pass and keys, #0's among them)."""
    from agility_cli.engine.moves import JoinLine

    alice, bob = Machine(tmp_path, "alice"), Machine(tmp_path, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob").exit_code == 0
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text()).exit_code == 0
    assert bob.run("join", bob.file).exit_code == 0
    rows = bob.file.read_bytes().rstrip(b"\n").split(b"\n")
    join = msgspec.json.decode(rows[1])
    gid = keys.game_id(rows[0])
    signing = _with_home(bob, lambda: keys.signing_key(gid, "bob"))
    points = sc.unpack(join["seal"]["shuffle"]["cards"]["points"], 32, "points")
    d = sc.hash_point(b"bob's plant")
    points[0], points[1] = sc.add(points[0], d), sc.sub(points[1], d)  # the sum kept (format 3's proof holds)
    join["seal"]["shuffle"]["cards"]["points"] = sc.pack(points)
    join.pop("sig")
    rows[1] = keys.with_signature(encode_line(msgspec.convert(join, JoinLine)), signing)
    bob.file.write_bytes(b"\n".join(rows) + b"\n")
    with monkeypatch.context() as m:
        _modified_client(m)
        joined = bob.run("send", bob.file)
    assert alice.run("apply", alice.file, "-", input=joined.stdout).exit_code == 0
    reveal = alice.run("send", alice.file)
    with monkeypatch.context() as m:
        _modified_client(m)
        assert bob.run("apply", bob.file, "-", input=reveal.stdout).exit_code == 0
        keyed = bob.run("send", bob.file)
    return alice, bob, keyed


@pytest.mark.parametrize("file_format", [3, 4])
def test_R42_a_received_line_whose_keys_open_a_planted_point_is_not_applied_and_the_receiver_aborts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, file_format: int) -> None:
    """Bob's modified client plants a point that is no card at the first output of his join's shuffle
    of the training cards — position #0, which the deal gives alice — and signs the join again.  His
    own tool never reads #0; his first keys line gives alice his key for it, and on alice's machine
    it opens to no card: her ``apply`` does not apply that line, writes her abort instead (with
    bob's key for #0, checked against his commitment), and bob forfeits, on her machine and a
    spectator's.  In a format-3 game (``new`` made to write one, as files made before format 4
    are) the plant moves #0 by +D and #1, also alice's, by −D: the sum proof holds, no fault is
    injected; in format 4 the verifier is made to accept every shuffle proof."""
    from agility_cli.record.sealed import write as sealwrite

    if file_format == 3:
        monkeypatch.setattr(sealwrite, "SEALED_FORMAT", 3)
    else:
        _accept_every_shuffle(monkeypatch)
    alice, bob, keyed = planted_pair(tmp_path, monkeypatch)
    assert msgspec.json.decode(alice.file.read_bytes().split(b"\n")[0])["format"] == file_format
    before = alice.file.read_bytes()
    got = alice.run("apply", alice.file, "-", input=keyed.stdout)
    assert got.exit_code == 0, got.output
    said = got.stdout + got.stderr
    assert "line 4 is not applied" in said and "aborts the game" in said, said
    rows = alice.file.read_bytes().rstrip(b"\n").split(b"\n")
    assert alice.file.read_bytes().startswith(before) and len(rows) == 4
    abort = LINE_DECODER.decode(rows[-1])
    assert isinstance(abort, KeysLine) and abort.player == "alice" and abort.seal.abort is not None
    # R42: the abort carries bob's refused line whole (the evidence), not just its key
    assert abort.seal.abort.position == "#0" and abort.seal.abort.key is None
    assert abort.seal.abort.line is not None
    carried = LINE_DECODER.decode(abort.seal.abort.line.encode())
    assert isinstance(carried, KeysLine) and carried.player == "bob" and carried.n == abort.n and carried.prev == abort.prev
    for state in (_state(alice), _state(alice, home=tmp_path / "spectator")):
        assert state["verdict"]["kind"] == "forfeit" and state["verdict"]["player"] == "bob", state["verdict"]
        assert state["winner"] == "alice" and "a pass of bob's was false" in state["verdict"]["reason"]
    seen = alice.run("replay", alice.file, home=tmp_path / "spectator")
    assert seen.exit_code == 0 and "bob forfeits" in seen.stdout, seen.output
    for home in (None, tmp_path / "spectator"):  # R42: the log says it too
        logged = alice.run("log", alice.file, home=home)
        assert logged.exit_code == 0 and "verdict: alice wins: bob forfeits the game" in logged.stdout, logged.output
    page = alice.run("export", alice.file, "--html", "-o", tmp_path / "game.html", home=tmp_path / "spectator")
    assert page.exit_code == 0, page.output
    assert "bob forfeits" in (tmp_path / "game.html").read_text()
    # the page's subtitle counts positions, not lines: it once said "40 lines · lines 1–42"
    import re
    last = len(alice.file.read_bytes().splitlines())
    assert re.search(rf"\b\d+ positions · lines 1–{last} ", (tmp_path / "game.html").read_text())


def test_R42_after_an_abort_play_and_move_say_the_game_is_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The honest player's tool after its abort: ``play`` shows the verdict and asks nothing, ``move``
    is refused and the file unchanged (exit 1), ``show`` says who wins and why."""
    test_R42_a_received_line_whose_keys_open_a_planted_point_is_not_applied_and_the_receiver_aborts(
        tmp_path, monkeypatch, 4)
    alice = Machine.__new__(Machine)
    alice.name, alice.dir, alice.home = "alice", tmp_path / "alice", tmp_path / "alice-home"
    alice.file = alice.dir / "game.jsonl"
    before = alice.file.read_bytes()
    played = alice.run("play", alice.file, input="1\n")
    assert played.exit_code == 0, played.output
    assert "bob forfeits" in played.stdout and "alice wins" in played.stdout
    moved = alice.run("move", alice.file, "play", "1", "--reward", "red")
    assert moved.exit_code == 1 and alice.file.read_bytes() == before, moved.output
    shown = alice.run("show", alice.file)
    assert "Game aborted" in shown.stdout and "alice wins" in shown.stdout
    # the board of a game an abort ended offers no decision to copy (it once listed `agility move … take 2`)
    assert "agility move" not in shown.stdout and "agility move" not in played.stdout, shown.stdout
    assert "the game is over: alice wins (bob forfeits" in moved.stderr, moved.stderr


GOLDEN_ABORT = Path(__file__).parent / "golden" / "sealed-aborted" / "game.jsonl"


def test_R42_the_recorded_aborted_game_replays_for_ever_with_its_verdict(tmp_path: Path) -> None:
    """A format-3 game recorded by the test above (bob's join planted +D/−D at positions #0 and #1,
    alice's, and alice's tool aborted his first keys line): read by a spectator with no fault
    injected, every line verifies and the verdict is the same — the abort's test vector."""
    spectator = Machine(tmp_path, "spectator")
    shown = spectator.run("show", GOLDEN_ABORT, "--json")
    assert shown.exit_code == 0, shown.output
    state = json.loads(shown.stdout)
    assert state["verdict"] == {"kind": "forfeit", "player": "bob", "reason": (
        "alice's abort at line 4: position #0 opens to no card of the set (a changed deck), opened with alice's "
        "published seal secret: a pass of bob's was false")}
    assert state["winner"] == "alice" and state["to_act"] is None
    seen = spectator.run("replay", GOLDEN_ABORT)
    assert seen.exit_code == 0 and "Result: alice wins: bob forfeits" in seen.stdout
    assert "sum-only" not in seen.stderr  # an aborted game is over: nothing to warn of
