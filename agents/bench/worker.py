"""Running one planned episode in whatever process holds it (the driver or a Ray worker).

Each episode makes a fresh env and a fresh policy seeded with the episode's seed, so an
episode's result does not depend on which worker ran it or what ran there before; a desktop
env starts its own X display and home folder, so workers never share a screen.
"""

from __future__ import annotations

import os
import socket
import time
import traceback
from pathlib import Path
from typing import Any

from agents.bench.plan import Episode


def where() -> dict[str, Any]:
    """The process running this: host, pid and, inside Ray, its node id."""
    node = None
    try:
        import ray

        if ray.is_initialized():
            node = ray.get_runtime_context().get_node_id()
    except ImportError:
        pass
    return {"host": socket.gethostname(), "pid": os.getpid(), "node_id": node}


def policy_kwargs(policy: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """TOML tables turned into the config objects a policy takes (Cradle's ``config``/``llm``)."""
    kwargs = dict(kwargs)
    if policy == "cradle":
        from agents.cradle import CradleConfig
        from agents.cradle.llm import LLMConfig

        for key, cls in (("config", CradleConfig), ("llm", LLMConfig)):
            if isinstance(kwargs.get(key), dict):
                kwargs[key] = cls(**_tuples(kwargs[key]))
    return kwargs


def _tuples(value: Any) -> Any:
    """TOML arrays as tuples (``obs_size = [90, 160]`` → ``(90, 160)``), recursively."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


class _Watch:
    """Notes whether the env's reset returned, and what it said about the task (OSWorld's
    ``unsupported`` and ``setup_error``), as the episode runs."""

    KEYS = ("unsupported", "unsupported_kind", "setup_error")

    def __init__(self) -> None:
        self.started = False
        self.said: dict[str, Any] = {}

    def wrap(self, env: Any) -> Any:
        import gymnasium as gym

        watch = self

        class Watched(gym.Wrapper):
            def reset(self, **kwargs: Any) -> Any:
                obs, info = self.env.reset(**kwargs)
                watch.said = {k: str(info[k]) for k in watch.KEYS if k in info}
                watch.started = True
                return obs, info

        return Watched(env)


def run_one(episode: Episode, out_dir: str | None = None) -> dict[str, Any]:
    """Run ``episode``; the result part of its record (``status`` ok or error, never raises).

    An exception from the env or the policy is recorded with its traceback and its class
    (``refused``: raised before the env's reset returned; ``crashed``: after) and the suite
    goes on; a worker that dies instead is the driver's business (it retries the episode once).
    """
    import gymnasium as gym

    import gcc_envs  # noqa: F401  (registers the ids)
    from agents import make_policy
    from agents.evaluate import make_eval_env, run_episode

    t0 = time.perf_counter()
    started = time.time()
    env: gym.Env | None = None
    policy: Any = None
    result: dict[str, Any] = {}
    watch = _Watch()
    try:
        video_dir = Path(out_dir) / "videos" if episode.video and out_dir else None
        prefix = episode.key.replace("/", "-").replace("|", "_").replace(":", "-")
        env = make_eval_env(
            episode.env_id, episode.policy, _tuples(dict(episode.env_kwargs)), video_dir, prefix
        )
        policy = make_policy(
            episode.policy,
            env,
            **policy_kwargs(episode.policy, _tuples(dict(episode.policy_kwargs))),
        )
        rec = run_episode(watch.wrap(env), policy, episode.seed).to_json()
        if video_dir is not None:
            rec["video"] = str(Path("videos") / f"{prefix}-episode-0.mp4")
        result.update(status="ok", error=None, **rec, **watch.said)
    except Exception as e:  # noqa: BLE001 - recorded with its traceback, the suite goes on
        result.update(
            status="error",
            error_class="crashed" if watch.started else "refused",
            error=f"{type(e).__name__}: {e}",
            traceback=traceback.format_exc(limit=20),
            **watch.said,
        )
    finally:
        for part in (policy, env):
            if part is not None:
                try:
                    part.close()
                except Exception as e:  # noqa: BLE001
                    result.setdefault("close_error", f"{type(e).__name__}: {e}")
    result["episode_wall_s"] = round(time.perf_counter() - t0, 3)
    result["started_at"] = started
    result["worker"] = where()
    return result


class EpisodeActor:
    """A worker process that runs episodes one at a time (a Ray actor once wrapped)."""

    def where(self) -> dict[str, Any]:
        return where()

    def run(self, episode: Episode, out_dir: str | None) -> dict[str, Any]:
        return run_one(episode, out_dir)
