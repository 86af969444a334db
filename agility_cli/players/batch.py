"""Batch work: one seam that runs independent tasks here, on a process pool, or on a Dask cluster.

Self-play, the strength matches of the benchmark and ``analyse`` are batches of independent tasks
(a game, a turn's decisions).  :func:`run_batch` runs them through a ``concurrent.futures``-style
executor and yields ``(index, result)`` as each finishes:

* ``Where(jobs=1)``: in this process, in index order (no pool at all);
* ``Where(jobs=N)``: a local process pool (``spawn``), today's ``--jobs``;
* ``Where(cluster="tcp://HOST:8786")``: a running Dask scheduler's workers, through
  ``dask.distributed``'s own executor (``Client.get_executor``); ``cluster="local:N"`` starts a
  ``LocalCluster`` of N single-threaded worker processes on this machine.

Nothing here schedules, retries or moves work: the pool or Dask does (a worker lost mid-task has
its task redone elsewhere by the scheduler).  What this module adds is what Dask cannot know:

* each task travels in an envelope with the package's version and :func:`rules_fingerprint` (the
  engine's and the players' code and data); a worker running anything else refuses the task with
  :class:`WorkerMismatch`, which becomes a :class:`ClusterError` naming both versions;
* time limits, so a run never hangs: on connecting, on a cluster with no worker, and on a
  scheduler that went away (checked each second while results are awaited);
* :class:`Journal`, the finished results of a long run tagged by index, appended as they come, so
  that a run stopped half-way is resumed without redoing a task.

Results never depend on where a task ran: a task is a pure function of its arguments (a game is
seeded by the run's seed and its index), so callers put results in index order themselves.

``dask.distributed`` is the optional extra ``cluster`` (``pip install 'agility-cli[cluster]'``)
and is imported only for a cluster.  Dask moves tasks and results as pickles: a cluster is for
machines one controls (a private network, or Dask's TLS), never an open port.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from ..engine.notation import UsageError
from ..record import storage
from ..record.lines import GameFileError
from ..i18n import N_
from ..said import listing, message_of, said
from ..text import PATH_LIMIT, quoted

T = TypeVar("T")
R = TypeVar("R")

INSTALL_HINT = "pip install 'agility-cli[cluster]'"
#: Seconds to reach a scheduler, to wait for its first worker, or to wait for it to come back.
TIMEOUT = 15.0
POLL = 1.0  # seconds between looks at the cluster's health while results are awaited
CLUSTER_HELP = ("Run on a Dask cluster: tcp://HOST:8786 (a `dask scheduler`), or local:N (N worker processes "
                f"here); needs {INSTALL_HINT}. Dask moves work as pickles: only machines you control.")


class ClusterError(UsageError):
    """The batch cannot run where it was asked to (exit 2, saying what to do)."""


class WorkerMismatch(Exception):
    """Raised on a worker whose package is not the one that sent the task."""


@dataclass(frozen=True)
class Where:
    """Where a batch runs: ``jobs`` local processes, or a Dask ``cluster`` (then ``jobs`` is unused)."""

    jobs: int = 1
    cluster: str | None = None
    timeout: float = TIMEOUT

    def describe(self) -> str:
        return said(N_("cluster {address}"), address=self.cluster) if self.cluster else said(N_("{n} job(s)"), n=self.jobs)


#: The forms of ``--cluster``, as every refusal says them.
CLUSTER_FORMS = N_("tcp://HOST:PORT (a `dask scheduler`), local:N (N workers here, 1 to 256), or tls://HOST:PORT")
#: What ``tls://`` needs: the files of Dask's own TLS settings (its configuration or these
#: environment variables), each a regular file: the certificate authority, and this client's
#: certificate (its key in it, or in a file of its own).
TLS_SETTINGS = (("tls_ca_file", "DASK_DISTRIBUTED__COMM__TLS__CA_FILE"),
                ("tls_client_cert", "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT"))
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\]")


def check_where(where: Where) -> None:
    """Refuse a malformed ``--cluster`` or ``--jobs``, and a cluster without dask.distributed —
    before any connection, saying what would be right (issue 50): ``tcp://HOST:PORT`` (a host name,
    an IPv4 address or a bracketed IPv6 one; a port from 1 to 65535), ``local:N`` (1 to 256), or
    ``tls://HOST:PORT`` with the files TLS needs (:func:`tls_security`), else refused."""
    if where.cluster is None:
        if where.jobs < 1:
            raise UsageError(said(N_("{option} must be at least 1"), option="--jobs"))
        return
    spec = where.cluster
    shown = quoted(spec, 60)
    if spec.startswith("local:"):
        count = spec[len("local:"):]
        if not (count.isascii() and count.isdigit() and len(count) <= 3 and 1 <= int(count) <= 256):
            raise UsageError(said(N_("--cluster local:N needs a number of workers from 1 to 256, not {address}"),
                                  address=shown))
    else:
        scheme, sep, rest = spec.partition("://")
        host, colon, port = rest.rpartition(":")
        if not (sep and scheme in ("tcp", "tls") and colon and _HOST.fullmatch(host) and port.isascii()
                and port.isdigit() and len(port) <= 5 and 1 <= int(port) <= 65535):
            raise UsageError(said(N_("--cluster {address} is not an address agility can use: give {forms}"), address=shown,
                                  forms=said(CLUSTER_FORMS)))
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(said(N_("--cluster needs dask.distributed, an optional extra: {install}"),
                                install=INSTALL_HINT)) from None
    if spec.startswith("tls://"):
        tls_security(spec)


