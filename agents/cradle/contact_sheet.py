"""Contact sheet: several frames tiled into one image that fits a low-detail request.

A low-detail image is seen at most 512×512 whatever its size, for a flat 85 tokens; eight
separate low-detail frames cost 8 × 85. One sheet of the same frames costs 85, at the price of
resolution: each frame gets the largest cell a grid of ``len(frames)`` cells can give inside
``side``×``side`` (eight 16:9 frames: 2 columns × 4 rows of 227×128 px instead of up to
512×288 each). Cells are numbered 1… in time order (reading order) in their top-left corner.

>>> import numpy as np
>>> sheet = contact_sheet([np.zeros((720, 1280, 3), np.uint8)] * 8)
>>> sheet.shape, grid_shape(8, 1280, 720)
((512, 454, 3), (2, 4))
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from gcc_envs.errors import GCCError

LOW_DETAIL_SIDE = 512


def grid_shape(n: int, width: int, height: int, side: int = LOW_DETAIL_SIDE) -> tuple[int, int]:
    """(columns, rows) whose cells are largest for ``n`` frames of ``width``×``height``."""
    best, best_scale = (n, 1), 0.0
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        scale = min(side / (cols * width), side / (rows * height))
        if scale > best_scale + 1e-12:
            best, best_scale = (cols, rows), scale
    return best


def contact_sheet(frames: Sequence[np.ndarray], side: int = LOW_DETAIL_SIDE) -> np.ndarray:
    """The frames (same shape, RGB ``uint8``) tiled in time order into at most ``side``²."""
    if not frames:
        raise GCCError("a contact sheet needs at least one frame")
    h, w = frames[0].shape[:2]
    if any(f.shape != frames[0].shape for f in frames):
        raise GCCError("contact sheet frames must all have the same shape")
    cols, rows = grid_shape(len(frames), w, h, side)
    scale = min(side / (cols * w), side / (rows * h), 1.0)
    cw, ch = max(int(w * scale), 1), max(int(h * scale), 1)
    sheet = np.full((rows * ch, cols * cw, 3), 255, np.uint8)
    font = max(ch / 240, 0.35)
    for i, f in enumerate(frames):
        r, c = divmod(i, cols)
        cell = cv2.resize(np.ascontiguousarray(f), (cw, ch), interpolation=cv2.INTER_AREA)
        label = str(i + 1)
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font, 1)
        cv2.rectangle(cell, (0, 0), (tw + 4, th + 6), (0, 0, 0), -1)
        cv2.putText(cell, label, (2, th + 3), cv2.FONT_HERSHEY_SIMPLEX, font, (255, 255, 255), 1,
                    cv2.LINE_AA)  # fmt: skip
        sheet[r * ch : (r + 1) * ch, c * cw : (c + 1) * cw] = cell
    return sheet
