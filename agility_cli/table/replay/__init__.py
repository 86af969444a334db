"""A whole game told again: ``story`` (``agility replay`` and its ``--json``, one seat's view of every
line, R39), and the self-contained HTML replay (``html``), put together from the words of each line
(``narrate``), the win-chance graph of an analysis (``graph``) and the page's style and script
(``assets``).  The commands use what ``__all__`` names: ``story`` and ``html``.
"""

__all__ = ["html", "story"]
