"""``meta.json`` of an episode: where it came from (env, kwargs, seed, policy, versions).

Written when the episode begins (``"complete": false``) and rewritten when it ends with the
outcome (``"complete": true`` and ``"result"``); both writes are atomic.
"""

from __future__ import annotations

import json
import os
import platform
import time
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.datasets.checksums import meta_digest
from gcc_envs.datasets.encoding import jsonable
from gcc_envs.errors import DataError

FORMAT = "gcc-gym-trajectory"
#: 2: checksums (``checksums``) in meta and rows; version 1 episodes are read without them.
#: 3: frames in one zstd stream (``frame_stream``; the writer stamps 3 on such episodes only).
FORMAT_VERSION = 2
#: The newest format this gcc-gym reads.
READS_VERSION = 3
META = "meta.json"
STEPS_PARQUET = "steps.parquet"
STEPS_JSONL = "steps.jsonl"
FRAMES = "frames"


def versions() -> dict[str, str | None]:
    """Versions of the packages that shape the data."""

    def dist(name: str) -> str | None:
        try:
            return importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            return None

    import cv2

    return {
        "gcc-gym": dist("gcc-gym"),
        "gymnasium": gym.__version__,
        "numpy": np.__version__,
        "opencv": cv2.__version__,
        "pyarrow": dist("pyarrow"),
        "python": platform.python_version(),
    }


def _json_ok(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def env_description(env: gym.Env) -> dict[str, Any]:
    """Env id, make kwargs, step limit, timing mode, wrappers below the recorder, versions.

    Computed once per recorder: it is the part of ``meta.json`` every episode shares.
    """
    base = env.unwrapped
    spec = env.spec or base.spec  # the outer spec carries TimeLimit's max_episode_steps
    kwargs: dict[str, Any] = {}
    unrecorded: dict[str, str] = {}
    for k, v in (spec.kwargs if spec else {}).items():
        v = jsonable(v) if isinstance(v, (tuple, np.ndarray, np.generic)) else v
        if _json_ok(v):
            kwargs[k] = v
        else:
            unrecorded[k] = repr(v)
    wrappers = []
    e = env
    while isinstance(e, gym.Wrapper):
        wrappers.append(type(e).__name__)
        e = e.env
    mode = getattr(base, "time_mode", None)
    return {
        "env_id": spec.id if spec else None,
        "env_class": f"{type(base).__module__}.{type(base).__qualname__}",
        "make_kwargs": kwargs,
        "make_kwargs_unrecorded": unrecorded,
        "max_episode_steps": spec.max_episode_steps if spec else None,
        "time_mode": getattr(mode, "value", mode),
        "wrappers": wrappers,
        "observation_space": str(env.observation_space),
        "action_space": str(env.action_space),
        "versions": versions(),
    }


def episode_meta(
    env_info: dict[str, Any],
    *,
    seed: int | None,
    rng_state: dict[str, Any] | None,
    options: Any,
    policy: str | None,
    info_keys: list[str],
    frame_shape: tuple[int, ...],
    instruction: Any = None,
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **env_info,
        "episode_index": None,  # set by the writer
        "seed": seed,
        "rng_state": rng_state,
        "options": jsonable(options),
        "policy": policy,
        "instruction": jsonable(instruction),
        "info_keys": list(info_keys),
        "frames": {"encoding": "png", "dir": FRAMES, "shape": list(frame_shape)},
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "complete": False,
        "result": None,
    }


def write_meta(folder: Path, meta: dict[str, Any]) -> None:
    """Write ``meta.json`` atomically, sealed with ``meta_b2``."""
    meta = {**meta, "meta_b2": meta_digest(meta)}
    tmp = folder / f".{META}.tmp"
    tmp.write_text(json.dumps(meta, indent=1))
    os.replace(tmp, folder / META)


def read_meta(folder: Path, verify: bool = True) -> dict[str, Any]:
    """``meta.json`` of an episode folder, its seal checked (``verify``) and its shape validated;
    anything wrong is a :class:`DataError` naming the file."""
    path = folder / META
    try:
        meta = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise DataError(f"{folder}: no {META}; not an episode folder") from None
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise DataError(f"{path}: not valid JSON ({type(e).__name__}: {e})") from None
    if not isinstance(meta, dict):
        raise DataError(f"{path}: not a JSON object")
    if meta.get("format") != FORMAT:
        raise DataError(f"{path}: format is {meta.get('format')!r}, expected {FORMAT!r}")
    version = meta.get("format_version", 0)
    if isinstance(version, bool) or not isinstance(version, int):
        raise DataError(f"{path}: format_version is {version!r}")
    if version > READS_VERSION:
        raise DataError(
            f"{path}: format version {meta['format_version']} is newer than this gcc-gym "
            f"reads ({READS_VERSION}); upgrade gcc-gym"
        )
    if verify and version >= 2 and meta.get("meta_b2") != meta_digest(meta):
        raise DataError(f"{path}: meta_b2 does not match its contents (the file was changed)")
    _check_meta(path, meta)
    return meta


def _check_meta(path: Path, meta: dict[str, Any]) -> None:
    frames = meta.get("frames")
    shape = frames.get("shape") if isinstance(frames, dict) else None
    if not (
        isinstance(shape, list)
        and len(shape) in (2, 3)
        and all(type(v) is int and v > 0 for v in shape)
        and (len(shape) == 2 or shape[2] in (1, 3, 4))
    ):
        raise DataError(f"{path}: frames.shape is {shape!r}, not an image shape")
    keys = meta.get("info_keys", [])
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise DataError(f"{path}: info_keys is {keys!r}, not a list of names")
    if not isinstance(meta.get("complete", False), bool):
        raise DataError(f"{path}: complete is {meta.get('complete')!r}")
    if meta.get("format_version", 0) >= 2 and meta.get("complete"):
        n, files = meta.get("n_steps"), meta.get("files")
        if type(n) is not int or n < 0 or not isinstance(files, dict):
            raise DataError(f"{path}: a complete episode without n_steps and files")
