"""The full-screen board of ``agility play`` on a terminal (issue 51): the whole position always on
screen, redrawn in place — a view over the same session the line mode uses (``table.session``,
``table.playloop``), with no rule and no input or output of its own.  ``regions`` lays out each
region as styled lines (no Textual); ``match`` drives one game through the session (no Textual);
``app`` is the Textual application that paints them and reads the keys, imported only by ``play``
on a terminal; ``waiting`` is its wait for the other player (``play --mail/--git --wait``), given
by the commands how to send and how to check.  The commands use what ``__all__`` names.
"""

__all__ = ["app", "match", "regions", "waiting"]
