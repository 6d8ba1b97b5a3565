"""Scripted Cities: Skylines players: the planner that builds from a blueprint, and its mistake.

The planner plans the whole city once (:func:`agents.scripted.skylines_blueprint.blueprint`)
on the terrain: read from the simulator at reset (``privileged=True``), or read from the
frames (``privileged=False``, :mod:`agents.scripted.skylines_frames`): the first frame shows
the plot, then ``try_place_wind_turbine`` on the highway opens the wind view, read on the next
frame, and ``cancel_placement()`` drops that preview. It then plays the plan through the paper's
skills, one call per step: a ``try_place_*`` call at the pixel centres of the planned cells,
then — reading the construction info on the next frame — ``confirm_placement()`` when the
preview is valid or ``cancel_placement()`` when it is not; ``DONE`` at the end (the code word
every skill layer accepts: ``wrappers.UseSkills`` passes it down as the core's ``Done``).
``DisconnectedPipeScript`` plays the same plan with one water branch two cells short of the
trunk (the paper's typical mistake).

The pixel coordinates follow the env's frame size (cells are 4 px wide at 180 × 320; every
cell centre falls in its own cell).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from agents.scripted.skylines_blueprint import Step, blueprint
from agents.scripted.skylines_frames import seen_city, wind_probe_cell
from gcc_envs.errors import GCCError
from gcc_envs.games.skylines import vision
from gcc_envs.games.skylines.sim import layout
from gcc_envs.games.skylines.skills import SKILLS


class SkylinesScript:
    """Plans on the simulator's state, acts through the skills."""

    mistake: str | None = None

    def __init__(self, env: Any, privileged: bool = False) -> None:
        if privileged and getattr(getattr(env, "backend", None), "sim", None) is None:
            raise GCCError(f"{type(self).__name__} needs the Skylines simulator (backend='sim')")
        self.env = env
        self.privileged = privileged
        #: The task's scenario (its instruction states the plot and the budget).
        self.scenario = str(getattr(getattr(env.unwrapped, "task", None), "scenario", "city"))
        self.plan: deque[Step] = deque()
        self._previewed: Step | None = None
        self._bare: np.ndarray | None = None
        self._looking = False

    def reset(self, info: dict[str, Any]) -> None:
        del info
        self._previewed = None
        self._bare = None
        self._looking = not self.privileged
        self.plan = deque(
            blueprint(self.env.backend.probe(), self.mistake) if self.privileged else ()
        )

    def code(self, skill: str, cells: tuple[tuple[int, int], ...], size: tuple[int, int]) -> str:
        """The skill call that points at ``cells`` on a frame of ``size`` (H, W)."""
        H, W = size
        values = [v for c, r in cells for v in layout.cell_centre(c, r, W, H)]
        names = [p.name for p in SKILLS[skill].params]
        return f"{skill}({', '.join(f'{k}={v}' for k, v in zip(names, values))})"

    def _look(self, obs: np.ndarray) -> str:
        """Frame-only: read the plot, then the wind view, then plan."""
        if self._bare is None:
            self._bare = obs.copy()
            cell = wind_probe_cell(vision.read_ground(obs))
            return self.code("try_place_wind_turbine", (cell,), obs.shape[:2])
        city = seen_city(self._bare, obs, self.scenario)
        self.plan = deque(blueprint(city, self.mistake))
        self._looking = False
        return "cancel_placement()"

    def act(self, obs: np.ndarray | None, info: dict[str, Any]) -> str:
        del info
        if obs is None:
            raise GCCError(f"{type(self).__name__} acts on frames; got none")
        obs = np.asarray(obs)
        if self._looking:
            return self._look(obs)
        if self._previewed is not None:
            self._previewed = None
            ok = vision.preview_status(obs) == "ok"
            return "confirm_placement()" if ok else "cancel_placement()"
        if not self.plan:
            return "DONE"
        self._previewed = self.plan.popleft()
        return self.code(self._previewed.skill, self._previewed.cells, obs.shape[:2])


class BuildCityScript(SkylinesScript):
    """GCC/Skylines-BuildCity: the whole plot."""


class BlockScript(SkylinesScript):
    """GCC/Skylines-Block: one block (the blueprint adapts to the small plot)."""


class DisconnectedPipeScript(SkylinesScript):
    """The planner with the paper's typical mistake: one water branch never joins the trunk."""

    mistake = "disconnected_pipe"
