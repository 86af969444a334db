"""Sealed self-play (R42–R44): a whole sealed game between two machines and a public verifier, in one
process, for the benchmark and the tests.

Each seat's machine holds only its own seal secret; every line is composed by its author's machine
(``sealgame.compose``) and read by all three (``sealgame.check``), which must agree on every digest.
The lines are kept, so a caller can read them again (with both secrets: the audit).  What a game
costs is counted as it is played: lines, keys lines, the round trips a turn waits for (R44), the
bytes of the seals, the CPU time of writing and of verifying.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

from ..engine import rules
from ..engine.components import Components, standard_components
from ..engine.moves import RULES_VERSION, Header, Move, Seal, SealedSetup
from ..engine.rng import Rng
from ..engine.state import State, digest
from ..record.sealed import game as sg
from ..record.sealed.seal import Sealed, personal
from . import bots, selfplay

#: The most lines a sealed self-play game may take before it is called stuck.
MAX_LINES = 3000


@dataclass
class Line:
    author: int
    n: int
    move: Move | None
    seal: Seal


@dataclass
class Played:
    header: Header
    secrets: dict[str, bytes]
    setup: list[tuple[int, str, Seal]]
    lines: list[Line]
    final: State
    public: Sealed
    counts: dict[str, int] = field(default_factory=dict)
    #: CPU seconds: the writers' composing, and the three readers' checks (two machines, a verifier)
    cpu: dict[str, float] = field(default_factory=dict)

    @property
    def decisions(self) -> int:
        return sum(1 for line in self.lines if line.move is not None)


def seeded_game(seed: int, window: int = 2, board: str = "mixed", index: int = 0,
                file_format: int = 4) -> tuple[Header, str, dict[str, bytes]]:
    """The header, game id and seal secrets of self-play game ``index`` of master ``seed`` (the
    benchmark's: secrets from the project's PRNG, so a run replays; a real game's come from the OS);
    ``file_format`` 4 (binding shuffle proofs, R42, what ``new`` writes) or 3."""
    game_seed = selfplay.game_seed(seed, index)
    rng = Rng.for_purpose(game_seed, "sealed self-play secrets")
    secrets = {name: b"".join(rng.next_u64().to_bytes(8, "big") for _ in range(4)) for name in ("alice", "bob")}
    game = hashlib.sha256(f"sealed self-play {seed} {index}".encode()).hexdigest()
    names = ("alice", "bob")
    bare = Header(format=file_format, rules=RULES_VERSION, seed=game_seed, players=names, first=rules.random_first(game_seed, names),
                  board=selfplay.board_layout(selfplay.board_mode(board, index), game_seed), components="standard",
                  sealed=SealedSetup(window=window, nonce=game))
    sealed = sg.first_passes(bare, standard_components(), game, "alice", secrets["alice"])
    return msgspec.structs.replace(bare, sealed=sealed), game, secrets


def play(header: Header, components: Components, game: str, secrets: dict[str, bytes], strategy: str, seed: int,
         *, on_line: Callable[[Sealed, State, Line], None] | None = None,
         on_decide: Callable[[State, int, int], None] | None = None) -> Played:
    """Play the sealed game of ``header`` (its ``deal-1`` passes made with ``secrets``) to the end of
    its audit, both seats by ``strategy``.  ``on_line`` sees the public deck and state after each
    line; ``on_decide`` the state a seat decides in (its personal view) before each decision."""
    names = header.players
    creator = header.players[0]
    machines = {n: sg.start(header, components, game, creator, {n: secrets[n]}) for n in names}
    public = sg.start(header, components, game, creator, {})
    setup = []
    state = rules.setup(header, components)
    for seat, name in ((1, "deal-2"), (0, "deal-3")):
        seal = sg.make_setup(machines[names[seat]], seat, name, state)
        setup.append((seat, name, seal))
        for m in [*machines.values(), public]:
            sg.read_setup(m, seat, name, seal, state)
    states = {n: state.copy() for n in names}
    pstate = state.copy()
    lines: list[Line] = []
    counts = {"lines": 0, "keys lines": 0, "round trips": 0, "wants": 0, "face down": 0, "claims": 0,
              "reshuffle steps": 0, "re-masks": 0, "seal bytes": sum(len(msgspec.json.encode(s)) for _, _, s in setup)}
    cpu = {"write": 0.0, "verify": 0.0}
    n = 3
    while True:
        if pstate.winner is not None:
            pending = public.audit_pending(pstate)
            if not pending:
                break
            author, move, want = pending[0], None, 0
        elif (waited := public.awaiting(pstate)) is not None:
            author, move, want = waited, None, 0
            counts["round trips"] += public.dealt and waited != pstate.active  # R44: the turn waits
        else:
            actor = pstate.to_act
            assert actor is not None
            author = actor
            me = names[author]
            trial, prepared = sg.prepare(machines[me], states[me], author)
            move, want = None, 0
            if trial.awaiting(prepared) is None:
                if machines[me].blind_play_blocked(states[me], author):
                    want = 1
                else:
                    view = personal(prepared, trial.deck.mine[author])
                    if on_decide is not None:
                        on_decide(view, author, n)
                    move = bots.choose(strategy, view, Rng.for_purpose(seed, f"bot:{n}"))
        me = names[author]
        started = time.process_time()
        c = sg.compose(machines[me], states[me], author, n, move, want=want)
        cpu["write"] += time.process_time() - started
        counts["keys lines"] += c.move is None
        counts["wants"] += bool(want)
        counts["face down"] += c.seal.hand is not None
        counts["claims"] += c.seal.claim is not None
        counts["reshuffle steps"] += c.seal.reshuffle is not None
        counts["re-masks"] += len(c.seal.remask)
        counts["seal bytes"] += len(msgspec.json.encode(c.seal))
        started = time.process_time()
        for m, st in [(machines[names[0]], states[names[0]]), (machines[names[1]], states[names[1]]), (public, pstate)]:
            sg.check(m, st, author, n, c.move, c.seal)
        cpu["verify"] += time.process_time() - started
        if not digest(pstate) == digest(states[names[0]]) == digest(states[names[1]]) == digest(c.state):
            raise AssertionError(f"line {n}: the machines disagree on the state")
        line = Line(author, n, c.move, c.seal)
        lines.append(line)
        if on_line is not None:
            on_line(public, pstate, line)
        n += 1
        if n >= MAX_LINES:
            raise AssertionError("the sealed game does not end")
    counts["lines"] = len(lines)
    return Played(header, secrets, setup, lines, pstate, public, counts, cpu)
