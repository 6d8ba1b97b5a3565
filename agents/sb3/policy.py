"""``SB3Policy``: a trained Stable-Baselines3 model acting through the same wrappers it trained with."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.errors import GCCError, MissingExtraError


class FrameStacker:
    """Stacks the last ``n`` HxWxC frames on the channel axis, as SB3's VecFrameStack does."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.frames: deque[np.ndarray] = deque(maxlen=n)

    def push(self, obs: np.ndarray) -> np.ndarray:
        if self.n == 1:
            return obs
        if not self.frames:
            self.frames.extend(np.zeros_like(obs) for _ in range(self.n))
        self.frames.append(obs)
        return np.concatenate(list(self.frames), axis=-1)


def train_meta(model_path: str | Path) -> dict[str, Any]:
    """The ``gcc_train.json`` beside a model: how it was trained (obs size, action interface)."""
    meta_path = Path(model_path).with_name("gcc_train.json")
    if not meta_path.exists():
        raise GCCError(f"need {meta_path} beside the model (gcc-gym train writes both)")
    try:
        return dict(json.loads(meta_path.read_text()))
    except (OSError, ValueError) as e:
        raise GCCError(f"{meta_path}: cannot read it: {e}") from None


class SB3Policy:
    """Loads ``model.zip`` and its ``gcc_train.json`` and acts on the raw GCC env.

    The env passed in is the plain registered env (at the training ``obs_size``); the policy
    maps the model's ``Discrete``/``MultiDiscrete`` output through the training action wrapper
    (a skill call as code text, or the env's own action dict). Actions are sampled from the
    policy unless ``deterministic=True`` (PPO/A2C policies are stochastic by training).

    One frame at a time gains nothing from more torch threads, and episodes often run side by
    side (``gcc-gym bench``): by default (``torch_threads=None``) torch's threads in this
    process are set to one unless ``OMP_NUM_THREADS`` is set; ``0`` leaves torch as it is, a
    positive number sets that many.
    """

    name = "sb3"

    def __init__(
        self,
        env: gym.Env,
        model_path: str | Path,
        deterministic: bool = False,
        seed: int | None = None,
        torch_threads: int | None = None,
    ) -> None:
        try:
            import stable_baselines3 as sb3
        except ImportError:
            raise MissingExtraError("stable_baselines3", "sb3") from None
        from agents.sb3.threads import set_torch_threads
        from wrappers import FlattenHybridAction, UseSkillGrid

        path = Path(model_path)
        self.meta = train_meta(path)
        if not path.exists():
            raise GCCError(f"need {path} beside {path.with_name('gcc_train.json')}")
        set_torch_threads(torch_threads, auto=1)
        algo = {"ppo": sb3.PPO, "a2c": sb3.A2C, "dqn": sb3.DQN}[self.meta["algo"]]
        self.model = algo.load(path, device="cpu")
        shape = env.observation_space.shape
        want = (*self.meta["obs_size"], 3)
        if shape != want:
            raise GCCError(
                f"model was trained on {want} frames, env gives {shape}: "
                f"make the env with obs_size={tuple(self.meta['obs_size'])} (gcc-gym run: leave "
                "out --obs-size, the model's gcc_train.json gives it)"
            )
        if self.meta["action"] == "skills":  # the grid the model was trained on
            self._mapper: gym.ActionWrapper = UseSkillGrid(env, grid=self.meta.get("grid"))
        else:
            self._mapper = FlattenHybridAction(env)
        self.deterministic = deterministic
        self._stack = FrameStacker(int(self.meta.get("frame_stack", 1)))

    def reset(self, info: dict[str, Any]) -> None:
        self._stack = FrameStacker(self._stack.n)

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        action, _ = self.model.predict(self._stack.push(obs), deterministic=self.deterministic)
        return self._mapper.action(action)

    def close(self) -> None:
        pass
