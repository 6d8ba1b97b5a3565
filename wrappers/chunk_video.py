"""``ChunkVideo``: the observation becomes the video chunk of the last step (Cradle's input)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gcc_envs.errors import GCCError


class ChunkVideo(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Observe the frames the env sampled while the last step ran, not only the last frame.

    The wrapper turns the env's frame recording on (``env.unwrapped.record_frames = True``), so
    the env samples ``fps`` frames per game second while a step's input runs (default 2, as in
    Cradle). The chunk of a step is those frames, plus the step's final observation when it
    differs from the last sample (so the chunk always ends with what the screen shows now); a
    step too short to be sampled gives its observation alone, and ``reset`` gives the reset
    frame as a chunk of one. Chunks longer than ``max_frames`` are sampled uniformly, the first
    and the last frame always kept (Cradle gives its LMM at most 8 frames).

    Observation:

    * default: ``Dict(frames=Box(0, 255, (max_frames, h, w, 3), uint8),
      count=Discrete(max_frames + 1))``; ``frames[:count]`` is the chunk, the rest is zeros;
    * ``as_list=True``: a tuple of ``(h, w, 3)`` frames, a member of
      ``Sequence(Box(0, 255, (h, w, 3), uint8))`` (what an LMM prompt takes).

    ``(h, w)`` is the env's frame size, or ``low_res`` (frames are downsized with
    ``cv2.INTER_AREA``). Apply it to an env whose observation is the frame
    (``Box(0, 255, (H, W, 3), uint8)``), below wrappers that change the observation.

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import ChunkVideo
        >>> env = ChunkVideo(gym.make("GCC/Stardew-FarmClearup", obs_size=(72, 128)), max_frames=8)
        >>> obs, _ = env.reset(seed=0)
        >>> int(obs["count"]), obs["frames"].shape
        (1, (8, 72, 128, 3))
        >>> obs, *_ = env.step("move_down(duration=2.0)")
        >>> int(obs["count"])  # 2 frames per game second for 2 seconds
        4

    Args:
        env: a GCC env (anything whose ``unwrapped`` has ``record_frames``/``recorded_frames``).
        max_frames: most frames per chunk (>= 1).
        low_res: ``(h, w)`` to downsize each frame to, or None for the env's size.
        as_list: observe a tuple of frames (``Sequence`` space) instead of a padded array.
    """

    def __init__(
        self,
        env: gym.Env,
        max_frames: int = 8,
        low_res: Sequence[int] | None = None,
        as_list: bool = False,
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(
            self, max_frames=max_frames, low_res=low_res, as_list=as_list
        )
        gym.ObservationWrapper.__init__(self, env)
        if isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 1:
            raise GCCError(f"max_frames must be an int >= 1, got {max_frames!r}")
        inner = env.unwrapped
        base = env.observation_space
        frame_space = getattr(inner, "observation_space", None)
        if not (
            isinstance(base, spaces.Box)
            and base.dtype == np.uint8
            and len(base.shape) == 3
            and base.shape[2] == 3
            and frame_space is not None
            and base.shape == frame_space.shape
        ):
            raise GCCError(
                f"ChunkVideo needs the env's own frames as observations (Box(0, 255, (H, W, 3), "
                f"uint8)), got {base}; apply it below wrappers that change the observation"
            )
        if not hasattr(inner, "recorded_frames"):
            raise GCCError(
                f"{type(inner).__name__} does not record frames; ChunkVideo needs a GCC env"
            )
        if low_res is None:
            self.frame_size: tuple[int, int] = (int(base.shape[0]), int(base.shape[1]))
        else:
            if len(low_res) != 2 or not all(isinstance(v, int) and v > 0 for v in low_res):
                raise GCCError(f"low_res must be (h, w) positive ints, got {low_res!r}")
            self.frame_size = (int(low_res[0]), int(low_res[1]))
        inner.record_frames = True
        self.max_frames = max_frames
        self.as_list = bool(as_list)
        self._resize = low_res is not None and self.frame_size != base.shape[:2]
        h, w = self.frame_size
        frame = spaces.Box(0, 255, (h, w, 3), np.uint8)
        if self.as_list:
            self.observation_space = spaces.Sequence(frame)
        else:
            self.observation_space = spaces.Dict(
                {
                    "frames": spaces.Box(0, 255, (max_frames, h, w, 3), np.uint8),
                    "count": spaces.Discrete(max_frames + 1),
                }
            )

    def observation(self, observation: np.ndarray) -> Any:
        chunk = self.chunk(list(self.env.unwrapped.recorded_frames), observation)
        if self.as_list:
            return tuple(chunk)
        h, w = self.frame_size
        frames = np.zeros((self.max_frames, h, w, 3), np.uint8)
        for i, f in enumerate(chunk):
            frames[i] = f
        return {"frames": frames, "count": len(chunk)}

    def chunk(self, recorded: list[np.ndarray], last: np.ndarray) -> list[np.ndarray]:
        """The step's frames: ``recorded`` ending in ``last``, sampled to ``max_frames``, resized."""
        frames = recorded
        if not frames or not np.array_equal(frames[-1], last):
            frames = [*frames, last]
        n = len(frames)
        if n > self.max_frames:
            idx = np.round(np.linspace(n - 1, 0, self.max_frames)).astype(int)[::-1]
            frames = [frames[i] for i in idx]
        if self._resize:
            h, w = self.frame_size
            return [cv2.resize(f, (w, h), interpolation=cv2.INTER_AREA) for f in frames]
        return [np.array(f, np.uint8, copy=True) for f in frames]
