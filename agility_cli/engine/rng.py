"""The game's own deterministic PRNG (R11).

Every random event of a game — shuffles, course choice, random boards, reshuffles, a random start
player — comes from this module, never from Python's :mod:`random` (whose ``shuffle`` may change
between versions).  The algorithm is fixed forever for rules version 1:

* **Generator.** SplitMix64 (Steele, Lea & Flood, 2014): ``state += 0x9E3779B97F4A7C15`` (mod 2⁶⁴),
  then ``z = state``; ``z = (z ^ z>>30) * 0xBF58476D1CE4E5B9``; ``z = (z ^ z>>27) * 0x94D049BB133111EB``;
  output ``z ^ z>>31`` (all mod 2⁶⁴).
* **Streams.** A purpose string names each independent stream: the initial state for seed ``s`` and
  purpose ``p`` is the first 8 bytes, big-endian, of ``SHA-256(f"agility:{s}:{p}")``.  Setup and play
  use purpose ``"game"``; ``agility new`` uses ``"board"`` for a random action board and ``"first"``
  for a random start player.
* **Bounded integers.** ``below(n)`` draws 64-bit outputs and rejects those ≥ ``2⁶⁴ − (2⁶⁴ mod n)``,
  then returns ``x mod n``: exactly uniform.
* **Shuffle.** Fisher–Yates from the end: for ``i`` from ``len−1`` down to 1, swap item ``i`` with
  item ``below(i+1)``.

The golden vectors in ``tests/test_rng.py`` pin all of this.
"""

from __future__ import annotations

import hashlib
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def stream_seed(seed: int, purpose: str) -> int:
    """The initial 64-bit state of stream ``purpose`` for game seed ``seed``."""
    digest = hashlib.sha256(f"agility:{seed}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: returns ``(new_state, output)``."""
    state = (state + GOLDEN_GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


class Rng:
    """A SplitMix64 stream.  Its whole state is the integer :attr:`state`, kept in the game state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    @classmethod
    def for_purpose(cls, seed: int, purpose: str) -> Rng:
        return cls(stream_seed(seed, purpose))

    def __repr__(self) -> str:
        return f"Rng({self.state:#x})"

    def next_u64(self) -> int:
        self.state, out = next_u64(self.state)
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: list[T], k: int) -> list[T]:
        """``k`` items in random order: the first ``k`` of a shuffled copy."""
        copy = list(items)
        self.shuffle(copy)
        return copy[:k]
