"""Specs: how a game or a desktop task suite comes into gcc-gym (DESIGN §3.2).

Each game folder (``gcc_envs/games/<game>/__init__.py``) exports ``GAME: GameSpec``; each
desktop task suite (``gcc_envs/apps/<suite>/__init__.py``, ``gcc_envs/osworld/``) exports
``SUITE: SuiteSpec``. Registration loops over the one list of specs
(:data:`gcc_envs.registration.SPECS`), and the registry, wrapper and policy test suites read
everything they need from the specs — so adding a game or a suite is one folder and one line.

Specs are plain frozen data, cheap to import: whatever is heavy (the env class, the simulator,
the skill library, the scripted policy) is named by an import path ``"module:attribute"`` and
imported only when an env is made. A game never imports an agent: the scripted policy is a
string that only ``agents`` imports.

>>> row = TaskSpec("cultivation", "Cultivation", max_steps=100, difficulty="easy")
>>> row.env_id("Stardew")
'GCC/Stardew-Cultivation'
>>> row.env_id("Stardew", version=2)
'GCC/Stardew-Cultivation-v2'

Versions follow Gymnasium: each game or suite has one ``version`` (its spec's field); every id
is registered as ``GCC/<Title>-<Task>-v<version>`` and under its unversioned name, an alias of
that latest version. A change that alters results (rules, content, rewards, frames) bumps the
version and says so in the env card's Version History.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gcc_envs.core.profile import LiveProfile
from gcc_envs.errors import GCCError

#: Difficulty labels (the Cradle paper labels RDR2's tasks easy or hard).
DIFFICULTIES = ("", "easy", "medium", "hard")


def load(path: str) -> Any:
    """Import ``module:attribute`` (the way specs name what is heavy).

    >>> load("gcc_envs.errors:GCCError").__name__
    'GCCError'
    """
    module, sep, attr = path.partition(":")
    if not sep or not module or not attr:
        raise GCCError(f"an import path must look like 'module:attribute', got {path!r}")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise GCCError(f"cannot import {path!r}: {e}") from e


def _check_version(key: str, version: object) -> None:
    if not (isinstance(version, int) and not isinstance(version, bool) and version >= 0):
        raise GCCError(f"{key!r}: version must be an int >= 0, got {version!r}")


@dataclass(frozen=True)
class TaskSpec:
    """One task of a game or suite: a ``task=`` key, and a registered id unless a subtask."""

    #: The env's ``task=`` value (``"cultivation"``, ``"mission1"``, ``"mission1:protect_dutch"``).
    key: str
    #: The id's suffix (``"Cultivation"`` → ``GCC/Stardew-Cultivation``).
    name: str
    #: Step limit (Gymnasium's ``TimeLimit`` through the registry; the paper's limits).
    max_steps: int
    #: ``"easy"`` / ``"hard"`` as the paper labels the task, or ``""``.
    difficulty: str = ""
    #: What a person is told (``info["instruction"]`` at reset); ``""`` when the task builds it.
    instruction: str = ""
    #: False for a subtask that runs through its parent's id with ``task=key`` (a checkpoint).
    registered: bool = True
    #: The key of the task this one is part of (a mission for a checkpoint), or ``""``.
    parent: str = ""
    #: The scripted policy for this task, ``"module:Class"`` (imported only by ``agents``).
    script: str | None = None
    #: Steps a person needs (efficiency = expected_steps / steps, Cradle's software tasks).
    expected_steps: int | None = None
    #: The paper's success rate for its agent on this task, where it reports one (tables put
    #: measured rates beside it).
    paper_success: float | None = None
    #: The family reports total this task under (an OSWorld domain such as ``"chrome"``), or
    #: ``""``; unlike ``parent`` it names no task.
    group: str = ""
    #: False for a variant that only measures (it never succeeds; ``info["progress"]`` is its
    #: figure, e.g. the share of the farm cleared in all 100 steps).
    scored: bool = True

    def __post_init__(self) -> None:
        if not self.key or not self.name:
            raise GCCError(f"a task needs a key and a name, got {self.key!r} / {self.name!r}")
        if not (isinstance(self.max_steps, int) and self.max_steps > 0):
            raise GCCError(f"task {self.key!r}: max_steps must be a positive int")
        if self.difficulty not in DIFFICULTIES:
            raise GCCError(f"task {self.key!r}: difficulty must be one of {DIFFICULTIES}")

    def env_id(self, title: str, version: int | None = None) -> str:
        """The registered id under a game's or suite's title (unversioned: the alias)."""
        return f"GCC/{title}-{self.name}" + ("" if version is None else f"-v{version}")


@dataclass(frozen=True)
class WalkHint:
    """Skill code that visibly changes the screen, for the wrapper suites (tests read it)."""

    #: Code of skill calls the env accepts in one step (within ``max_skill_calls``).
    code: str
    #: ``(event type, key)`` of the input events ``code`` sends, in order.
    events: tuple[tuple[str, str], ...]
    #: Game seconds ``code`` takes.
    seconds: float
    #: Other code that also changes the screen (alternated with ``code``).
    other: str


@dataclass(frozen=True)
class PerfTargets:
    """Speed targets of a simulator (``benchmarks/perf_sim.py`` checks them, one core)."""

    #: steps/s at 84×84 as a multiple of MiniGrid-Empty-8x8 + RGBImgObsWrapper, same run.
    minigrid_ratio_84: float | None = None
    #: steps/s at 1280×720.
    steps_per_s_720p: float | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything gcc-gym needs to know about one game (exported as ``GAME``)."""

    #: The game's key (``"stardew"``); its folder is ``gcc_envs/games/<key>``.
    key: str
    #: The ids' prefix (``"Stardew"`` → ``GCC/Stardew-...``), also used in messages.
    title: str
    #: The env class, ``"module:Class"`` (a :class:`~gcc_envs.games.game_env.GameEnv`).
    env_class: str
    #: The real game's profile (window, keys, pause method, mouse kind, HUD).
    profile: LiveProfile
    #: The task table; the first registered task is the default.
    tasks: tuple[TaskSpec, ...]
    #: ``"module:function"``: ``make_task(key) -> Task`` (a fresh task; tasks keep state).
    make_task: str
    #: ``"module:function"``: ``make_skills(profile, real) -> SkillLibrary``; ``real`` is True
    #: on a real screen (desktop/remote), so a camera scale can follow the real game.
    make_skills: str
    #: The simulator class, ``"module:Class"``, or None when the game runs only for real.
    simulator: str | None = None
    #: Skill calls an agent may give per step (the paper's limit; ``UseSkills`` enforces it).
    max_skill_calls: int = 1
    #: ``"module:attribute"`` of the ``UseSkillGrid`` grid ``{skill: {param: values}}``, or of
    #: a function ``(W, H) -> grid`` when its values are screen points of the frame.
    skill_grid: str | None = None
    #: ``"module:function"`` rebuilding the game's state from a published JSON (judges).
    state_mirror: str | None = None
    #: ``"module:function"`` turning the simulator's state into that JSON (``gcc-gym play
    #: --state-file``).
    publish_state: str | None = None
    #: ``"module:attribute"`` of a PNG of the real game's pause screen (``pause="key"``).
    pause_template: str | None = None
    #: Skill code that walks the player (wrapper suites).
    walk: WalkHint | None = None
    #: Speed targets of the simulator.
    perf: PerfTargets = field(default_factory=PerfTargets)
    #: True when the screen changes with nobody acting (falling snow, walking NPCs).
    moves_on_its_own: bool = False
    #: The backend a plain ``gym.make`` uses.
    default_backend: str = "sim"
    #: The ids' version (``GCC/Stardew-Cultivation-v0``): bumped by a change that alters results.
    version: int = 0
    #: ``gym.make`` kwargs of the game's evaluation profile for LMM agents: the latency the
    #: paper's setting carries (``think_time``, ``time_mode``). Benchmarks apply it.
    eval_kwargs: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_version(self.key, self.version)
        keys = [t.key for t in self.tasks]
        if len(set(keys)) != len(keys):
            raise GCCError(f"game {self.key!r} lists a task key twice: {keys}")
        if not any(t.registered for t in self.tasks):
            raise GCCError(f"game {self.key!r} registers no task")
        for t in self.tasks:
            if t.parent and t.parent not in keys:
                raise GCCError(f"game {self.key!r}: task {t.key!r} has unknown parent {t.parent!r}")

    @property
    def default_task(self) -> str:
        return next(t.key for t in self.tasks if t.registered)

    def task(self, key: str) -> TaskSpec:
        for t in self.tasks:
            if t.key == key:
                return t
        raise GCCError(f"unknown {self.title} task {key!r}; known: {[t.key for t in self.tasks]}")

    def subtasks(self, key: str) -> tuple[TaskSpec, ...]:
        """The tasks whose parent is ``key`` (a mission's checkpoints), in table order."""
        return tuple(t for t in self.tasks if t.parent == key)


