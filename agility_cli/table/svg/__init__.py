"""The parts of the drawn board, put together by :mod:`agility_cli.table.picture`: its look
(``style``), its drawing primitives (``draw``), the pieces drawn everywhere (``pieces``), and one
module a region: ``header``, ``displays`` (rondel, training, dogs), ``courses``, ``players``."""

__all__ = ["courses", "displays", "draw", "header", "pieces", "players", "style"]
