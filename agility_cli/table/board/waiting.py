"""The board's wait for the other player (issue 51): ``play --mail MAILBOX --wait`` and
``play --git --wait`` inside the full-screen board.

When the other player must act (or a sealed game awaits their keys, R44), the board does not
close: a Textual worker thread sends what the player decided since the last send (the mail, or
the commit and push: :attr:`Distance.send`), then checks the mailbox or the remote every
``--every`` seconds (:attr:`Distance.wait`, the line mode's ``wait_turn`` given a stop event and a
progress callback) until the player's decision or the end of the game has come; the board then
reads the game again and shows what arrived, and the player decides as usual.  The status line
says what is awaited, since when and how often it was checked (``mailed to bob@… · waiting for
bob's mail · 0:42 · checked 3×``).  ``quit`` or Ctrl-C stop the wait between two checks (the check
under way ends whole); what the sends and checks printed is kept for the words the board leaves
on the terminal (:attr:`Distance.words`), never lost inside the board.

The commands (``cli``) make the :class:`Distance`: this module knows nothing of mail or git.
"""

from __future__ import annotations

import io
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ...i18n import N_, _
from .. import session
from ..screen import catch_up

#: ``send()``'s answer: how the lines went (``mail`` with the address, ``git``, ``""``: nothing to
#: send), or None: not sent (no way to send mail here, or no confirmed address: the board closes and
#: leaves the reply on the terminal, to be mailed by hand).
Sent = Optional[tuple[str, str]]


@dataclass
class Distance:
    """How the board plays at a distance: by ``mail`` or ``git``, waiting between the turns."""

    by: str
    send: Callable[[], Sent]
    wait: Callable[[Any, Callable[[str, int], None]], bool]  # (a stop event, progress): True, the turn came
    unsent: bool = False  # the player decided since the last send
    stuck: bool = False  # a reply not sent (to mail by hand): the board closes
    active: bool = False  # the worker is under way
    stopped: str = ""  # "ctrl+c" or "quit": the player stopped the wait
    sent: str = ""  # the status of the last send: "mailed to bob@…", "pushed"
    who: str = ""  # who is awaited ("" the other player's keys)
    checks: int = 0
    came: Optional[bool] = False  # the worker's answer: the turn came (True), not sent (None)
    since: float = 0.0
    words: str = ""  # what the last send and wait printed: left on the terminal at the end
    error: Optional[BaseException] = None  # a send or check that failed: said once the board closes
    stop: threading.Event = field(default_factory=threading.Event)
    idle: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.idle.set()

    def note(self) -> str:
        """The status line's words: ``mailed to bob@… · waiting for bob's mail · 0:42 · checked 3×``."""
        if not self.since:
            return self.sent or _("sending your lines…")
        seconds = int(time.monotonic() - self.since)
        if self.who:
            what = (_("waiting for {name}'s mail") if self.by == "mail" else _("waiting for {name}'s push")).format(
                name=self.who)
        else:
            what = _("waiting for the other player's keys")
        said = _("{what} · {minutes}:{seconds:02d} · checked {n}×").format(
            what=what, minutes=seconds // 60, seconds=seconds % 60, n=self.checks)
        return f"{self.sent} · {said}" if self.sent else said


#: What the empty prompt says while the board waits for the other player.
WAITING = N_("quit or Ctrl-C: stop waiting (the game stays whole)")


def note_of(d: Optional[Distance]) -> str:
    """The status line's note while the board waits ("" when it does not)."""
    return d.note() if d is not None and d.active else ""


def prompt(d: Optional[Distance], over: bool, usual: str) -> str:
    """What the empty prompt says: close the board (the game is over), stop waiting, or ``usual``."""
    if over:
        return _("Enter or q: close the board")
    return _(WAITING) if d is not None and d.active else _(usual)


class _Routed(io.TextIOBase):
    """``sys.stdout`` or ``sys.stderr`` while the worker runs: what the worker's thread writes is
    kept (its words), what other threads write goes on as before.  Not a terminal: nothing the
    worker calls asks a question at the terminal the board holds."""

    local = threading.local()

    def __init__(self, base: Any):
        super().__init__()
        self.base = base

    def write(self, text: str) -> int:
        kept = getattr(self.local, "kept", None)
        if kept is None:
            self.base.write(text)
        else:
            kept.append(text)
        return len(text)

    def flush(self) -> None:
        if getattr(self.local, "kept", None) is None:
            self.base.flush()

    def isatty(self) -> bool:
        return getattr(self.local, "kept", None) is None and self.base.isatty()


def _kept(work: Callable[[], Any]) -> tuple[Any, str]:
    """``work()`` with what this thread prints kept: its result and the words."""
    kept: list[str] = []
    routes = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, _Routed):
            stream = _Routed(stream)
            setattr(sys, name, stream)
            routes.append((name, stream))
    _Routed.local.kept = kept
    try:
        return work(), "".join(kept)
    finally:
        _Routed.local.kept = None
        for name, stream in routes:
            if getattr(sys, name) is stream:
                setattr(sys, name, stream.base)


