"""OSWorld's own client code, for comparison in tests only (never a dependency of gcc-gym).

PyPI's ``desktop-env`` 1.0.2 wheel holds OSWorld's ``mm_agents`` (``PromptAgent``, and
``linearize_accessibility_tree`` with the filter ``heuristic_retrieve.filter_nodes``) but not its
runner ``lib_run_single.py`` nor its VM server. Its pins (gymnasium 0.28, numpy<2, torch 2.5)
do not fit this project, so it is not installed: ``.ci/run`` downloads the wheel alone
(``pip download desktop-env==1.0.2 --no-deps``) into :func:`wheel_dir`, and :func:`load_agent`
imports ``mm_agents.agent`` from the wheel file. What that module imports but never calls
here is stood in for while it loads, when missing: the model providers' SDKs (dashscope,
google-generativeai, groq), ``backoff`` (retries) and ``dotenv``; so is ``tiktoken``, whose
tokenizer data is a download from outside PyPI: ``trim_accessibility_tree`` then counts
characters, not tokens. ``requests`` (its HTTP client) and ``openai`` are the real ones.

:func:`run_single_example` restates OSWorld's ``lib_run_single.run_single_example``.
"""

from __future__ import annotations

import datetime
import importlib
import importlib.util
import json
import logging
import os
import sys
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

WHEEL = "desktop_env-1.0.2-py3-none-any.whl"
PIN = "desktop-env==1.0.2"

log = logging.getLogger("desktopenv.experiment")


def wheel_dir() -> Path:
    """Where ``.ci/run`` puts the wheel (``GCC_OSWORLD_UPSTREAM`` names another folder)."""
    if os.environ.get("GCC_OSWORLD_UPSTREAM"):
        return Path(os.environ["GCC_OSWORLD_UPSTREAM"])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "gcc-gym" / "osworld-upstream"


def missing() -> str | None:
    """Why OSWorld's code cannot be loaded here (a skip reason), or None."""
    if not (wheel_dir() / WHEEL).is_file():
        return (f"OSWorld's agent code is not here: pip download {PIN} --no-deps "
                f"-d {wheel_dir()} (.ci/run does)")  # fmt: skip
    for module in ("requests", "openai", "PIL"):
        try:
            importlib.import_module(module)
        except ImportError:
            return f"OSWorld's mm_agents.agent needs {module} (pip install '.[dev]')"
    return None


class _Chars:
    """``tiktoken``'s encoding, by characters."""

    def encode(self, text: str) -> list[str]:
        return list(text)

    def decode(self, tokens: list[str]) -> str:
        return "".join(tokens)


def _stand_ins() -> dict[str, types.ModuleType]:
    def module(name: str, **attrs: Any) -> types.ModuleType:
        m = types.ModuleType(name)
        m.__dict__.update(attrs)
        return m

    errors = {n: type(n, (Exception,), {}) for n in
              ("InvalidArgument", "ResourceExhausted", "InternalServerError", "BadRequest")}  # fmt: skip
    genai = module("google.generativeai")
    api_core = module("google.api_core", exceptions=module("google.api_core.exceptions", **errors))
    return {
        "backoff": module("backoff", on_exception=lambda *a, **k: lambda f: f, constant=None),
        "dashscope": module("dashscope"),
        "google": module("google", generativeai=genai, api_core=api_core),
        "google.generativeai": genai,
        "google.api_core": api_core,
        "google.api_core.exceptions": api_core.exceptions,
        "groq": module("groq", Groq=object),
        "dotenv": module("dotenv", load_dotenv=lambda *a, **k: False),
    }


def _found(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@contextmanager
def load_agent() -> Iterator[types.ModuleType]:
    """OSWorld's ``mm_agents.agent``, imported from the wheel; gone again afterwards."""
    why = missing()
    if why is not None:
        raise RuntimeError(why)
    before = set(sys.modules)
    path = str(wheel_dir() / WHEEL)
    sys.path.insert(0, path)
    added = []
    for name, stand_in in _stand_ins().items():  # parents first
        if name in sys.modules or _found(name):
            continue
        sys.modules[name] = stand_in
        added.append(name)
    sys.modules["tiktoken"] = types.ModuleType("tiktoken")
    sys.modules["tiktoken"].encoding_for_model = lambda model: _Chars()  # type: ignore[attr-defined]
    try:
        yield importlib.import_module("mm_agents.agent")
    finally:
        sys.path.remove(path)
        for name in set(sys.modules) - before:
            if name.startswith("mm_agents") or name in added or name == "tiktoken":
                del sys.modules[name]


def run_single_example(
    agent: Any, env: Any, example: dict[str, Any], max_steps: int, instruction: str, args: Any,
    example_result_dir: str, scores: list[float], *, ready_s: float = 60.0,
    settle_s: float = 20.0,
) -> None:  # fmt: skip
    """OSWorld's ``lib_run_single.run_single_example``, restated (the file is not on PyPI).

    Two changes: its fixed waits (60 s after ``reset``, 20 s before ``evaluate``) are
    ``ready_s`` and ``settle_s``; and the agent's reset gets ``vm_ip`` where it takes it (the
    runner's current version passes it; the 1.0.2 wheel's ``PromptAgent.reset`` takes none).
    """
    runtime_logger = logging.getLogger(f"desktopenv.example.{example['id']}")
    runtime_logger.setLevel(logging.DEBUG)
    runtime_logger.addHandler(logging.FileHandler(os.path.join(example_result_dir, "runtime.log")))
    env.reset(task_config=example)
    try:
        agent.reset(runtime_logger, vm_ip=env.vm_ip)
    except TypeError:
        agent.reset(runtime_logger)
    time.sleep(ready_s)  # OSWorld: "Wait for the environment to be ready"
    obs = env._get_obs()
    done = False
    step_idx = 0
    env.controller.start_recording()
    while not done and step_idx < max_steps:
        response, actions = agent.predict(instruction, obs)
        for action in actions:
            action_timestamp = datetime.datetime.now().strftime("%Y%m%d@%H%M%S%f")
            log.info("Step %d: %s", step_idx + 1, action)
            obs, reward, done, info = env.step(action, args.sleep_after_execution)
            shot = f"step_{step_idx + 1}_{action_timestamp}.png"
            with open(os.path.join(example_result_dir, shot), "wb") as f:
                f.write(obs["screenshot"])
            with open(os.path.join(example_result_dir, "traj.jsonl"), "a") as f:
                f.write(json.dumps({"step_num": step_idx + 1, "action_timestamp": action_timestamp,
                                    "action": action, "response": response, "reward": reward,
                                    "done": done, "info": info, "screenshot_file": shot}))  # fmt: skip
                f.write("\n")
            if done:
                break
        step_idx += 1
    time.sleep(settle_s)  # OSWorld: "Wait for the environment to settle"
    result = env.evaluate()
    scores.append(result)
    with open(os.path.join(example_result_dir, "result.txt"), "w", encoding="utf-8") as f:
        f.write(f"{result}\n")
    env.controller.end_recording(os.path.join(example_result_dir, "recording.mp4"))
