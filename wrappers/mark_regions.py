"""``MarkRegions``: Set-of-Mark prompting — numbered boxes on regions an OpenCV detector finds."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, SupportsFloat

import cv2
import gymnasium as gym
import numpy as np

from gcc_envs import Click, Program
from gcc_envs.errors import GCCError
from wrappers.overlay_grid import Frame, _check_frame, check_frame_space

_PALETTE = ((255, 64, 64), (64, 160, 255), (255, 0, 255), (0, 200, 0), (255, 140, 0))


@dataclass(frozen=True)
class Mark:
    """One numbered region, in frame pixels; ``(cx, cy)`` is where clicking on it clicks."""

    id: int
    x: int
    y: int
    w: int
    h: int
    cx: int
    cy: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of box ``a`` (x0, y0, x1, y1) with each row of ``b``."""
    ix = np.clip(np.minimum(a[2], b[:, 2]) - np.maximum(a[0], b[:, 0]), 0, None)
    iy = np.clip(np.minimum(a[3], b[:, 3]) - np.maximum(a[1], b[:, 1]), 0, None)
    inter = ix * iy
    area = lambda r: (r[..., 2] - r[..., 0]) * (r[..., 3] - r[..., 1])  # noqa: E731
    return inter / np.maximum(area(a) + area(b) - inter, 1)


def _contrast(gx: np.ndarray, gy: np.ndarray, box: tuple[int, int, int, int]) -> float:
    """How sharply a box's outline stands out: the weakest side's median edge strength.

    For each side, the strongest Sobel response across it (within 2 px) at each position along
    it, then the median along the side; a UI panel or button scores high on all four sides,
    texture (grass, bricks, text) scores low on at least one.
    """
    x0, y0, x1, y1 = box[0], box[1], box[2] - 1, box[3] - 1
    sides = (
        gy[max(y0 - 2, 0) : y0 + 3, x0 : x1 + 1].max(axis=0),
        gy[max(y1 - 2, 0) : y1 + 3, x0 : x1 + 1].max(axis=0),
        gx[y0 : y1 + 1, max(x0 - 2, 0) : x0 + 3].max(axis=1),
        gx[y0 : y1 + 1, max(x1 - 2, 0) : x1 + 3].max(axis=1),
    )
    return float(min(np.median(side) for side in sides))


