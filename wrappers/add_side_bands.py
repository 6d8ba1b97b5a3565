"""``AddSideBands``: a blue band on the left edge and a yellow one on the right (Cradle)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.errors import GCCError
from wrappers.overlay_grid import RGB, Frame, _check_frame, check_frame_space, map_frames

BLUE: RGB = (0, 0, 255)
YELLOW: RGB = (255, 255, 0)


def band_width(width: int, width_frac: float) -> int:
    """Pixels of one band on a frame ``width`` pixels wide (at least 1, at most half).

    >>> band_width(1280, 0.04), band_width(10, 0.04)
    (51, 1)
    """
    return int(min(max(1, round(width * width_frac)), width // 2))


def draw_side_bands(frame: Frame, width_frac: float = 0.04) -> Frame:
    """A copy of ``frame`` with its left edge painted blue and its right edge yellow (RGB)."""
    _check_frame(frame)
    out = np.array(frame, np.uint8, copy=True)
    b = band_width(out.shape[1], width_frac)
    out[:, :b] = BLUE
    out[:, out.shape[1] - b :] = YELLOW
    return out


class AddSideBands(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Paint a blue band over the left edge and a yellow band over the right edge of each frame.

    Cradle found that GPT-4o tells left from right far more reliably in Stardew when the image
    carries these bands and the prompt says "The blue band represents the left side and the
    yellow band represents the right side". The bands are drawn over the frame's edges, so the
    observation space (shape, dtype) is unchanged; each observation is a fresh array. Works on
    frames and on ``ChunkVideo`` chunks (dict or tuple).

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import AddSideBands
        >>> env = AddSideBands(gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128)))
        >>> obs, _ = env.reset(seed=0)
        >>> obs[30, 0].tolist(), obs[30, -1].tolist()
        ([0, 0, 255], [255, 255, 0])

    Args:
        env: an env whose observation is a frame ``Box(0, 255, (H, W, 3), uint8)`` or a chunk.
        width_frac: each band's width as a fraction of the frame width, in (0, 0.5].
    """

    PROMPT = "The blue band represents the left side and the yellow band represents the right side."

    def __init__(self, env: gym.Env, width_frac: float = 0.04) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, width_frac=width_frac)
        gym.ObservationWrapper.__init__(self, env)
        if isinstance(width_frac, bool) or not isinstance(width_frac, (int, float)):
            raise GCCError(f"width_frac must be a number, got {width_frac!r}")
        if not 0 < width_frac <= 0.5:
            raise GCCError(f"width_frac must be in (0, 0.5], got {width_frac!r}")
        check_frame_space(env.observation_space, "AddSideBands")
        self.width_frac = float(width_frac)

    def observation(self, observation: Any) -> Any:
        return map_frames(observation, lambda f: draw_side_bands(f, self.width_frac))
