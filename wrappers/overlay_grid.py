"""``OverlayGrid``: a rows×cols grid with pixel-coordinate axis labels over the frame (Cradle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gcc_envs.errors import GCCError

Frame = np.ndarray
RGB = tuple[int, int, int]

GRID_COLOUR: RGB = (255, 255, 255)
LABEL_COLOUR: RGB = (255, 255, 255)
OUTLINE_COLOUR: RGB = (0, 0, 0)


def _check_frame(frame: Frame) -> None:
    if not (isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3):
        raise GCCError(f"expected an (H, W, 3) frame, got {getattr(frame, 'shape', frame)!r}")


def grid_lines(size: int, parts: int) -> list[int]:
    """Pixel positions of the ``parts - 1`` inner lines that cut ``size`` pixels into ``parts``.

    >>> grid_lines(1280, 5), grid_lines(720, 3)
    ([256, 512, 768, 1024], [240, 480])
    """
    return [size * i // parts for i in range(1, parts)]


def put_label(frame: Frame, text: str, org: tuple[int, int], scale: float) -> None:
    """Draw ``text`` (white, black outline) with its top-left corner at ``org``, in place."""
    thick = max(1, round(scale * 2))
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    h, w = frame.shape[:2]
    x = int(min(max(org[0], 0), max(w - tw - 1, 0)))
    y = int(min(max(org[1] + th, th), max(h - base - 1, th)))
    for colour, t in ((OUTLINE_COLOUR, thick + 2), (LABEL_COLOUR, thick)):
        cv2.putText(frame, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, t, cv2.LINE_AA)


def draw_grid(frame: Frame, rows: int = 3, cols: int = 5, labels: bool = True) -> Frame:
    """A copy of ``frame`` with a ``rows``×``cols`` grid of thin lines and axis labels.

    Vertical lines sit at ``grid_lines(W, cols)``, horizontal ones at ``grid_lines(H, rows)``;
    each line is labelled with its pixel coordinate (``x=256`` along the top edge, ``y=240``
    along the left edge), so an LMM can both describe the screen cell by cell (Cradle's Stardew
    prompt) and name positions to click. Lines are 1 px thick up to 720 p and scale above it.
    """
    _check_frame(frame)
    out = np.array(frame, np.uint8, copy=True)
    h, w = out.shape[:2]
    thick = max(1, round(h / 720))
    xs, ys = grid_lines(w, cols), grid_lines(h, rows)
    for x in xs:
        out[:, max(x - thick // 2, 0) : x - thick // 2 + thick] = GRID_COLOUR
    for y in ys:
        out[max(y - thick // 2, 0) : y - thick // 2 + thick, :] = GRID_COLOUR
    if labels:
        scale = max(0.3, 0.5 * h / 720)
        pad = max(2, round(4 * h / 720))
        for x in xs:
            put_label(out, f"x={x}", (x + pad, pad), scale)
        for y in ys:
            put_label(out, f"y={y}", (pad, y + pad), scale)
    return out


def map_frames(obs: Any, fn: Callable[[Frame], Frame]) -> Any:
    """Apply ``fn`` to the frame(s) of an observation: a frame, a ``ChunkVideo`` dict or tuple.

    In a ``ChunkVideo`` dict only the first ``count`` frames are drawn on (the padding stays
    zeros); a new dict and arrays are returned, the input is never changed.
    """
    if isinstance(obs, np.ndarray):
        return fn(obs)
    if isinstance(obs, dict) and "frames" in obs:
        frames = np.array(obs["frames"], np.uint8, copy=True)
        for i in range(int(obs.get("count", len(frames)))):
            frames[i] = fn(frames[i])
        return {**obs, "frames": frames}
    if isinstance(obs, tuple):
        return tuple(fn(f) for f in obs)
    raise GCCError(f"cannot draw on an observation of type {type(obs).__name__}")


def check_frame_space(space: spaces.Space, name: str, chunks: bool = True) -> None:
    """Raise unless ``space`` holds RGB uint8 frames (or, with ``chunks``, ChunkVideo chunks)."""

    def is_frame(s: Any) -> bool:
        return (
            isinstance(s, spaces.Box)
            and s.dtype == np.uint8
            and len(s.shape) >= 3
            and s.shape[-1] == 3
        )

    if isinstance(space, spaces.Box) and is_frame(space) and len(space.shape) == 3:
        return
    if chunks and isinstance(space, spaces.Dict) and is_frame(space.spaces.get("frames")):
        return
    if chunks and isinstance(space, spaces.Sequence) and is_frame(space.feature_space):
        return
    where = "frames or ChunkVideo chunks" if chunks else "frames; apply it below ChunkVideo"
    raise GCCError(f"{name} needs observations that are RGB uint8 {where}, got {space}")


class OverlayGrid(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Overlay a ``rows``×``cols`` grid with pixel-coordinate axis labels on every frame.

    Cradle divides each Stardew screenshot into 3×5 cells and asks GPT-4o to describe it cell
    by cell, which gave more precise descriptions and control; Skylines prompts label pixel
    coordinates the same way. The observation space is unchanged (same shape and dtype); each
    observation is a fresh array, the env's frame is not modified. Works on the env's frames
    and on ``ChunkVideo`` chunks (dict or tuple), so it can sit above or below ``ChunkVideo``.

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import OverlayGrid
        >>> env = OverlayGrid(gym.make("GCC/Stardew-FarmClearup", obs_size=(720, 1280)))
        >>> obs, _ = env.reset(seed=0)
        >>> obs[100, 256].tolist(), obs[240, 600].tolist()
        ([255, 255, 255], [255, 255, 255])

    Args:
        env: an env whose observation is a frame ``Box(0, 255, (H, W, 3), uint8)`` or a chunk.
        rows: horizontal cells (>= 1).
        cols: vertical cells (>= 1).
        labels: write each line's pixel coordinate next to it.
    """

    def __init__(self, env: gym.Env, rows: int = 3, cols: int = 5, labels: bool = True) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, rows=rows, cols=cols, labels=labels)
        gym.ObservationWrapper.__init__(self, env)
        for name, v in (("rows", rows), ("cols", cols)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise GCCError(f"{name} must be an int >= 1, got {v!r}")
        check_frame_space(env.observation_space, "OverlayGrid")
        self.rows, self.cols, self.labels = rows, cols, bool(labels)

    def observation(self, observation: Any) -> Any:
        return map_frames(observation, lambda f: draw_grid(f, self.rows, self.cols, self.labels))
