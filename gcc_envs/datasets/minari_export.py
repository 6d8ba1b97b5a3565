"""Export recorded episodes to a Minari dataset (``gcc-gym export DIR --minari ID``).

* Observations: the recorded frames as uint8 arrays, ``Box(0, 255, (H, W, C), uint8)``,
  reset observation first (Minari's ``N + 1`` observations per ``N`` steps), bit-exact: the
  installed Minari's ``jpeg_encoding`` option (lossy, default on where it exists) is turned off.
* Actions, ``actions=``:

  - ``"space"`` — the actions as given, rebuilt as members of the env's action space (needs
    every step's action to be a space member, e.g. a state- or event-mode policy);
  - ``"code"`` — the code each step was given (skill calls, pyautogui lines: what the scripted
    and LMM policies act with) as a ``Text`` action; the recovered env takes it as it is,
    ``env.step(code)``, as the recorded one did;
  - ``"events"`` — the flattened event log: per step a ``Text`` action holding the JSON array
    of the events actually sent, each ``Event.to_dict()`` without its game time ``"t"``. Any
    episode exports this way (code, skills, programs); rebuild a step's input with
    ``Program([event_from_dict(d) for d in json.loads(action)])``;
  - ``"auto"`` (default) — the first of ``"space"``, ``"code"``, ``"events"`` that every step
    fits.

  Whatever the mode, each step's event log (the ``"events"`` text) is kept beside the actions
  as the per-step info ``"events"`` (``"[]"`` for the reset row).
* Compact frames: with ``data_format="arrow"`` (default; Minari's own default, ``hdf5``, needs
  ``h5py``) each episode's Arrow file is rewritten with Arrow's zstd buffer compression (level
  :data:`ZSTD_LEVEL`), which ``minari.load_dataset`` reads as it is; ``benchmarks/
  perf_dataset.py`` measures the export's size against the native dataset's.
* Compact spaces: Minari 0.5 writes a ``Box``'s bounds one per pixel (25.8 MB of
  ``metadata.json`` at 1280x720) and its reader needs that form (Gymnasium 1.x refuses the 0-d
  bounds arrays it would build from scalars). Where the recorded env's spec, made again, has
  the frames' own space (every sim id, any ``obs_size``), the export leaves
  ``"observation_space"`` out of ``metadata.json`` and Minari's reader takes it from
  ``gym.make(env_spec)`` -- so reading such a dataset needs gcc-gym installed, as recovering its
  env does. Otherwise the spaces stay, as JSON without spaces (20.3 MB at 1280x720).
  ``benchmarks/perf_dataset.py --only export`` measures the export against the native dataset.
* ``MINARI_DATASETS_PATH`` says where datasets go. Episodes are added one at a time, so memory
  holds one episode's frames at most.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import shutil
import string
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec

from gcc_envs.datasets.encoding import space_action
from gcc_envs.datasets.reader import Episode, load
from gcc_envs.datasets.replay import make_env
from gcc_envs.errors import DataError, GCCError, MissingExtraError

ACTION_MODES = ("auto", "space", "code", "events")
#: zstd level of the Arrow files: at 1280x720, level 9 is the lowest whose window holds a whole
#: frame, so repeats between frames compress (benchmarks/perf_dataset.py: level 3 writes 2.6x
#: the bytes of level 9 for Stardew, at about the same speed).
ZSTD_LEVEL = 9
#: Minari's metadata file in a dataset's data folder.
METADATA = "metadata.json"


#: Minari 0.5.3 (the last release for Python 3.10) reads some frame shapes back scrambled
#: (a 32x48x3 Box: every frame wrong; 16x16 and 16x48 right); 0.5.4 reads them back exact.
MINARI_MIN = (0, 5, 4)


def _minari() -> Any:
    try:
        import minari
    except ImportError:
        if sys.version_info < (3, 11):
            raise GCCError("Minari export needs Python >= 3.11 (Minari 0.5.4)") from None
        raise MissingExtraError("minari", "dataset") from None
    if minari_too_old(minari.__version__):
        raise GCCError(
            f"Minari {minari.__version__} reads some frame shapes back wrong; Minari export needs "
            f"minari>={'.'.join(map(str, MINARI_MIN))} (Python >= 3.11): pip install -U minari"
        )
    return minari


def minari_too_old(version: str) -> bool:
    """Whether a Minari version is older than :data:`MINARI_MIN`.

    >>> minari_too_old("0.5.3"), minari_too_old("0.5.4"), minari_too_old("0.6.0.dev1")
    (True, False, False)
    """
    parts = tuple(int(p) for p in version.split(".")[:3] if p.isdigit())
    return parts < MINARI_MIN


def event_log_text(events: Sequence[dict[str, Any]]) -> str:
    """The ``"events"`` action encoding of one step's event log."""
    return json.dumps(
        [{k: v for k, v in e.items() if k != "t"} for e in events], separators=(",", ":")
    )


