"""A process holding a desktop env that dies without closing it — SIGKILL (one task a suite),
or an uncaught exception — leaves nothing of it behind.

A child process makes the env and resets it (the suite's programs and servers start), says
where its episode lives, and is killed with SIGKILL. Within 5 s no process it started is
left (its sandbox's user has none, the X server and window manager are gone), its listening
ports and its episode folder are gone.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sandbox_helpers import processes_of, wait_until

from gcc_envs.backends.desktop.procs import descendants, process_table
from gcc_envs.sandbox import bwrap_missing

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

#: One task of each desktop suite, and the programs it needs.
TASKS = {
    "GCC/Chrome-OpenLastClosedPage": ["chromium"],
    "GCC/Outlook-EmptyJunk": ["thunderbird", "dovecot"],
    "GCC/CapCut-TrimFirstAndLast": ["shotcut", "melt"],
    "GCC/Meitu-ApplyFilter": ["gimp"],
    "GCC/Feishu-SendHiToCradle": ["ngircd", "hexchat"],
    "GCC/OSWorld-os-c288e301": ["xterm", "dbus-daemon"],
    "GCC/Desktop-SaveText": ["mousepad"],
}

CHILD = textwrap.dedent("""
    import json, sys, time
    import gymnasium as gym
    import gcc_envs
    env = gym.make(sys.argv[1], disable_env_checker=True)
    env.reset(seed=0)
    u = env.unwrapped
    session = u.runner.running.session if hasattr(u, "runner") else getattr(u, "session", None) or u.episode
    print("READY", session.sandbox.uid, session.home, flush=True)
    if sys.argv[2:] == ["raise"]:
        sys.stdin.readline()
        raise RuntimeError("the user's script fails without closing the env")
    time.sleep(600)
""")


def _listening(pids: set[int]) -> set[str]:
    """Inodes of the host's listening TCP sockets that one of ``pids`` holds."""
    listening = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(name).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":
                listening.add(fields[9])
    held = set()
    for pid in pids:
        try:
            links = [os.readlink(f) for f in Path(f"/proc/{pid}/fd").iterdir()]
        except OSError:
            continue
        held |= {link[8:-1] for link in links if link.startswith("socket:[")}
    return listening & held


@pytest.mark.parametrize(
    ("env_id", "how"),
    [(env_id, "sigkill") for env_id in sorted(TASKS)] + [("GCC/Feishu-SendHiToCradle", "raise")],
)
def test_a_dead_env_process_leaves_no_process_port_or_home(env_id: str, how: str) -> None:
    if bwrap_missing():
        pytest.skip(bwrap_missing())
    missing = [p for p in ["Xvfb", "openbox", *TASKS[env_id]] if shutil.which(p) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    child = subprocess.Popen([sys.executable, "-c", CHILD, env_id, how], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        words = child.stdout.readline().split()
        assert words[:1] == ["READY"], child.stderr.read()[-2000:]
        started = set(descendants(child.pid, process_table()))
        uid, home = int(words[1]), Path(words[2])
        assert home.is_dir() and processes_of(uid), "the episode's programs run as its own user"
        ports = _listening(started | {child.pid})
    finally:
        if how == "raise":  # an uncaught exception: the interpreter exits without close()
            child.stdin.write("go\n")
            child.stdin.flush()
            assert child.wait(timeout=30) == 1
        child.send_signal(signal.SIGKILL)
        child.wait()
    gone = wait_until(lambda: not processes_of(uid) and not (started & _alive()), 15)
    assert gone, (processes_of(uid), started & _alive())
    assert wait_until(lambda: not home.parent.exists(), 15), "the episode's folder is left"
    assert not (_listening(_alive()) & ports)


def _alive() -> set[int]:
    table = {}
    for pid in process_table():
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        table[pid] = state
    return {pid for pid, state in table.items() if state != "Z"}
