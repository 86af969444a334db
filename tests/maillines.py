"""Game lines as players mail them, and a format=flowed encoder, for the mail tests.

The lines have the shape of a signed game file's lines (hash chain, digest, Ed25519 signature in
base64) and are 300–560 characters long, with ``"`` and spaces inside values — player and
component names such as ``Zoë "Zo" Brontë`` — and a header line of about 10 KB.  They are made
here rather than by the engine so that the mail tests stay independent of the rules.
"""

from __future__ import annotations

import base64
import hashlib
import json


def _hex(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def _sig(seed: str) -> str:
    return base64.b64encode(hashlib.sha512(seed.encode()).digest()).decode()


def _dump(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


PLAYERS = ('Zoë "Zo" Brontë', "Anne-Marie O'Neil")


def header_line(size: int = 10_000) -> str:
    """A game header of about ``size`` characters: custom components with spaced, quoted names."""
    cards = []
    i = 0
    while True:
        i += 1
        cards.append({
            "id": f"t{i:02d}",
            "name": f'The "{["quick", "lazy", "brave"][i % 3]}" jump {i}',
            "number": i % 6 + 1,
            "rewards": [{"color": "blue", "count": 3}, {"color": "red", "count": 2}],
        })
        line = _dump({
            "kind": "game", "format": 2, "rules": 2, "seed": None, "players": list(PLAYERS),
            "first": PLAYERS[0], "commit": _hex("commit"),
            "components": {"name": 'Club "Agility" set — 2nd  edition', "cards": cards},
            "keys": [_sig("key0")[:44], _sig("key1")[:44]], "sig": _sig("header"),
        })
        if len(line) >= size:
            return line


def game_lines(count: int = 6) -> list[str]:
    """``count`` decision lines of 300–560 characters (mixed lengths), each a compact JSON object."""
    out: list[str] = []
    sayings = [
        'she said "ready?"  and then  "go!"',
        "From the start line > the weave poles",
        '   leading spaces, a tab\tand a backslash \\ in a "quoted" value',
        "> looks like a quote, From here on; -- ",
        "a long remark " * 12,
        "short",
    ]
    for n in range(1, count + 1):
        record = {
            "kind": "play", "n": n, "prev": _hex(f"prev{n}"), "player": PLAYERS[n % 2],
            "card": f"t{n:02d}", "reward": "blue", "flex": n % 2,
            "remark": sayings[n % len(sayings)],
            "digest": _hex(f"digest{n}"), "sig": _sig(f"sig{n}"),
        }
        line = _dump(record)
        while len(line) < 300:
            record["remark"] = str(record["remark"]) + " and more"
            line = _dump(record)
        assert 300 <= len(line) <= 560, len(line)
        out.append(line)
    return out


def flowed(text: str, *, delsp: bool, width: int = 72, quote: int = 0) -> str:
    """``text`` encoded as format=flowed (RFC 3676), as Thunderbird sends it.

    Each line longer than ``width`` is broken at its last space before the width, that space kept
    at the end of the piece (the soft break).  With ``delsp`` (DelSp=yes) a space is added to every
    piece that ends at a soft break (the decoder deletes it), and a run with no space is broken
    inside a word.  Without ``delsp`` a run with no space stays whole (a line longer than
    ``width``).  Pieces that start with a space, ``>`` or ``From `` are space-stuffed; ``quote``
    prefixes every line with that many ``>`` and a space.  Lines are ``\\n``-separated.
    """
    room = width - quote - 2  # the quote marks, and a space after them or a space-stuffing one
    out: list[str] = []

    def put(piece: str) -> None:
        if quote:  # the space after the quote marks is the space-stuffing one (RFC 3676, 4.5)
            out.append(">" * quote + (" " + piece if piece else ""))
        else:
            out.append(" " + piece if piece.startswith((" ", ">", "From ")) else piece)

    for line in text.split("\n"):
        if line != "-- ":  # the signature separator keeps its space
            line = line.rstrip(" ")  # a fixed line does not end in a space
        while len(line) > room:
            cut = line.rfind(" ", 0, room)
            if cut > 0:
                head, line = line[: cut + 1], line[cut + 1 :]
                put(head + " " if delsp else head)
            elif delsp:
                head, line = line[: room - 1], line[room - 1 :]
                put(head + " ")
            else:
                cut = line.find(" ", room)
                if cut == -1:
                    break
                head, line = line[: cut + 1], line[cut + 1 :]
                put(head)
        put(line)
    return "\n".join(out)