def tls_security(spec: str) -> Any:
    """Dask's ``Security`` for a ``tls://`` scheduler, from Dask's own TLS settings, with its SSL
    context made now: a missing setting, a file that is not a regular file, or files that do not
    make a context refuse the address (exit 2) before any connection."""
    from distributed.security import Security

    security = Security()  # type: ignore[no-untyped-call]
    missing = [env for field, env in TLS_SETTINGS if not getattr(security, field)]
    if missing:
        raise UsageError(said(
            N_("--cluster {address} needs Dask's TLS files, and {missing} is not set: set the certificate authority "
               "and this machine's certificate (and {key} if its key is apart), or use tcp:// on a private network")
            if len(missing) == 1 else
            N_("--cluster {address} needs Dask's TLS files, and {missing} are not set: set the certificate authority "
               "and this machine's certificate (and {key} if its key is apart), or use tcp:// on a private network"),
            address=quoted(spec, 60), missing=listing(missing, N_(" and ")),
            key="DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY"))
    for field in ("tls_ca_file", "tls_client_cert", "tls_client_key"):
        name = getattr(security, field)
        if name and "-----BEGIN" not in name:
            storage.refuse_special(name, "the TLS file")
            if not os.path.isfile(name):
                raise UsageError(said(N_("the TLS file {file} (Dask's {field}) does not exist"), file=quoted(name, PATH_LIMIT),
                                      field=field))
    try:
        security.get_connection_args("client")  # type: ignore[no-untyped-call]  # the SSL context, made now
    except (OSError, ValueError) as exc:
        raise UsageError(said(N_("--cluster {address}: Dask's TLS files do not make a TLS context ({error})"),
                              address=quoted(spec, 60), error=f"{exc.__class__.__name__}: {exc}")) from None
    return security


# ----------------------------------------------------------------------------------------------
# What travels with a task


_OWN: list[tuple[str, str]] = []


def rules_fingerprint() -> str:
    """The SHA-256 (16 hex digits) of the code and data that decide a game: every file of the
    engine and the players (but the fit of the weights and sealed self-play, which no game of a
    batch runs), and the shipped component set.  Two installs that agree on it and on the version
    play every game alike."""
    import agility_cli

    root = Path(agility_cli.__file__).parent
    h = hashlib.sha256()
    files = [*root.glob("engine/*.py"), *root.glob("players/*.py"), *root.glob("players/data/*.json"),
             root / "data" / "standard.json"]
    files = [p for p in files if p.name not in ("train.py", "sealedplay.py")]
    for path in sorted(files):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def identity(fresh: bool = False) -> tuple[str, str]:
    """This process's package version and rules fingerprint: the fingerprint read once on a worker,
    read again with ``fresh`` (the sender's, at the start of each batch); the version at each call,
    as the package says it."""
    import agility_cli

    if fresh or not _OWN:
        _OWN[:] = [(agility_cli.__version__, rules_fingerprint())]
    return agility_cli.__version__, _OWN[0][1]


