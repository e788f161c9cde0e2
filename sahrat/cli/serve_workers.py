"""``sahrat serve --workers N``: N nodes of one cluster in N processes, on one port.

The parent binds one listening socket per worker on the one port (SO_REUSEPORT), so the
kernel spreads the connections evenly over them (no balancer on the host), and keeps
them: a restarted worker listens on its slot's socket again. Every worker is a
whole node (``serve_node``) named ``<base>-<i>``; the cluster (Redis leases, the bus)
is what lets them share tables and players, the parent knows nothing of it.

The parent only supervises: it forwards ``SIGTERM``/``SIGINT`` (and ``SIGUSR1``, the
collector's report) to the workers, restarts one that died unexpectedly under its same
node id, after a short delay and at most a few times a minute, and ends when all have
stopped after a signal.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from multiprocessing.context import SpawnProcess
from multiprocessing.synchronize import Event
from types import FrameType

from sahrat.cli.serve_node import EXIT_STARTUP_FAILURE, process_options, serve_node
from sahrat.server.settings import Settings

log = logging.getLogger("sahrat.workers")

#: Spawned, not forked: a worker starts from a clean interpreter rather than a copy of
#: the parent's threads and locks, as uvicorn's own supervisor does.
SPAWN = multiprocessing.get_context("spawn")

#: Seconds before a worker that died is started again, so a crash loop is not a busy one.
RESTART_DELAY = 1.0
#: Restarts of one worker within a minute at most; further ones wait for the window.
RESTARTS_PER_MINUTE = 5
#: How often the parent looks at its workers when no signal or exit wakes it.
TICK = 0.25

#: Exit status when a worker could not start at all on its first launch: a bad setting
#: or an unreachable database, which restarting would only repeat.
EXIT_WORKER_FAILED = 1


@dataclass
class Worker:
    """One worker process slot: its node id outlives the processes that fill it."""

    node_id: str
    process: SpawnProcess | None = None
    #: Set by the process once its app has started (its database is migrated).
    started: Event | None = None
    launches: int = 0
    #: Monotonic time at which to start it (again); None: not to be started.
    due: float | None = 0.0
    #: Monotonic times of its recent restarts, for the per-minute limit.
    restarts: deque[float] = field(default_factory=deque)

    #: It has been told to stop (a process launched as a signal came is told later).
    told: bool = False

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.exitcode is None

    def signal(self, signum: int) -> bool:
        """Send ``signum`` to its process; False if there is none running (yet)."""
        if not (self.alive and self.process is not None and self.process.pid is not None):
            return False
        # ProcessLookupError: it has just ended, and the loop reaps it.
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signum)
        return True


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, as uvicorn binds it (IPv6 when the host is an address with
    colons; SO_REUSEADDR so a restart does not wait for old connections' TIME_WAIT),
    with SO_REUSEPORT: each worker has its own on the one port, and the kernel spreads
    new connections evenly over them. (One socket shared by all would let the busiest
    worker, always awake, win nearly every accept.)"""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
        # Listening from now on, not from when its worker has started: the kernel
        # spreads connections only over listening sockets, and the first clients would
        # all go to the first worker up. A worker still starting finds its share queued.
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def _worker_main(
    args: argparse.Namespace, settings: Settings, sock: socket.socket, started: Event
) -> None:
    """A worker process: the same node ``sahrat serve`` runs, on the parent's socket."""
    # Ctrl-C in a terminal reaches the whole process group, the parent included, which
    # stops every worker with a SIGTERM; ignored here until uvicorn takes the signals
    # over, so a worker still starting is not interrupted halfway through it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    process_options(args, settings.node_id)  # a spawned process has none of the parent's
    print(f"Sahrat: node {settings.node_id} starting (pid {os.getpid()})", flush=True)
    if not serve_node(args, settings, [sock], started.set):
        sys.exit(EXIT_STARTUP_FAILURE)


