"""Red Dead Redemption II: the simulator (``sim/``), its data, tasks, skills, live profile.

``GAME`` is the game's spec (how gcc-gym registers and builds its envs); importing this
package loads only the profile and the task table, never the simulator.
"""

from gcc_envs.core.spec import GameSpec, PerfTargets, WalkHint
from gcc_envs.games.rdr2.live import PROFILE
from gcc_envs.games.rdr2.tasks import EVAL_KWARGS, TABLE

_PKG = "gcc_envs.games.rdr2"

GAME = GameSpec(
    key="rdr2",
    title="RDR2",
    version=8,  # the ids' -vN: bump on a change that alters results (card: Version History)
    env_class=f"{_PKG}.env:RDR2Env",
    profile=PROFILE,
    tasks=TABLE,
    make_task=f"{_PKG}.tasks:make_task",
    make_skills=f"{_PKG}.skills:skills_for",
    simulator=f"{_PKG}.sim:RDR2Sim",
    # The paper runs only the first action an RDR2 agent proposes per step.
    max_skill_calls=1,
    skill_grid=f"{_PKG}.skill_grid:SKILL_GRID",
    walk=WalkHint("move_forward(duration=1.0)", (("KeyPress", "w"),), 1.0, "turn(degree=90)"),
    perf=PerfTargets(minigrid_ratio_84=1.2, steps_per_s_720p=60.0),
    # falling snow and walking companions: the screen changes with nobody acting
    moves_on_its_own=True,
    eval_kwargs=EVAL_KWARGS,
)
