"""Which processes the ``signal`` pause may stop: the target's own, never the caller or X.

A target program often shares its process group with more than itself: a shell script or a
container entrypoint that starts Xvfb, the window manager and the program together puts all
three in one group, and a program started from the agent's terminal shares the agent's group.
Stopping such a group stops the X server (every later X call hangs) or the agent itself.

:func:`processes_to_stop` therefore stops the target's whole group only when that group holds
none of the protected processes (this process, the X server, the window manager), and
otherwise the target's PID and its descendants; if the target or one of its descendants is
itself protected it refuses with :class:`BackendError`. Linux only (``/proc``).
"""

from __future__ import annotations

import os
import re
import signal
from dataclasses import dataclass
from pathlib import Path

from gcc_envs.errors import BackendError

_PROC = Path("/proc")


@dataclass(frozen=True)
class Stopped:
    """What a ``signal`` pause stopped: a whole process group, or these PIDs (parents first).

    ``lasting``: the group is a session of its own (the program was started with
    ``start_new_session``), so no other process can join it and the choice holds for later
    pauses of the same program.
    """

    group: int | None
    pids: tuple[int, ...]
    lasting: bool = False

    def stop(self) -> None:
        if self.group is not None:
            os.killpg(self.group, signal.SIGSTOP)
            return
        for pid in self.pids:  # parents first: a stopped parent starts no new child
            _signal(pid, signal.SIGSTOP)

    def cont(self) -> None:
        if self.group is not None:
            try:
                os.killpg(self.group, signal.SIGCONT)
            except ProcessLookupError:
                pass
            return
        for pid in reversed(self.pids):
            _signal(pid, signal.SIGCONT)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:  # a child that exited meanwhile
        pass


def process_table() -> dict[int, tuple[int, int, int]]:
    """``{pid: (parent pid, process group, session)}`` of every process visible in ``/proc``."""
    table = {}
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # exited meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "; comm may hold spaces
        table[int(entry.name)] = (int(fields[1]), int(fields[2]), int(fields[3]))
    return table


def descendants(pid: int, table: dict[int, tuple[int, int, int]]) -> list[int]:
    """``pid``'s children, grandchildren, ... (parents before children)."""
    children: dict[int, list[int]] = {}
    for p, (ppid, *_) in table.items():
        children.setdefault(ppid, []).append(p)
    out, todo = [], list(children.get(pid, []))
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def socket_owners(path: str) -> set[int]:
    """PIDs holding a listening Unix socket bound at ``path`` (or its abstract twin ``@path``)."""
    inodes = set()
    try:
        lines = (_PROC / "net" / "unix").read_text().splitlines()[1:]
    except OSError:
        return set()
    for line in lines:
        parts = line.split()
        if len(parts) >= 8 and parts[7] in (path, f"@{path}"):
            inodes.add(parts[6])
    links = {f"socket:[{i}]" for i in inodes}
    owners = set()
    for entry in _PROC.iterdir() if links else ():
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(fd) in links:
                    owners.add(int(entry.name))
                    break
            except OSError:
                continue
    return owners


def x_server_pids(display: str) -> set[int]:
    """The X server of a local ``display`` such as ``":99"`` (the owner of its socket)."""
    m = re.fullmatch(r"(?:unix)?:(\d+)(?:\.\d+)?", display)
    return socket_owners(f"/tmp/.X11-unix/X{m.group(1)}") if m else set()


def host_pid(pid: int, display: str) -> int:
    """The pid, as this machine sees it, of the process ``display``'s X clients call ``pid``
    (``_NET_WM_PID``): programs started in the X server's own PID namespace (a virtual
    display's) name it there. The same pid where the server shares this machine's namespace
    or cannot be found."""
    servers = sorted(x_server_pids(display))
    try:
        namespace = os.readlink(f"/proc/{servers[0]}/ns/pid") if servers else None
        if namespace is None or namespace == os.readlink("/proc/self/ns/pid"):
            return pid
    except OSError:
        return pid
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/ns/pid") != namespace:
                continue
            with open(f"/proc/{entry}/status") as f:
                line = next((x for x in f if x.startswith("NSpid:")), "")
        except OSError:
            continue
        if line.split()[-1:] == [str(pid)]:
            return int(entry)
    return pid


def processes_to_stop(pid: int, protected: set[int]) -> Stopped:
    """What to stop to freeze ``pid``'s program without stopping any ``protected`` process."""
    table = process_table()
    if pid not in table:
        raise BackendError(f"the target program (pid {pid}) has exited; reset() starts it again")
    _, group, session = table[pid]
    members = {p for p, (_, g, _) in table.items() if g == group}
    if not members & protected:
        return Stopped(group, tuple(sorted(members)), lasting=group == session)
    pids = [pid, *descendants(pid, table)]
    hit = sorted(set(pids) & protected)
    if hit:
        raise BackendError(
            f"pause='signal' refused: stopping the target (pid {pid}) would stop pid(s) {hit}, "
            "which this process, the X server or the window manager needs; use pause='focus' "
            "or 'none', or run the target as its own program"
        )
    return Stopped(None, tuple(pids))
