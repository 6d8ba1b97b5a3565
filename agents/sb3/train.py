"""Train Stable-Baselines3 agents on lockstep GCC simulators (``gcc-gym train``).

The training env is the registered env at ``obs_size`` (84×84 by default) with an action
interface SB3 understands: ``"skills"`` — a ``Discrete`` grid of concrete skill calls
(:class:`wrappers.UseSkillGrid`), or ``"flat"`` — the raw action mode flattened to
``MultiDiscrete`` (:class:`wrappers.FlattenHybridAction`). Workers are ``SubprocVecEnv``
processes; SB3's ``VecFrameStack`` stacks frames when ``frame_stack > 1``. Every
``eval_every`` steps the model is evaluated on fresh seeds (success rate, mean return), logged
to TensorBoard and to ``evaluations.json``; the model and its ``gcc_train.json`` (what
:class:`agents.sb3.SB3Policy` needs to act the same way) are saved in ``out``.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.errors import GCCError, MissingExtraError

ALGOS = ("ppo", "a2c", "dqn")
ACTIONS = ("skills", "flat")


@dataclass(frozen=True)
class TrainConfig:
    """What to train, how long and where to write it."""

    env_id: str
    out: str
    algo: str = "ppo"
    steps: int = 50_000
    envs: int = 2
    obs_size: tuple[int, int] = (84, 84)
    action: str = "skills"
    frame_stack: int = 1
    seed: int = 0
    eval_every: int = 10_000
    eval_episodes: int = 5
    env_kwargs: dict[str, Any] = field(default_factory=dict)
    #: Skill grid for ``action="skills"`` (None: the game's default grid).
    grid: dict[str, dict[str, list[Any]]] | None = None
    algo_kwargs: dict[str, Any] = field(default_factory=dict)
    #: Torch intra-op threads: None picks them for ``envs`` and the cores
    #: (:func:`agents.sb3.threads.torch_threads`; ``OMP_NUM_THREADS`` wins), 0 keeps torch's
    #: default (a thread per core).
    torch_threads: int | None = None

    def __post_init__(self) -> None:
        if self.algo not in ALGOS:
            raise GCCError(f"unknown algo {self.algo!r}; use one of {ALGOS}")
        if self.action not in ACTIONS:
            raise GCCError(f"unknown action interface {self.action!r}; use one of {ACTIONS}")
        if self.algo == "dqn" and self.action != "skills":
            raise GCCError("dqn needs a Discrete action space: use action='skills'")
        if self.steps <= 0 or self.envs <= 0 or self.frame_stack <= 0:
            raise GCCError("steps, envs and frame_stack must be positive")
        if self.eval_every <= 0 or self.eval_episodes <= 0:
            raise GCCError("eval_every and eval_episodes must be positive")
        if self.torch_threads is not None and self.torch_threads < 0:
            raise GCCError("torch_threads must be >= 0 (0: torch's default, None: automatic)")


def _sb3() -> Any:
    try:
        import stable_baselines3
    except ImportError:
        raise MissingExtraError("stable_baselines3", "sb3") from None
    return stable_baselines3


def make_env(cfg: TrainConfig, render_mode: str | None = None) -> gym.Env:
    """One training env: the registered env wrapped with the chosen action interface."""
    import gcc_envs  # noqa: F401  (registers the ids)
    from wrappers import FlattenHybridAction, UseSkillGrid

    env = gym.make(
        cfg.env_id, obs_size=tuple(cfg.obs_size), render_mode=render_mode, **cfg.env_kwargs
    )
    if cfg.action == "skills":
        grid = None if cfg.grid is None else {k: dict(v) for k, v in cfg.grid.items()}
        return UseSkillGrid(env, grid=grid)
    return FlattenHybridAction(env)


class _EnvFactory:
    """Picklable env constructor for SubprocVecEnv workers."""

    def __init__(self, cfg: TrainConfig) -> None:
        self.cfg = cfg

    def __call__(self) -> gym.Env:
        if self.cfg.envs > 1 and self.cfg.torch_threads != 0:  # in a worker process
            from agents.sb3.threads import one_thread_per_worker

            one_thread_per_worker()
        return make_env(self.cfg)


def evaluate_model(
    model: Any, cfg: TrainConfig, seeds: list[int], deterministic: bool = False
) -> dict[str, float]:
    """Success rate, mean return and mean progress of ``model`` on fresh episodes.

    ``model=None`` acts uniformly at random in the same action interface (the baseline).
    PPO and A2C policies are stochastic: sampling is how they act, so that is the default.
    """
    from agents.sb3.policy import FrameStacker

    env = make_env(cfg)
    successes, returns, progress = [], [], []
    try:
        for seed in seeds:
            obs, info = env.reset(seed=seed)
            env.action_space.seed(seed)
            stack = FrameStacker(cfg.frame_stack)
            done, ret = False, 0.0
            while not done:
                if model is None:
                    action = env.action_space.sample()
                else:
                    action, _ = model.predict(stack.push(obs), deterministic=deterministic)
                obs, r, term, trunc, info = env.step(action)
                ret += float(r)
                done = term or trunc
            successes.append(bool(info.get("success")))
            returns.append(ret)
            progress.append(float(info.get("progress", 0.0)))
    finally:
        env.close()
    return {
        "success_rate": float(np.mean(successes)),
        "mean_return": float(np.mean(returns)),
        "mean_progress": float(np.mean(progress)),
    }


def train(cfg: TrainConfig, progress: bool = True) -> Path:
    """Train, evaluate periodically, save; return the model path."""
    sb3 = _sb3()
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv, VecFrameStack

    from agents.sb3.threads import set_torch_threads, torch_threads

    # One env runs in this process between updates; more run in worker processes beside it.
    set_torch_threads(cfg.torch_threads, auto=torch_threads(cfg.envs if cfg.envs > 1 else 0))
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    vec_cls = SubprocVecEnv if cfg.envs > 1 else None
    venv = make_vec_env(
        _EnvFactory(cfg),
        n_envs=cfg.envs,
        seed=cfg.seed,
        vec_env_cls=vec_cls,
    )
    if cfg.frame_stack > 1:
        venv = VecFrameStack(venv, cfg.frame_stack)
    algo_cls = {"ppo": sb3.PPO, "a2c": sb3.A2C, "dqn": sb3.DQN}[cfg.algo]
    defaults: dict[str, Any] = {
        "ppo": {
            "n_steps": 128,
            "batch_size": 64,
            "n_epochs": 4,
            "learning_rate": 2.5e-4,
            "ent_coef": 0.01,
        },
        "a2c": {"n_steps": 16},
        "dqn": {"buffer_size": 20_000, "learning_starts": 1000},
    }[cfg.algo]
    tb = None
    try:
        import tensorboard  # noqa: F401

        tb = str(out / "tb")
    except ImportError:
        pass
    model = algo_cls(
        "CnnPolicy",
        venv,
        seed=cfg.seed,
        verbose=0,
        tensorboard_log=tb,
        **{**defaults, **cfg.algo_kwargs},
    )
    history: list[dict[str, float]] = []
    eval_seeds = [10_000 + i for i in range(cfg.eval_episodes)]

    class _Eval(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = cfg.eval_every  # the random baseline is the row before

        def _on_step(self) -> bool:
            if self.num_timesteps >= self.next_eval:
                self.next_eval += cfg.eval_every
                row = {
                    "timesteps": int(self.num_timesteps),
                    "wall_s": time.perf_counter() - t0,
                    **evaluate_model(self.model, cfg, eval_seeds),
                }
                history.append(row)
                self.logger.record("eval/success_rate", row["success_rate"])
                self.logger.record("eval/mean_return", row["mean_return"])
                (out / "evaluations.json").write_text(json.dumps(history, indent=2))
            return True

    t0 = time.perf_counter()
    baseline = evaluate_model(None, cfg, eval_seeds)
    (out / "random_baseline.json").write_text(json.dumps(baseline, indent=2))
    model.learn(total_timesteps=cfg.steps, callback=_Eval(), progress_bar=progress)
    if not history or history[-1]["timesteps"] != model.num_timesteps:  # the final model
        history.append(
            {
                "timesteps": int(model.num_timesteps),
                "wall_s": time.perf_counter() - t0,
                **evaluate_model(model, cfg, eval_seeds),
            }
        )
    (out / "evaluations.json").write_text(json.dumps(history, indent=2))
    path = out / "model.zip"
    model.save(path)
    cfg_dict = asdict(cfg)
    (out / "gcc_train.json").write_text(json.dumps(cfg_dict, indent=2))
    venv.close()
    return path
