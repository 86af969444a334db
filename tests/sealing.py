"""A sealed game (R42) between two machines and a public verifier, at the library level.

Each seat's machine holds only its own seal secret; every line is composed by its author's
machine (``sealgame.compose``) and read by all three (``sealgame.check``), which must agree on every
digest.  The lines are kept, so a test can read them again — with both secrets (the audit), or
after changing one (an attack).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agility_cli.engine import rules
from agility_cli.engine.components import standard_components
from agility_cli.engine.moves import Header, Move, Seal, SealedSetup
from agility_cli.engine.rng import Rng
from agility_cli.engine.state import DOG_POSITION, State, digest, is_position
from agility_cli.players import bots
from agility_cli.record import sealgame as sg
from agility_cli.record.sealed import Sealed, personal, shown_now

NAMES = ("alice", "bob")
GAME = "ab" * 32


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


def header_of(seed: int, window: int, rules_version: int = 2, board: Any = None) -> tuple[Header, dict[str, bytes]]:
    comps = standard_components()
    secrets = {"alice": bytes([1]) * 31 + bytes([seed % 256]), "bob": bytes([2]) * 31 + bytes([seed % 256])}
    h = Header(format=3, rules=rules_version, seed=seed, players=NAMES, first=NAMES[seed % 2],
               board=board or rules.RECOMMENDED_BOARD, components="standard", sealed=SealedSetup(window=window, nonce="00" * 32))
    sealed = sg.first_passes(h, comps, GAME, "alice", secrets["alice"])
    return Header(**{**{f: getattr(h, f) for f in h.__struct_fields__}, "sealed": sealed}), secrets


def start(h: Header, held: dict[str, bytes]) -> Sealed:
    return sg.start(h, standard_components(), GAME, "alice", held)


def play(seed: int, strategy: str = "greedy", window: int = 2, rules_version: int = 2, board: Any = None) -> Played:
    h, secrets = header_of(seed, window, rules_version, board)
    comps = standard_components()
    machines = {n: start(h, {n: secrets[n]}) for n in NAMES}
    public = start(h, {})
    setup = []
    for who, name in (("bob", "deal-2"), ("alice", "deal-3")):
        seat = NAMES.index(who)
        seal = sg.make_setup(machines[who], seat, name)
        setup.append((seat, name, seal))
        for m in [*machines.values(), public]:
            sg.read_setup(m, seat, name, seal)
    state = rules.setup(h, comps)
    states = {n: state.copy() for n in NAMES}
    pstate = state.copy()
    lines: list[Line] = []
    counts = {"keys lines": 0, "wants": 0, "face down": 0, "claims": 0, "reshuffle steps": 0, "re-masks": 0}
    n = 3
    while True:
        if pstate.winner is not None:
            pending = public.audit_pending(pstate)
            if not pending:
                break
            author, move, want = pending[0], None, 0
        elif (waited := public.awaiting(pstate)) is not None:
            author, move, want = waited, None, 0
        else:
            author = pstate.to_act
            assert author is not None
            me = NAMES[author]
            trial, prepared = sg.prepare(machines[me], states[me], author)
            move, want = None, 0
            if trial.awaiting(prepared) is None:
                if machines[me].blind_play_blocked(states[me], author):
                    want = 1
                else:
                    view = personal(prepared, trial.deck.mine[author])
                    unread = [q for q in shown_now(view) + view.players[author].hand  # R43: a new dog may wait
                              if is_position(q) and not q.startswith(DOG_POSITION)]
                    assert not unread, f"line {n}: {me} must decide on unopened {unread}, and nothing is awaited (R44)"
                    move = bots.choose(strategy, view, Rng.for_purpose(seed, f"bot:{n}"))
        me = NAMES[author]
        c = sg.compose(machines[me], states[me], author, n, move, want=want)
        counts["keys lines"] += c.move is None
        counts["wants"] += bool(want)
        counts["face down"] += c.seal.hand is not None
        counts["claims"] += c.seal.claim is not None
        counts["reshuffle steps"] += c.seal.reshuffle is not None
        counts["re-masks"] += len(c.seal.remask)
        for m, st in [(machines["alice"], states["alice"]), (machines["bob"], states["bob"]), (public, pstate)]:
            sg.check(m, st, author, n, c.move, c.seal)
        assert digest(pstate) == digest(states["alice"]) == digest(states["bob"]) == digest(c.state), n
        for holder in (0, 1):  # R39, R42: a card in a hand is never under its holder's published key
            for q in pstate.players[holder].hand:
                assert (not is_position(q) or public.deck.pos[q].keys[holder] is None
                        or q in public.deck.remasked), f"line {n}: {q} readable"
        lines.append(Line(author, n, c.move, c.seal))
        n += 1
        assert n < 3000, "the game does not end"
    return Played(h, secrets, setup, lines, pstate, public, counts)


def replay(p: Played, held: dict[str, bytes], lines: list[Line] | None = None) -> tuple[Sealed, State]:
    """Read the game's lines again on a machine holding ``held`` (both secrets: the audit)."""
    sealed = start(p.header, held)
    for seat, name, seal in p.setup:
        sg.read_setup(sealed, seat, name, seal)
    state = rules.setup(p.header, standard_components())
    for line in p.lines if lines is None else lines:
        sg.check(sealed, state, line.author, line.n, line.move, line.seal)
    return sealed, state