def takes_over(board: Any, moment: str) -> bool:
    """Whether the wait takes the board's ``moment`` (the worker started): the other player must
    act, or the keys are awaited (send, then wait), or the game ended with the player's decision
    (send it); the board redrawn.  False: the board goes on as without a wait (it closes, or
    shows the end)."""
    from . import match

    d: Optional[Distance] = board.match.distance
    if d is None or d.stuck or d.active or d.stopped:
        return False
    if moment in (match.OTHER, match.KEYS):
        start(board, d, send=d.unsent, wait=True)
    elif moment == match.OVER and d.unsent:
        start(board, d, send=True, wait=False)
    else:
        return False
    board.redraw()
    return True


def start(board: Any, d: Distance, send: bool, wait: bool) -> None:
    """The worker: send, then wait.  The board's timer redraws the status line and, once the
    worker is done, reads the game again (:func:`tick`): the worker never calls into the board."""
    d.active, d.since, d.checks, d.who, d.came = True, 0.0, 0, "", False
    d.idle.clear()
    board.busy = d.note()
    timer: Any = None

    def ticking() -> None:
        tick(board, d, timer)

    timer = board.set_interval(0.25, ticking)

    def progress(who: str, checks: int) -> None:
        d.who, d.checks = who, checks
        d.since = d.since or time.monotonic()

    def work() -> Optional[bool]:
        if send:
            d.sent, d.words = "", ""
            how = d.send()
            d.unsent = False
            if how is None:
                d.stuck = True
                return None
            kind, address = how
            d.sent = (_("mailed to {address}").format(address=address) if kind == "mail" else
                      _("pushed") if kind == "git" else "")
        if not wait or d.stop.is_set():
            return False
        d.since = time.monotonic()
        return d.wait(_Until(d.stop, board), progress)

    def run() -> None:
        try:
            d.came, words = _kept(work)
            d.words += words
        except BaseException as exc:  # noqa: BLE001 - said once the board has closed, as the line mode says it
            d.error = exc
        finally:
            d.active = False
            d.idle.set()

    board.run_worker(run, thread=True, exclusive=True, group="wait")


class _Until:
    """The wait's stop: set by ``quit`` or Ctrl-C, or the board no longer running (closed by an
    error): the worker never outlives the board by more than one wait between two checks."""

    def __init__(self, event: threading.Event, board: Any):
        self.event, self.board = event, board

    def is_set(self) -> bool:
        return self.event.is_set() or not self.board.is_running

    def wait(self, seconds: float) -> bool:
        return self.event.wait(seconds) or not self.board.is_running


def tick(board: Any, d: Distance, timer: Any) -> None:
    """The status line redrawn; once the worker is done, the game read again and told (the turn
    came), or the board closes (an error, a reply to mail by hand, a stopped wait)."""
    if not d.idle.is_set():
        board.busy = d.note()
        board.redraw_status()
        return
    timer.stop()
    board.busy = ""
    if d.error is not None or d.stopped:
        board.exit()
        return
    m = board.match
    if d.came:
        news = session.since_last(m.file)
        m.game, m.steps = news.game, catch_up(news, m.viewer.name)
        m.told = [news.heading(m.viewer.name)] if m.steps else []
        m.played, m.looked = None, False
    board.step()


def stop(board: Any, how: str) -> bool:
    """``quit`` or Ctrl-C while the worker is under way: it stops between two checks, and the
    board closes with the words of what the player typed.  False: no wait to stop."""
    d: Optional[Distance] = board.match.distance
    if d is None or not d.active:
        return False
    d.stopped = how
    d.stop.set()
    board.match.close(board.moment)
    board.exit()
    return True


def closing(d: Distance, closing: str) -> str:
    """The words left on the terminal: the board's last words, then what the last send and check
    printed (the line mode's order: whose turn, then the reply mailed or pushed)."""
    return closing + d.words
