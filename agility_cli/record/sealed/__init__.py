"""The sealed deck (R42–R44): the cards of a two-person game locked under both players' keys, so
each hidden card is readable only by those the rules let read it, even against a modified client.

It owns the cryptography (``crypto``: libsodium's group operations through PyNaCl, the only place
they are used; the proofs), the format-4 shuffle proof that binds every output of a pass
(``shuffle``, R42, through ``crypto``'s operations), the deck's positions, commitments and windows (``deck``), the passes
that shuffle and re-key a pile (``passes``), what a line's seal does around the engine's ``apply``
(``steps``, ``remask``, ``seal``), the setup passes on the handshake's lines (``game``), and a sealed
file read and written line by line (``verify``, ``write``), the abort of a game whose opening fails
(``abort``) and the verdict on it (``judge``), with the specification's test vectors
(``vectors``).  The rest of the record layer uses only what ``__all__`` names: ``seal`` (the state
of the deck beside the game's), ``game`` (composing and checking the setup), ``verify`` and
``write``, ``abort``, ``judge``, and ``shuffle``'s cost of one pass (the benchmark's).  Nothing here imports the modules that use it (``record.verify``, ``record.changes``,
``record.audit``); importing this folder imports none of its modules (start-up time).
"""

__all__ = ["abort", "game", "judge", "seal", "shuffle", "verify", "write"]
