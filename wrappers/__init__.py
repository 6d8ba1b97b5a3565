"""Gymnasium wrappers for GCC envs (video chunks, skills, code, SB3, recording) — see DESIGN §7.

Each wrapper overrides one concern and passes everything else down, so they stack with each
other and with Gymnasium's own wrappers (``TimeLimit``, ``RecordVideo``,
``RecordEpisodeStatistics``, vector envs).
"""

from wrappers.add_side_bands import AddSideBands
from wrappers.chunk_video import ChunkVideo
from wrappers.draw_pointer import DrawPointer
from wrappers.flatten_hybrid_action import FlattenHybridAction
from wrappers.mark_regions import MarkRegions
from wrappers.overlay_grid import OverlayGrid
from wrappers.record_trajectory import RecordTrajectory
from wrappers.truncate_when_stuck import TruncateWhenStuck
from wrappers.use_code import UseCode
from wrappers.use_skills import UseSkillGrid, UseSkills

__all__ = [
    "AddSideBands",
    "ChunkVideo",
    "DrawPointer",
    "FlattenHybridAction",
    "MarkRegions",
    "OverlayGrid",
    "RecordTrajectory",
    "TruncateWhenStuck",
    "UseCode",
    "UseSkillGrid",
    "UseSkills",
]