def detect_regions(
    frame: Frame,
    max_marks: int = 40,
    min_area: float = 0.002,
    max_area: float = 0.5,
    iou: float = 0.6,
    min_contrast: float = 150.0,
) -> list[Mark]:
    """Region proposals: boxes of closed edge contours with sharp outlines, de-duplicated.

    Canny edges (thresholds from the frame's median intensity) are closed with a small
    dilation; the bounding box of every contour (outer and nested, so a menu row inside a
    panel is found as well as the panel) with area between ``min_area`` and ``max_area`` (as
    fractions of the frame area; values > 1 are pixels) and both sides >= 0.8% of the frame
    height is a candidate. Each candidate is scored by the contrast of its outline (the
    weakest side's median 3×3 Sobel magnitude of the grey image; a clean step of ``d`` grey
    levels scores about ``4 d``); candidates under ``min_contrast`` are dropped (texture such
    as grass or bricks, and words). Near-duplicates (the inner and outer edge of one border)
    are merged by non-maximum suppression at ``iou``, the sharper box kept. At most
    ``max_marks`` boxes are kept, sharpest first, then numbered 1… in reading order (top to
    bottom, left to right).
    """
    _check_frame(frame)
    h, w = frame.shape[:2]
    total = float(h * w)
    lo = min_area if min_area > 1 else min_area * total
    hi = max_area if max_area > 1 else max_area * total
    side = max(3, round(0.008 * h))
    gray = cv2.cvtColor(np.ascontiguousarray(frame, np.uint8), cv2.COLOR_RGB2GRAY)
    med = float(np.median(gray))
    edges = cv2.Canny(gray, int(max(0, 0.66 * med)), int(min(255, 1.33 * med) or 255))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    g = gray.astype(np.float32)
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0))
    gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1))
    boxes, scores = [], []
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        if bw < side or bh < side or not lo <= bw * bh <= hi:
            continue
        box = (x, y, x + bw, y + bh)
        score = _contrast(gx, gy, box)
        if score >= min_contrast:
            boxes.append(box)
            scores.append(score + cv2.contourArea(c) / float(bw * bh))  # ties: the fuller box
    if not boxes:
        return []
    arr = np.array(boxes, np.float64)
    order = np.argsort(-np.array(scores), kind="stable")
    keep: list[int] = []
    for i in order:
        if keep and (_iou(arr[i], arr[keep]) >= iou).any():
            continue
        keep.append(int(i))
        if len(keep) >= max_marks:
            break
    kept = sorted((boxes[i] for i in keep), key=lambda b: (b[1] // side, b[0]))
    return [
        Mark(n, x0, y0, x1 - x0, y1 - y0, (x0 + x1) // 2, (y0 + y1) // 2)
        for n, (x0, y0, x1, y1) in enumerate(kept, start=1)
    ]


def draw_marks(frame: Frame, marks: list[Mark]) -> Frame:
    """A copy of ``frame`` with each mark's box outlined and its id in a filled tag inside it."""
    _check_frame(frame)
    out = np.array(frame, np.uint8, copy=True)
    h = out.shape[0]
    thick = max(1, round(h / 720))
    scale = max(0.3, 0.45 * h / 720)
    for m in marks:
        colour = _PALETTE[m.id % len(_PALETTE)]
        cv2.rectangle(out, (m.x, m.y), (m.x + m.w - 1, m.y + m.h - 1), colour, thick)
        text = str(m.id)
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        x1, y1 = m.x + tw + 4, m.y + th + base + 4
        cv2.rectangle(out, (m.x, m.y), (x1, y1), colour, -1)
        org = (m.x + 2, m.y + th + 2)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick, cv2.LINE_AA)
    return out


class MarkRegions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Set-of-Mark prompting: number the regions an OpenCV detector finds and draw the numbers.

    MM-Navigator tags the UI elements of each screen with numeric labels so that an LMM answers
    with a label instead of coordinates. Here the elements come from ``detect_regions`` (edges,
    contours, boxes with sharp outlines, non-maximum suppression — no model to download), which
    finds rectangular UI elements (panels, menu rows, buttons, slots), not sprites; each observation carries
    the boxes and their numbers, and ``info["marks"]`` lists them as
    ``{id, x, y, w, h, cx, cy}`` in observation pixels. ``program_for(label_id)`` is the
    ``click_on_label`` skill's input: a ``Program`` clicking the centre of that mark.
    The observation space is unchanged; each observation is a fresh array.

    Apply it below ``ChunkVideo`` (it needs the frame, ``Box(0, 255, (H, W, 3), uint8)``).

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import MarkRegions
        >>> env = MarkRegions(gym.make("GCC/Stardew-FarmClearup", obs_size=(720, 1280)))
        >>> obs, info = env.reset(seed=0)
        >>> 0 < len(info["marks"]) <= 40
        True
        >>> env.program_for(info["marks"][0]["id"]).events[0].x == info["marks"][0]["cx"]
        True

    Args:
        env: an env whose observation is the frame.
        max_marks: most marks per observation (>= 1).
        min_area: smallest box, as a fraction of the frame area (or pixels when > 1).
        max_area: largest box, likewise (drops the whole-screen border).
        iou: overlap above which two boxes are the same region.
        min_contrast: weakest outline kept (Sobel units, about 4× the grey-level step); lower
            it for flat, low-contrast UIs.
    """

    def __init__(
        self,
        env: gym.Env,
        max_marks: int = 40,
        min_area: float = 0.002,
        max_area: float = 0.5,
        iou: float = 0.6,
        min_contrast: float = 150.0,
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(
            self,
            max_marks=max_marks,
            min_area=min_area,
            max_area=max_area,
            iou=iou,
            min_contrast=min_contrast,
        )
        gym.Wrapper.__init__(self, env)
        if isinstance(max_marks, bool) or not isinstance(max_marks, int) or max_marks < 1:
            raise GCCError(f"max_marks must be an int >= 1, got {max_marks!r}")
        if not 0 < min_area < max_area:
            raise GCCError(f"need 0 < min_area < max_area, got {min_area!r}, {max_area!r}")
        if not 0 < iou <= 1:
            raise GCCError(f"iou must be in (0, 1], got {iou!r}")
        check_frame_space(env.observation_space, "MarkRegions", chunks=False)
        if not min_contrast >= 0:
            raise GCCError(f"min_contrast must be >= 0, got {min_contrast!r}")
        self.max_marks, self.min_area, self.max_area, self.iou = max_marks, min_area, max_area, iou
        self.min_contrast = float(min_contrast)
        self.marks: list[Mark] = []

    def _mark(self, obs: np.ndarray, info: dict[str, Any]) -> np.ndarray:
        self.marks = detect_regions(
            obs, self.max_marks, self.min_area, self.max_area, self.iou, self.min_contrast
        )
        info["marks"] = [m.as_dict() for m in self.marks]
        return draw_marks(obs, self.marks)

    def program_for(self, label_id: int) -> Program:
        """``click_on_label(label_id)``: a Program clicking the centre of that mark."""
        for m in self.marks:
            if m.id == label_id and not isinstance(label_id, bool):
                return Program([Click(m.cx, m.cy)], name=f"click_on_label({label_id})")
        ids = [m.id for m in self.marks]
        raise GCCError(f"no mark {label_id!r} on the current screen (marks: {ids})")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self._mark(obs, info), info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._mark(obs, info), reward, terminated, truncated, info
