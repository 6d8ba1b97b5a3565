"""OSWorld task files: load one (a path, a bundled id or a dict) into an :class:`OSWorldTask`.

A task file is JSON with ``id``, ``instruction``, ``config`` (setup steps, each
``{"type": ..., "parameters": {...}}``) and ``evaluator`` (``func`` — a metric name or a list —
with ``result``/``expected`` getter configs, ``options``, ``conj`` and ``postconfig``). The 45
files this package ships (``data/tasks/<domain>/<id>.json``, unchanged from OSWorld, see
``data/tasks/NOTICE.txt``) are found by their id or its first eight characters.

OSWorld assumes the user's home is ``/home/user``; :func:`localize` rewrites that prefix (and
``~``) to the episode's own fresh home, in every string of a config.

>>> task = load_task("030eeff7")
>>> task.domain, task.env_name, task.evaluator.funcs
('chrome', 'chrome-030eeff7', ('exact_match',))
>>> localize({"path": "/home/user/Desktop/a.txt", "other": "/home/username"}, "/tmp/h")
{'path': '/tmp/h/Desktop/a.txt', 'other': '/home/username'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from gcc_envs.errors import DataError

#: The home folder OSWorld's task files assume.
OSWORLD_HOME = "/home/user"
_HOME_PREFIX = re.compile(r"/home/user(?=/|$|['\"\s;:)])")
#: OSWorld's domains (the folders of its task files).
DOMAINS = ("chrome", "gimp", "libreoffice_calc", "libreoffice_impress", "libreoffice_writer",
           "multi_apps", "os", "thunderbird", "vlc", "vs_code")  # fmt: skip


@dataclass(frozen=True)
class Step:
    """One setup or postconfig step: OSWorld's ``type`` and its ``parameters``."""

    kind: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class Evaluator:
    """How a task is scored: metrics over getter results, combined by ``conj``."""

    #: Metric names, one per slot (a single ``func`` is a one-slot list).
    funcs: tuple[str, ...]
    #: Result getter configs, one per slot (``{}`` where the file gives none).
    results: tuple[Mapping[str, Any], ...]
    #: Expected getter configs, one per slot (``{}`` where the file gives none).
    expected: tuple[Mapping[str, Any], ...]
    #: Metric keyword options, one per slot.
    options: tuple[Mapping[str, Any], ...]
    #: ``"and"`` or ``"or"`` (several slots).
    conj: str = "and"
    #: Steps run after the agent's last action, before the getters.
    postconfig: tuple[Step, ...] = ()

    @property
    def infeasible(self) -> bool:
        """Whether only a final ``FAIL`` succeeds."""
        return self.funcs == ("infeasible",)


@dataclass(frozen=True)
class OSWorldTask:
    """One OSWorld task, parsed and validated."""

    id: str
    domain: str
    instruction: str
    config: tuple[Step, ...]
    evaluator: Evaluator
    related_apps: tuple[str, ...] = ()
    snapshot: str = ""
    source: str = ""
    #: Where it was read from (a path, ``"<dict>"``).
    origin: str = ""
    #: The task file's JSON object as read (sent to a remote episode server).
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def id8(self) -> str:
        return self.id[:8]

    @property
    def env_name(self) -> str:
        """The registered id's suffix: ``GCC/OSWorld-<domain>-<id8>``."""
        return f"{self.domain}-{self.id8}"


