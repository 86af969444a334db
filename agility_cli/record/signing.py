"""Signed lines (R41): each line's signature checked against its player's key, and the key this
machine signs each new line with."""

from __future__ import annotations

from typing import Any
import msgspec

from . import keys
from ..engine import rules
from ..engine.moves import Move
from ..engine.state import State
from ..engine.notation import Refused
from .game import Game, Trust
from ..i18n import N_
from ..said import either, said
from .lines import GameFileError, line_text


class CannotSign(Refused):
    """A line of a signed game that this machine holds no key to sign (exit 1, nothing written).

    ``index`` is the position of that move in the list being appended.
    """

    def __init__(self, message: str, index: int):
        self.index = index
        super().__init__(message, [], "R41", "sign/no_key")


def check_signature(path: str, lineno: int, raw: bytes, record: Any, state: State, trust: Trust | None,
                    *, strict: bool = False) -> None:
    """R41: a signed game's decision line is signed by the player whose decision it is.

    A line forced by the rules (a single legal option) and a bot seat's line may instead be signed
    by another player of the game (whoever's command wrote it) — but not in a sealed game
    (``strict``, R42): every line there carries its writer's keys, so its writer signs it.
    ``state`` is the state before it.
    """
    player = record.player
    if trust is None or not trust.signed:
        if record.sig is not msgspec.UNSET:
            raise GameFileError(
                path, lineno, said(N_("bad signature: {player}'s line is signed, but the game is unsigned (the header "
                                      "holds no keys)"), player=player),
                said(N_("the header or this line was edited; restore them from git or the opponent's copy")),
            )
        return
    if record.sig is msgspec.UNSET:
        raise GameFileError(
            path, lineno, said(N_("missing signature: the game is signed (R41) but this line of {player}'s is not"),
                               player=player),
            said(N_("every line of a signed game carries its signer's signature; the line was typed in or "
                    "edited — restore it from {player}'s copy or git"), player=player),
        )
    message = keys.signed_message(raw)
    if message is None:
        raise GameFileError(
            path, lineno, said(N_("bad signature on {player}'s line: \"sig\" must be the line's last member, written "
                                  "`{form}` just before the closing brace"), player=player, form=',"sig":"<128 hex digits>"'),
            said(N_("the line was re-formatted or edited after it was signed; restore it byte for byte")),
        )
    own = trust.keys.get(player)
    if own is not None and keys.verify(own, message, record.sig):
        return
    others = [name for name in trust.keys if name != player]
    if others and not strict and (player.startswith("bot:") or len(rules.legal_moves(state)) == 1):
        for name in others:
            if keys.verify(trust.keys[name], message, record.sig):
                return
        who = either([*([player] if own else []), *others])
        raise GameFileError(
            path, lineno, said(N_("bad signature: {player}'s line ({line}) is not signed by {who} (R41)"), player=player,
                               line=line_text(record), who=who),
            said(N_("the line was changed after it was signed, or written by someone without a key of this game; "
                    "restore it from the copy of the player who wrote it, or from git")),
        )
    if own is None:
        raise GameFileError(
            path, lineno, said(N_("bad signature: {player} has no key in this signed game, so their decision ({line}) "
                                  "cannot be signed (R41)"), player=player, line=line_text(record)),
            said(N_("the header or the join line was edited; restore the file from git or the opponent's copy")),
        )
    raise GameFileError(
        path, lineno, said(N_("bad signature: the line is {player}'s decision ({line}) but it is not signed with "
                              "{player}'s key (R41)"), player=player, line=line_text(record)),
        said(N_("the line was changed after {player} signed it, or made by someone else in {player}'s name; restore "
                "it from {player}'s copy or from git"), player=player),
    )


class Signer:
    """Picks the key this machine signs each new line of a signed game with (R41)."""

    def __init__(self, game: Game):
        self.game = game
        self.held: dict[str, str] = {}
        for name, public in game.trust.keys.items():
            key = keys.signing_key(game.game_id, name)
            if key is not None and keys.public_key(key) == public:
                self.held[name] = key

    def key_for(self, state: State, move: Move, index: int) -> str:
        player = move.player
        if player in self.held:
            return self.held[player]
        if self.held and (player.startswith("bot:") or len(rules.legal_moves(state)) == 1):
            return self.held[sorted(self.held)[0]]
        mine = ", ".join(sorted(self.held)) or "no player"
        raise CannotSign(
            f"this is {player}'s decision and the game is signed (R41): only {player}'s key can "
            f"sign it, and this machine holds the key of {mine} for this game.  {player} makes this decision on "
            f"their machine (or imports their key here with `agility key import`)",
            index,
        )
