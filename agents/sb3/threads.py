"""How many threads torch gets beside the env workers (``gcc-gym train``, :class:`SB3Policy`).

Torch's default is one intra-op thread per core. Beside ``SubprocVecEnv`` workers that keep
cores busy stepping simulators, and on a machine that other work shares, those threads wait
on each other: on 2 busy cores a 2,048-step PPO run took 100 s against 16 s with one thread
(``benchmarks/perf_train_threads.py`` measures it). The rule here leaves a core to each env
worker and gives torch what is left, at least one thread::

    threads = max(1, cores // (1 + workers))

A user's own choice wins: with ``OMP_NUM_THREADS`` set, torch already read it and nothing is
changed. In a script of your own, call ``torch.set_num_threads(torch_threads(workers))`` before
training (or start it with ``OMP_NUM_THREADS=1``).

>>> torch_threads(workers=2, cores=2), torch_threads(workers=2, cores=16)
(1, 5)
"""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def torch_threads(workers: int, cores: int | None = None) -> int:
    """Torch threads for a process that has ``workers`` env processes beside it."""
    cores = usable_cores() if cores is None else cores
    return max(1, cores // (1 + max(0, workers)))


def set_torch_threads(threads: int | None, auto: int) -> int:
    """Set torch's intra-op threads; return what torch now uses.

    ``threads=None`` sets ``auto`` (e.g. :func:`torch_threads`'s figure) unless
    ``OMP_NUM_THREADS`` is set, in which case torch keeps what it read from it; ``threads=0``
    leaves torch's default; a positive number is set as it is.
    """
    import torch

    if threads is None:
        threads = 0 if os.environ.get("OMP_NUM_THREADS") else auto
    if threads > 0:
        torch.set_num_threads(threads)
    log.debug("torch uses %d threads", torch.get_num_threads())
    return torch.get_num_threads()


def one_thread_per_worker() -> None:
    """In an env worker process: one thread for OpenCV, and for torch if it was imported, so
    the workers keep a core each (``OMP_NUM_THREADS`` set by the user wins)."""
    import sys

    if os.environ.get("OMP_NUM_THREADS"):
        return
    import cv2

    cv2.setNumThreads(1)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
