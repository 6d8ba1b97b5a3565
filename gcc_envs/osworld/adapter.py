"""``DesktopEnv``: OSWorld's own env interface over this local desktop, for existing agents.

It takes OSWorld's constructor arguments (VM providers, paths and snapshots do not apply here
and are accepted and ignored: the desktop is a local Xvfb with a fresh home per task),
``reset(task_config=...)`` returns OSWorld's observation dict, ``step(action, pause)`` its
4-tuple, ``evaluate()`` the task's score and ``close()`` stops everything. The action is
``pyautogui`` code or ``WAIT``/``FAIL``/``DONE`` (``action_space="pyautogui"``) or a
``computer_13`` dict: code is parsed by the safe parser, never run as Python in this process
(``code="sandbox"`` runs it as Python inside the episode's sandbox).

>>> DesktopEnv.__init__.__defaults__[:3]
('vmware', None, None)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gcc_envs.core.code import parse_code
from gcc_envs.core.events import Event
from gcc_envs.errors import GCCError, InvalidActionError
from gcc_envs.osworld.code_sandbox import check_mode, run_code
from gcc_envs.osworld.episode import EpisodeRunner
from gcc_envs.osworld.getters import SYSTEM_PYTHON
from gcc_envs.osworld.runtime import event_sender
from gcc_envs.osworld.taskfile import load_task

log = logging.getLogger(__name__)

ACTION_SPACES = ("pyautogui", "computer_13")
#: The program that reads the AT-SPI tree inside the episode (with the system's pyatspi).
DUMPER = Path(__file__).with_name("atspi_dump.py")
#: Bounds of one accessibility tree read: past them the tree is cut short, and says so.
A11Y_DEADLINE_S = 10.0
A11Y_MAX_NODES = 20_000
_SIGNALS = ("WAIT", "FAIL", "DONE")


def _png(rgb: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    if not ok:
        raise GCCError("could not encode the screenshot as PNG")
    return buf.tobytes()


class Controller:
    """The part of OSWorld's ``PythonController`` agent loops call (screens, recording)."""

    def __init__(self, env: DesktopEnv) -> None:
        self._env = env
        self._frames: list[np.ndarray] | None = None

    def get_screenshot(self) -> bytes:
        frame = self._env.backend.capture()
        if self._frames is not None and len(self._frames) < 2000:
            self._frames.append(frame)
        return _png(frame)

    def get_accessibility_tree(self) -> str | None:
        return self._env.accessibility_tree()

    def get_terminal_output(self) -> str | None:
        return None  # OSWorld reads GNOME Terminal through AT-SPI; not available here

    def get_vm_screen_size(self) -> dict[str, int]:
        w, h = self._env.screen_size
        return {"width": w, "height": h}

    def get_vm_platform(self) -> str:
        return "Linux"

    def start_recording(self) -> None:
        """Keep the screenshots taken from now on (one per step)."""
        self._frames = []

    def end_recording(self, dest: str) -> None:
        """Write the kept screenshots as an MP4 video (2 frames per second) to ``dest``."""
        frames, self._frames = self._frames or [], None
        if not frames:
            return
        h, w = frames[0].shape[:2]
        out = cv2.VideoWriter(str(dest), cv2.VideoWriter_fourcc(*"mp4v"), 2.0, (w, h))
        try:
            for f in frames:
                out.write(cv2.cvtColor(f, cv2.COLOR_RGB2BGR))
        finally:
            out.release()


