"""Game lines that travel by mail: a raw message read as the text its reader sees (``read``, with
``text`` for charsets, format=flowed and HTML), the self-checking armoured block that ``send``
prints (``armour``), the game lines found in a mail or pasted text (``find``: blocks first, then
plain lines with quoting, wrapping and quoted-printable undone; every scan linear in the input),
and ``apply``, which verifies the lines that continue a game file and appends them.  The rest of
the layer and the layers above use what ``__all__`` names: ``find``, ``apply`` and ``armour``.
"""

__all__ = ["apply", "armour", "find"]
