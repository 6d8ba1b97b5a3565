"""One list of specs → ``gymnasium.register`` calls in namespace ``GCC`` (DESIGN §3.2).

Every game and desktop task suite comes in by its spec (:mod:`gcc_envs.core.spec`):
:data:`SPECS` names them, :func:`register_all` registers one id per registered task, and
:func:`make_env` (the entry point of every id) builds the backend the ``backend=`` kwarg asks
for, then the spec's env class. Adding a game or a suite is its folder plus one line here;
:func:`register_spec` adds one from outside the package (a user's own game, a test's toy).

Ids are data, the way Gymnasium serialises them: the entry point is the string
:data:`ENTRY_POINT` and the kwargs name the spec and task, so ``env.spec.to_json()`` and
``gym.make(EnvSpec.from_json(...))`` work for every id (Minari's ``DataCollector`` stores it).
Each id is versioned, ``GCC/<Title>-<Task>-v<N>`` with ``N`` the spec's ``version``, and its
unversioned name is registered too as an alias: ``gym.spec`` reads either, and ``gym.make`` of
the alias makes the latest version (Gymnasium's own rule), so ``env.spec.id`` — what records
and datasets store — is always versioned.
"""

from __future__ import annotations

import dataclasses
import logging
import warnings
from typing import Any

import gymnasium as gym

from gcc_envs.core.spec import GameSpec, SuiteSpec, TaskSpec, load
from gcc_envs.errors import GCCError
from gcc_envs.step_limit import SPEC as STEP_LIMIT

log = logging.getLogger(__name__)

Spec = GameSpec | SuiteSpec

#: The one list of games and suites: ``"module:attribute"`` of each spec.
SPECS: tuple[str, ...] = (
    "gcc_envs.games.stardew:GAME",
    "gcc_envs.games.rdr2:GAME",
    "gcc_envs.games.dealers_life2:GAME",
    "gcc_envs.games.skylines:GAME",
    "gcc_envs.apps.desktop:SUITE",
    "gcc_envs.apps.chrome:SUITE",
    "gcc_envs.apps.outlook:SUITE",
    "gcc_envs.apps.capcut:SUITE",
    "gcc_envs.apps.meitu:SUITE",
    "gcc_envs.apps.feishu:SUITE",
    "gcc_envs.osworld:SUITE",
)

#: kwargs of ``gym.make`` that configure a desktop backend rather than the env.
DESKTOP_KWARGS = (
    "target",
    "launch",
    "display",
    "pause",
    "screen_size",
    "pause_key",
    "pause_template",
    "judge",
    "kill_switch",
    "draw_pointer",
    "sandbox",
    "window_timeout_s",
)
#: kwargs of ``gym.make`` that configure a remote backend (with target, launch and pause).
REMOTE_KWARGS = ("url", "token", "timeout", "capture_format")

#: The entry point of every id (a string, so specs serialise to JSON).
ENTRY_POINT = f"{__name__}:make_env"

_extra: dict[str, Spec] = {}


def specs() -> dict[str, Spec]:
    """Every spec by key: those of :data:`SPECS` that are installed, then registered extras.

    A spec whose own package is missing from the install is skipped (logged at debug level).
    """
    out: dict[str, Spec] = {}
    for path in SPECS:
        module = path.partition(":")[0]
        try:
            spec = load(path)
        except GCCError as e:
            if isinstance(e.__cause__, ModuleNotFoundError) and module.startswith(
                str(e.__cause__.name or "\0")
            ):
                log.debug("skipping %s: %s", path, e)
                continue
            raise
        out[spec.key] = spec
    for key, spec in _extra.items():
        out.setdefault(key, spec)
    return out


def register_spec(spec: Spec) -> list[str]:
    """Register a game or suite from outside :data:`SPECS`; returns its new ids."""
    if not isinstance(spec, (GameSpec, SuiteSpec)):
        raise GCCError(f"register_spec takes a GameSpec or SuiteSpec, got {type(spec).__name__}")
    known = specs()
    if spec.key in known and known[spec.key] is not spec:
        raise GCCError(f"a game or suite with key {spec.key!r} is already registered")
    _extra[spec.key] = spec
    return _register(spec)


def spec_of(env_id: str) -> Spec:
    """The spec behind a registered id."""
    kwargs = gym.spec(env_id).kwargs or {}
    key = kwargs.get("game", kwargs.get("suite"))
    all_specs = specs()
    if key not in all_specs:
        raise GCCError(f"{env_id} is not a gcc-gym id")
    return all_specs[key]


def task_of(env_id: str) -> TaskSpec | None:
    """The task row behind a registered id (None for an open id such as ``GCC/Desktop``)."""
    spec, key = spec_of(env_id), (gym.spec(env_id).kwargs or {}).get("task")
    return next((t for t in spec.tasks if t.key == key), None)


