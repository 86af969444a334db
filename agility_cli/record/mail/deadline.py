"""A whole deadline for a mail exchange (issue 52): an IMAP read or an SMTP send ends within
``AGILITY_MAIL_TIMEOUT`` seconds (default 60) from the first connection to the last byte,
whatever the server does.  A timeout per socket operation is not enough: a server that sends one
byte every 20 seconds (a greeting, a TLS handshake) never trips it.  So a watchdog thread shuts
the exchange's sockets down at the deadline; the blocked read returns, and the caller says the
server did not answer in time."""

from __future__ import annotations

import os
import socket
import threading
from typing import Optional

from ...engine.notation import UsageError
from ...i18n import N_
from ...said import Said, said
from ...text import quoted

TIMEOUT_VAR = "AGILITY_MAIL_TIMEOUT"
DEFAULT = 60.0
LONGEST = 3600.0


def seconds() -> float:
    """``AGILITY_MAIL_TIMEOUT``: seconds above 0, at most an hour; 60 when it is not set."""
    text = os.environ.get(TIMEOUT_VAR, "").strip()
    if not text:
        return DEFAULT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= LONGEST:  # nan, inf, 0, negative
        raise UsageError(said(N_("{var} is the seconds a whole mail exchange may take (above 0, at most "
                              "{longest}), not {text}"), var=TIMEOUT_VAR, longest=f"{LONGEST:g}", text=quoted(text, 20)))
    return value


class Deadline:
    """The deadline of one exchange: :meth:`watch` each socket as it is made (before TLS wraps
    it), :meth:`left` for the timeout of each operation, :meth:`stop` when the exchange is over.
    At the deadline every watched socket still open is shut down and :attr:`expired` is set."""

    def __init__(self, limit: Optional[float] = None):
        self.limit = seconds() if limit is None else limit
        self.expired = False
        self._lock = threading.Lock()
        self._watched: list[tuple[int, int, int]] = []  # fd, device and inode of each socket
        self._done = False
        import time

        self._end = time.monotonic() + self.limit
        self._timer = threading.Timer(self.limit, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def left(self) -> float:
        """The seconds left (at least a hundredth: a socket timeout of 0 would not block)."""
        import time

        return max(self._end - time.monotonic(), 0.01)

    def over(self) -> bool:
        """Whether the time is up: the watchdog fired, or an operation's own timeout (set to the
        time left) ran out at the deadline first."""
        import time

        return self.expired or time.monotonic() >= self._end - 0.1

    def watch(self, sock: socket.socket) -> None:
        try:
            fd = sock.fileno()
            st = os.fstat(fd)
        except OSError:
            return
        with self._lock:
            self._watched.append((fd, st.st_dev, st.st_ino))
            fire = self.expired
        if fire:
            self._fire()

    def stop(self) -> None:
        with self._lock:
            self._done = True
            self._watched.clear()
        self._timer.cancel()

    def _fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
            for fd, dev, ino in self._watched:
                try:
                    st = os.fstat(fd)
                    if (st.st_dev, st.st_ino) != (dev, ino):
                        continue  # closed already, its number used again: not ours
                    held = socket.socket(fileno=fd)
                except OSError:
                    continue
                try:
                    held.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                finally:
                    held.detach()  # the exchange's own object closes it

    def words(self) -> Said:
        return said(N_("it did not finish within {n} s (the whole exchange; {var} sets the limit)"),
                    n=f"{self.limit:g}", var=TIMEOUT_VAR)