def _stack(space: spaces.Space, members: list[Any]) -> Any:
    """Minari's buffer layout: a dict/tuple of per-field lists instead of a list of dicts."""
    if isinstance(space, spaces.Dict):
        return {k: _stack(sub, [m[k] for m in members]) for k, sub in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(_stack(sub, [m[i] for m in members]) for i, sub in enumerate(space.spaces))
    if isinstance(space, spaces.Text):
        return list(members)
    return np.asarray(members)


def _frame_space(shape: Sequence[int]) -> spaces.Box:
    return spaces.Box(0, 255, tuple(shape), np.uint8)


def _env_spec(meta: dict[str, Any]) -> EnvSpec | None:
    """The recorded env's spec, as made (so ``dataset.recover_environment()`` works)."""
    env_id = meta.get("env_id")
    if not env_id or env_id not in gym.registry or meta.get("make_kwargs_unrecorded"):
        return None
    spec = gym.spec(env_id)
    return dataclasses.replace(
        spec,
        kwargs={**spec.kwargs, **meta.get("make_kwargs", {})},
        max_episode_steps=meta.get("max_episode_steps"),
    )


def _check_alike(episodes: list[Episode]) -> None:
    first = episodes[0]
    for ep in episodes[1:]:
        if ep.env_id != first.env_id or ep.meta["frames"]["shape"] != first.meta["frames"]["shape"]:
            raise DataError(
                f"{ep.path.name} ({ep.env_id}, frames {ep.meta['frames']['shape']}) differs from "
                f"{first.path.name} ({first.env_id}, {first.meta['frames']['shape']}): a Minari "
                "dataset holds one env and one observation space"
            )


def _check_new_id(dataset_id: str) -> Path:
    from minari.dataset.minari_dataset import parse_dataset_id
    from minari.storage import get_dataset_path

    try:
        parse_dataset_id(dataset_id)
    except ValueError as e:
        raise DataError(f"bad Minari dataset id {dataset_id!r}: {e}") from None
    path = Path(get_dataset_path(dataset_id))
    if path.exists():
        raise DataError(
            f"Minari dataset {dataset_id!r} exists already ({path}); pick another name or "
            f"version, or delete it with: minari delete {dataset_id}"
        )
    return path


def _action_plan(episodes: list[Episode], actions: str) -> tuple[str, spaces.Space]:
    """The action encoding to use and the Minari action space it needs."""
    kinds = {s["action_kind"] for ep in episodes for s in ep.steps}
    if actions == "auto":
        actions = "space" if kinds <= {"space"} else "code" if kinds <= {"code"} else "events"
    if actions in ("space", "code") and not kinds <= {actions}:
        raise DataError(
            f"some actions are {sorted(kinds - {actions})}, not {actions}: use actions='events'"
        )
    if actions == "space":
        env = make_env(episodes[0].meta)
        try:
            return actions, env.action_space
        finally:
            env.close()
    texts = [t for ep in episodes for t in _texts(ep, actions)]
    chars = "".join(sorted(set(string.printable).union(*texts)))
    return actions, spaces.Text(max(map(len, texts), default=1) or 1, min_length=0, charset=chars)


def _texts(ep: Episode, mode: str) -> list[str]:
    if mode == "code":
        return [str(a) for a in ep.actions]
    return [event_log_text(e) for e in ep.events]


def _buffer(minari: Any, ep: Episode, mode: str, action_space: spaces.Space) -> Any:
    if mode == "space":
        acts = _stack(action_space, [space_action(action_space, a) for a in ep.actions])
    else:
        acts = _texts(ep, mode)
    return minari.data_collector.episode_buffer.EpisodeBuffer(
        seed=ep.seed,
        observations=ep.frames[:],
        actions=acts,
        rewards=list(ep.rewards),
        terminations=[bool(s["terminated"]) for s in ep.steps],
        truncations=[bool(s["truncated"]) for s in ep.steps],
        infos={"events": ["[]", *(event_log_text(e) for e in ep.events)]},
    )


def _compress(folder: Path, level: int = ZSTD_LEVEL) -> None:
    """Rewrite an episode's Arrow files (``folder/*.arrow``) with zstd-compressed buffers."""
    import pyarrow as pa

    options = pa.ipc.IpcWriteOptions(compression=pa.Codec("zstd", compression_level=level))
    for path in sorted(folder.glob("*.arrow")):
        tmp = path.with_name(f".{path.name}.tmp")
        with pa.memory_map(str(path)) as source, pa.OSFile(str(tmp), "wb") as sink:
            reader = pa.ipc.open_file(source)
            with pa.ipc.new_file(sink, reader.schema, options=options) as writer:
                for i in range(reader.num_record_batches):
                    writer.write_batch(reader.get_batch(i))
        os.replace(tmp, path)


def frame_space_of(spec: EnvSpec) -> spaces.Space | None:
    """The observation space ``gym.make(spec)`` gives (what Minari's reader makes when a
    dataset's ``metadata.json`` names no observation space), or ``None`` if it cannot be made."""
    try:
        env = gym.make(spec, disable_env_checker=True)
    except Exception:  # noqa: BLE001 -- then the dataset keeps its own space
        return None
    try:
        return env.observation_space
    finally:
        env.close()


def _compact_spaces(metadata: Path, recovered: spaces.Space | None = None) -> None:
    """Rewrite the spaces in Minari's ``metadata.json`` as JSON without spaces (the same
    values; Minari's ``update_metadata`` reads the file back, so later updates keep them), and
    leave the observation space out where ``recovered`` (the env spec's own) is the same."""
    from minari.serialization import deserialize_space

    raw = json.loads(metadata.read_text())
    if recovered is not None and deserialize_space(raw["observation_space"]) == recovered:
        del raw["observation_space"]
    for key in ("observation_space", "action_space"):
        if isinstance(raw.get(key), str):
            raw[key] = json.dumps(json.loads(raw[key]), separators=(",", ":"))
    tmp = metadata.with_name(f".{metadata.name}.tmp")
    tmp.write_text(json.dumps(raw))
    os.replace(tmp, metadata)


def export_minari(
    source: str | os.PathLike[str],
    dataset_id: str,
    *,
    actions: str = "auto",
    data_format: str = "arrow",
    description: str | None = None,
    author: str | None = None,
    author_email: str | None = None,
    code_permalink: str | None = None,
) -> Any:
    """Write the episodes at ``source`` as the Minari dataset ``dataset_id``; return it."""
    if actions not in ACTION_MODES:
        raise DataError(f"actions must be one of {ACTION_MODES}, got {actions!r}")
    minari = _minari()
    path = _check_new_id(dataset_id)
    episodes = list(load(source))
    _check_alike(episodes)
    mode, action_space = _action_plan(episodes, actions)
    meta = episodes[0].meta
    extra: dict[str, Any] = {}
    if "jpeg_encoding" in inspect.signature(minari.create_dataset_from_buffers).parameters:
        extra["jpeg_encoding"] = False  # this Minari build JPEG-encodes images unless told not to
    spec = _env_spec(meta)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"`(code_permalink|author|author_email)`")
            dataset = minari.create_dataset_from_buffers(
                dataset_id,
                [_buffer(minari, episodes[0], mode, action_space)],
                env=spec,
                eval_env=spec,
                algorithm_name=", ".join(sorted({str(ep.meta.get("policy")) for ep in episodes})),
                author=author,
                author_email=author_email,
                code_permalink=code_permalink,
                action_space=action_space,
                observation_space=_frame_space(meta["frames"]["shape"]),
                description=description
                or f"gcc-gym recording of {meta.get('env_id')}; actions encoded as {mode!r}",
                data_format=data_format,
                **extra,
            )
            data = Path(dataset.storage.data_path)
            for i, ep in enumerate(episodes):
                if i:
                    dataset.update_dataset_from_buffer([_buffer(minari, ep, mode, action_space)])
                if data_format == "arrow":
                    _compress(data / str(i))
            _compact_spaces(data / METADATA, None if spec is None else frame_space_of(spec))
            dataset.storage.update_metadata({"dataset_size": dataset.storage.get_size()})
    except BaseException:
        shutil.rmtree(path, ignore_errors=True)  # no half-written dataset under this id
        raise
    return dataset
