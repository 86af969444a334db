"""The help of options many commands share, marked for the catalog (:mod:`..i18n`): translated where
a command's help is built (``help=_(AS_HELP)``), since the language is known by then."""

from __future__ import annotations

from ..i18n import N_

AS_HELP = N_("Whose seat you are (also AGILITY_PLAYER). Default: in a signed game between two people, the seat whose "
           "key this machine holds (only a held seat may be named); against a bot, the human seat; in a game at "
           "one screen, the player to act.")

REVEAL_HELP = N_("Show every hidden card (both hands, the deck order): in a game at one screen (with a warning) or "
               "once the game is over; refused while a signed game between two people is played.")

ACCEPT_HELP = N_("Build on this file although it dropped lines this machine saw (a force-push or rebase rewrote "
               "the history): this machine then takes the file as it is now.")

#: ``--cluster``'s help (``{install}``: the command that installs Dask).
CLUSTER_HELP = N_("Run on a Dask cluster: tcp://HOST:8786 (a `dask scheduler`), or local:N (N worker processes "
                  "here); needs {install}. Dask sends work as pickles: only machines you control.")

GIT_HELP = N_("Play by git: fetch first and take the other player's lines (fast-forward, or a new commit on top "
            "of the remote), then commit the new lines with a message naming them, push, and check that the "
            "remote holds them.")

RESTORE_HELP = N_("By git: put back the lines the rules keep that the remote's copy lost (a force-push, a rollback, "
                "a rebase that dropped them), as a new commit on top of the remote.")