class DesktopEnv:
    """OSWorld's ``desktop_env.DesktopEnv`` on a local desktop (see the module docstring)."""

    def __init__(
        self,
        provider_name: str = "vmware",
        region: str | None = None,
        path_to_vm: str | None = None,
        snapshot_name: str = "init_state",
        action_space: str = "computer_13",
        cache_dir: str = "cache",
        screen_size: tuple[int, int] = (1920, 1080),
        headless: bool = False,
        require_a11y_tree: bool = True,
        require_terminal: bool = False,
        os_type: str = "Ubuntu",
        enable_proxy: bool = False,
        client_password: str = "",
        code: str = "parse",
        **extra: Any,
    ) -> None:
        if action_space not in ACTION_SPACES:
            raise GCCError(f"action_space must be one of {ACTION_SPACES}, got {action_space!r}")
        if os_type != "Ubuntu":
            raise GCCError(f"this desktop is Linux (os_type='Ubuntu'), got {os_type!r}")
        if provider_name != "vmware" or path_to_vm or region or extra:
            log.info("DesktopEnv runs on a local Xvfb desktop; provider settings are ignored")
        from gcc_envs.osworld.backends import make_backend

        self.action_space = action_space
        #: ``"parse"``: pyautogui code is read by the safe parser; ``"sandbox"``: it runs as
        #: Python inside the episode's sandbox (:mod:`gcc_envs.osworld.code_sandbox`).
        self.code = check_mode(code)
        self.screen_size = (int(screen_size[0]), int(screen_size[1]))
        self.require_a11y_tree = bool(require_a11y_tree)
        self.require_terminal = bool(require_terminal)
        self.cache_dir = str(cache_dir)
        self.backend = make_backend(
            "desktop", None, screen_size=self.screen_size, display=extra.get("display")
        )
        self.runner = EpisodeRunner(self.backend, accessibility=self.require_a11y_tree)
        self.controller = Controller(self)
        self.action_history: list[Any] = []
        self.instruction = ""
        self.task_id: str | None = None
        self._send = event_sender(self.backend)
        self._started = False

    # ---------------------------------------------------------------- OSWorld's interface
    @property
    def vm_platform(self) -> str:
        return "Linux"

    @property
    def vm_screen_size(self) -> tuple[int, int]:
        return self.screen_size

    @property
    def vm_ip(self) -> str:
        """Where OSWorld's VM would be: this machine (its ``run.py`` hands it to agents)."""
        return "127.0.0.1"

    def reset(
        self, task_config: Mapping[str, Any] | str | None = None, seed: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        """Start the task's desktop (a fresh home, its setup run); the first observation."""
        self.runner.end()
        if not self._started:
            self.backend.reset(np.random.default_rng(seed), None)
            self._started = True
        self.action_history.clear()
        self.instruction, self.task_id = "", None
        if task_config is not None:
            task = load_task(task_config)
            started = self.runner.start(task)
            if "setup_error" in started or "unsupported" in started:
                log.warning(
                    "task %s: %s", task.id, started.get("setup_error") or started.get("unsupported")
                )
            self.instruction, self.task_id = task.instruction, task.id
        return self._get_obs()

    def _get_obs(self) -> dict[str, Any]:
        return {
            "screenshot": self.controller.get_screenshot(),
            "accessibility_tree": self.accessibility_tree() if self.require_a11y_tree else None,
            "terminal": None,
            "instruction": self.instruction,
        }

    def step(
        self, action: Any, pause: float = 2
    ) -> tuple[dict[str, Any], float, bool, dict[str, Any]]:
        """Carry the action out (parsed, never run as code); OSWorld's 4-tuple."""
        self.action_history.append(action)
        info: dict[str, Any] = {}
        done = False
        signal = _signal(action)
        if signal == "WAIT":
            time.sleep(max(0.0, float(pause)))
        elif signal in ("FAIL", "DONE"):
            done = True
            info = {"fail": True} if signal == "FAIL" else {"done": True}
        elif self.code == "sandbox" and self.action_space == "pyautogui":
            info = self._run_code(action)
        else:
            try:
                self._send(self._events(action))
            except InvalidActionError as e:
                info = {"error": str(e)}
                log.info("action refused: %s", e)
        time.sleep(max(0.0, float(pause)))
        self.runner.note_input()
        return self._get_obs(), 0.0, done, info

    def evaluate(self) -> float:
        """The task's score (postconfig, getters, metrics; infeasible: 1 for a final FAIL)."""
        if self.task_id is None:
            raise GCCError("evaluate() needs a task: reset(task_config=...) first")
        last = _signal(self.action_history[-1]) if self.action_history else None
        return self.runner.finish(last).score

    def render(self, mode: str = "rgb_array") -> np.ndarray:
        if mode != "rgb_array":
            raise GCCError(f"unsupported render mode {mode!r}")
        return self.backend.capture()

    def close(self) -> None:
        try:
            self.runner.end()
        finally:
            self.backend.close()

    # ---------------------------------------------------------------- internals
    def accessibility_tree(
        self, *, max_nodes: int = A11Y_MAX_NODES, deadline_s: float = A11Y_DEADLINE_S
    ) -> str | None:
        """The desktop's AT-SPI tree in OSWorld's XML, read inside the episode (past
        ``max_nodes`` objects or ``deadline_s`` seconds it is cut short, and says so on its
        root); None when no episode runs or the tree cannot be read (logged, as OSWorld's
        controller does)."""
        if self.runner.running is None or self.runner.running.episode is None:
            return None
        ctx = self.runner.context()
        argv = [SYSTEM_PYTHON, str(DUMPER), "--format=osworld", f"--deadline={deadline_s:g}",
                f"--max-nodes={max_nodes}"]  # fmt: skip
        result = ctx.probe.run(ctx.argv(argv, None), timeout_s=deadline_s + 15.0)
        if result.returncode or not result.stdout.startswith("<"):
            log.warning("no accessibility tree: %s", result.stderr.strip()[-300:] or "timed out")
            return None
        if result.stderr.strip():
            log.info("accessibility tree: %s", result.stderr.strip()[-300:])
        return result.stdout

    def _run_code(self, action: Any) -> dict[str, Any]:
        """Run the action's code in the episode's sandbox (``code="sandbox"``); OSWorld's info."""
        run = self.runner.running
        if run is None or run.episode is None:
            return {"error": "code='sandbox' runs code in a task's episode; none is running"}
        try:
            ran = run_code(run.episode, action)
        except InvalidActionError as e:
            return {"error": str(e)}
        return {"error": ran.error} if ran.error else {}

    def _events(self, action: Any) -> list[Event]:
        if self.action_space == "pyautogui":
            if not isinstance(action, str):
                raise InvalidActionError(
                    f"action_space='pyautogui' takes code text, got {type(action).__name__}"
                )
            parts = parse_code(action)
            if not all(isinstance(p, Event) for p in parts):
                raise InvalidActionError("pyautogui code may not call skills")
            return [p for p in parts if isinstance(p, Event)]
        if not isinstance(action, Mapping):
            raise InvalidActionError(
                f"action_space='computer_13' takes a dict, got {type(action).__name__}"
            )
        from gcc_envs.core import computer13

        return computer13.events(action)


def _signal(action: Any) -> str | None:
    if isinstance(action, str) and action.strip() in _SIGNALS:
        return action.strip()
    if isinstance(action, Mapping) and action.get("action_type") in _SIGNALS:
        return str(action["action_type"])
    return None
