"""agility — play the board game Agility (Brent Povis) by log.

Layers, data flowing one way (see docs/architecture in README.md):
``components`` (data) → ``rng`` → ``moves`` (file format) → ``state`` → ``rules`` (pure engine)
→ ``gamefile`` (the only file I/O) → ``render`` / ``bots`` → ``cli``.
"""

__version__ = "2.2.0"
