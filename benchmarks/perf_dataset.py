"""Trajectory recording: throughput and size of the dataset format vs raw .npy and Minari.

Run: ``python benchmarks/perf_dataset.py [--frames N]`` (needs the ``dataset`` extra; Minari's
default ``hdf5`` storage also needs ``h5py`` and is skipped without it).

1. **Format** — the same Stardew frames (a seeded random policy) written at 1280×720 and 84×84
   as one episode each way; frames/s (best of 3, finishing included) and bytes per frame:

   * ``gcc-gym`` — :class:`gcc_envs.datasets.DatasetWriter`: frames as one zstd stream
     (default) or a PNG per frame, + steps table, with the frame-writer process (default) and
     inline (``background=False``);
   * ``raw .npy`` — ``np.save`` per frame (no compression: the speed/size reference);
   * ``FFV1 in MKV`` — the lossless-video alternative, through ``imageio-ffmpeg``'s binary;
   * ``minari default`` — ``minari.create_dataset_from_buffers`` with Minari's defaults
     (``hdf5``; in builds with ``jpeg_encoding``, JPEG, i.e. lossy);
   * ``minari arrow`` — what ``gcc-gym export`` writes (``arrow``, raw uint8, lossless).

2. **Env overhead** — ``GCC/Stardew-FarmClearup`` at 84×84 and 360×640, lockstep, random
   state-mode actions, stepped without and with :class:`wrappers.RecordTrajectory` (each frame
   encoding, inline and with the writer process), interleaved rounds, best round of each;
   prints steps/s, the ratio to un-recorded and bytes per frame.
   Target: at 84×84 recording keeps at least half the un-recorded speed, lossless, and stores
   a frame in at most a fifth of its raw bytes.

3. **Export size** — a 51-step recording at 1280×720 (the default ``obs_size``), exported with
   :func:`gcc_envs.datasets.export_minari`: the Minari dataset's bytes against the native
   dataset's, with and without ``metadata.json``. Target: at most 2×.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import gcc_envs  # noqa: E402, F401
from gcc_envs.datasets import DatasetWriter, load  # noqa: E402
from gcc_envs.datasets.meta import episode_meta  # noqa: E402
from gcc_envs.datasets.table import step_row  # noqa: E402
from wrappers.record_trajectory import RecordTrajectory  # noqa: E402

cv2.setNumThreads(1)
ENV_ID = "GCC/Stardew-FarmClearup"


def stardew_frames(size: tuple[int, int], n: int) -> list[np.ndarray]:
    env = gym.make(ENV_ID, obs_size=size)
    env.action_space.seed(0)
    obs, _ = env.reset(seed=0)
    frames = [obs]
    while len(frames) < n:
        obs, _, term, trunc, _ = env.step(env.action_space.sample())
        frames.append(obs)
        if term or trunc:
            obs, _ = env.reset()
    env.close()
    return frames


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


Writer = Callable[[Path], float]  # writes into a folder, returns the seconds the writing took


def timed(write: Writer, n: int, repeats: int = 3) -> tuple[float, float]:
    """Best frames/s of ``write(tmpdir)`` and bytes per frame of what it left."""
    best, size = 0.0, 0.0
    for _ in range(repeats):
        tmp = Path(tempfile.mkdtemp(prefix="perf-dataset-"))
        try:
            best = max(best, n / write(tmp))
            size = folder_bytes(tmp) / n
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return best, size


def gcc_writer(frames: list[np.ndarray], background: bool, encoding: str = "zstd") -> Writer:
    meta = episode_meta(
        {"env_id": ENV_ID},
        seed=0,
        rng_state=None,
        options=None,
        policy="bench",
        info_keys=[],
        frame_shape=frames[0].shape,
    )

    def write(tmp: Path) -> float:
        w = DatasetWriter(tmp, background=background, frames=encoding)
        w.flush()  # the writer process is up (start-up is not part of the throughput)
        t0 = time.perf_counter()
        w.begin_episode(meta, 0, frames[0])
        for i, f in enumerate(frames[1:]):
            w.add_step(step_row(i, "WAIT", 0.0, False, False, {}, 0.0, 0.0, []), f)
        w.close({"steps": len(frames) - 1})  # waits until everything is on disk
        return time.perf_counter() - t0

    return write


def npy_writer(frames: list[np.ndarray]) -> Writer:
    def write(tmp: Path) -> float:
        t0 = time.perf_counter()
        for i, f in enumerate(frames):
            np.save(tmp / f"{i:06d}.npy", f)
        return time.perf_counter() - t0

    return write


def ffv1_writer(frames: list[np.ndarray]) -> Writer | None:
    """FFV1 in MKV through an ``ffmpeg`` pipe (the lossless-video alternative to PNG)."""
    try:
        import imageio_ffmpeg
    except ImportError:
        return None
    h, w = frames[0].shape[:2]

    def write(tmp: Path) -> float:
        t0 = time.perf_counter()
        cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-loglevel", "error", "-f", "rawvideo"]
        cmd += ["-pix_fmt", "rgb24", "-s", f"{w}x{h}", "-r", "4", "-i", "-"]
        cmd += ["-c:v", "ffv1", "-level", "3", "-threads", "1", str(tmp / "frames.mkv")]
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        assert proc.stdin is not None
        for f in frames:
            proc.stdin.write(f.tobytes())
        proc.stdin.close()
        proc.wait()
        return time.perf_counter() - t0

    return write


def minari_writer(frames: list[np.ndarray], data_format: str | None, lossless: bool) -> Writer:
    import minari
    from gymnasium import spaces
    from minari.data_collector.episode_buffer import EpisodeBuffer

    obs_space = spaces.Box(0, 255, frames[0].shape, np.uint8)
    n = len(frames) - 1
    extra = {"jpeg_encoding": False} if lossless else {}
    if data_format is not None:
        extra["data_format"] = data_format

    def write(tmp: Path) -> float:
        os.environ["MINARI_DATASETS_PATH"] = str(tmp)
        t0 = time.perf_counter()
        buf = EpisodeBuffer(
            observations=np.stack(frames),
            actions=np.zeros((n, 1), np.float32),
            rewards=[0.0] * n,
            terminations=[False] * n,
            truncations=[False] * n,
        )
        minari.create_dataset_from_buffers(
            "bench/frames-v0",
            [buf],
            action_space=spaces.Box(-1, 1, (1,), np.float32),
            observation_space=obs_space,
            author="bench",
            author_email="bench",
            code_permalink="bench",
            **extra,
        )
        return time.perf_counter() - t0

    return write


def format_table(n_small: int, n_big: int) -> None:
    try:
        import h5py  # noqa: F401

        has_h5 = True
    except ImportError:
        has_h5 = False
    print(f"{'format':<34}{'size':>10}{'frames/s':>11}{'bytes/frame':>13}{'x raw size':>11}")
    for size, n in (((720, 1280), n_big), ((84, 84), n_small)):
        frames = stardew_frames(size, n)
        raw = frames[0].nbytes
        rows: list[tuple[str, Writer | None]] = [
            ("gcc-gym zstd (writer process)", gcc_writer(frames, True)),
            ("gcc-gym zstd (inline)", gcc_writer(frames, False)),
            ("gcc-gym PNG (writer process)", gcc_writer(frames, True, "png")),
            ("gcc-gym PNG (inline)", gcc_writer(frames, False, "png")),
            ("raw .npy per frame", npy_writer(frames)),
            ("FFV1 in MKV (ffmpeg, 1 thread)", ffv1_writer(frames)),
            ("minari default (hdf5)", minari_writer(frames, None, False) if has_h5 else None),
            ("minari arrow lossless (export)", minari_writer(frames, "arrow", True)),
        ]
        for name, write in rows:
            label = f"{size[1]}x{size[0]}"
            if write is None:
                print(f"{name:<34}{label:>10}{'skipped: not installed':>35}")
                continue
            fps, bpf = timed(write, n)
            print(f"{name:<34}{label:>10}{fps:>11,.0f}{bpf:>13,.0f}{bpf / raw:>11.3f}")


def env_speed(env: gym.Env, actions: list) -> float:
    env.reset(seed=0)
    t0 = time.perf_counter()
    for a in actions:
        _, _, term, trunc, _ = env.step(a)
        if term or trunc:
            env.reset()
    return len(actions) / (time.perf_counter() - t0)


def overhead(steps: int, rounds: int) -> None:
    """Un-recorded and recorded stepping, interleaved round by round; best round of each."""
    for size in ((84, 84), (360, 640)):
        base = gym.make(ENV_ID, obs_size=size)
        base.action_space.seed(0)
        actions = [base.action_space.sample() for _ in range(steps)]
        raw = int(np.prod(base.observation_space.shape))
        tmp = Path(tempfile.mkdtemp(prefix="perf-dataset-"))
        envs: dict[str, gym.Env] = {"plain": base}
        for enc in ("zstd", "png"):
            for label, bg in (("inline", False), ("writer process", True)):
                out = tmp / f"{enc}-{bg}"
                envs[f"{enc} {label}"] = RecordTrajectory(
                    gym.make(ENV_ID, obs_size=size), out, background=bg, frames=enc
                )
        best = dict.fromkeys(envs, 0.0)
        for _ in range(rounds):
            for name, env in envs.items():
                best[name] = max(best[name], env_speed(env, actions))
        for env in envs.values():
            env.close()
        plain = best.pop("plain")
        print(f"\n{ENV_ID} {size[1]}x{size[0]} lockstep, random actions, best of {rounds} rounds")
        print(f"  {'not recorded':<30}{plain:>9,.0f} steps/s")
        for name, rate in best.items():
            enc, _, label = name.partition(" ")
            folder = tmp / f"{enc}-{label == 'writer process'}"
            frames = sum(len(ep.frames) for ep in load(folder, verify=False))
            stored = sum(
                p.stat().st_size
                for p in folder.rglob("*")
                if p.is_file() and (p.name == "frames.zst" or p.suffix == ".png")
            )
            bpf = stored / frames
            ok = "met" if rate >= 0.5 * plain and raw >= 5 * bpf else "not met"
            print(
                f"  {'recorded, ' + name:<30}{rate:>9,.0f} steps/s  ratio {rate / plain:.2f}"
                f"  {bpf:>8,.0f} B/frame (raw/{raw / bpf:.1f})"
                + (f"  target >=0.50 and raw/5: {ok}" if size == (84, 84) else "")
            )
        shutil.rmtree(tmp, ignore_errors=True)


def export_size(steps: int) -> None:
    """The Minari export of a 1280x720 recording against the native dataset, in bytes."""
    import sys

    from gcc_envs.datasets import export_minari

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "datasets"))
    from dataset_helpers import record

    tmp = Path(tempfile.mkdtemp(prefix="perf-export-"))
    os.environ["MINARI_DATASETS_PATH"] = str(tmp / "minari")
    print(f"\nexport of {steps} random steps of {ENV_ID} at 1280x720 (MB)")
    print(
        f"  {'native frames':<16}{'native':>8}{'export':>8}{'ratio':>7}{'no metadata':>13}{'ratio':>7}"
    )
    for enc in ("zstd", "png"):
        record(tmp / enc, [1], steps=steps, size=(720, 1280), frames=enc)
        native = folder_bytes(tmp / enc)
        ds = export_minari(tmp / enc, f"bench/export-{enc}-v0")
        data = Path(ds.storage.data_path)
        total = folder_bytes(data.parent)
        meta = (data / "metadata.json").stat().st_size
        print(
            f"  {enc:<16}{native / 1e6:>8.2f}{total / 1e6:>8.2f}{total / native:>7.2f}"
            f"{(total - meta) / 1e6:>13.2f}{(total - meta) / native:>7.2f}"
        )
    shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=1000, help="frames at 84x84")
    p.add_argument("--big-frames", type=int, default=100, help="frames at 1280x720")
    p.add_argument("--steps", type=int, default=1000, help="env steps per overhead round")
    p.add_argument("--rounds", type=int, default=5, help="interleaved overhead rounds")
    p.add_argument("--export-steps", type=int, default=51, help="steps of the export recording")
    p.add_argument(
        "--only", choices=["format", "overhead", "export"], help="run one part (default: all)"
    )
    p.add_argument("--dir", help="where to write (default: the system temp folder)")
    args = p.parse_args()
    if args.dir:
        tempfile.tempdir = args.dir
    print(
        f"cores available: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}"
    )
    if args.only in (None, "format"):
        format_table(args.frames, args.big_frames)
    if args.only in (None, "overhead"):
        overhead(args.steps, args.rounds)
    if args.only in (None, "export"):
        export_size(args.export_steps)


if __name__ == "__main__":
    main()
