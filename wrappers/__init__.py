"""Gymnasium wrappers for GCC envs (video chunks, skills, code, SB3, recording) — see DESIGN §7.

Each wrapper overrides one concern and passes everything else down, so they stack with each
other and with Gymnasium's own wrappers (``TimeLimit``, ``RecordVideo``,
``RecordEpisodeStatistics``, vector envs).
"""

from wrappers.chunk_video import ChunkVideo
from wrappers.flatten_hybrid_action import FlattenHybridAction
from wrappers.truncate_when_stuck import TruncateWhenStuck
from wrappers.use_code import UseCode
from wrappers.use_skills import UseSkillGrid, UseSkills

# RecordTrajectory (wrappers/record_trajectory.py) is exported here by its own change.

__all__ = [
    "ChunkVideo",
    "FlattenHybridAction",
    "TruncateWhenStuck",
    "UseCode",
    "UseSkillGrid",
    "UseSkills",
]
