"""``DrawPointer``: draw the mouse pointer arrow at ``info["pointer"]`` on the observation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import cv2
import gymnasium as gym
import numpy as np

from gcc_envs.errors import GCCError
from wrappers.overlay_grid import Frame, _check_frame, check_frame_space

#: The arrow's outline, tip at (0, 0), in units of 1/16 of its height.
_ARROW = np.array([(0, 0), (0, 16), (4, 12), (7, 18), (9, 17), (6, 11), (11, 11)], np.float64)


def arrow_polygon(x: float, y: float, height: float) -> np.ndarray:
    """The arrow's vertices (int32, shape ``(7, 2)``) with its tip at ``(x, y)``."""
    return np.round(_ARROW * (height / 18.0) + (x, y)).astype(np.int32)


def draw_pointer(frame: Frame, xy: Sequence[float], size: float | None = None) -> Frame:
    """A copy of ``frame`` with a white, black-outlined arrow whose tip is at ``xy`` (pixels).

    ``size`` is the arrow's height in pixels (default: 3.5% of the frame height, at least 8).
    A pointer outside the frame draws the part of the arrow that falls inside it.
    """
    _check_frame(frame)
    out = np.array(frame, np.uint8, copy=True)
    h = out.shape[0]
    height = float(size) if size is not None else max(8.0, 0.035 * h)
    pts = arrow_polygon(float(xy[0]), float(xy[1]), height)
    cv2.fillPoly(out, [pts], (255, 255, 255), cv2.LINE_AA)
    cv2.polylines(out, [pts], True, (0, 0, 0), max(1, round(height / 18)), cv2.LINE_AA)
    return out


class DrawPointer(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Draw the mouse pointer on each observation, at ``info["pointer"]`` of the same step.

    Captured game frames often do not show the cursor (the OS draws it; games hide it), so an
    agent cannot see where the mouse is. This wrapper draws an arrow with its tip at
    ``info["pointer"]`` (frame pixels, as every GCC env reports it). A step or reset whose
    ``info`` has no pointer keeps the last known one. The observation space is unchanged and
    each observation is a fresh array.

    Apply it below ``ChunkVideo`` (it needs the frame, ``Box(0, 255, (H, W, 3), uint8)``, whose
    pixels are the pointer's coordinates).

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import DrawPointer
        >>> env = DrawPointer(gym.make("GCC/Stardew-FarmClearup", obs_size=(720, 1280)))
        >>> obs, info = env.reset(seed=0)
        >>> obs, *_, info = env.step(gcc_envs.Program([gcc_envs.MoveTo(100, 200)]))
        >>> info["pointer"], obs[206, 102].tolist()
        ((100, 200), [255, 255, 255])

    Args:
        env: an env whose observation is the frame and whose info has ``pointer``.
        size: arrow height in pixels, or None for 3.5% of the frame height.
    """

    def __init__(self, env: gym.Env, size: float | None = None) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, size=size)
        gym.Wrapper.__init__(self, env)
        check_frame_space(env.observation_space, "DrawPointer", chunks=False)
        if size is not None and (isinstance(size, bool) or not size > 0):
            raise GCCError(f"size must be a positive number or None, got {size!r}")
        self.size = size
        self.pointer: tuple[float, float] | None = None

    def _draw(self, obs: np.ndarray, info: dict[str, Any]) -> np.ndarray:
        p = info.get("pointer")
        if p is not None:
            self.pointer = (float(p[0]), float(p[1]))
        if self.pointer is None:
            return np.array(obs, np.uint8, copy=True)
        return draw_pointer(obs, self.pointer, self.size)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        self.pointer = None
        obs, info = self.env.reset(seed=seed, options=options)
        return self._draw(obs, info), info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._draw(obs, info), reward, terminated, truncated, info
