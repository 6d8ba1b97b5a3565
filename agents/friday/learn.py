"""Self-directed learning (``gcc-gym learn``): a curriculum for an objective, practised in the
env's episodes, keeping the tools the critic accepts.

Each practice task is one episode. On ``GCC/OSWorld`` (an env that takes a task at reset) the
task is an OSWorld task dict: its instruction, no setup, and — when the curriculum gave a
check — an evaluator that runs the check in the episode's sandbox, so the env reports a
verdict (``info["success"]``) of its own. Elsewhere the practice instruction replaces the
env's for the agent and the env's verdict (about its own task) is not recorded. The log has,
per episode, the critic's verdict beside the env's, and the learning's calls and tokens.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from agents.friday.curriculum import PracticeTask, propose
from agents.friday.policy import FridayPolicy

log = logging.getLogger(__name__)


@dataclass
class EpisodeLog:
    episode: int
    task: str
    checked: bool
    critic_success: bool
    #: the env's own verdict on the practice task (None: the env has none for it)
    env_success: bool | None
    steps: int
    tools_kept: list[str]
    subtasks: dict[str, str]
    usage: dict[str, Any]
    attempts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def agree(self) -> bool | None:
        return None if self.env_success is None else self.critic_success == self.env_success


@dataclass
class LearnReport:
    objective: str
    curriculum: list[PracticeTask]
    curriculum_usage: dict[str, Any]
    episodes: list[EpisodeLog]

    def critic_accuracy(self) -> tuple[int, int]:
        """(agreements, episodes with an env verdict)."""
        judged = [e for e in self.episodes if e.agree is not None]
        return sum(bool(e.agree) for e in judged), len(judged)

    def to_json(self) -> dict[str, Any]:
        agree, judged = self.critic_accuracy()
        return {
            "objective": self.objective,
            "curriculum": [asdict(t) for t in self.curriculum],
            "curriculum_usage": self.curriculum_usage,
            "episodes": [{**asdict(e), "agree": e.agree} for e in self.episodes],
            "critic_accuracy": {"agree": agree, "judged": judged},
        }


def takes_tasks(env: gym.Env) -> bool:
    """Whether ``env`` takes an OSWorld task dict at reset (``GCC/OSWorld``)."""
    return hasattr(env.unwrapped, "osworld_task")


def osworld_task(task: PracticeTask, i: int) -> dict[str, Any]:
    """The OSWorld task dict of a practice task (evaluated by its check, if it has one)."""
    if task.check is None or task.expect is None:
        evaluator: dict[str, Any] = {"func": "infeasible"}  # never read: the log ignores it
    else:
        evaluator = {"func": "check_include_exclude",
                     "result": {"type": "vm_command_line", "command": task.check, "shell": True},
                     "expected": {"type": "rule", "rules": {"include": [task.expect],
                                                            "exclude": []}}}  # fmt: skip
    return {"id": f"friday-practice-{i}", "instruction": task.instruction, "config": [],
            "related_apps": [], "evaluator": evaluator}  # fmt: skip


def run_practice(
    env: gym.Env, policy: FridayPolicy, task: PracticeTask, i: int, seed: int | None
) -> EpisodeLog:
    """One practice episode of ``task``."""
    tasks = takes_tasks(env)
    options = {"task": osworld_task(task, i)} if tasks else None
    obs, info = env.reset(seed=seed, options=options)
    info = {**info, "instruction": task.instruction}
    policy.reset(info, episode=f"learn-{i}")
    steps, done = 0, False
    while not done:
        obs, _, terminated, truncated, info = env.step(policy.act(obs, info))
        steps += 1
        done = terminated or truncated
    report = policy.episode_info()
    checked = tasks and task.check is not None
    env_success = bool(info.get("success", False)) if checked and "success" in info else None
    usage = {k: report[k] for k in ("calls", "failed_calls", "prompt_tokens",
                                    "completion_tokens", "cost_usd")}  # fmt: skip
    usage["by_module"] = report["by_module"]
    return EpisodeLog(i, task.instruction, checked, bool(report["critic_success"]), env_success,
                      steps, list(report["tools_kept"]), dict(report["subtasks"]), usage,
                      list(report["attempts"]))  # fmt: skip


def learn(
    env: gym.Env,
    policy: FridayPolicy,
    objective: str,
    episodes: int,
    seed: int | None = 0,
    log_path: Path | None = None,
    on_episode: Callable[[EpisodeLog], None] | None = None,
) -> LearnReport:
    """Ask for a curriculum of ``episodes`` tasks for ``objective`` and practise them in order
    (again from the first if the model gave fewer); with ``log_path`` write one JSON line per
    episode there as it ends, and the whole report beside it (``report.json``)."""
    if policy.store.readonly:
        log.warning("the store is read-only: practice keeps no tools")
    tools = "\n".join(f"- {t.name}: {t.description}" for t in policy.store) or "(none yet)"
    curriculum, usage = propose(policy.client, objective, episodes, tools, takes_tasks(env),
                                policy.config.max_reasks)  # fmt: skip
    report = LearnReport(objective, curriculum, usage.to_json(), [])
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_path.write_text("")
    for i in range(episodes):
        task = curriculum[i % len(curriculum)]
        ep = run_practice(env, policy, task, i, None if seed is None else seed + i)
        report.episodes.append(ep)
        if log_path is not None:
            with log_path.open("a") as f:
                f.write(json.dumps({**asdict(ep), "agree": ep.agree}) + "\n")
        if on_episode is not None:
            on_episode(ep)
    if log_path is not None:
        (log_path.parent / "report.json").write_text(json.dumps(report.to_json(), indent=2))
    return report
