"""Game lines that travel by mail: a raw message read as the text its reader sees (``read``, with
``text`` for charsets, format=flowed and HTML), the self-checking armoured block that ``send``
prints (``armour``), the game lines found in a mail or pasted text (``find``: blocks first, then
plain lines with quoting, wrapping and quoted-printable undone; every scan linear in the input),
``apply``, which verifies the lines that continue a game file and appends them, ``box`` (mail
sources: a Maildir, an mbox, a saved message, with the index that keeps a second scan cheap, and
the messages of one game in them), ``imap`` (an IMAP mailbox read over TLS, read-only) and
``deadline`` (the whole time an exchange with a mail server may take).  The rest of the layer and
the layers above use what ``__all__`` names: ``find``, ``apply``, ``armour``, ``box``,
``deadline`` and ``imap``.
"""

__all__ = ["apply", "armour", "box", "deadline", "find", "imap"]
