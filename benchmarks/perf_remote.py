"""Capture latency over loopback: RemoteBackend (serve-desktop) vs. DesktopBackend, same screen.

Run: ``python benchmarks/perf_remote.py [--frames N] [--size W H]`` (needs Xvfb and xterm).
Starts one Xvfb with an xterm on it, a ``gcc-gym serve-desktop`` process on that display, and
times ``capture()`` of the whole screen at full size: locally, then remotely in each frame
format (raw, zlib, png), alternating runs so both see the same machine load. Prints the median
and 90th percentile in milliseconds and the ratio of each remote median to the local one.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from gcc_envs.backends.desktop.backend import DesktopBackend
from gcc_envs.backends.desktop.display import VirtualDisplay, stop_group
from gcc_envs.backends.remote import RemoteBackend

TOKEN = "benchmark-token"


def timings(capture, frames: int) -> list[float]:
    capture()  # warm up
    out = []
    for _ in range(frames):
        t0 = time.perf_counter()
        capture()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=100)
    p.add_argument("--size", type=int, nargs=2, default=(1280, 720), metavar=("W", "H"))
    args = p.parse_args()
    W, H = args.size
    display = VirtualDisplay((W, H))
    display.launch(["xterm", "-geometry", "100x30+10+10", "-e", "top"])  # changing pixels
    server = subprocess.Popen(
        [sys.executable, "-m", "agents.cli", "serve-desktop", "--token", TOKEN, "--port", "0",
         "--display", display.name],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1],
        start_new_session=True,
    )  # fmt: skip
    try:
        url = server.stdout.readline().split()[-1]
        local = DesktopBackend((H, W), display=display.name, pause="none")
        remote = RemoteBackend((H, W), url=url, token=TOKEN)
        rng = np.random.default_rng(0)
        local.reset(rng, None)
        remote.reset(rng, None)
        results: dict[str, list[float]] = {"local": []}
        for _ in range(3):  # alternate so load changes hit every variant
            results["local"] += timings(local.capture, args.frames // 3)
            for fmt in ("raw", "zlib", "png"):
                remote.capture_format = fmt
                results.setdefault(f"remote {fmt}", []).extend(
                    timings(remote.capture, args.frames // 3)
                )
        ref = statistics.median(results["local"])
        print(f"capture {W}x{H} RGB, {len(results['local'])} frames each, loopback")
        for name, ms in results.items():
            med, p90 = statistics.median(ms), float(np.percentile(ms, 90))
            print(f"{name:<12} median {med:6.2f} ms  p90 {p90:6.2f} ms  x{med / ref:5.2f} local")
        remote.close()
        local.close()
    finally:
        stop_group(server)
        display.close()


if __name__ == "__main__":
    main()