def supervise(args: argparse.Namespace, settings: Settings, count: int) -> int:
    """Run ``count`` workers named ``<settings.node_id>-1`` .. ``-<count>`` until a
    signal stops them; the exit status of ``sahrat serve``."""
    sockets: list[socket.socket] = []
    try:
        port = args.port
        for _ in range(count):
            sockets.append(bind(args.host, port))
            port = sockets[0].getsockname()[1]  # the same port for all (even if 0 asked)
    except OSError as error:
        for sock in sockets:
            sock.close()
        print(f"sahrat: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return EXIT_WORKER_FAILED
    workers = [Worker(f"{settings.node_id}-{i}") for i in range(1, count + 1)]
    stopping = False
    status = 0

    def stop_all(signum: int) -> None:
        nonlocal stopping
        # First a graceful stop (uvicorn drains and the app shuts down, saving its
        # tables); a second signal is SIGINT, which uvicorn takes as "exit now".
        forward = signal.SIGINT if stopping else signal.SIGTERM
        stopping = True
        for worker in workers:
            worker.due = None
            worker.told = worker.signal(forward) or worker.told

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGUSR1:
            for worker in workers:
                worker.signal(signum)
        else:
            stop_all(signum)

    handled = (signal.SIGTERM, signal.SIGINT, signal.SIGUSR1)
    previous = {signum: signal.signal(signum, on_signal) for signum in handled}
    # Set once a node has started: the database is migrated from then on.
    migrated = False
    try:
        while True:
            now = time.monotonic()
            for worker in workers:
                ended = worker.process is not None and worker.process.exitcode is not None
                if ended and not _reaped(worker, stopping, now):
                    status = EXIT_WORKER_FAILED
                    stop_all(signal.SIGTERM)
                if worker.started is not None and worker.started.is_set():
                    migrated = True
            if stopping:
                for worker in workers:
                    if not worker.told:
                        worker.told = worker.signal(signal.SIGTERM)
                if not any(worker.alive for worker in workers):
                    break
            for worker in workers:
                due = worker.due is not None and worker.due <= now
                # The first node migrates a new database; the others wait until it has,
                # so two never create the same tables at once.
                if worker.process is None and due and (migrated or worker is workers[0]):
                    _launch(worker, args, settings, sockets[workers.index(worker)])
            sentinels = [w.process.sentinel for w in workers if w.alive and w.process]
            wait(sentinels, TICK)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for sock in sockets:
            sock.close()
    return status


def _launch(
    worker: Worker, args: argparse.Namespace, settings: Settings, sock: socket.socket
) -> None:
    worker.started = SPAWN.Event()
    node = settings.with_(node_id=worker.node_id)
    worker.process = SPAWN.Process(
        target=_worker_main, args=(args, node, sock, worker.started), name=worker.node_id
    )
    worker.process.start()
    worker.launches += 1
    worker.due = None
    worker.told = False
    log.info("node %s started (pid %s)", worker.node_id, worker.process.pid)


def _reaped(worker: Worker, stopping: bool, now: float) -> bool:
    """Forget ``worker``'s ended process and schedule its restart unless it is stopping.
    False when it could not start on its first launch (the whole server should stop)."""
    assert worker.process is not None
    code = worker.process.exitcode
    pid = worker.process.pid
    worker.process.close()
    worker.process = None
    if stopping:
        log.info("node %s stopped (pid %s, status %s)", worker.node_id, pid, code)
        return True
    if code == EXIT_STARTUP_FAILURE and worker.launches == 1:
        log.error("node %s could not start (pid %s): stopping", worker.node_id, pid)
        return False
    while worker.restarts and worker.restarts[0] <= now - 60:
        worker.restarts.popleft()
    due = now + RESTART_DELAY
    if len(worker.restarts) >= RESTARTS_PER_MINUTE:
        due = max(due, worker.restarts[0] + 60)
    worker.restarts.append(due)
    worker.due = due
    log.warning(
        "node %s (pid %s) ended with status %s; restarting it in %.0f s",
        worker.node_id, pid, code, due - now,
    )  # fmt: skip
    return True