def _steps(raw: Any, where: str) -> tuple[Step, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise DataError(f"{where}: must be a list of steps, got {type(raw).__name__}")
    out = []
    for i, step in enumerate(raw):
        if not isinstance(step, Mapping) or not isinstance(step.get("type"), str):
            raise DataError(f"{where}[{i}]: a step is an object with a string 'type'")
        params = step.get("parameters", {})
        if not isinstance(params, Mapping):
            raise DataError(f"{where}[{i}]: 'parameters' must be an object")
        out.append(Step(step["type"], dict(params)))
    return tuple(out)


def _slots(raw: Any, n: int, where: str) -> tuple[Mapping[str, Any], ...]:
    if raw is None:
        return ({},) * n
    items = raw if isinstance(raw, list) else [raw]
    if len(items) > n or not all(isinstance(x, Mapping) for x in items):
        raise DataError(f"{where}: expected up to {n} objects, got {raw!r:.120}")
    return tuple(dict(x) for x in items) + ({},) * (n - len(items))


def _evaluator(raw: Any, where: str) -> Evaluator:
    if not isinstance(raw, Mapping):
        raise DataError(f"{where}: 'evaluator' must be an object")
    func = raw.get("func")
    funcs = tuple(func) if isinstance(func, list) else (func,)
    if not funcs or not all(isinstance(f, str) and f for f in funcs):
        raise DataError(f"{where}: evaluator.func must be a metric name or a list of them")
    conj = raw.get("conj", "and")
    if conj not in ("and", "or"):
        raise DataError(f"{where}: evaluator.conj must be 'and' or 'or', got {conj!r}")
    n = len(funcs)
    return Evaluator(
        funcs=funcs,
        results=_slots(raw.get("result"), n, f"{where}: evaluator.result"),
        expected=_slots(raw.get("expected"), n, f"{where}: evaluator.expected"),
        options=_slots(raw.get("options"), n, f"{where}: evaluator.options"),
        conj=conj,
        postconfig=_steps(raw.get("postconfig"), f"{where}: evaluator.postconfig"),
    )


def parse_task(
    data: Mapping[str, Any], domain: str = "custom", origin: str = "<dict>"
) -> OSWorldTask:
    """Validate a task file's JSON object (a :class:`DataError` names the field)."""
    if not isinstance(data, Mapping):
        raise DataError(f"{origin}: a task file is a JSON object, got {type(data).__name__}")
    for key in ("id", "instruction"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise DataError(f"{origin}: {key!r} must be a non-empty string")
    if not re.fullmatch(r"[\w.-]{1,100}", data["id"]):
        raise DataError(f"{origin}: 'id' may hold only letters, digits, '_', '-' and '.'")
    if "evaluator" not in data:
        raise DataError(f"{origin}: no 'evaluator'")
    apps = data.get("related_apps", [])
    return OSWorldTask(
        id=data["id"],
        domain=domain,
        instruction=data["instruction"],
        config=_steps(data.get("config"), f"{origin}: config"),
        evaluator=_evaluator(data["evaluator"], origin),
        related_apps=tuple(a for a in apps if isinstance(a, str)) if isinstance(apps, list) else (),
        snapshot=str(data.get("snapshot", "")),
        source=str(data.get("source", "")),
        origin=origin,
        raw=json.loads(json.dumps(data)),
    )


def _bundled_root() -> Any:
    return resources.files("gcc_envs.osworld") / "data" / "tasks"


def bundled_paths() -> Iterator[tuple[str, Any]]:
    """``(domain, file)`` of every bundled task file, sorted by domain and id."""
    root = _bundled_root()
    for domain in DOMAINS:
        if not root.joinpath(domain).is_dir():
            continue
        files = [f for f in root.joinpath(domain).iterdir() if f.name.endswith(".json")]
        for f in sorted(files, key=lambda f: f.name):
            yield domain, f


def bundled_tasks() -> tuple[OSWorldTask, ...]:
    """The 45 bundled tasks, sorted by domain and id."""
    return tuple(_read(f, domain) for domain, f in bundled_paths())


def _read(file: Any, domain: str) -> OSWorldTask:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DataError(f"{file}: cannot read the task file: {e}") from e
    return parse_task(data, domain, str(file))


def load_task(source: str | Path | Mapping[str, Any], domain: str | None = None) -> OSWorldTask:
    """A task from a file path, a bundled id (or its first 8+ characters) or a dict."""
    if isinstance(source, Mapping):
        return parse_task(source, domain or "custom")
    if not isinstance(source, (str, Path)):
        raise DataError(f"a task is a path, an id or a dict, got {type(source).__name__}")
    path = Path(source)
    if path.suffix == ".json" or path.exists():
        if not path.is_file():
            raise DataError(f"{path}: no such task file")
        parent = path.parent.name
        return _read(path, domain or (parent if parent in DOMAINS else "custom"))
    key = str(source)
    if len(key) >= 8:
        found = [(d, f) for d, f in bundled_paths() if f.name.startswith(key)]
        if len(found) == 1:
            d, f = found[0]
            return _read(f, domain or d)
    raise DataError(f"{key!r} is neither a task file nor the id of a bundled task")


def localize(value: Any, home: str | Path) -> Any:
    """``value`` with OSWorld's ``/home/user`` (and a leading ``~/``) mapped to ``home``."""
    home = str(home)
    if isinstance(value, str):
        value = _HOME_PREFIX.sub(lambda _: home, value)
        return home + value[1:] if value == "~" or value.startswith("~/") else value
    if isinstance(value, Mapping):
        return {k: localize(v, home) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(localize(v, home) for v in value)
    return value
