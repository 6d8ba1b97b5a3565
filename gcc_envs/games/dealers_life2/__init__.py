"""Dealer's Life 2: the pawn-shop simulator (``sim/``), its data (``data/``), tasks, skills,
the screen reader (``vision.py``) and the real game's live profile (``live.py``).

Importing this package imports no simulator: ``GAME`` names the heavy parts by import path.

>>> GAME.task("week").env_id(GAME.title), GAME.max_skill_calls
('GCC/DealersLife2-Week', 1)
"""

from gcc_envs.core.spec import GameSpec, PerfTargets, TaskSpec, WalkHint
from gcc_envs.games.dealers_life2.live import PROFILE

_PKG = "gcc_envs.games.dealers_life2"
_SCRIPT = "agents.scripted.dealers_life2:TraderScript"

# The paper gives no step limit for Dealer's Life 2 (seed 000 §D; only RDR2's 500 and
# Stardew's 100). A day needs about 6 skill calls per customer (greet, close the item page,
# about two prices, OK) for 5-10 customers plus the newspaper and the stats page: the
# scripted trader takes 40-70 a day and 330-390 a week (seeds 3000-3004). The limits give
# about 2.5-3 times that, room for an agent that opens pages and makes mistakes, not for one that wanders.
TASKS = (
    TaskSpec("week", "Week", max_steps=1000, difficulty="hard", script=_SCRIPT,
             expected_steps=360),
    TaskSpec("day", "Day", max_steps=150, script=_SCRIPT, expected_steps=50),
)  # fmt: skip

GAME = GameSpec(
    key="dealers_life2",
    title="DealersLife2",
    version=1,  # the ids' -vN: bump on a change that alters results (card: Version History)
    env_class=f"{_PKG}.env:DealersLife2Env",
    profile=PROFILE,
    tasks=TASKS,
    make_task=f"{_PKG}.tasks:make_task",
    make_skills=f"{_PKG}.skills:make_skills",
    simulator=f"{_PKG}.sim:DealersLife2Sim",
    max_skill_calls=1,
    skill_grid=f"{_PKG}.skills:SKILL_GRID",
    # the Stock button toggles the shelf page: every call changes the screen
    walk=WalkHint(
        code="show_stock()",
        events=(("Wait", ""), ("Click", ""), ("Wait", "")),
        seconds=1.005,  # the click holds the button core.events.MIN_TAP_S (0.03 s)
        other="show_stock()",
    ),
    perf=PerfTargets(minigrid_ratio_84=3.0, steps_per_s_720p=150),
    # Prices are text: a person reads the estimate and the offer at 720x1280 (the env's
    # default); at 180x320 digits are 3-4 px tall and nobody can (benchmarks use this size).
    eval_kwargs={"obs_size": (720, 1280)},
)
