"""Damaged recordings: every corruption is a ``DataError`` or the right data, never a crash.

Run: ``python benchmarks/fuzz_dataset.py [--flips N] [--seed S] [--json]`` (needs the
``dataset`` extra). It records three small Stardew episodes (two complete, one cut short as a
killed recorder leaves it), then loads copies of them damaged one way each and reads everything
(meta, every step, every frame), with and without checksum verification:

* every file (``meta.json``, ``steps.parquet`` / ``steps.jsonl``, each frame) deleted, emptied,
  halved, short by one byte, NUL-filled, replaced by random bytes, with garbage appended, and
  ``N`` single-bit flips at random places;
* ``steps.jsonl``: a line blanked, dropped, duplicated, two lines swapped;
* frames: two swapped, one copied over another, one removed from the middle, one added;
* ``meta.json``: another frame shape, ``complete`` flipped, another step count.

Each input ends as **refused** (a ``DataError`` naming a file), **same** (all data as recorded),
**cut** (a cut-short episode that lost only its torn last row, as after a kill), **lost**
(returned data that differs from the recording: silently wrong or short), **crashed** (any other
exception) or **hung** (no answer in 20 s). Verified loading must have no lost, crashed or hung
input; with ``verify=False`` (structure only) damaged frame bytes can pass unnoticed, so only
crashed and hung must be zero there.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

Corruption = tuple[str, Callable[[Path], None]]
HANG_S = 20


def record(root: Path) -> list[Path]:
    """Two complete 12-step episodes and one cut short after 7 steps (the writer's own files)."""
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)
    from gcc_envs.datasets.episode_files import EpisodeFiles, encode_row
    from gcc_envs.datasets.frames import to_bgr
    from gcc_envs.datasets.meta import env_description, episode_meta
    from gcc_envs.datasets.table import step_row
    from wrappers.record_trajectory import RecordTrajectory

    make = {"obs_size": (72, 128), "max_episode_steps": 12}
    env = RecordTrajectory(gym.make("GCC/Stardew-FarmClearup", **make), root / "data")
    env.action_space.seed(0)
    for seed in (1, 2):
        env.reset(seed=seed)
        done = False
        while not done:
            *_, terminated, truncated, _ = env.step(env.action_space.sample())
            done = terminated or truncated
    env.close()
    # a cut-short one, written by the writer's own code and then abandoned (a kill)
    base = gym.make("GCC/Stardew-FarmClearup", **make)
    obs, info = base.reset(seed=3)
    base.action_space.seed(3)
    meta = episode_meta(
        env_description(base), seed=3, rng_state=None, options=None, policy="random",
        info_keys=["progress"], frame_shape=obs.shape,
    )  # fmt: skip
    files = EpisodeFiles(root / "data" / "episode-000002-seed-3", meta, to_bgr(obs))
    for t in range(7):
        action = base.action_space.sample()
        obs, reward, terminated, truncated, info = base.step(action)
        row = step_row(t, action, float(reward), terminated, truncated, info, 0.0, 0.0,
                       ["progress"])  # fmt: skip
        files.step(encode_row(row), to_bgr(obs))
    files.abandon()
    base.close()
    return sorted((root / "data").iterdir())


def read_all(folder: Path, verify: bool) -> dict[str, Any]:
    from gcc_envs.datasets import Episode

    ep = Episode(folder, verify=verify)
    return {
        "steps": ep.steps,
        "frames": [f.copy() for f in ep.frames],
        "complete": ep.complete,
        "shape": tuple(ep.meta["frames"]["shape"]),
    }


def _same(a: dict[str, Any], b: dict[str, Any], n: int | None = None) -> bool:
    steps = b["steps"] if n is None else b["steps"][:n]
    frames = b["frames"] if n is None else b["frames"][: n + 1]
    if a["shape"] != b["shape"] or len(a["steps"]) != len(steps):
        return False
    if json.dumps(a["steps"], sort_keys=True) != json.dumps(steps, sort_keys=True):
        return False
    return len(a["frames"]) == len(frames) and all(
        x.shape == y.shape and np.array_equal(x, y) for x, y in zip(a["frames"], frames)
    )


# ---------------------------------------------------------------------- corruptions
def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)