@dataclass(frozen=True)
class Envelope:
    """A task as it travels: the function (by reference), its argument, and the sender's identity."""

    fn: Callable[[Any], Any]
    arg: Any
    version: str
    fingerprint: str


def _execute(envelope: Envelope) -> Any:
    """Run on the worker: refuse a task from another version of the package, else do it."""
    version, fingerprint = identity()
    if (version, fingerprint) != (envelope.version, envelope.fingerprint):
        import socket

        raise WorkerMismatch(said(
            N_("a worker on {host} (pid {pid}) runs agility-cli {version} with rules fingerprint {fingerprint}, but "
               "this run is agility-cli {wanted} with rules fingerprint {wanted_fingerprint}: install the same "
               "version on every worker"), host=socket.gethostname(), pid=os.getpid(), version=version,
            fingerprint=fingerprint, wanted=envelope.version, wanted_fingerprint=envelope.fingerprint))
    return envelope.fn(envelope.arg)


# ----------------------------------------------------------------------------------------------
# The seam


def run_batch(fn: Callable[[T], R], tasks: Iterable[tuple[int, T]], where: Where,
              progress: Callable[[int, int], None] | None = None) -> Iterator[tuple[int, R]]:
    """Run ``fn(task)`` for every ``(index, task)``, yielding ``(index, result)`` as each finishes
    (index order only with one local job).  ``fn`` must be a module-level function (it is sent by
    reference).  ``progress(done, total)`` is called after each result.  Raises
    :class:`ClusterError` when the work cannot go on (no scheduler, no worker, a worker of another
    version, the scheduler gone); leaving the iterator early cancels what is still pending."""
    todo = list(tasks)
    check_where(where)
    if not todo:
        return
    if where.cluster is None and (where.jobs <= 1 or len(todo) == 1):
        for done, (index, task) in enumerate(todo, 1):
            result = fn(task)
            if progress is not None:
                progress(done, len(todo))
            yield index, result
        return
    version, fingerprint = identity(fresh=True)
    if where.cluster is None:
        yield from _pool(fn, todo, where, progress, version, fingerprint)
    else:
        yield from _cluster(fn, todo, where, progress, version, fingerprint)


