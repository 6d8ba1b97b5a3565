"""The suite's checker for the generic ``SuiteEnv`` path: a task's evaluator over a probe.

``OSWorldEnv`` runs the full evaluation itself (postconfig steps first, on its episode);
this checker reads the final state as it stands, with the probe's own environment.
"""

from __future__ import annotations

from typing import Any

from gcc_envs.osworld.evaluate import score
from gcc_envs.osworld.getters import Context
from gcc_envs.osworld.taskfile import load_task


def osworld(probe: Any, task: str, last_action: str | None = "DONE") -> float:
    """The bundled task's score for the desktop ``probe`` reads."""
    return score(load_task(task).evaluator, Context(probe), last_action).score
