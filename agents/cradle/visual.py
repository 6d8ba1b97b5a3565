"""Visual prompts drawn on the screen the LMM sees: grid, side bands, Set-of-Mark boxes.

The drawing is the wrappers' own pure functions (``wrappers.overlay_grid.draw_grid``,
``wrappers.add_side_bands.draw_side_bands``, ``wrappers.mark_regions``), applied by the policy
to the frames it sends, so a plain env needs no wrapper. Where the env already carries the
wrapper (``OverlayGrid``, ``AddSideBands``, ``MarkRegions`` in its stack), its observation is
used as it is and nothing is drawn twice; with ``MarkRegions`` its marks are the ones
``click_on_label`` resolves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.errors import GCCError
from wrappers.add_side_bands import AddSideBands, draw_side_bands
from wrappers.mark_regions import Mark, MarkRegions, detect_regions, draw_marks
from wrappers.overlay_grid import OverlayGrid, draw_grid

_WRAPPER = {"grid": OverlayGrid, "side_bands": AddSideBands, "marks": MarkRegions}


def wrappers_of(env: gym.Env) -> list[gym.Env]:
    out, e = [], env
    while isinstance(e, gym.Wrapper):
        out.append(e)
        e = e.env
    return out


class VisualPrompter:
    """Draws ``kinds`` on a frame; remembers the marks of the last frame marked."""

    def __init__(self, kinds: Sequence[str], env: gym.Env | None = None) -> None:
        stack = wrappers_of(env) if env is not None else []
        self.kinds = tuple(k for k in kinds if not any(isinstance(w, _WRAPPER[k]) for w in stack))
        self.mark_wrapper = next((w for w in stack if isinstance(w, MarkRegions)), None)
        self.wants_marks = "marks" in kinds
        self._marks: list[Mark] = []

    def draw(self, frame: np.ndarray) -> np.ndarray:
        out = frame
        if "marks" in self.kinds:
            self._marks = detect_regions(out)
            out = draw_marks(out, self._marks)
        if "grid" in self.kinds:
            out = draw_grid(out)
        if "side_bands" in self.kinds:
            out = draw_side_bands(out)
        return out

    @property
    def marks(self) -> list[Mark]:
        return list(self.mark_wrapper.marks) if self.mark_wrapper is not None else self._marks

    def mark_centre(self, label_id: Any) -> tuple[int, int]:
        """Where ``click_on_label(label_id)`` clicks: the centre of that mark."""
        for m in self.marks:
            if m.id == label_id and not isinstance(label_id, bool):
                return m.cx, m.cy
        ids = [m.id for m in self.marks]
        raise GCCError(f"no mark {label_id!r} on the current screen (marks: {ids})")
