"""A whole game told line by line, as one seat sees it (R39): ``agility replay`` and its ``--json``.

Both read the file once, verifying every line as they go (``gamefile.verify``), so a damaged file
is told up to its first bad line and then reported (exit 3).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from ...engine.components import fingerprint, is_standard, tile_name
from ...i18n import _, name
from ...engine.state import State, public_state
from ...engine.view import move_view, seat_view
from ...record import gamefile
from ...record.gamefile import header_components
from ...said import recall
from ...text import quoted, safe
from .. import session
from ..layout import cell_len
from ..render import awaited


def _secrets(data: bytes, path: str, game: gamefile.Game | None) -> dict[str, bytes] | None:
    """R39/R42: both published secrets of a finished sealed game, from ``game`` (the file already
    loaded by the caller) or else from the file; ``None`` for any other game."""
    return gamefile.published_secrets(game) if game is not None else gamefile.whole_game_secrets(data, path)


def _lines(data: bytes, path: str, upto: int | None, keep_before: bool,
           held: dict[str, bytes] | None, game: gamefile.Game | None = None) -> Iterator[gamefile.Start | gamefile.Step]:
    """The file's lines verified: a finished, audited sealed game (``held``, both published
    secrets) with every card of every line named (R39/R42), any other as it is read here (as a
    spectator reads it where the loader found this machine's own secret refused, issue 49)."""
    if held is not None:
        return gamefile.whole_lines(data, path, held, upto=upto, keep_before=keep_before)
    spectator = game is not None and game.spectator
    return gamefile.verify(data, path, upto=upto, keep_before=keep_before, held={} if spectator else None)


def json_lines(data: bytes, path: str, seat: int | None, upto: int | None = None,
               game: gamefile.Game | None = None, shared: bool = False) -> Iterator[str]:
    """``{"line": 1, "state": …}`` for the header, then ``{"line", "move", "state"}`` for every line,
    each state as ``seat`` sees it (``None``: complete), a face-down card hidden in the move.
    ``game``: the whole file, loaded already (it says whether the game is finished and audited).
    ``shared``: for a picture or page others read (R42: a verdict said as every machine says it)."""
    enc = msgspec.json.Encoder()
    if game is not None:
        session.warn_sum_only(game)  # R42: a format-3 game in play (the exports say it too)
    held = _secrets(data, path, game)  # R39/R42: a finished sealed game, both secrets
    sealed = game.sealed if game is not None and game.is_sealed else None
    aborted = min((c.line for c in sealed.aborts.values()), default=None) if sealed is not None else None
    for entry in _lines(data, path, upto, seat is not None, held, game):
        if isinstance(entry, gamefile.Start):
            yield enc.encode({"line": 1, "state": public_state(seat_view(entry.state, seat))}).decode()
            continue
        move = msgspec.json.decode(entry.raw)
        if entry.move is None:  # a sealed game's keys line (R44): no decision
            state = public_state(entry.after if seat is None else seat_view(entry.after, seat))
            record: dict[str, Any] = {"line": entry.line, "move": None, "keys": entry.record.player, "state": state}
            if entry.record.seal.abort is not None:  # R42: the abort, and its verdict from its line on
                record["abort"] = entry.record.seal.abort.position
            elif entry.record.seal.audit is not None:  # R42: the seal secret published for the audit
                record["audit"] = True
            if game is not None and ((aborted is not None and entry.line >= aborted) or entry.after.winner is not None):
                session.add_verdict(state, game, shared=shared)
            yield enc.encode(record).decode()
            continue
        if "card" in move and getattr(entry.move, "card", None) is not None:
            assert seat is None or entry.before is not None
            # R39/R42: the card as the viewer may know it: a sealed slot named by the card this
            # machine's (or, audited, the published) secrets read; an opponent's face-down card hidden
            shown = entry.move if seat is None else move_view(entry.before, entry.move, seat)  # type: ignore[arg-type]
            move["card"] = getattr(shown, "card")
        state = public_state(entry.after if seat is None else seat_view(entry.after, seat))
        if entry.after.winner is not None and game is not None:
            session.add_verdict(state, game, shared=shared)  # R42: as show --json gives it
        yield enc.encode({"line": entry.line, "move": move, "state": state}).decode()


def story(data: bytes, path: str, seat: int | None, upto: int | None = None,
          game: gamefile.Game | None = None) -> Iterator[str]:
    """The game's header, then ``Turn N — name`` and one sentence a line, then the verdict
    (``game`` as for :func:`json_lines`)."""
    last: State | None = None
    turn = 0
    start: gamefile.Start | None = None
    read, tip = 1, b""  # the last line read and its bytes
    held = _secrets(data, path, game)  # R39/R42: a finished sealed game's cards all open
    for item in _lines(data, path, upto, True, held, game):
        read, tip = item.line, item.raw
        if isinstance(item, gamefile.Start):
            start = item
            head = item.header
            board = _(", ").join(f"{i} {_tile(t)}" for i, t in enumerate(head.board))
            comp = header_components(head)
            described = (_("standard") if is_standard(comp) else  # components.describe_set's words (R6)
                         _("custom component set {name} (fingerprint {fingerprint})").format(
                             name=quoted(comp.name, 60), fingerprint=fingerprint(comp)))
            yield _("Game {path}: {first} vs {second}, seed {seed}, {starter} starts").format(
                path=safe(path), first=safe(head.players[0]), second=safe(head.players[1]), seed=head.seed,
                starter=safe(head.first))
            yield "  " + _("board: {board}").format(board=board) + "\n  " + _("components: {components}").format(
                components=described)
            yield f"  {gamefile.fairness_text(item.trust)}"  # R40, R41: where the seed came from, signed or not
            continue
        assert item.before is not None
        if item.move is None:  # a sealed game's keys line (R42, R44)
            who, seal = safe(item.record.player), item.record.seal
            if seal.abort is not None:
                yield f"  {item.line:>4}. " + _(
                    "{name}'s tool aborts the game: position {position} does not open to a card; {name}'s seal "
                    "secret is published (R42)").format(name=who, position=seal.abort.position)
            elif seal.audit is not None:
                yield f"  {item.line:>4}. " + _("{name}'s tool publishes {name}'s seal secret for the audit (R42)").format(name=who)
            else:
                yield f"  {item.line:>4}. " + _("{name}'s tool sends keys of the sealed deck").format(name=who)
            continue
        step = session.Step(item.line, item.raw, item.move, item.before, item.after)
        if item.before.turn != turn:
            turn = item.before.turn
            yield _("Turn {turn} — {name}").format(turn=turn, name=safe(item.before.players[item.before.active].name))
        yield f"  {item.line:>4}. {session.sentence(step, seat)}"
        last = item.after
    checked = None
    if start is not None and start.sealed is not None and upto is None:  # R42: the end-of-game audit
        # the whole game as loaded (a finished, audited one's start is a copy, not advanced by its steps)
        whole = game if game is not None else (gamefile.load_bytes(data, path) if held is not None else
                                               gamefile.finished_game(data, path, start, read, tip))
        checked = gamefile.audit(data, path, whole)
    yield verdict(last, checked.culprit if checked is not None else None,
                  list(start.header.players) if start is not None else None)
    if checked is not None:
        yield _("Sealed deck: {verdict}").format(verdict=recall(checked.verdict))  # R42: English kept, told here


def wrapped(lines: Iterator[str], width: int) -> Iterator[str]:
    """The story's lines for a terminal of ``width`` columns: a sentence too long goes on in lines
    indented under its text (the story is printed unwrapped to a pipe, for grep)."""
    import textwrap

    from ..prose import wrap_cells

    for line in lines:
        for part in line.split("\n"):
            if cell_len(part) <= width:
                yield part
                continue
            lead = len(part) - len(part.lstrip(" "))
            indent = " " * min(lead + 6, width // 2)
            if cell_len(part) != len(part):  # wide (CJK) characters: wrapped in terminal cells
                yield from wrap_cells(part, width, len(indent))
                continue
            yield from textwrap.wrap(part, width, subsequent_indent=indent, break_on_hyphens=False) or [part]


def verdict(last: State | None, forfeit: str | None = None, players: list[str] | None = None) -> str:
    """The replay's last line: who won, or whose decision the game waits for; ``forfeit``: the
    player a failed audit or an abort (R42) makes lose, whatever the board says."""
    if forfeit is not None and (last is None or last.winner is None) and players is not None:
        other = next(p for p in players if p != forfeit)
        return _("Result: {winner} wins: {loser} forfeits (the game was aborted: see below). Every line verified.").format(
            winner=safe(other), loser=safe(forfeit))
    if last is None:
        return _("No decision yet.")
    if last.winner is not None and forfeit is not None:
        other = next(p.name for p in last.players if p.name != forfeit)
        return _("Result: {winner} wins: {loser} forfeits (the audit below failed). Every line verified.").format(
            winner=safe(other), loser=safe(forfeit))
    if last.winner is not None:
        return _("Result: {winner} wins. Every line verified.").format(winner=last.players[last.winner].name)
    who = last.players[last.to_act].name if last.to_act is not None else "?"
    return _("Game in progress: {name} to {what}. Every line verified.").format(name=who, what=awaited(last, mini=True))


def _tile(tile: str) -> str:
    """A tile on the header's board line: its id (``clear_a_frames``) in English, as it always was;
    its name in another language."""
    english = tile_name(tile)
    called = name("tile", english)
    return tile if called == english else called
