"""Template matching on frames (pause screens, template judges): pure functions over pixels, cv2
only. It sits in ``core`` so judges and backends both read it without importing each other."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from gcc_envs.errors import BackendError


def load_template(path: str | Path) -> np.ndarray:
    """A PNG (or any image cv2 reads) as an H×W×3 RGB uint8 array."""
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise BackendError(f"cannot read the template image {str(path)!r}")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def match_score(frame: np.ndarray, template: np.ndarray, scale: float = 1.0) -> float:
    """Best normalised correlation (``TM_CCOEFF_NORMED``) of ``template`` in ``frame``.

    ``scale`` resizes the template first (a template taken at another resolution). A template
    larger than the frame scores 0.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> frame = rng.integers(0, 255, (60, 80, 3), dtype=np.uint8)
    >>> round(match_score(frame, frame[10:30, 20:50]), 3)
    1.0
    """
    if scale != 1.0:
        h, w = template.shape[:2]
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        template = cv2.resize(template, size, interpolation=cv2.INTER_AREA)
    if template.shape[0] > frame.shape[0] or template.shape[1] > frame.shape[1]:
        return 0.0
    result = cv2.matchTemplate(frame, template, cv2.TM_CCOEFF_NORMED)
    score = float(np.nanmax(result)) if result.size else 0.0
    return score if np.isfinite(score) else 0.0
