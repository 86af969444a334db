"""A modified opponent for the sealed deck's adversarial tests (R42; docs/sealed-deck.md, section 11):
whole sealed games played through the command line by two machines (two key stores, no ``--as``),
and a test double of bob's tool that writes abort lines the honest tool never would — over any
position, in turn or out of turn, carrying a line of alice's or none — signed with bob's own true
keys and his true seal secret.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest

from agility_cli.engine.moves import Abort, KeysLine, LINE_DECODER, Seal
from agility_cli.engine.state import digest
from agility_cli.record import gamefile, keys
from agility_cli.record.lines import GameFileError, encode_line, line_hash
from agility_cli.record.mail import armour
from machines import Machine


def seed_secrets(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The tools' secrets from a seeded source (DECISIONS: tests inject seeded randomness), so that
    each run plays the same deal; a real game never does."""
    from agility_cli.engine.rng import Rng
    from agility_cli.record.sealed import game as sealgame, write as sealwrite

    rng = Rng.for_purpose(seed, "adversary secrets")

    def draw(n: int) -> bytes:
        return b"".join(rng.next_u64().to_bytes(8, "big") for _ in range((n + 7) // 8))[:n]

    class Os:
        @staticmethod
        def urandom(n: int) -> bytes:
            return draw(n)

    monkeypatch.setattr(sealgame, "new_secret", lambda: draw(32))
    monkeypatch.setattr(keys, "new_secret", lambda: draw(32).hex())
    monkeypatch.setattr(keys, "new_signing_key", lambda: draw(32).hex())
    monkeypatch.setattr(sealwrite, "os", Os)


@contextmanager
def at_home(m: Machine | Path) -> Iterator[None]:
    """Library calls as ``m``'s machine makes them (its key store)."""
    old = os.environ.get("AGILITY_HOME")
    os.environ["AGILITY_HOME"] = str(m.home if isinstance(m, Machine) else m)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("AGILITY_HOME", None)
        else:
            os.environ["AGILITY_HOME"] = old


def status(m: Machine, home: Path | None = None) -> dict[str, Any]:
    r = m.run("show", m.file, "--json", home=home)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def send(src: Machine, dst: Machine) -> None:
    sent = src.run("send", src.file)
    assert sent.exit_code == 0, sent.output
    if sent.stdout.strip():
        got = dst.run("apply", dst.file, "-", input=sent.stdout)
        assert got.exit_code == 0, got.output


def joined_pair(root: Path) -> tuple[Machine, Machine]:
    """Two machines of a fair sealed game by mail: alice's invitation applied on bob's, his join on hers."""
    alice, bob = Machine(root, "alice"), Machine(root, "bob")
    assert alice.run("new", alice.file, "--players", "alice", "bob").exit_code == 0
    assert bob.run("apply", bob.file, "-", input=alice.file.read_text()).exit_code == 0
    joined = bob.run("join", bob.file)
    assert joined.exit_code == 0, joined.output
    assert alice.run("apply", alice.file, "-", input=joined.stdout).exit_code == 0
    return alice, bob


def whole_game(root: Path, seed: int, stop: int | None = None) -> tuple[Machine, Machine]:
    """A sealed game by mail between two machines, bots deciding (seed ``seed``), to the end and
    the audit (or until the file holds ``stop`` lines)."""
    alice, bob = joined_pair(root)
    machines = {"alice": alice, "bob": bob}
    current = alice
    for turn in range(900):
        if stop is not None and len(current.file.read_bytes().splitlines()) >= stop:
            break
        st = status(current)
        pending = st["sealed"]["audit_pending"]
        if st["status"] != "playing" and not pending:
            break
        who = pending[0] if st["status"] != "playing" else st["to_act"]
        m = machines[who]
        if m is not current:
            send(current, m)
            current = m
            continue
        if st["status"] == "playing" and "awaiting_keys" not in st:
            r = m.run("bot", m.file, "--moves", "1", "--seed", str(seed * 1000 + turn))
            assert r.exit_code == 0, r.output
        else:
            other = machines["bob" if who == "alice" else "alice"]
            send(m, other)
            current = other
    send(current, machines["bob" if current is alice else "alice"])
    return alice, bob


def lines_of(data: bytes) -> list[bytes]:
    return data.rstrip(b"\n").split(b"\n")


def forged_abort(writer: Machine, data: bytes, position: str, carried: bytes | None, game: Any = None) -> bytes:
    """``writer``'s modified tool: an abort line after ``data`` over ``position``, carrying
    ``carried`` (a line of the opponent's it refuses) or nothing, with the writer's true seal
    secret, signed with its own key (``game``: ``data`` as the writer's machine reads it)."""
    if game is None:
        game = read_as(writer, data)
    assert game.sealed is not None and game.public is not None
    with at_home(writer):
        signing = keys.signing_key(game.game_id, writer.name)
    seat = game.sealed.names.index(writer.name)
    secret = game.sealed.deck.mine[seat].secret.hex()
    abort = Abort(secret=secret, position=position, line=None if carried is None else carried.decode())
    record = KeysLine(n=game.next_n, prev=game.tip, player=writer.name, seal=Seal(abort=abort), digest=digest(game.public))
    assert signing is not None
    return keys.with_signature(encode_line(record), signing)


def read_as(m: Machine, data: bytes) -> Any:
    with at_home(m):
        return gamefile.load_bytes(data, str(m.file))


def positions(game: Any) -> list[str]:
    """Every position the deck and the dog pile ever named in ``game`` (as a player's machine
    reads it): sealed, public, in a hand, re-keyed, reshuffled, opened before — and one that
    never existed."""
    assert game.sealed is not None
    return sorted(game.sealed.deck.pos) + ["#9999"]


def judged_on(m: Machine, data: bytes) -> str:
    """What ``m``'s machine makes of the file ``data`` (library: the reading ``apply`` does):
    "refused", or the player who forfeits ("" for none)."""
    from agility_cli.record.audit import verdict

    with at_home(m):
        try:
            game = gamefile.load_bytes(data, str(m.file))
        except GameFileError:
            return "refused"
        found = verdict(game)
    return found.player if found is not None and found.kind == "forfeit" else ""


def block(data: bytes, line: bytes) -> str:
    """``line`` (the file's next) as an armoured block, as a mail program carries it."""
    n = len(lines_of(data)) + 1
    return armour.armour([line], game=line_hash(lines_of(data)[0])[:8], first=n, last=n)


def writer_of(raw: bytes) -> str:
    return str(LINE_DECODER.decode(raw).player)


def decode(raw: bytes) -> Any:
    return msgspec.json.decode(raw)
