"""The numbered choices a person picks from (``agility play``, the board's hints): one row per card
to play or decision, its options, and reading what the person types against those rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine import rules
from ..engine.components import tile_name
from ..engine.moves import Advance, Distract, Exchange, Move, Play
from ..engine.state import State
from ..engine.notation import UsageError, argv, card_word, describe, number, parse


# ----------------------------------------------------------------------------------------------
# The menu of `agility play` and `agility legal`: the legal decisions grouped into short rows


@dataclass
class Row:
    """One numbered row of the menu: a card to play, an exchange, a Distraction target …

    ``base`` are the ``agility move`` words the row stands for; what is typed after the row's
    number is added to them (a bare colour is the reward or the spare, ``+1``/``-1`` a Flex
    shift), so that a row and its options are parsed exactly as ``agility move`` parses them.
    """

    label: str
    base: list[str]
    moves: list[Move]
    options: str = ""  # what may follow the number, e.g. ``reward red|black · Flex: -1 Break``
    tile: str | None = None  # the tile a card to play reaches (for a one-line hint on it)

    @property
    def default(self) -> Move:
        """What the bare number picks: no Flex and the reward left for later (rules version 2),
        else the first option listed (shown as the default)."""
        plain = [m for m in self.moves if not (isinstance(m, Play) and m.flex)]
        later = [m for m in plain if isinstance(m, Play) and m.reward is None]
        return (later or plain or self.moves)[0]

    def argv(self, words: list[str]) -> list[str]:
        """The ``agility move`` words for this row with the options ``words``."""
        out = list(self.base)
        kind = self.base[0]
        for w in words:
            if kind == "play" and (w.startswith("+") or (w.startswith("-") and w[1:].isdigit())):
                out.append(f"--flex={w}")
            elif kind in ("play", "advance") and not w.startswith("-") and not w.lstrip("+-").isdigit():
                out += ["--reward" if kind == "play" else "--spare", w]
            else:
                out.append(w)
        return out


def _flex_words(s: State, moves: list[Play]) -> str:
    shifts = sorted({m.flex for m in moves if m.flex})
    if not shifts:
        return ""
    target = (s.marker + s.cat.cards[moves[0].card].number) % 10
    return "Flex: " + ", ".join(f"{f:+d} {tile_name(s.board[(target + f) % 10])}" for f in shifts)


def menu(s: State) -> list[Row]:
    """The legal decisions now as rows (a play is one row per card, its reward and Flex as options)."""
    rows: list[Row] = []
    keyed: dict[tuple[Any, ...], Row] = {}
    for m in rules.legal_moves(s):
        key: tuple[Any, ...]
        if isinstance(m, Play):
            key = ("play", m.card)
        elif isinstance(m, Exchange):
            key = ("exchange",)
        elif isinstance(m, Distract):
            key = ("distract", m.course, m.obstacle)
        elif isinstance(m, Advance):
            key = ("advance", m.course)
        else:
            key = (m,)
        row = keyed.get(key)
        if row is None:
            row = keyed[key] = Row("", [], [])
            rows.append(row)
        row.moves.append(m)
    for row in rows:
        _label(s, row)
    # The decisions that matter first: an exchange is always possible and rarely the point.
    return sorted(rows, key=lambda r: isinstance(r.moves[0], Exchange))


def _label(s: State, row: Row) -> None:
    m = row.moves[0]
    if isinstance(m, Play):
        p = s.players[s.to_act if s.to_act is not None else s.active]
        plays = [x for x in row.moves if isinstance(x, Play)]
        row.base = ["play", card_word(s, m.card, p.hand if p.hand else s.deck[:1])]
        card = s.cat.cards[m.card]
        target = (s.marker + card.number) % 10
        what = f"{card.id} [{card.number}] {card.rewards[0].count} {card.rewards[0].color} | {card.rewards[1].count} {card.rewards[1].color}"
        if not p.hand:
            what = f"the deck's top card ({what})"
        row.label = f"play {what} → {tile_name(s.board[target])} (marker {s.marker}→{target})"
        row.tile = s.board[target]
        opts = []
        offered = {x.reward for x in plays if x.reward is not None}
        rewards = [r.color for r in card.rewards if r.color in offered]
        if rewards:
            later = any(x.reward is None for x in plays)  # rules version 2: chosen after the action
            opts.append("reward " + "|".join(dict.fromkeys(rewards)) + (" now, or later" if later else f" (default {getattr(row.default, 'reward')})"))
        flex = _flex_words(s, plays)
        if flex:
            opts.append(flex)
        row.options = " · ".join(opts)
    elif isinstance(m, Exchange):
        row.base = ["exchange"]
        n = s.players[s.active].exchange
        row.label = f"spend an Exchange token ({n} held): all cubes of one colour become another"
        froms = sorted({x.from_ for x in row.moves if isinstance(x, Exchange)})
        row.options = f"FROM TO, FROM one of {'|'.join(froms)} (default {m.from_} {m.to})"
    elif isinstance(m, Distract):
        row.base = ["distract", m.course, str(m.obstacle + 1)]
        c = next(c for c in s.courses if c.id == m.course)
        row.label = f"Distraction: +1 on obstacle {m.obstacle + 1} ({c.obstacles[m.obstacle].type.replace('_', ' ')}) of {m.course}"
        row.options = "|".join(x.color for x in row.moves if isinstance(x, Distract)) + f" (default {m.color})"
    elif isinstance(m, Advance):
        row.base = ["advance", m.course]
        row.label = describe(s, m) if len(row.moves) == 1 else describe(s, m).split(" (")[0] + " (minus one spares a cube)"
        spares = [x.spare for x in row.moves if isinstance(x, Advance) and x.spare]
        if len(row.moves) > 1:
            row.options = "|".join(spares) + f" (the colour to spare; default {spares[0]})"
    else:
        row.base = argv(s, m)
        row.label = describe(s, m)


#: The longest line ``agility play`` reads as a decision (characters).  A decision's words are a few
#: dozen characters; a longer line is refused before it is split (``shlex.split`` of a megabyte
#: takes tens of seconds).
MAX_TYPED_LINE = 4096


def pick(s: State, rows: list[Row], text: str) -> Move:
    """The decision a line typed in ``agility play`` names: ``3``, ``3 red``, ``3 --flex=1`` (a
    row of :func:`menu` and its options) or the words of ``agility move`` (``play 3 red``).
    A line longer than :data:`MAX_TYPED_LINE` characters is a :class:`UsageError`."""
    import shlex

    if len(text) > MAX_TYPED_LINE:
        raise UsageError(f"the line is longer than {MAX_TYPED_LINE} characters: no decision is that long")
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"cannot read {text!r}: {exc}") from None
    if not words:
        raise UsageError("type the number of a decision, or its words")
    k = number(words[0], "a decision number")
    if k is not None:
        if not 1 <= k <= len(rows):
            raise UsageError(f"there is no decision {k}: choose 1–{len(rows)}")
        row = rows[k - 1]
        if len(words) == 1:
            return row.default
        return parse(s, row.argv(words[1:]))
    return parse(s, words)
