"""A toy desktop suite that lives only in the tests: a simulated notepad behind a ``SuiteSpec``.

It proves the suite half of the seam with no X and no programs: registered by
``tests/register_test_specs.py`` like the toy game, its ids run on ``backend="sim"`` through
the registry suite (``check_env``, determinism, pickling, specs as JSON), and
``tests/apps/test_toy_suite.py`` runs the suite-level checks on it: a scripted solution scores 1
on held-out seeds while doing nothing, a random policy and another seed's input score 0; the
home is gone after close; a checker cannot read outside the home; setup errors name the step.

The pieces a suite on real programs gets from ``gcc_envs.apps`` are here in memory:
:class:`ToyEpisode` is the episode's desktop session (a fresh home folder, the setup steps'
values, one program: ``notepad FILE``), :class:`ToyProbe` what the checker reads, and
:class:`ToyNotepad` the simulated screen (typed text, Ctrl+S saves into the home).
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gcc_envs.apps.suite_env import KEYS
from gcc_envs.core.probe import RunResult
from gcc_envs.core.spec import SetupStep, SuiteSpec, SuiteTask
from gcc_envs.errors import GCCError

_HERE = "gcc_test_specs.toy_suite"
#: What the seed picks: the note's name and the phrase to type (12 x 10 variants).
PHRASES = [
    "buy milk", "call anna", "water plants", "pay rent", "fix the sink", "book flights",
    "walk the dog", "send the report", "renew passport", "bake bread", "clean the desk",
    "read chapter two",
]  # fmt: skip
NAMES = ["todo", "draft", "memo", "list", "plan", "notes", "errands", "ideas", "week", "jobs"]
_TYPED = {"space": " ", "enter": "\n", "tab": "\t"}


class ToyNotepad:
    """A notepad on a simulated screen: printable keys type, Backspace deletes, Ctrl+S saves
    the text into the open file (``launch(["notepad", FILE])``). Its ``state`` is the episode's
    probe (None with no episode)."""

    keys: tuple[str, ...] = KEYS
    native_size: tuple[int, int] = (640, 360)

    def __init__(self) -> None:
        self.session: ToyEpisode | None = None
        self.path: Path | None = None
        self.text = ""
        self.held: set[str] = set()
        self.paused = False

    @property
    def state(self) -> ToyProbe | None:
        return None if self.session is None else self.session.probe()

    def open(self, session: ToyEpisode, path: Path) -> None:
        self.session, self.path, self.text = session, path, ""
        if path.exists():
            self.text = path.read_text()

    def detach(self) -> None:
        self.session = self.path = None
        self.text = ""

    def title(self) -> str:
        return "Notepad" if self.path is None else f"{self.path.name} - Notepad"

    # ---- the Simulator protocol
    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None:
        self.detach()
        self.held.clear()

    def key_down(self, key: str) -> None:
        if key in self.held:
            return
        self.held.add(key)
        if self.path is None or self.paused:
            return
        if "ctrl" in self.held:
            if key == "s":
                self.path.write_text(self.text)
            return
        if key == "backspace":
            self.text = self.text[:-1]
        elif key in _TYPED or len(key) == 1:
            self.text = (self.text + _TYPED.get(key, key))[-500:]

    def key_up(self, key: str) -> None:
        self.held.discard(key)

    def pointer_move(self, u: float, v: float) -> None:
        pass

    def mouse_down(self, button: str) -> None:
        pass

    def mouse_up(self, button: str) -> None:
        pass

    def scroll(self, dy: int, dx: int) -> None:
        pass

    def advance(self, seconds: float) -> None:
        pass

    def set_paused(self, paused: bool) -> None:
        self.paused = paused

    def render(self, height: int, width: int) -> np.ndarray:
        """Title bar, a menu of buttons, the text, and a status bar with the cursor's place."""
        frame = np.full((height, width, 3), 250, np.uint8)
        bar = max(3, height // 12)
        scale = height / 360
        font = cv2.FONT_HERSHEY_SIMPLEX
        frame[:bar] = (60, 90, 160)
        cv2.putText(frame, self.title(), (4, bar - max(1, bar // 4)), font, 0.5 * scale,
                    (255, 255, 255), 1, cv2.LINE_AA)  # fmt: skip
        for i, name in enumerate(("File", "Edit", "View", "Save")):
            x0, x1 = 4 + i * width // 6, (i + 1) * width // 6
            cv2.rectangle(frame, (x0, bar + 2), (x1 - 4, 2 * bar), (200, 200, 200), -1)
            cv2.rectangle(frame, (x0, bar + 2), (x1 - 4, 2 * bar), (90, 90, 90), 1)
            cv2.putText(frame, name, (x0 + 3, 2 * bar - max(1, bar // 4)), font, 0.45 * scale,
                        (20, 20, 20), 1, cv2.LINE_AA)  # fmt: skip
        lines = self.text.split("\n")
        for i, line in enumerate(lines[-6:]):
            y = 2 * bar + int((i + 1) * 34 * scale)
            cv2.putText(frame, line, (6, y), font, 0.9 * scale, (20, 20, 20), 1, cv2.LINE_AA)
        frame[height - bar :] = (225, 225, 225)
        where = f"Ln {len(lines)}, Col {len(lines[-1]) + 1}"
        cv2.putText(frame, where, (width // 2, height - max(1, bar // 4)), font, 0.45 * scale,
                    (40, 40, 40), 1, cv2.LINE_AA)  # fmt: skip
        return frame


class ToyProbe:
    """The :class:`~gcc_envs.core.probe.DesktopProbe` of a toy episode."""

    def __init__(self, session: ToyEpisode) -> None:
        self.session = session
        self.home = session.home
        self.files = session.files

    def screenshot(self) -> np.ndarray:
        W, H = self.session.backend.size
        return self.session.backend.sim.render(H, W)

    def window_titles(self) -> list[str]:
        return [self.session.backend.sim.title()]

    def _inside(self, path: str | Path) -> Path | None:
        full = (self.home / path).resolve()
        return full if self.home.resolve() in full.parents else None

    def exists(self, path: str | Path) -> bool:
        full = self._inside(path)
        return full is not None and full.exists()

    def read_file(self, path: str | Path) -> bytes:
        full = self._inside(path)
        if full is None or not full.is_file():
            raise GCCError(f"no file {path!r} in the episode's home")
        return full.read_bytes()

    def run(
        self, argv: Sequence[str], timeout_s: float = 10.0, env: Mapping[str, str] | None = None
    ) -> RunResult:
        return RunResult(127, "", "the toy desktop runs no programs")


class ToyEpisode:
    """One episode's desktop session (see the module's text): built by ``SuiteEnv`` at reset
    as ``ToyEpisode(backend, rng, limits=...)`` because the spec names it."""

    def __init__(self, backend: Any, rng: np.random.Generator, limits: Any = None) -> None:
        self.backend = backend
        self.rng = rng
        self.home = Path(tempfile.mkdtemp(prefix="gcc-toy-home-")).resolve()
        # gone with the episode even when a test drops its env unclosed, as the real homes are
        self._remove_home = weakref.finalize(self, shutil.rmtree, self.home, ignore_errors=True)
        self.display = "toy"
        self.env: dict[str, str] = {"HOME": str(self.home)}
        self.files: dict[str, Path] = {}
        self.vars: dict[str, str] = {}

    def launch(
        self, argv: Sequence[str], *, window: str | None = None, timeout_s: float = 20.0
    ) -> int:
        if not argv or argv[0] != "notepad" or len(argv) != 2:
            raise GCCError(f"the toy desktop runs only 'notepad FILE', got {list(argv)}")
        path = (self.home / argv[1]).resolve()
        if self.home not in path.parents:
            raise GCCError(f"notepad's file {argv[1]!r} leaves the episode's home")
        self.backend.sim.open(self, path)
        return 0

    def run(self, argv: Sequence[str], timeout_s: float = 10.0) -> RunResult:
        return RunResult(127, "", "the toy desktop runs no programs")

    def probe(self) -> ToyProbe:
        return ToyProbe(self)

    def close(self) -> None:
        self.backend.sim.detach()
        self._remove_home()


def saved_text(probe: Any, path: str, text: str) -> float:
    """1 when the file ``path`` of the home holds exactly ``text``."""
    if not probe.exists(path):
        raise GCCError(f"{path} was never saved")
    return float(probe.read_file(path).decode("utf-8", "replace") == text)


SUITE = SuiteSpec(
    key="toy_desktop",
    title="ToyDesktop",
    tasks=(
        SuiteTask(
            key="save_note",
            name="SaveNote",
            max_steps=15,
            instruction="Type '$phrase' into the open note and save it with Ctrl+S.",
            expected_steps=2,
            setup=(
                SetupStep("choose", {"name": "name", "options": NAMES}),
                SetupStep("choose", {"name": "phrase", "options": PHRASES}),
                SetupStep("launch", {"argv": ["notepad", "$name.txt"]}),
            ),
            checker="saved_text",
            checker_args={"path": "$name.txt", "text": "$phrase"},
        ),
    ),
    checkers=_HERE,
    default_backend="sim",
    episode=f"{_HERE}:ToyEpisode",
    simulator=f"{_HERE}:ToyNotepad",
)