def make_backend(spec: Spec, backend: str, obs_size: Any = None, **desktop: Any) -> Any:
    """The backend object for ``backend="sim" | "desktop" | "remote"``."""
    if desktop and backend not in ("desktop", "remote"):
        raise GCCError(f"{sorted(desktop)} apply to backend='desktop' or 'remote' only")
    only = (
        set(REMOTE_KWARGS)
        if backend == "desktop"
        else {"display", "screen_size", "kill_switch", "window_timeout_s"}
    )
    if set(desktop) & only:
        raise GCCError(f"{sorted(set(desktop) & only)} do not apply to backend={backend!r}")
    game = spec if isinstance(spec, GameSpec) else None
    if backend == "sim":
        if spec.simulator is None:
            raise GCCError(f"{spec.title} has no simulator; use backend='desktop'")
        from gcc_envs.backends.sim import SimBackend

        return SimBackend(load(spec.simulator)(), obs_size)
    if backend not in ("desktop", "remote"):
        raise GCCError(f"unknown backend {backend!r}; use 'sim', 'desktop' or 'remote'")
    judge = desktop.pop("judge", None)
    mirror = load(game.state_mirror) if game is not None and game.state_mirror else None
    if game is not None:  # a real game: its profile names the window and the pause method
        desktop["profile"] = game.profile
        if desktop.get("pause_template") is None and game.pause_template:
            desktop["pause_template"] = load(game.pause_template)
    if backend == "desktop":
        from gcc_envs.backends.desktop.backend import DesktopBackend
        from gcc_envs.judges import make_judge

        # A game on a real screen always has a judge (none: success is never claimed); an app
        # only when asked. A state-file judge is also what the backend's probe reads.
        made = make_judge(judge, mirror) if judge is not None or game is not None else None
        return DesktopBackend(obs_size, judge=made, **desktop)
    from gcc_envs.backends.remote import RemoteBackend
    from gcc_envs.judges import remote_judge

    return RemoteBackend(obs_size, judge=remote_judge(judge, mirror, game is not None), **desktop)


def make_env(
    *,
    task: str,
    game: str | None = None,
    suite: str | None = None,
    backend: str | None = None,
    obs_size: Any = None,
    **kwargs: Any,
) -> gym.Env:
    """Entry point of every registered id."""
    key = game if game is not None else suite
    all_specs = specs()
    if key not in all_specs:
        raise GCCError(f"unknown game or suite {key!r}; known: {sorted(all_specs)}")
    spec = all_specs[key]
    desktop = {k: kwargs.pop(k) for k in (*DESKTOP_KWARGS, *REMOTE_KWARGS) if k in kwargs}
    backend = spec.default_backend if backend is None else backend
    if isinstance(spec, SuiteSpec) and task != "open" and backend != "sim":
        desktop.setdefault("pause", "none")  # a task's programs do nothing while nobody acts
    if isinstance(spec, SuiteSpec) and backend == "desktop":
        for key, value in spec.desktop.items():
            desktop.setdefault(key, value)
    made = make_backend(spec, backend, obs_size, **desktop)
    if not getattr(made, "clock_driven", True) and isinstance(spec, GameSpec):
        kwargs.setdefault("time_mode", "paused")  # a real game runs in real time (DESIGN 2.1)
    if getattr(made, "judge", None) is not None:  # the judge decorates the task
        kwargs["judge"] = made.judge
    if isinstance(spec, SuiteSpec):
        kwargs["suite"] = spec
    try:
        return load(spec.env_class)(backend=made, task=task, **kwargs)
    except BaseException:
        made.close()  # a refused kwarg must not leave a display or program running
        raise


def _ids(spec: Spec) -> list[tuple[str, str, int]]:
    """(unversioned id, task key, step limit) of each registered task, plus the open id."""
    rows = [(t.env_id(spec.title), t.key, t.max_steps) for t in spec.tasks if t.registered]
    if isinstance(spec, SuiteSpec) and spec.open_id is not None:
        rows.append((spec.open_id, "open", spec.open_max_steps))
    return rows


def versioned_id(env_id: str) -> str:
    """The versioned id behind a gcc-gym id or alias (a versioned id is returned as is).

    >>> versioned_id("GCC/Desktop")
    'GCC/Desktop-v0'
    """
    if gym.spec(env_id).version is not None:
        return env_id
    return f"{env_id}-v{spec_of(env_id).version}"


def _register(spec: Spec) -> list[str]:
    kind = "game" if isinstance(spec, GameSpec) else "suite"
    new = []
    for alias, task, max_steps in _ids(spec):
        env_id = f"{alias}-v{spec.version}"
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point=ENTRY_POINT,
            max_episode_steps=max_steps,
            # a real desktop runs in real time: the same seed need not give the same frames
            nondeterministic=spec.default_backend != "sim",
            kwargs={kind: spec.key, "task": task},
            # the env learns the TimeLimit's figure (gym.make's override included)
            additional_wrappers=(STEP_LIMIT,),
        )
        # The alias: gym.register refuses an unversioned name beside a versioned one, so it
        # goes into the registry directly. gym.make(alias) resolves to the latest version.
        gym.registry[alias] = dataclasses.replace(gym.registry[env_id], id=alias)
        new.append(alias)
    return new


def register_all() -> None:
    """Register every id of every spec (idempotent)."""
    # gym.make of an alias warns that it makes the latest version: that is what an alias is for
    warnings.filterwarnings(
        "ignore", message=r".*Using the latest versioned environment `GCC/", category=UserWarning
    )
    for spec in specs().values():
        _register(spec)


def env_ids(default_backend: str | None = None) -> list[str]:
    """Registered ids, optionally only those whose default backend is ``default_backend``.

    >>> "GCC/Desktop" in env_ids(), "GCC/Desktop" in env_ids("sim")
    (True, False)
    """
    return [
        env_id
        for spec in specs().values()
        if default_backend is None or spec.default_backend == default_backend
        for env_id, _, _ in _ids(spec)
    ]
