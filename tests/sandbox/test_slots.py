"""Episode slots: a dead owner's folder is removed by the next slot taken, a live one is kept."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from gcc_envs.sandbox import bwrap_missing
from gcc_envs.sandbox.slots import Slot, first_free, remove_stale, root


@pytest.fixture
def top():
    if bwrap_missing():
        pytest.skip(bwrap_missing())
    return root()


def test_a_dead_owners_folder_is_removed_and_a_live_ones_kept(top) -> None:
    n = 4000 + os.getpid() % 90  # far from the slots other tests take
    stale = top / f"ep-{n}"
    (stale / "home").mkdir(parents=True)
    (stale / "home" / "left").write_text("x")
    (top / f"ep-{n}.lock").touch()
    live = Slot(None)  # the next slot taken, held by this process
    try:
        assert not stale.exists()
        assert live.dir.exists() and live.dir not in remove_stale(top)
    finally:
        live.release()
    assert not live.dir.exists()


def test_a_lock_held_by_another_process_is_not_taken(top) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'w'); "
         "fcntl.flock(f, fcntl.LOCK_EX); print(flush=True); time.sleep(30)",
         str(top / "test-7.lock")], stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        holder.stdout.readline()
        taken = first_free(top, "test", [7, 8])
        assert taken is not None and taken[0] == 8
        os.close(taken[1])
    finally:
        holder.kill()
        holder.wait()
    again = first_free(top, "test", [7, 8])  # its death dropped the lock
    assert again is not None and again[0] == 7
    os.close(again[1])
