"""Memory stays flat over make/reset/close cycles (issue 27): a closed, dropped env is freed by
reference counting, not left in a reference cycle (env <-> clock, OSWorld env <-> its task, an
error's frames in the sandbox) holding its spaces, frames and backend until a full gc runs."""

from __future__ import annotations

import gc
import importlib.util
import shutil
import sys
import weakref
from pathlib import Path

import gymnasium as gym
import pytest
from spec_helpers import sim_ids

import gcc_envs  # noqa: F401 - registers the ids

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "perf_memory_cycles.py"
XTERM = ["xterm", "-geometry", "80x24+20+20", "-title", "gcc-xterm", "-e", "/bin/sh"]


def needs_x(test):
    test = pytest.mark.skipif(shutil.which("xterm") is None, reason="xterm is not installed")(test)
    test = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")(test)
    return pytest.mark.desktop(test)


def _bench():
    spec = importlib.util.spec_from_file_location("perf_memory_cycles", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("perf_memory_cycles", mod)  # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def vdisplay():
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((1024, 768))
    yield d
    d.close()


def _freed_without_gc(env_id: str, **kwargs: object) -> list[str]:
    """The parts of a made, reset and closed env still alive once it is dropped, the cycle
    collector off (so only reference counting frees)."""
    gc.collect()
    gc.disable()
    try:
        env = gym.make(env_id, disable_env_checker=True, **kwargs)
        env.reset(seed=0)
        env.close()
        u = env.unwrapped
        refs = {"env": weakref.ref(u), "backend": weakref.ref(u.backend),
                "observation_space": weakref.ref(u.observation_space)}  # fmt: skip
        del env, u
        return [name for name, ref in refs.items() if ref() is not None]
    finally:
        gc.enable()


@pytest.mark.parametrize("env_id", sim_ids())
def test_a_closed_simulator_env_is_freed_by_reference_counting(env_id):
    # RDR2's curated skills once held a bound method of the env: 2.1 MB/cycle until collected
    assert _freed_without_gc(env_id) == []


@needs_x
def test_a_closed_desktop_env_is_freed_by_reference_counting(vdisplay):
    kw = {"launch": XTERM, "display": vdisplay.name}
    assert _freed_without_gc("GCC/Desktop", **kw) == []


@pytest.mark.desktop
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
@pytest.mark.skipif(shutil.which("openbox") is None, reason="openbox is not installed")
def test_a_closed_osworld_env_is_freed_by_reference_counting():
    # a task this desktop declines: reset makes the display and the task, runs no programs
    assert _freed_without_gc("GCC/OSWorld-os-13584542") == []


@needs_x
def test_rss_is_flat_over_desktop_make_reset_close_cycles(vdisplay):
    bench = _bench()
    samples = bench.cycles("GCC/Desktop", 16, launch=XTERM, display=vdisplay.name)
    slope = bench.growth(samples)
    rss = [round(s.rss_mb, 1) for s in samples]
    assert slope <= bench.TARGET_MB_PER_CYCLE, f"{slope:.2f} MB/cycle after warm-up: {rss}"
    warm, last = samples[bench.WARMUP - 1], samples[-1]  # the display's own processes stay
    assert (last.threads, last.fds, last.children) <= (warm.threads, warm.fds, warm.children)


def test_a_failed_connect_into_the_sandbox_leaves_no_reference_cycle():
    from gcc_envs.sandbox import Sandbox, bwrap_missing

    why = bwrap_missing()
    if why is not None:
        pytest.skip(why)
    gc.collect()
    gc.disable()
    try:
        box = Sandbox()
        try:
            with pytest.raises(OSError):  # nothing listens there in the episode's network
                box.connect(9, timeout_s=1.0)
        finally:
            box.close()
        ref = weakref.ref(box)
        del box
        assert ref() is None
    finally:
        gc.enable()
