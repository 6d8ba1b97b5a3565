"""Cities: Skylines: the simulator (``sim/``), its data (``data/``), tasks, skills, live profile.

Importing this package is light: ``GAME`` names the heavy parts by import path
(:class:`~gcc_envs.core.spec.GameSpec`); the simulator is imported only when an env is made.
"""

from __future__ import annotations

from gcc_envs.core.spec import GameSpec, PerfTargets, TaskSpec, WalkHint
from gcc_envs.games.skylines.live import PROFILE

_PKG = "gcc_envs.games.skylines"

GAME = GameSpec(
    key="skylines",
    title="Skylines",
    version=1,  # the ids' -vN: bump on a change that alters results (card: Version History)
    env_class=f"{_PKG}.env:SkylinesEnv",
    profile=PROFILE,
    tasks=(
        # The paper's run: 1,000 steps, ended early when the budget falls under ₡1,000.
        TaskSpec(
            "build_city",
            "BuildCity",
            max_steps=1000,
            script="agents.scripted.skylines:BuildCityScript",
            expected_steps=90,
        ),
        # One block on a small plot, for RL and fast evaluation.
        TaskSpec(
            "block",
            "Block",
            max_steps=200,
            script="agents.scripted.skylines:BlockScript",
            expected_steps=60,
        ),  # fmt: skip
    ),
    make_task=f"{_PKG}.tasks:make_task",
    make_skills=f"{_PKG}.skills:make_skills",
    simulator=f"{_PKG}.sim:SkylinesSim",
    # One skill per step: a preview must be seen before it is confirmed (the paper).
    max_skill_calls=1,
    skill_grid=f"{_PKG}.skills:skill_grid",  # its points scale with the frame
    walk=WalkHint(
        code="open_roads_menu()",
        events=(("Wait", ""), ("Click", ""), ("Wait", "")),
        seconds=0.25,
        other="open_zoning_menu()",
    ),
    perf=PerfTargets(minigrid_ratio_84=2.0, steps_per_s_720p=60),
)