def byte_damage(rel: str, rng: random.Random, flips: int) -> Iterator[Corruption]:
    def at(fn: Callable[[bytes], bytes]) -> Callable[[Path], None]:
        return lambda folder: _write(folder / rel, fn((folder / rel).read_bytes()))

    yield f"{rel}: deleted", lambda folder: (folder / rel).unlink()
    yield f"{rel}: emptied", at(lambda d: b"")
    yield f"{rel}: halved", at(lambda d: d[: len(d) // 2])
    yield f"{rel}: short by one byte", at(lambda d: d[:-1])
    yield f"{rel}: NUL-filled", at(lambda d: b"\x00" * len(d))
    yield f"{rel}: random bytes", at(lambda d: rng.randbytes(len(d)))
    yield f"{rel}: garbage appended", at(lambda d: d + b"\x00garbage\n{")
    for _ in range(flips):
        pos, bit = rng.random(), rng.randrange(8)

        def flip(d: bytes, pos: float = pos, bit: int = bit) -> bytes:
            i = int(pos * len(d))
            return d[:i] + bytes([d[i] ^ (1 << bit)]) + d[i + 1 :]

        yield f"{rel}: bit {bit} flipped at {pos:.3f}", at(flip)


def line_damage(rel: str) -> Iterator[Corruption]:
    def lines(fn: Callable[[list[bytes]], list[bytes]]) -> Callable[[Path], None]:
        def apply(folder: Path) -> None:
            data = (folder / rel).read_bytes().split(b"\n")
            _write(folder / rel, b"\n".join(fn(data)))

        return apply

    yield f"{rel}: line 3 blanked", lines(lambda ls: [*ls[:2], b"", *ls[3:]])
    yield f"{rel}: line 3 dropped", lines(lambda ls: [*ls[:2], *ls[3:]])
    yield f"{rel}: line 2 duplicated", lines(lambda ls: [*ls[:2], ls[1], *ls[2:]])
    yield f"{rel}: lines 2 and 4 swapped", lines(lambda ls: [ls[0], ls[3], ls[2], ls[1], *ls[4:]])
    yield f"{rel}: last line dropped", lines(lambda ls: [*ls[:-2], b""])


def frame_damage() -> Iterator[Corruption]:
    def frames(folder: Path) -> Path:
        return folder / "frames"

    def swap(folder: Path) -> None:
        a, b = frames(folder) / "000002.png", frames(folder) / "000004.png"
        tmp = frames(folder) / "swap"
        os.replace(a, tmp)
        os.replace(b, a)
        os.replace(tmp, b)

    yield "frames 2 and 4 swapped", swap
    yield (
        "frame 1 copied over frame 3",
        lambda folder: shutil.copy(frames(folder) / "000001.png", frames(folder) / "000003.png"),
    )
    yield "frame 3 removed", lambda folder: (frames(folder) / "000003.png").unlink()

    def extra(folder: Path) -> None:
        n = len(list(frames(folder).glob("[0-9]*.png")))
        shutil.copy(frames(folder) / "000000.png", frames(folder) / f"{n:06d}.png")

    yield "a frame added at the end", extra


def meta_damage() -> Iterator[Corruption]:
    def edit(fn: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
        def apply(folder: Path) -> None:
            meta = json.loads((folder / "meta.json").read_text())
            fn(meta)
            (folder / "meta.json").write_text(json.dumps(meta, indent=1))

        return apply

    def shape(m: dict[str, Any]) -> None:
        h, w, c = m["frames"]["shape"]
        m["frames"]["shape"] = [w, h, c]

    yield "meta: frame shape transposed", edit(shape)
    yield "meta: complete flipped", edit(lambda m: m.update(complete=not m["complete"]))
    yield "meta: n_steps + 1", edit(lambda m: m.update(n_steps=(m.get("n_steps") or 0) + 1))
    yield "meta: info_keys dropped", edit(lambda m: m.pop("info_keys"))


def corruptions(folder: Path, rng: random.Random, flips: int) -> Iterator[Corruption]:
    steps = "steps.parquet" if (folder / "steps.parquet").exists() else "steps.jsonl"
    stream = (folder / "frames.zst").exists()  # frames in one zstd stream (frame_stream)
    frames = ("frames.zst",) if stream else ("frames/000000.png", "frames/000005.png")
    for rel in ("meta.json", steps, *frames):
        yield from byte_damage(rel, rng, flips)
    if steps == "steps.jsonl":
        yield from line_damage(steps)
    if not stream:
        yield from frame_damage()
    yield from meta_damage()


# ---------------------------------------------------------------------- the run
class Hang(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise Hang


def outcome(copy: Path, truth: dict[str, Any], verify: bool, name: str) -> str:
    from gcc_envs.errors import DataError

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_S)
    try:
        got = read_all(copy, verify)
    except DataError:
        return "refused"
    except Hang:
        return "hung"
    except Exception as e:  # noqa: BLE001 - what the fuzzer counts
        print(f"# crashed: {name}: {type(e).__name__}: {e}", file=sys.stderr)
        return "crashed"
    finally:
        signal.alarm(0)
    if _same(got, truth):
        return "same"
    if (
        not truth["complete"]
        and not got["complete"]
        and len(got["steps"]) == len(truth["steps"]) - 1
        and _same(got, truth, len(got["steps"]))
    ):
        return "cut"  # only the last row went, as after a torn write: allowed
    if verify:
        print(f"# lost: {name}", file=sys.stderr)
    return "lost"


def run(flips: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    results: dict[str, Counter[str]] = {"verify": Counter(), "no-verify": Counter()}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for folder in record(root):
            truth = read_all(folder, True)
            for name, damage in corruptions(folder, rng, flips):
                copy = root / "copy"
                shutil.rmtree(copy, ignore_errors=True)
                shutil.copytree(folder, copy)
                try:
                    damage(copy)
                except (FileNotFoundError, IndexError):
                    continue  # not applicable to this episode
                label = f"{folder.name}: {name}"
                for mode, verify in (("verify", True), ("no-verify", False)):
                    results[mode][outcome(copy, truth, verify, label)] += 1
    out: dict[str, Any] = {}
    for mode, counts in results.items():
        tried = sum(counts.values())
        out[mode] = {"tried": tried, **{k: counts.get(k, 0) for k in (
            "refused", "same", "cut", "lost", "crashed", "hung")}}  # fmt: skip
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--flips", type=int, default=20, help="random bit flips per file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    figures = run(args.flips, args.seed)
    if args.json:
        print(json.dumps(figures))
        return
    for mode, f in figures.items():
        print(
            f"{mode:>9}: tried {f['tried']}, refused {f['refused']}, same {f['same']}, "
            f"cut {f['cut']}, lost {f['lost']}, crashed {f['crashed']}, hung {f['hung']}"
        )


if __name__ == "__main__":
    main()
