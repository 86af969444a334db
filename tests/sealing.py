"""A sealed game (R42) between two machines and a public verifier, at the library level.

Each seat's machine holds only its own seal secret; every line is composed by its author's
machine (``sealgame.compose``) and read by all three (``sealgame.check``), which must agree on every
digest.  The lines are kept, so a test can read them again — with both secrets (the audit), or
after changing one (an attack).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from agility_cli.engine import rules
from agility_cli.engine.components import standard_components
from agility_cli.engine.moves import Header, Move, Seal, SealedSetup
from agility_cli.engine.rng import Rng
from agility_cli.engine.state import DOG_POSITION, State, is_position
from agility_cli.players import sealedplay
from agility_cli.players.sealedplay import Line, Played
from agility_cli.record.sealed import game as sg
from agility_cli.record.sealed.seal import Sealed, personal, shown_now

NAMES = ("alice", "bob")
GAME = "ab" * 32


def header_of(seed: int, window: int, rules_version: int = 2, board: Any = None,
              file_format: int = 4) -> tuple[Header, dict[str, bytes]]:
    """A sealed game's header: format 4 (binding shuffle proofs, R42: what ``new`` writes) or 3."""
    comps = standard_components()
    secrets = {"alice": bytes([1]) * 31 + bytes([seed % 256]), "bob": bytes([2]) * 31 + bytes([seed % 256])}
    h = Header(format=file_format, rules=rules_version, seed=seed, players=NAMES, first=NAMES[seed % 2],
               board=board or rules.RECOMMENDED_BOARD, components="standard", sealed=SealedSetup(window=window, nonce="00" * 32))
    sealed = sg.first_passes(h, comps, GAME, "alice", secrets["alice"])
    return Header(**{**{f: getattr(h, f) for f in h.__struct_fields__}, "sealed": sealed}), secrets


def start(h: Header, held: dict[str, bytes]) -> Sealed:
    return sg.start(h, standard_components(), GAME, "alice", held)


def play(seed: int, strategy: str = "greedy", window: int = 2, rules_version: int = 2, board: Any = None,
         file_format: int = 4) -> Played:
    """A whole sealed game, with every line checked for what no line may leave behind (R39, R44)."""
    h, secrets = header_of(seed, window, rules_version, board, file_format)

    def decide(view: State, author: int, n: int) -> None:
        unread = [q for q in shown_now(view) + view.players[author].hand  # R43: a new dog may wait
                  if is_position(q) and not q.startswith(DOG_POSITION)]
        assert not unread, f"line {n}: {NAMES[author]} must decide on unopened {unread}, and nothing is awaited (R44)"

    def after(public: Sealed, pstate: State, line: Line) -> None:
        for holder in (0, 1):  # R39, R42: a card in a hand is never under its holder's published key
            for q in pstate.players[holder].hand:
                assert (not is_position(q) or public.deck.pos[q].keys[holder] is None
                        or q in public.deck.remasked), f"line {line.n}: {q} readable"

    return sealedplay.play(h, standard_components(), GAME, secrets, strategy, seed, on_line=after, on_decide=decide)


def replay(p: Played, held: dict[str, bytes], lines: list[Line] | None = None) -> tuple[Sealed, State]:
    """Read the game's lines again on a machine holding ``held`` (both secrets: the audit)."""
    sealed = start(p.header, held)
    state = rules.setup(p.header, standard_components())
    for seat, name, seal in p.setup:
        sg.read_setup(sealed, seat, name, seal, state)
    for line in p.lines if lines is None else lines:
        sg.check(sealed, state, line.author, line.n, line.move, line.seal)
    return sealed, state


def read(p: Played, held: dict[str, bytes], lines: list[Line] | None = None) -> Iterator[tuple[Line, State, Sealed, State]]:
    """Read the game's lines again on a machine holding ``held``, line by line: each line with the
    state before it, the deck and the state after it (advanced in place: copy what is kept)."""
    sealed = start(p.header, held)
    state = rules.setup(p.header, standard_components())
    for seat, name, seal in p.setup:
        sg.read_setup(sealed, seat, name, seal, state)
    for line in p.lines if lines is None else lines:
        before = state.copy()
        sg.check(sealed, state, line.author, line.n, line.move, line.seal)
        yield line, before, sealed, state
