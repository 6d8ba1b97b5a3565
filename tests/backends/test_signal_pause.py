"""``pause="signal"`` stops the target's own processes, never the caller, the X server or the WM.

The layout of a shell script or container entrypoint: one script starts Xvfb, the window
manager and the target program, so all of them share the script's process group.
"""

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(sys.platform != "linux", reason="/proc and SIGSTOP: Linux"),
    *(
        pytest.mark.skipif(shutil.which(p) is None, reason=f"{p} is not installed")
        for p in ("Xvfb", "openbox", "xterm")
    ),
]
TITLE = "gcc-signal-target"
ENTRYPOINT = """\
#!/bin/sh
# Xvfb, the window manager and the target in this script's process group
cd "$(dirname "$0")"
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp 3>display.txt &
echo $! > xvfb.pid
while [ ! -s display.txt ]; do sleep 0.05; done
export DISPLAY=":$(cat display.txt)"
openbox --sm-disable &
echo $! > wm.pid
sleep 0.5
xterm -geometry 60x10+10+10 -title {title} -e sh -c 'sleep 1000' &
echo $! > target.pid
wait
"""


def state(pid: int) -> str:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2]


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def until(condition, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def wait_for(path: Path, timeout_s: float = 20.0) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        time.sleep(0.05)
    raise AssertionError(f"{path} was not written")


@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    """``(display, {"script", "xvfb", "wm", "target"} pids)`` of the entrypoint's group."""
    folder = tmp_path_factory.mktemp("entrypoint")
    script = folder / "entrypoint.sh"
    script.write_text(ENTRYPOINT.format(title=TITLE))
    proc = subprocess.Popen(["sh", str(script)], start_new_session=True)
    try:
        display = ":" + wait_for(folder / "display.txt")
        pids = {name: int(wait_for(folder / f"{name}.pid")) for name in ("xvfb", "wm", "target")}
        pids["script"] = proc.pid
        from gcc_envs.backends.desktop.x11 import X11

        x = X11(display)
        x.wait_window(20.0, title=TITLE)
        x.close()
        assert {os.getpgid(p) for p in pids.values()} == {proc.pid}  # one group, as claimed
        yield display, pids
    finally:
        os.killpg(proc.pid, signal.SIGCONT)  # in case a pause stopped them
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)


def test_signal_pause_stops_the_target_but_not_the_x_server_or_wm_in_its_group(layout):
    from gcc_envs.backends.desktop.backend import DesktopBackend

    display, pids = layout
    b = DesktopBackend((300, 400), target=TITLE, display=display, pause="signal", kill_switch=None)
    try:
        b.reset(np.random.default_rng(0), None)
        shell = children(pids["target"])
        b.pause()
        try:
            stopped = [pids["target"], *shell]  # a signal is delivered soon, not at once
            assert until(lambda: all(state(p) == "T" for p in stopped), 5.0)
            assert state(pids["xvfb"]) != "T" and state(pids["wm"]) != "T"
            assert state(pids["script"]) != "T"
        finally:
            b.resume()
            os.killpg(pids["script"], signal.SIGCONT)  # main stopped the lot: un-hang X
        assert until(lambda: state(pids["target"]) != "T", 5.0)
        assert b.capture().shape == (300, 400, 3)  # the X server answers
    finally:
        b.close()


CHILD = textwrap.dedent(
    """
    import os, subprocess, sys, time
    import numpy as np
    from gcc_envs.backends.desktop.backend import DesktopBackend
    from gcc_envs.backends.desktop.x11 import X11
    from gcc_envs.errors import BackendError

    display, mode = sys.argv[1], sys.argv[2]
    if mode == "self":  # the target window belongs to this very process
        x = X11(display)
        win = x.root.create_window(0, 0, 100, 100, 0, x.d.screen().root_depth)
        win.set_wm_name("gcc-self-window")
        win.change_property(x.atom("_NET_WM_PID"), x.atom("CARDINAL"), 32, [os.getpid()])
        win.map()
        x.d.sync()
        title = "gcc-self-window"
    else:  # a program this process started in its own process group
        xterm = subprocess.Popen(
            ["xterm", "-title", "gcc-child-xterm", "-e", "sh", "-c", "sleep 1000"],
            env={**os.environ, "DISPLAY": display},
        )
        title = "gcc-child-xterm"
    b = DesktopBackend((100, 100), target=title, display=display, pause="signal",
                       kill_switch=None)
    b.reset(np.random.default_rng(0), None)
    try:
        b.pause()
        print("paused", flush=True)
        time.sleep(0.2)
        b.resume()
        print("alive", flush=True)
    except BackendError as e:
        print("refused:", e, flush=True)
    finally:
        b.close()
        if mode != "self":
            xterm.kill()
    """
)


def run_child(display: str, mode: str) -> str:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, display, mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return "hung: " + out
    assert proc.returncode == 0, err[-2000:]
    return out


def test_signal_pause_of_a_program_in_the_callers_group_stops_only_that_program(layout):
    out = run_child(layout[0], "child")
    assert out.split() == ["paused", "alive"]


def test_signal_pause_of_the_callers_own_window_is_refused_with_a_reason(layout):
    out = run_child(layout[0], "self")
    assert out.startswith("refused:") and "pause='signal' refused" in out
