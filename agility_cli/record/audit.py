"""The end-of-game audit of a sealed game (R42): the file read again with both players' published
seal secrets, so that every pass, key, re-keyed hand and claim is checked against what its writer's
secret makes, and every card of the deal is known.

The verdict is one of "audited", "audit pending (bob's keys)" or "failed: …, by bob"; a failed audit
forfeits the game for the player at fault.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from ..i18n import N_, _
from ..engine.state import State
from ..text import safe
from .game import Game, Start, Step
from .lazy import Deferred
from .lines import GameFileError, peek_line
from .verify import verify
from ..said import recall


class Audit(msgspec.Struct, frozen=True):
    """The audit's verdict; ``culprit`` names the player at fault when it failed, ``state`` is the
    complete final state when it passed."""

    verdict: str
    culprit: str | None = None
    state: State | None = None


class Verdict(msgspec.Struct, frozen=True):
    """R42's verdict on a finished sealed game, as every view shows it (``show --json``'s
    ``"verdict"``): ``kind`` "forfeit" (``player`` forfeits: the other player wins) or "pending"
    (the audit waits for ``player``'s seal secret); ``reason`` in words."""

    kind: str
    player: str
    reason: str

    def winner(self, players: tuple[str, str] | list[str]) -> str | None:
        """The winner this verdict gives: the other player of a forfeit; None when it changes none."""
        if self.kind != "forfeit":
            return None
        return players[1] if players[0] == self.player else players[0]

    def text(self) -> str:
        """The verdict for a person, in the language in use (``reason`` stays the JSON's English,
        but for this machine's own unsent keys, :data:`UNSENT`)."""
        reason = _(UNSENT) if self.reason == UNSENT else told_reason(self.reason)
        if self.kind == "forfeit":
            return _("{name} forfeits the game: {reason} (R42)").format(name=self.player, reason=reason)
        return _("the win stands once the audit passes: {reason} (R42)").format(reason=reason)


def told_reason(reason: str) -> str:
    """A verdict's reason (the JSON's English, as :func:`verdict` and the checkpoints keep it) for a
    person, in the language in use: its frame (whose keys are pending, which line failed the audit,
    whose abort) through the catalog, and what the sealed deck's check found read back into its
    message (``said.recall``)."""
    import re

    if (found := re.fullmatch(r"audit pending \((.+)'s keys\)", reason)) is not None:
        names = found.group(1).split("'s and ")
        if len(names) == 2:
            return _("audit pending ({a}'s and {b}'s keys)").format(a=names[0], b=names[1])
        return _("audit pending ({name}'s keys)").format(name=found.group(1))
    if (found := re.fullmatch(r"audit failed: line (\d+): (.*), by ([^,]+)", reason, re.S)) is not None:
        return _("audit failed: line {line}: {why}, by {name}").format(line=found.group(1), why=recall(found.group(2)),
                                                                       name=found.group(3))
    if (found := re.fullmatch(r"audit failed: (.*), by ([^,]+)", reason, re.S)) is not None:
        return _("audit failed: {why}, by {name}").format(why=recall(found.group(1)), name=found.group(2))
    if (found := re.fullmatch(r"(.+)'s abort at line (\d+): (.*)", reason, re.S)) is not None:
        return _("{name}'s abort at line {line}: {why}").format(name=found.group(1), line=found.group(2),
                                                                why=recall(found.group(3)))
    return recall(reason)


#: What this machine's views say when its own audit keys are in the file but not sent (R42)
UNSENT = N_("audit pending: your keys are not sent")  # a JSON value: translated only where a person reads it


def unsent_keys(game: Game) -> int | None:
    """R42: the seat of this machine whose seal secret (its audit line, written here by this
    machine's tool: ``history.note_own_audit``) is in the file but not known to have reached the
    opponent — not mailed by ``play --mail``, not printed by ``send``,
    not on the git remote, and no line of the opponent's after it — so that this machine says
    "audit pending: your keys are not sent" where the opponent's says "pending", never "audited".
    None for any other game, a game still being played, a machine holding both seats' keys or
    none, or keys sent."""
    if not game.is_sealed or game.public is None or game.public.winner is None or not game.trust.signed:
        return None
    names = list(game.header.players)
    if any(n.startswith("bot:") for n in names):
        return None
    from . import history, keys  # only for a finished sealed game (start-up time)

    held = [n for n in keys.held_seats(game) if n in names]
    if len(held) != 1:
        return None
    seat = names.index(held[0])
    kept = game.deck if isinstance(game.deck, Deferred) and game.deck.audited is not None else None
    if kept is not None:
        forfeits, audited = kept.forfeits, set(kept.audited or [])
    else:
        forfeits, audited = dict(getattr(game.sealed, "forfeits", {})), set(game.sealed.audits)
    if forfeits or seat not in audited:
        return None  # a forfeit is the verdict, sent or not
    try:
        rec = history.load(game.game_id)
    except (keys.KeyStoreError, ValueError, OSError):
        return None
    line = rec.audit  # written here by this machine's tool (a copy of the file from elsewhere: not)
    if not line or line > len(game.deciders) or game.deciders[line - 1] != held[0]:
        return None
    if any(who == names[1 - seat] for who in game.deciders[line:]):
        return None  # the opponent wrote after it: they have it
    return seat if max(rec.sent, rec.printed, rec.upstream[0]) < line else None


def verdict(game: Game, *, here: bool = True) -> Verdict | None:
    """R42: the verdict of a finished sealed game, from what the verification found at its lines
    (a published seal secret that does not make its writer's passes forfeits the game for that
    player), else the audit still pending (by name); None for any other game, one still being
    played, or one ended and audited.  ``here``: said to this machine's player, whose own keys
    not yet sent (:func:`unsent_keys`) are "audit pending: your keys are not sent"; else (a shared
    picture or page) those keys are pending by name, as the opponent's machine says."""
    if not game.is_sealed or game.public is None:
        return None
    names = game.header.players
    kept = game.deck if isinstance(game.deck, Deferred) and game.deck.audited is not None else None
    if kept is not None:  # a checkpoint's deck, not decoded: its summary says it (start-up time)
        forfeits, audited = kept.forfeits, set(kept.audited or [])
    else:
        sealed = game.sealed
        forfeits, audited = dict(getattr(sealed, "forfeits", {})), set(sealed.audits)
    if forfeits:  # a failed audit, or an abort's verdict (R42): whether the game ended or not
        seat = min(forfeits)
        return Verdict("forfeit", names[seat], forfeits[seat])
    if game.public.winner is None:
        return None
    pending = [seat for seat in (0, 1) if seat not in audited]
    unsent = unsent_keys(game)
    if unsent is not None and here:
        return Verdict("pending", names[unsent], UNSENT)
    if unsent is not None:
        pending = sorted({*pending, unsent})
    if pending:
        who = " and ".join(f"{names[seat]}'s" for seat in pending)
        return Verdict("pending", names[pending[0]], f"audit pending ({who} keys)")
    return None


def published_secrets(game: Game) -> dict[str, bytes] | None:
    """R39/R42: both seal secrets of a finished sealed game whose audit lines are in (everything is
    public then: its states can be read with them, every position open); else None."""
    if game.sealed is None or game.public is None or game.public.winner is None:
        return None
    if game.sealed.audit_pending(game.public) or getattr(game.sealed, "forfeits", None):
        return None  # R42: a secret found wrong reads nothing (its writer forfeits)
    return {game.sealed.names[seat]: secret for seat, secret in game.sealed.audits.items()}


def audit(data: bytes, path: str, game: Game) -> Audit | None:
    """R42: the audit of a sealed game (None for any other game, or one still being played)."""
    if game.sealed is None or game.public is None:
        return None
    found = verdict(game)
    if found is not None and found.kind == "forfeit":  # a failed audit, or an abort's verdict (R42)
        frame = (N_("failed: {reason} — {name} forfeits the game (R42)") if found.reason.startswith("audit failed") else
                 N_("aborted: {reason} — {name} forfeits the game (R42)"))
        return Audit(frame.format(reason=found.reason, name=safe(found.player)), found.player)
    if game.public.winner is None:
        return None
    if found is not None:
        return Audit(found.reason)
    held = {game.sealed.names[seat]: secret for seat, secret in game.sealed.audits.items()}
    last: State | None = None
    try:
        for item in verify(data, path, held=held):
            last = item.state if isinstance(item, Start) else item.after
    except GameFileError as exc:
        line = exc.line or 1
        raw = data.split(b"\n")[line - 1]
        peek = peek_line(raw)
        who = peek.player if peek is not None and isinstance(peek.player, str) else game.header.players[0]
        if line == 1:
            who = next(iter(game.trust.keys), who)
        return Audit(N_("failed: line {line}: {why}, by {name} — {name} forfeits the game (R42)").format(
            line=line, why=exc.message, name=safe(who)), who)
    return Audit(N_("audited: every pass, key and face-down card checks with both players' published secrets"), None,
                 last)


def whole_cards(data: bytes, path: str, game: Game) -> dict[str, str] | None:
    """R39/R42: a finished, audited sealed game's every position and its card, read with both
    published secrets (the whole file verified once more); None for any other game."""
    held = published_secrets(game)
    if held is None:
        return None
    from .sealed.seal import every_card  # only for a sealed game (start-up time)

    sealed = None
    for item in verify(data, path, held=held):
        if isinstance(item, Start):
            sealed = item.sealed
    return None if sealed is None else every_card(sealed)


def whole_lines(data: bytes, path: str, held: dict[str, bytes], *, upto: int | None = None,
                keep_before: bool = False) -> Iterator[Start | Step]:
    """R39/R42: the lines of a finished, audited sealed game (to line ``upto``) read with both
    published secrets ``held``, every card of every state named — those that awaited a key at
    their line (a Boost card during a pause, a Break draw, a reshuffled display) too, as the end
    of the game opened them.  The whole file is verified before the first item (the cards are
    known only then); the :class:`Start`'s state is its own copy, not advanced by the steps."""
    start: Start | None = None
    first: State | None = None
    steps: list[Step] = []
    for item in verify(data, path, keep_before=keep_before, held=held):
        if isinstance(item, Start):
            start, first = item, item.state.copy()
        elif upto is None or item.line <= upto:
            steps.append(item)
    assert start is not None and first is not None
    if upto is not None and start.line > upto:  # R40: no state before the handshake's end: as verify says it
        yield from verify(data, path, upto=upto, keep_before=keep_before, held=held)
        return
    from .sealed.seal import every_card, named  # only for a sealed game (start-up time)

    cards = every_card(start.sealed) if start.sealed is not None else {}
    yield msgspec.structs.replace(start, state=named(first, cards))
    for step in steps:
        step.after = named(step.after, cards)
        if step.before is not None:
            step.before = named(step.before, cards)
        yield step
