"""The benchmark's hostile-input measures (issue 37): input that once took quadratic time, and
the readers of mailed text fed 10,000 and 100,000 lines of hostile shapes, whose ratio of times is
about 10 when the reader is linear.  Part of ``python -m agility_cli.cli.bench``."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from ..engine import rules
from ..engine.components import standard_components
from ..record import gamefile


def median_time(fn: Callable[[], Any], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``fn`` (the machines are noisy: a median)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_hostile_input(runs: int, scale: int = 1) -> dict[str, Any]:
    """Input that used to take quadratic time: ``mail.mailed_lines`` on a mail of one unfinished
    game line and 320,000 short lines (about 60 s before it was made linear), the same mail with
    every line ending like an object, and ``agility play``'s parser (``choices.pick``) on a 1 MB line
    (``shlex.split`` took 21 s; the line is refused above ``choices.MAX_TYPED_LINE`` characters).
    ``scale``: every input that many times smaller (a check that the measures run, not a measure)."""
    from ..record.mail import find as mail
    from ..engine import notation
    from ..table import choices

    unfinished = '{"kind":"play","n":1,"prev":"'
    prose = unfinished + "\n" + "\n".join(["x"] * (320_000 // scale))
    braces = unfinished + "\n" + "\n".join(["}"] * (320_000 // scale))
    header = gamefile.make_header(seed=1, players=("alice", "bob"), first="alice", board=rules.RECOMMENDED_BOARD,
                                  components=None)
    state = rules.setup(header, standard_components())
    rows = choices.menu(state)
    line = "1 " + "x" * (1_000_000 // scale)

    def pick() -> None:
        try:
            choices.pick(state, rows, line)
        except notation.UsageError:
            pass

    out = {
        "mail_320000_prose_s": median_time(lambda: mail.mailed_lines(prose), runs),
        "mail_320000_braces_s": median_time(lambda: mail.mailed_lines(braces), runs),
        "pick_1mb_line_s": median_time(pick, runs),
    }
    out.update(bench_linear_readers(runs, 10_000 // scale, 100_000 // scale))
    return out


#: The hostile shapes of mail the readers of untrusted text are fed (issue 37): each line of the
#: shape repeated; a reader is linear when 10 times the lines takes about 10 times as long.
HOSTILE_SHAPES = {
    "begin_no_end": "BEGIN AGILITY LINES\n",
    "armour_markers": "-----BEGIN AGILITY LINES game ab12 lines 1-2-----\n",
    "unfinished_json": '{"kind":"play","n":1,"prev":"\n',
    "quoting": "> > > > > > > > > > > > > > > > > > > > x\n",
    "html_unclosed": "<div><p><b>x\n",
    "qp_soft_breaks": "=3D=3D=3D=\n",
}


def bench_linear_readers(runs: int, small: int = 10_000, large: int = 100_000) -> dict[str, Any]:
    """``read_mail`` (the armour scanner, the block stripper, the plain-line reader) on ``small``
    and ``large`` lines of each hostile shape: the time of the large input over the small one's
    (about large/small = 10 for a linear reader; it was 400 for a quadratic one), and the large
    input's seconds.  As a text message and as the body of an HTML mail."""
    from ..engine.notation import UsageError
    from ..record.mail import find

    out: dict[str, Any] = {}
    for name, shape in HOSTILE_SHAPES.items():
        if name == "html_unclosed":
            def mail(n: int, shape: str = shape) -> bytes:
                return (b"Content-Type: text/html; charset=utf-8\n\n<html><body>" + shape.encode() * n)
        else:
            def mail(n: int, shape: str = shape) -> bytes:
                return shape.encode() * n

        def read(data: bytes) -> None:
            try:
                find.read_mail(data)
            except UsageError:  # an armoured block cut short: refused, as apply refuses it
                pass

        little, big = mail(small), mail(large)
        t_small = median_time(lambda: read(little), runs)
        t_large = median_time(lambda: read(big), runs)
        out[f"{name}_{large}_s"] = t_large
        out[f"{name}_ratio"] = t_large / max(t_small, 1e-9)
    return out


def mailbox_of(path: Any, messages: int) -> int:
    """An mbox of ``messages`` messages as a player's inbox holds them: ordinary mail of a few KB
    (one in ten base64-encoded, as some programs send UTF-8) and one in a hundred a game's turn
    (an armoured block).  Returns its size in bytes."""
    import base64
    from pathlib import Path

    from ..record import storage
    from ..record.mail import armour

    block = armour.armour([b'{"kind":"done","n":4,"player":"alice"}'], game="1a2b3c4d", first=5, last=5)
    prose = ("Thanks for the notes from Tuesday; the minutes are below, and the plan for next week. " * 30).encode()
    parts = []
    for k in range(messages):
        head = (f"From sender{k % 97}@example.org Mon Dec  1 10:{k % 60:02d}:00 2026\n"
                f"From: Sender {k % 97} <sender{k % 97}@example.org>\nTo: player@example.org\n"
                f"Subject: note {k}\nDate: Mon, 1 Dec 2026 10:{k % 60:02d}:00 +0000\n"
                f"Message-ID: <{k}@example.org>\nMIME-Version: 1.0\n").encode()
        if k % 100 == 7:
            body = b"Content-Type: text/plain; charset=utf-8\n\nMy turn.\n\n" + block.encode() + b"\n"
        elif k % 10 == 3:
            body = (b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
                    + base64.encodebytes(prose))
        else:
            body = b"Content-Type: text/plain; charset=utf-8\n\n" + prose + b"\n"
        parts.append(head + body + b"\n")
    data = b"".join(parts)
    storage.write_new(Path(path), data, what="the benchmark's mailbox", replace=True)
    return len(data)


def bench_mailbox(tmp: Any, messages: int = 10_000, runs: int = 5) -> dict[str, Any]:
    """Issue 34: ``play --mail MBOX`` on a 10,000-message mbox — the first scan (every message
    read and the game-like ones decoded, the index written), the second (unchanged: from the
    index), and one after a message arrived (the mbox split again, only the new one decoded).
    In a data directory of its own."""
    import os

    from ..record import storage
    from ..record.mail import box

    inbox = tmp / "inbox.mbox"
    size = mailbox_of(inbox, messages)
    home = os.environ.get("AGILITY_HOME")
    os.environ["AGILITY_HOME"] = str(tmp / "mail-home")
    try:
        t0 = time.perf_counter()
        _, entries = box.scan(str(inbox))
        first = time.perf_counter() - t0
        second = median_time(lambda: box.scan(str(inbox)), runs)
        fd = storage.open_append(inbox, "the benchmark's mailbox")
        try:
            storage.write_all(fd, b"From late@example.org Mon Dec  1 11:00:00 2026\nFrom: late@example.org\n"
                              b"Subject: late\n\nhi\n")
        finally:
            os.close(fd)
        t0 = time.perf_counter()
        box.scan(str(inbox))
        grown = time.perf_counter() - t0
    finally:
        if home is None:
            os.environ.pop("AGILITY_HOME", None)
        else:
            os.environ["AGILITY_HOME"] = home
    return {"messages": len(entries), "mbox_mb": size / 1e6, "first_scan_s": first, "second_scan_s": second,
            "after_one_more_s": grown}
