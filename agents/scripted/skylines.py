"""Scripted Cities: Skylines players: the planner that builds from a blueprint, and its mistake.

The planner reads the terrain (``privileged=True``) and plans the whole city once at reset
(:func:`agents.scripted.skylines_blueprint.blueprint`). It then plays it through the paper's
skills, one call per step: a ``try_place_*`` call at the pixel centres of the planned cells,
then — reading the construction info on the next frame — ``confirm_placement()`` when the
preview is valid or ``cancel_placement()`` when it is not; ``DONE`` at the end (the code word
every skill layer accepts: ``wrappers.UseSkills`` passes it down as the core's ``Done``).
``DisconnectedPipeScript`` plays the same plan with one water branch two cells short of the
trunk (the paper's typical mistake).

The pixel coordinates follow the env's frame size; cells must be at least about 8 px wide
for every centre to fall in its own cell (frames 640 px wide or more).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from agents.scripted.skylines_blueprint import Step, blueprint
from gcc_envs.errors import GCCError
from gcc_envs.games.skylines import vision
from gcc_envs.games.skylines.sim import layout
from gcc_envs.games.skylines.skills import SKILLS


class SkylinesScript:
    """Plans on the simulator's state, acts through the skills."""

    mistake: str | None = None

    def __init__(self, env: Any, privileged: bool = False) -> None:
        if not privileged:
            raise GCCError(
                f"{type(self).__name__} needs privileged=True: it plans the city on the "
                "simulator's terrain (run without --no-privileged)"
            )
        if getattr(getattr(env, "backend", None), "sim", None) is None:
            raise GCCError(f"{type(self).__name__} needs the Skylines simulator (backend='sim')")
        self.env = env
        self.plan: deque[Step] = deque()
        self._previewed: Step | None = None

    def reset(self, info: dict[str, Any]) -> None:
        del info
        self.plan = deque(blueprint(self.env.backend.probe(), self.mistake))
        self._previewed = None

    def code(self, step: Step) -> str:
        """The skill call that previews ``step`` on this env's screen."""
        W, H = self.env.backend.size
        values = [v for c, r in step.cells for v in layout.cell_centre(c, r, W, H)]
        names = [p.name for p in SKILLS[step.skill].params]
        return f"{step.skill}({', '.join(f'{k}={v}' for k, v in zip(names, values))})"

    def act(self, obs: np.ndarray | None, info: dict[str, Any]) -> str:
        del info
        if self._previewed is not None:
            self._previewed = None
            ok = obs is not None and vision.preview_status(np.asarray(obs)) == "ok"
            return "confirm_placement()" if ok else "cancel_placement()"
        if not self.plan:
            return "DONE"
        self._previewed = self.plan.popleft()
        return self.code(self._previewed)


class BuildCityScript(SkylinesScript):
    """GCC/Skylines-BuildCity: the whole plot."""


class BlockScript(SkylinesScript):
    """GCC/Skylines-Block: one block (the blueprint adapts to the small plot)."""


class DisconnectedPipeScript(SkylinesScript):
    """The planner with the paper's typical mistake: one water branch never joins the trunk."""

    mistake = "disconnected_pipe"
