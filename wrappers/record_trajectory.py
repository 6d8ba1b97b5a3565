"""``RecordTrajectory``: write every episode the env plays to a dataset folder (DESIGN §8).

>>> import tempfile, gymnasium as gym, gcc_envs
>>> from gcc_envs.datasets import load
>>> out = tempfile.mkdtemp()
>>> env = RecordTrajectory(gym.make("GCC/Stardew-Shopping", obs_size=(72, 128)), out, "demo")
>>> _ = env.reset(seed=3)
>>> _ = env.step("move_down(duration=1.0)")
>>> env.close()
>>> [(ep.seed, len(ep), len(ep.frames), ep.actions[0]) for ep in load(out)]
[(3, 1, 2, 'move_down(duration=1.0)')]
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gcc_envs.datasets.encoding import jsonable
from gcc_envs.datasets.frames import check_frame_shape
from gcc_envs.datasets.meta import env_description, episode_meta
from gcc_envs.datasets.table import CORE_COLUMNS, step_row
from gcc_envs.datasets.writer import DatasetWriter
from gcc_envs.errors import GCCError

#: Info fields stored as columns of the steps table by default.
DEFAULT_INFO_KEYS = (
    "progress",
    "success",
    "last_action_error",
    "invalid_actions",
    "t_game",
    "held_keys",
)


class RecordTrajectory(gym.Wrapper):
    """Record observations, actions, sent input events, rewards and infos, one folder per episode.

    Each ``reset`` opens ``out_dir/episode-NNNNNN-seed-S/`` (numbering continues after the
    episodes already there) with ``meta.json`` (env id and make kwargs, seed, policy, versions)
    and ``frames/000000.png``; each ``step`` adds a PNG frame and a row of the steps table,
    flushed at once; the episode's end (or the next ``reset``, or ``close``) writes
    ``steps.parquet``. Read it back with :func:`gcc_envs.datasets.load`; re-run a lockstep episode
    with :func:`gcc_envs.datasets.replay`. The format knows nothing of the backend, so desktop
    envs record the same way.

    The observation at this wrapper's level is what gets recorded, so it must be an image
    (``Box`` of uint8, ``(H, W)`` or ``(H, W, 1|3|4)``); put this wrapper below wrappers that
    stack or dict-ify observations. ``reset(seed=None)`` records the env's generator state so
    the episode can still be replayed.

    Files are written by a writer process (started here, stopped by ``close``), so PNG
    encoding runs on another core while the env steps; a recorder killed with SIGKILL loses no
    step it returned. ``background=False`` writes in this process instead (same files, no
    extra process, slower). ``fsync=True`` makes each row survive power loss, at a cost per step.
    ``frames`` says how frames are stored: ``"zstd"`` (one compressed stream per episode, the
    fast default) or ``"png"`` (a file per frame); see :class:`gcc_envs.datasets.DatasetWriter`.
    """

    def __init__(
        self,
        env: gym.Env,
        out_dir: str | os.PathLike[str],
        policy_name: str | None = None,
        info_keys: Sequence[str] = DEFAULT_INFO_KEYS,
        *,
        background: bool = True,
        fsync: bool = False,
        frames: str = "zstd",
    ) -> None:
        super().__init__(env)
        space = env.observation_space
        if not (isinstance(space, spaces.Box) and space.dtype == np.uint8):
            raise GCCError(
                f"RecordTrajectory records image observations (a uint8 Box); got {space}. "
                "Wrap the env below the wrapper that changes the observation."
            )
        check_frame_shape(space.shape)
        clash = sorted(set(info_keys) & set(CORE_COLUMNS))
        if clash:
            raise GCCError(f"info_keys {clash} clash with the steps table's own columns")
        self.policy_name = policy_name
        self.info_keys = tuple(info_keys)
        self._env_info = env_description(env)
        self._writer = DatasetWriter(out_dir, background=background, fsync=fsync, frames=frames)
        #: The folder of the episode being (or last) recorded.
        self.episode_dir: Path | None = None
        self._step = 0
        self._return = 0.0
        self._last_info: dict[str, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if self._writer.in_episode:
            self._writer.end_episode(self._result(False, False))
        rng_state = None
        if seed is None:  # the env goes on with its generator: keep its state for replay
            rng_state = jsonable(self.env.unwrapped.np_random.bit_generator.state)
        obs, info = self.env.reset(seed=seed, options=options)
        meta = episode_meta(
            self._env_info,
            seed=seed,
            rng_state=rng_state,
            options=options,
            policy=self.policy_name,
            info_keys=list(self.info_keys),
            frame_shape=tuple(np.shape(obs)),
            instruction=info.get("instruction"),
        )
        self.episode_dir = self._writer.begin_episode(meta, seed, np.asarray(obs))
        self._step, self._return, self._last_info = 0, 0.0, info
        return obs, info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        t0 = time.perf_counter()
        obs, reward, terminated, truncated, info = self.env.step(action)
        wall = info.get("t_wall")
        if wall is None:
            wall = getattr(self.env.unwrapped, "last_wall_s", None)
        if wall is None:
            wall = time.perf_counter() - t0
        if self._writer.in_episode:
            row = step_row(
                self._step,
                action,
                float(reward),
                terminated,
                truncated,
                info,
                wall,
                time.time(),
                self.info_keys,
            )
            self._writer.add_step(row, np.asarray(obs))
            self._step += 1
            self._return += float(reward)
            self._last_info = info
            if terminated or truncated:
                self._writer.end_episode(self._result(terminated, truncated))
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        try:
            self._writer.close(self._result(False, False))
        finally:
            super().close()

    def _result(self, terminated: bool, truncated: bool) -> dict[str, Any]:
        info = self._last_info
        return {
            "steps": self._step,
            "return": self._return,
            "terminated": bool(terminated),
            "truncated": bool(truncated),
            "success": jsonable(info.get("success")),
            "failure": jsonable(info.get("failure")),
            "metrics": jsonable(info.get("metrics")),
        }
