"""Stardew Valley: the simulator (``sim/``), its data (``data/``), tasks, skills, live profile.

``GAME`` is the game's spec (how gcc-gym registers and builds its envs); importing this
package loads only the profile and the task table, never the simulator.
"""

from gcc_envs.core.spec import GameSpec, PerfTargets, WalkHint
from gcc_envs.games.stardew.live import PROFILE
from gcc_envs.games.stardew.tasks import TABLE

_PKG = "gcc_envs.games.stardew"

GAME = GameSpec(
    key="stardew",
    title="Stardew",
    version=1,  # the ids' -vN: bump on a change that alters results (card: Version History)
    env_class=f"{_PKG}.env:StardewEnv",
    profile=PROFILE,
    tasks=TABLE,
    make_task=f"{_PKG}.tasks:make_task",
    make_skills=f"{_PKG}.skills:skills_for",
    simulator=f"{_PKG}.sim:StardewSim",
    # The paper's agent selects a tool, then uses it: two skill calls per step.
    max_skill_calls=2,
    skill_grid=f"{_PKG}.skills:SKILL_GRID",
    state_mirror=f"{_PKG}.snapshot:StardewMirror",
    publish_state=f"{_PKG}.snapshot:to_json",
    walk=WalkHint(
        "move_down(duration=0.5)\nmove_up(duration=0.5)",
        (("KeyPress", "s"), ("KeyPress", "w")),
        1.0,
        "move_right(duration=0.5)",
    ),
    perf=PerfTargets(minigrid_ratio_84=3.0),
)
