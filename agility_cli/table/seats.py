"""Who plays which seat of an unsigned game played by mail (R41, issue 50): a seat is its machine's.

An unsigned game (``--seed``) has no keys, so nothing in the file says which machine plays which
seat.  This machine's history record does (``history.learn_seat``): the seat named to ``new --as``,
the seat this machine had played (or was named by ``--as``) when it applied a mail, or else the
seat left by the first mail's decisions.  Once it is known, the game is played as a signed one is:
the viewer is that seat, ``--as`` naming the other seat is refused until the game is over, so
``move``, ``bot`` and ``play`` make no decision of the other person's, and ``apply`` refuses a
mailed decision made in that seat's name.  A game at one screen (no mail applied) has no such seat.
"""

from __future__ import annotations

from ..engine.notation import Refused
from ..record import history
from ..record.gamefile import Game


def mail_seat(game: Game, as_name: str | None = None) -> str | None:
    """The seat this machine plays in ``game`` by mail, or None (a signed game, one at one screen,
    a game over).  ``as_name`` naming the other seat is refused (:class:`Refused`, exit 1), as a
    signed game refuses ``--as`` naming a seat whose key is not held here."""
    if game.trust.signed or not game.hashes or game.state.winner is not None:
        return None
    names = list(game.header.players)
    mine = history.mail_seat(game.hashes[0], names)
    if mine is not None and as_name is not None and as_name != mine:
        raise Refused(
            f"--as {as_name}: this machine plays {mine} in this game by mail, and {as_name}'s decisions come by "
            f"mail: nobody moves for {as_name} here (R41: in an unsigned game too, a seat is its machine's)",
            [], "R41", "view/not_your_seat",
        )
    return mine