@dataclass(frozen=True)
class SetupStep:
    """One step of a desktop task's setup: a kind (``launch``, ``write_file``, ...) and args."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SuiteTask(TaskSpec):
    """A desktop task: a :class:`TaskSpec` plus its setup and the checker that judges it."""

    #: Setup steps run at reset on the env's own desktop, in order.
    setup: tuple[SetupStep, ...] = ()
    #: Name of the checker function in the suite's checkers module.
    checker: str = ""
    #: Keyword arguments of the checker (literal data from the task table).
    checker_args: Mapping[str, Any] = field(default_factory=dict)
    #: True when only a final ``FAIL`` succeeds (OSWorld's infeasible tasks).
    infeasible: bool = False


@dataclass(frozen=True)
class SuiteSpec:
    """A suite of desktop tasks (exported as ``SUITE``): tasks as data, pure checkers."""

    #: The suite's key (``"desktop"``, ``"chrome"``, ``"osworld"``).
    key: str
    #: The ids' prefix (``"Desktop"`` → ``GCC/Desktop-<Task>``).
    title: str
    #: The task table (usually loaded from the suite's TOML/JSON data).
    tasks: tuple[SuiteTask, ...]
    #: ``"module"`` holding the checker functions ``checker(probe, **args) -> float | bool``.
    checkers: str
    #: Programs the suite needs on the PATH (tests skip with the reason when one is missing).
    programs: tuple[str, ...] = ()
    #: The env class, ``"module:Class"``.
    env_class: str = "gcc_envs.apps.suite_env:SuiteEnv"
    #: ``"module:function"``: extra setup step kinds ``{kind: fn(session, **args)}`` beyond the
    #: common ones, or None.
    setup_steps: str | None = None
    #: An id registered for the suite as a whole (``GCC/OSWorld`` takes its task at reset), or
    #: None.
    open_id: str | None = None
    #: The open id's step limit.
    open_max_steps: int = 100
    #: The backend a plain ``gym.make`` uses.
    default_backend: str = "desktop"
    #: Desktop backend settings a plain ``gym.make`` uses (``{"screen_size": (1920, 1080)}``).
    desktop: Mapping[str, Any] = field(default_factory=dict)
    #: Bytes of each episode's home filesystem, or None for the sandbox's default.
    home_size: int | None = None
    #: ``"module:Class"`` of each episode's desktop session, built ``Class(backend, rng,
    #: limits=...)`` at reset: it runs the setup steps and gives the checker its probe.
    episode: str = "gcc_envs.apps.episode:EpisodeDesktop"
    #: ``"module:Class"`` of a simulated desktop for ``backend="sim"`` (its ``state`` is the
    #: episode's probe), or None: the suite runs on real programs only.
    simulator: str | None = None
    #: The ids' version (``GCC/Chrome-...-v0``): bumped by a change that alters results.
    version: int = 0

    def __post_init__(self) -> None:
        _check_version(self.key, self.version)
        keys = [t.key for t in self.tasks]
        if len(set(keys)) != len(keys):
            raise GCCError(f"suite {self.key!r} lists a task key twice")

    def task(self, key: str) -> SuiteTask:
        for t in self.tasks:
            if t.key == key:
                return t
        raise GCCError(f"unknown {self.title} task {key!r}; known: {[t.key for t in self.tasks]}")
