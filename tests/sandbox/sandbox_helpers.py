"""What the sandbox's tests look at from outside: a user's processes, ports, files."""

from __future__ import annotations

import os
import time
from pathlib import Path


def processes_of(uid: int) -> list[int]:
    """PIDs of live (not zombie) processes whose real user is ``uid``."""
    pids = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry.name}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("State", "").strip().startswith("Z"):
            continue
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            pids.append(int(entry.name))
    return pids


def wait_until(test, timeout_s: float) -> bool:
    """Poll ``test()`` until it is true; False at the timeout."""
    deadline = time.monotonic() + timeout_s
    while not test():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
