"""The RDR2 skill calls an RL policy picks from (``wrappers.UseSkillGrid``'s default grid).

Each entry is a skill of :mod:`gcc_envs.games.rdr2.skills` with the values each parameter may
take; the grid is every combination. Screen-point skills (``shoot``, ``select_item_at``) are
left out: their pixels depend on the observation size, and ``select_weapon`` covers the wheel.
"""

from __future__ import annotations

SKILL_GRID: dict[str, dict[str, tuple[float | int | str, ...]]] = {
    "turn": {"degree": (-90, -30, -10, 10, 30, 90)},
    "move_forward": {"duration": (0.5, 1.0, 2.0)},
    "run": {"duration": (1.0, 2.0)},
    "navigate_path": {"duration": (5,)},
    "follow": {"duration": (5,)},
    "interact": {},
    "mount_horse": {},
    "hitch_horse": {},
    "loot": {},
    "climb": {},
    "fight": {},
    "select_weapon": {"name": ("revolver", "rifle")},
    "aim": {"duration": (1.0,)},
    "reload": {},
}