def _pool(fn: Callable[[T], R], todo: list[tuple[int, T]], where: Where, progress: Callable[[int, int], None] | None,
          version: str, fingerprint: str) -> Iterator[tuple[int, R]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("spawn")  # spawn-safe: workers import the package afresh
    pool = ProcessPoolExecutor(max_workers=min(where.jobs, len(todo)), mp_context=ctx)
    try:
        futures = {pool.submit(_execute, Envelope(fn, task, version, fingerprint)): index for index, task in todo}
        done = 0
        for future, result in _gather(futures, lambda: None):
            done += 1
            if progress is not None:
                progress(done, len(todo))
            yield futures[future], result
    except BrokenProcessPool:
        raise ClusterError(said(N_("a worker process died (killed, or out of memory); what finished is kept where "
                                   "the command keeps it: run it again to go on"))) from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _gather(futures: dict[Future[Any], int], health: Callable[[], None]) -> Iterator[tuple[Future[Any], Any]]:
    """Each future's result as it comes, ``health()`` called whenever a second passes without one."""
    pending = set(futures)
    while pending:
        finished, pending = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
        if not finished:
            health()
        for future in sorted(finished, key=futures.__getitem__):
            try:
                result = future.result()
            except WorkerMismatch as exc:
                raise ClusterError(said(N_("a worker refused a task: {error}"), error=message_of(exc))) from None
            yield future, result


def _cluster(fn: Callable[[T], R], todo: list[tuple[int, T]], where: Where,
             progress: Callable[[int, int], None] | None, version: str, fingerprint: str) -> Iterator[tuple[int, R]]:
    import distributed

    assert where.cluster is not None
    levels = _silence()  # Dask's own log lines (tracebacks of a lost connection …): said once, by us
    client, cluster = _connect(distributed, where)
    executor: Executor | None = None
    try:
        _wait_for_workers(client, where)
        executor = client.get_executor(pure=False)
        futures = {executor.submit(_execute, Envelope(fn, task, version, fingerprint)): index for index, task in todo}
        health = _health(client, where)
        done = 0
        try:
            for future, result in _gather(futures, health):
                done += 1
                if progress is not None:
                    progress(done, len(todo))
                yield futures[future], result
        except CancelledError:
            if client.status != "running":
                raise ClusterError(said(N_("lost the Dask scheduler at {address}; what finished is kept where the "
                                           "command keeps it: run it again to go on"), address=where.cluster)) from None
            raise ClusterError(said(N_("the Dask scheduler at {address} cancelled the work (another client "
                                       "cancelled it?)"), address=where.cluster)) from None
        except distributed.scheduler.KilledWorker as exc:
            raise ClusterError(said(N_("a task killed every worker that tried it ({error}): see the workers' logs"),
                                    error=exc)) from None
        except (ImportError, AttributeError, TypeError) as exc:
            if "agility_cli" not in str(exc):
                raise
            raise ClusterError(said(N_("a worker cannot run agility's tasks ({error}): install agility-cli {version} "
                                       "on every worker"), error=f"{type(exc).__name__}: {exc}", version=version)) from None
    finally:
        if executor is not None:
            executor.shutdown(wait=False)
        _close(client, cluster)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def _silence() -> dict[str, int]:
    """Every ``distributed`` logger set to say nothing below CRITICAL; their levels before."""
    names = ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return levels


def _connect(distributed: Any, where: Where) -> tuple[Any, Any]:
    spec = where.cluster
    assert spec is not None
    if spec.startswith("local:"):
        try:
            cluster = distributed.LocalCluster(n_workers=int(spec[len("local:"):]), threads_per_worker=1,
                                               processes=True, host="127.0.0.1",
                                               dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
        except (OSError, RuntimeError, TimeoutError) as exc:  # a worker process that did not start
            raise ClusterError(said(N_("could not start a local Dask cluster of {n} workers ({error})"),
                                    n=spec[len('local:'):], error=exc)) from None
        return distributed.Client(cluster, timeout=where.timeout, set_as_default=False), cluster
    security = tls_security(spec) if spec.startswith("tls://") else None
    try:
        return distributed.Client(spec, timeout=where.timeout, set_as_default=False, security=security), None
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(said(N_("cannot reach a Dask scheduler at {address} within {seconds} s ({error}); start "
                                   "one with `dask scheduler` and give its address"), address=spec,
                                seconds=f"{where.timeout:g}", error=exc)) from None


def _workers(client: Any) -> int:
    return len(client.scheduler_info().get("workers", {}))


def _wait_for_workers(client: Any, where: Where) -> None:
    try:
        client.wait_for_workers(1, timeout=where.timeout)
    except (TimeoutError, OSError):
        raise ClusterError(said(N_("the Dask scheduler at {address} has no worker after {seconds} s: start one with "
                                   "`dask worker {address} --nthreads 1`"), address=where.cluster,
                                seconds=f"{where.timeout:g}")) from None


def _health(client: Any, where: Where) -> Callable[[], None]:
    """A check, run while no result comes, that raises once the scheduler has been gone (or has had
    no worker) for ``where.timeout`` seconds: Dask itself would wait for ever."""
    since: list[float | None] = [None]

    def check() -> None:
        gone = client.status != "running"
        idle = not gone and _workers(client) == 0
        if not (gone or idle):
            since[0] = None
            return
        if since[0] is None:
            since[0] = time.monotonic()
        elif time.monotonic() - since[0] >= where.timeout:
            if gone:
                raise ClusterError(said(N_("lost the Dask scheduler at {address} (no answer for {seconds} s); what "
                                           "finished is kept where the command keeps it: run it again to go on"),
                                        address=where.cluster, seconds=f"{where.timeout:g}"))
            raise ClusterError(said(N_("the Dask scheduler at {address} has had no worker for {seconds} s: start one "
                                       "with `dask worker {address} --nthreads 1`"), address=where.cluster,
                                    seconds=f"{where.timeout:g}"))

    return check


def _close(client: Any, cluster: Any) -> None:
    for thing in (client, cluster):
        if thing is None:
            continue
        try:
            thing.close(timeout=2) if thing is client else thing.close()
        except Exception:  # closing a connection to a scheduler that is gone: nothing left to do
            pass


# ----------------------------------------------------------------------------------------------
# The journal of a long run


#: A journal's size bound (a run of 100,000 self-play games keeps each game's file until it is
#: written in order: a few hundred MB at worst), and the bound of an index in it.
MAX_JOURNAL_BYTES = 1 << 30
MAX_INDEX = 10_000_000


class Entry(msgspec.Struct, forbid_unknown_fields=True):
    """A journal line after the first: a task's index and its result (decoded by the caller)."""

    index: int
    result: msgspec.Raw


class JournalError(GameFileError):
    """A journal that is not one agility wrote (exit 3, naming the file and the line)."""


class Journal:
    """Finished results of a run, one JSON line each (``{"index": i, "result": …}``) after a first
    line naming the run; appended (and flushed) as results come, in any order.  A torn line (a
    run killed while writing it: not JSON) is ignored and its task done again.  :meth:`load`
    refuses a journal of another run (exit 2) and reads the file as hostile: a regular file of at
    most :data:`MAX_JOURNAL_BYTES` (a FIFO or a device is refused at once, never waited on), each
    line decoded by a typed decoder, ``decode`` checking a result (a ``ValueError`` names the
    line: :class:`JournalError`, exit 3).  Every write goes through ``storage.open_append``."""

    def __init__(self, path: Path, run: dict[str, Any], decode: Callable[[bytes], Any] | None = None) -> None:
        self.path = path
        version, fingerprint = identity(fresh=True)  # another version may play other games: not the same run
        self.run = {**run, "agility": version, "rules": fingerprint}
        self.done: dict[int, Any] = {}
        self._decode = decode or _any_json
        self._fd: int | None = None

    def load(self) -> dict[int, Any]:
        """The results already in the journal (none if there is no journal yet)."""
        if not os.path.lexists(self.path):
            return self.done
        where = str(self.path)
        data = storage.read_bytes(self.path, what="journal", limit=MAX_JOURNAL_BYTES)
        if not data:
            return self.done  # made, and the run stopped before its first line
        lines = data.split(b"\n")
        try:
            head = _any_json(lines[0])
        except ValueError:
            raise JournalError(where, 1, said(N_("is not a journal of agility's (its first line is not JSON)"))) from None
        if not isinstance(head, dict) or head.get("journal") != json.loads(json.dumps(self.run)):
            raise UsageError(said(N_("{file} is the journal of another run: give the same options, or another path"),
                                  file=quoted(where, PATH_LIMIT)))
        for number, raw in enumerate(lines[1:], 2):
            if not raw.strip():
                continue
            try:
                entry = _ENTRY.decode(raw)
            except msgspec.ValidationError as exc:
                raise JournalError(where, number, said(N_("is not a journal entry ({error})"), error=exc)) from None
            except RecursionError:
                raise JournalError(where, number, said(N_("is nested too deep for a journal entry"))) from None
            except msgspec.DecodeError:
                continue  # a torn line (a run killed while writing it): its task is done again
            if not 0 <= entry.index < MAX_INDEX:
                raise JournalError(where, number, said(N_("holds an index out of range (0 to {top})"), top=MAX_INDEX - 1))
            try:
                self.done[entry.index] = self._decode(bytes(entry.result))
            except (ValueError, RecursionError) as exc:
                raise JournalError(where, number, said(N_("holds a result this run cannot use ({error})"),
                                                       error=message_of(exc))) from None
        return self.done

    def record(self, index: int, result: Any) -> None:
        if self._fd is None:
            fresh = not os.path.lexists(self.path)
            self._fd = storage.open_append(self.path, "the journal")
            size = os.fstat(self._fd).st_size
            if fresh or size == 0:
                self._write(json.dumps({"journal": self.run}, sort_keys=True).encode() + b"\n")
            elif os.pread(self._fd, 1, size - 1) != b"\n":
                self._write(b"\n")  # after a torn line
        self._write(json.dumps({"index": index, "result": result}, sort_keys=True).encode() + b"\n")
        self.done[index] = result

    def _write(self, data: bytes) -> None:
        assert self._fd is not None
        storage.write_all(self._fd, data)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


_ENTRY = msgspec.json.Decoder(Entry)


def _any_json(raw: bytes) -> Any:
    """A JSON document of any shape (a ``ValueError`` if it is none; deep nesting is one too)."""
    try:
        return msgspec.json.decode(raw)
    except RecursionError:
        raise ValueError(said(N_("nested too deep"))) from None
