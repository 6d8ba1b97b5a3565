"""``gcc-gym play``: a person plays an env in a pygame window with their own keyboard and mouse.

Each loop iteration collects the window's events, turns them into gcc input events
(:meth:`Player.handle`), steps the env (``time_mode="realtime"``, ``step_seconds=1/fps``) with
them as one :class:`~gcc_envs.Program`, and shows the observation. With ``record=DIR`` the
session is written as a dataset (``policy="human"``) by :class:`wrappers.RecordTrajectory`;
with ``state_file=PATH`` the simulator's ground truth is published as JSON after every loop
iteration (written to a temporary file, then renamed over ``PATH``), for tests and other
processes; a game whose ``live`` module has ``publish_state`` also publishes its whole world
(``"world"``), which a desktop env's state-file judge rebuilds.

Like a real game, the window can pause itself: ``pause_on_blur`` freezes game time while the
window does not have the keyboard focus (Stardew Valley does this), and ``pause_key`` toggles
a "PAUSED" screen (:func:`paused_banner`) with game time frozen (RDR2's Esc menu does this).
The window's clock is wall time (``time_mode="realtime"``): stopped by SIGSTOP it catches up
after SIGCONT, like a game that does not clamp its frame time, so the ``signal`` pause does
not freeze its game time; ``focus`` and ``key`` do. ``keep_final`` keeps an ended episode on
screen instead of starting the next one, so a judge reading the state file sees how it ended.

pygame (the ``play`` extra) is imported only when a :class:`Player` is made.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from gcc_envs.core import events as ev
from gcc_envs.core.held import HeldInput
from gcc_envs.core.program import Program
from gcc_envs.errors import GCCError, MissingExtraError

log = logging.getLogger(__name__)

#: Mouse buttons of pygame (1, 2, 3) as gcc button names; 4 and 5 are wheel clicks (ignored).
MOUSE_BUTTONS = {1: "left", 2: "middle", 3: "right"}
#: Size (W, H) of the "PAUSED" banner drawn at the centre of the frame while key-paused.
BANNER_SIZE = (240, 72)


def paused_banner() -> np.ndarray:
    """The "PAUSED" banner (H×W×3 RGB) the window shows while key-paused: its pause template.

    Drawn the same way every time, so a desktop backend can confirm the pause by template
    matching (save it with ``cv2.imwrite`` and pass it as ``pause_template``).
    """
    import cv2

    W, H = BANNER_SIZE
    img = np.full((H, W, 3), (24, 24, 40), np.uint8)
    cv2.rectangle(img, (2, 2), (W - 3, H - 3), (240, 200, 60), 3)
    cv2.putText(img, "PAUSED", (34, 50), cv2.FONT_HERSHEY_DUPLEX, 1.5, (255, 255, 255), 2)
    return img


def draw_paused(frame: np.ndarray) -> np.ndarray:
    """``frame`` dimmed, with :func:`paused_banner` at its centre (a new array)."""
    out = (frame // 2).astype(np.uint8)
    banner = paused_banner()
    bh, bw = banner.shape[:2]
    H, W = out.shape[:2]
    if H < bh or W < bw:
        return out
    y, x = (H - bh) // 2, (W - bw) // 2
    out[y : y + bh, x : x + bw] = banner
    return out


def state_publisher(env_id: str) -> Any:
    """The function that turns the env's simulator state into JSON (its game's
    ``publish_state``), or None."""
    from gcc_envs.core.spec import GameSpec, load
    from gcc_envs.registration import spec_of

    spec = spec_of(env_id)
    path = spec.publish_state if isinstance(spec, GameSpec) else None
    return load(path) if path else None


def play_command(
    env_id: str,
    *,
    seed: int = 0,
    state_file: str | os.PathLike[str] | None = None,
    title: str | None = None,
    fps: float = 30.0,
    pause_on_blur: bool = True,
    pause_key: str | None = None,
    keep_final: bool = True,
    obs_size: tuple[int, int] | None = None,
) -> list[str]:
    """The argv that runs ``gcc-gym play`` with these options (for a desktop env's ``launch=``)."""
    argv = [sys.executable, "-m", "agents.cli", "play", env_id, "--seed", str(seed)]
    argv += ["--fps", str(fps)]
    if state_file is not None:
        argv += ["--state-file", os.fspath(state_file)]
    if title is not None:
        argv += ["--title", title]
    if pause_on_blur:
        argv.append("--pause-on-blur")
    if pause_key is not None:
        argv += ["--pause-key", pause_key]
    if keep_final:
        argv.append("--keep-final")
    if obs_size is not None:
        argv += ["--obs-size", str(obs_size[0]), str(obs_size[1])]
    return argv


def _pygame() -> Any:
    try:
        import pygame
    except ImportError:
        raise MissingExtraError("pygame", "play") from None
    return pygame


def key_map(pygame: Any) -> dict[int, str]:
    """pygame key codes → gcc key names (letters, digits, ``-``, ``=``, named keys)."""
    m: dict[int, str] = {}
    for c in "abcdefghijklmnopqrstuvwxyz0123456789":
        m[getattr(pygame, f"K_{c}")] = c
    named = {
        "K_MINUS": "-",
        "K_EQUALS": "=",
        "K_ESCAPE": "esc",
        "K_RETURN": "enter",
        "K_KP_ENTER": "enter",
        "K_UP": "up",
        "K_DOWN": "down",
        "K_LEFT": "left",
        "K_RIGHT": "right",
        "K_SPACE": "space",
        "K_TAB": "tab",
        "K_BACKSPACE": "backspace",
        "K_LSHIFT": "shift",
        "K_RSHIFT": "shift",
        "K_LCTRL": "ctrl",
        "K_RCTRL": "ctrl",
        "K_LALT": "alt",
        "K_RALT": "alt",
    }
    for const, name in named.items():
        m[getattr(pygame, const)] = name
    return m


def ground_truth(state: Any) -> dict[str, Any]:
    """The published fields of a simulator state (those it has): location, player, money, time."""
    out: dict[str, Any] = {}
    for name in ("location", "money", "day", "minutes", "game_seconds"):
        if hasattr(state, name):
            value = getattr(state, name)
            out[name] = value.item() if isinstance(value, np.generic) else value
    player = getattr(state, "player", None)
    if player is not None:
        out["player"] = {
            k: float(getattr(player, k)) if k != "facing" else str(getattr(player, k))
            for k in ("x", "y", "facing")
            if hasattr(player, k)
        }
    return out


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` so readers never see a partial file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


class Player:
    """A pygame window on ``env_id`` played by a person (see the module docstring).

    ``run()`` loops until the window is closed, ``max_steps`` steps or ``max_seconds`` wall
    seconds; it may be called again to go on. Ended episodes reset with the next seed.
    """

    def __init__(
        self,
        env_id: str,
        *,
        seed: int = 0,
        fps: float = 30.0,
        record: str | os.PathLike[str] | None = None,
        state_file: str | os.PathLike[str] | None = None,
        window_size: tuple[int, int] | None = None,
        env_kwargs: dict[str, Any] | None = None,
        title: str | None = None,
        pause_on_blur: bool = False,
        pause_key: str | None = None,
        keep_final: bool = False,
    ) -> None:
        if not (isinstance(fps, (int, float)) and 0.1 <= fps <= 240):
            raise GCCError(f"--fps must lie in [0.1, 240], got {fps!r}")
        self.pygame = pygame = _pygame()
        import gcc_envs  # noqa: F401  (registers the ids)

        self._pause_code: int | None = None
        if pause_key is not None:
            codes = [c for c, name in key_map(pygame).items() if name == pause_key]
            if not codes:
                raise GCCError(f"--pause-key {pause_key!r} is not a key this window knows")
            self._pause_code = codes[0]
        self.pause_on_blur = pause_on_blur
        self.keep_final = keep_final
        #: Paused by the pause key (the "PAUSED" screen is shown).
        self.key_paused = False
        #: Whether the game is paused now (key pause, or blur with ``pause_on_blur``).
        self.paused = False
        self.ended = False
        self.frames = 0
        self._period = 1.0 / fps
        self._last_info: dict[str, Any] = {}
        self._world_json = state_publisher(env_id)

        self.env_id = env_id
        self.seed = seed
        self.state_file = Path(state_file) if state_file is not None else None
        self._keys = key_map(pygame)
        self._unknown: set[int] = set()
        #: Keys and buttons the player holds down in the window now.
        self.held = HeldInput()
        self.quit = False
        self.steps = 0
        self.episodes = 0
        # One loop iteration is one step, so the ids' step limits do not apply to a session.
        env = gym.make(
            env_id,
            time_mode="realtime",
            step_seconds=1.0 / fps,
            max_episode_steps=sys.maxsize,
            **(env_kwargs or {}),
        )
        if record is not None:
            from wrappers.record_trajectory import RecordTrajectory

            env = RecordTrajectory(env, record, policy_name="human")
        self.env = env
        try:
            shape = env.observation_space.shape
            assert shape is not None
            self.frame_size = (int(shape[1]), int(shape[0]))
            self.window_size = tuple(window_size or self.frame_size)
            self.pointer = (self.frame_size[0] // 2, self.frame_size[1] // 2)
            try:
                pygame.display.init()
                self.screen = pygame.display.set_mode(self.window_size, pygame.RESIZABLE)
            except pygame.error as e:
                raise GCCError(
                    f"cannot open a window ({e}); without a display set SDL_VIDEODRIVER=dummy"
                ) from None
            obs, info = env.reset(seed=seed)
            caption = title or f"gcc-gym play {env_id}: {info.get('instruction', '')}"
            pygame.display.set_caption(caption)
            self._show(obs)
            self._publish(info)
        except BaseException:
            env.close()
            raise

    # ------------------------------------------------------------------ input mapping
    def _to_frame(self, pos: Iterable[float]) -> tuple[int, int]:
        (x, y), (fw, fh), (ww, wh) = pos, self.frame_size, self.window_size
        fx = int(x * fw / max(ww, 1))
        fy = int(y * fh / max(wh, 1))
        return min(max(fx, 0), fw - 1), min(max(fy, 0), fh - 1)

    def _move(self, pos: Iterable[float], out: list[ev.Event]) -> None:
        p = self._to_frame(pos)
        if p != self.pointer:
            self.pointer = p
            out.append(ev.MoveTo(*p))

    def handle(self, pg_events: Iterable[Any]) -> list[ev.Event]:
        """Map pygame events to gcc events (keys held/released, pointer in frame pixels).

        A key or button pressed and released in the same batch gets a :data:`~ev.TAP_S` wait
        between, so the game sees the tap. Window close sets ``quit``; a focus loss releases
        everything held (the window would not see those keys come up).
        """
        pygame = self.pygame
        out: list[ev.Event] = []
        pressed_now: set[str] = set()
        for e in pg_events:
            t = e.type
            if t == pygame.QUIT:
                self.quit = True
            elif t in (pygame.KEYDOWN, pygame.KEYUP) and e.key == self._pause_code:
                if t == pygame.KEYDOWN:
                    self.key_paused = not self.key_paused
                    out += self._release_held()
            elif self.key_paused and t in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                continue  # the pause screen takes no game input
            elif t in (pygame.KEYDOWN, pygame.KEYUP):
                name = self._keys.get(e.key)
                if name is None:
                    if e.key not in self._unknown:
                        self._unknown.add(e.key)
                        log.warning("key %r has no gcc name here; ignored", pygame.key.name(e.key))
                    continue
                change = ev.KeyDown(name) if t == pygame.KEYDOWN else ev.KeyUp(name)
                if self.held.apply(change):
                    if t == pygame.KEYDOWN:
                        pressed_now.add(name)
                    elif name in pressed_now:
                        out.append(ev.Wait(ev.TAP_S))
                    out.append(change)
            elif t == pygame.MOUSEMOTION:
                self._move(e.pos, out)
            elif t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                button = MOUSE_BUTTONS.get(e.button)
                if button is None:
                    continue
                self._move(e.pos, out)
                tag = f"mouse:{button}"
                down = t == pygame.MOUSEBUTTONDOWN
                change = ev.MouseDown(button) if down else ev.MouseUp(button)
                if self.held.apply(change):
                    if down:
                        pressed_now.add(tag)
                    elif tag in pressed_now:
                        out.append(ev.Wait(ev.TAP_S))
                    out.append(change)
            elif t == pygame.MOUSEWHEEL:
                x, y = self.pointer
                if e.y:
                    out.append(ev.Scroll(dy=max(-100, min(100, int(e.y))), x=x, y=y))
                if e.x:
                    out.append(ev.Scroll(dx=max(-100, min(100, int(e.x))), x=x, y=y))
            elif t in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
                self.window_size = (max(int(e.x), 1), max(int(e.y), 1))
            elif t == pygame.WINDOWFOCUSLOST:
                out += self._release_held()
        return out

    def _release_held(self) -> list[ev.Event]:
        out = self.held.releases()
        self.held.clear()
        return out

    def _update_pause(self) -> None:
        """Pause or resume the game from the key pause and (with ``pause_on_blur``) focus."""
        blurred = self.pause_on_blur and not self.pygame.key.get_focused()
        paused = self.key_paused or blurred
        backend = getattr(self.env.unwrapped, "backend", None)
        if backend is not None and paused != self.paused:
            backend.pause() if paused else backend.resume()
        self.paused = paused

    # ------------------------------------------------------------------ loop
    def step(self, events: list[ev.Event]) -> tuple[bool, bool, dict[str, Any]]:
        """One env step with ``events``; shows and publishes the result, resets ended episodes."""
        obs, _, terminated, truncated, info = self.env.step(Program(events))
        self.steps += 1
        if info.get("last_action_error"):
            log.warning("input refused: %s", info["last_action_error"])
        self._publish(info)
        if terminated or truncated:
            outcome = "success" if info.get("success") else info.get("failure", "ended")
            log.warning("episode %d (seed %d) over: %s", self.episodes, self.seed, outcome)
            if self.keep_final:
                self.ended = True
                self._last_info = info
                self._show(obs)
                return terminated, truncated, info
            self.episodes += 1
            self.seed += 1
            self.held.clear()
            obs, info = self.env.reset(seed=self.seed)
            self._publish(info)
        self._show(obs)
        return terminated, truncated, info

    def run(self, max_steps: int | None = None, max_seconds: float | None = None) -> int:
        """Play until the window closes or a limit is reached; return the steps taken."""
        t_end = None if max_seconds is None else time.monotonic() + max_seconds
        n = 0
        while not self.quit:
            if max_steps is not None and n >= max_steps:
                break
            if t_end is not None and time.monotonic() >= t_end:
                break
            events = self.handle(self.pygame.event.get())
            if self.quit:
                break
            if self.ended:  # keep_final: show and publish the final state, at the loop's pace
                self._publish(self._last_info)
                time.sleep(self._period)
            else:
                self._update_pause()
                if self.paused:  # the world is frozen; the clock still ticks the loop
                    events = [e for e in events if isinstance(e, (ev.KeyUp, ev.MouseUp))]
                self.step(events)
            n += 1
        return n

    def close(self) -> None:
        try:
            self.env.close()
        finally:
            self.pygame.display.quit()

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ output
    def _show(self, obs: np.ndarray) -> None:
        pygame = self.pygame
        frame = np.ascontiguousarray(obs[..., :3] if obs.ndim == 3 else np.stack([obs] * 3, -1))
        if self.key_paused:
            frame = draw_paused(frame)
        surf = pygame.image.frombuffer(frame.tobytes(), self.frame_size, "RGB")
        if tuple(self.window_size) != tuple(self.frame_size):
            surf = pygame.transform.scale(surf, self.window_size)
        self.screen.blit(surf, (0, 0))
        pygame.display.flip()

    def _publish(self, info: dict[str, Any]) -> None:
        if self.state_file is None:
            return
        backend = getattr(self.env.unwrapped, "backend", None)
        probe = getattr(backend, "probe", None)
        data: dict[str, Any] = {
            "env_id": self.env_id,
            "seed": self.seed,
            "episode": self.episodes,
            "steps": self.steps,
            "game_time": float(info.get("game_time", 0.0)),
            "progress": float(info.get("progress", 0.0)),
            "success": bool(info.get("success", False)),
            "held_keys": list(self.held.keys),
            "time": time.time(),
            "frame": self.frames,
            "paused": self.paused,
            "key_paused": self.key_paused,
            "ended": self.ended,
        }
        self.frames += 1
        if probe is not None:
            state = probe()
            data.update(ground_truth(state))
            publish = self._world_json
            if publish is not None:
                data["world"] = publish(state)
        write_json_atomic(self.state_file, data)


def play(
    env_id: str,
    *,
    seed: int = 0,
    fps: float = 30.0,
    record: str | None = None,
    state_file: str | None = None,
    max_seconds: float | None = None,
    env_kwargs: dict[str, Any] | None = None,
    **options: Any,
) -> int:
    """Open the window and play until it is closed (or ``max_seconds``); return the steps.

    ``options`` are :class:`Player`'s ``title``, ``pause_on_blur``, ``pause_key``, ``keep_final``.
    """
    with Player(
        env_id,
        seed=seed,
        fps=fps,
        record=record,
        state_file=state_file,
        env_kwargs=env_kwargs,
        **options,
    ) as p:
        return p.run(max_seconds=max_seconds)
