"""The common setup step kinds of desktop suites, and the runner that applies a task's steps.

A step is data (``SetupStep(kind, args)`` from a task table). Its string arguments may name
the episode's values as ``$name`` / ``${name}`` (``string.Template``: no attribute access, no
code; a ``$`` that starts no name stays as it is): ``$home`` is the episode's home, and steps such as ``http_server`` add values (its URL).
A suite adds kinds of its own through ``SuiteSpec.setup_steps``.

Kinds: ``choose(name, options)`` (seeded), ``launch(argv, window=None, timeout_s=20)``, ``command(argv, timeout_s=10,
check=True)``, ``write_file(path, text, name=None)``, ``mkdir(path, name=None)``,
``wait_window(title, timeout_s=20)`` (and make it the target), ``sleep(seconds)`` (≤ 10 s),
``http_server(dir, name="url")`` (serves a folder of the home on 127.0.0.1).
"""

from __future__ import annotations

import string
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gcc_envs.apps.session import DesktopSession
from gcc_envs.core.spec import SetupStep
from gcc_envs.core.templates import template_fields
from gcc_envs.errors import DataError, GCCError

StepFn = Callable[..., None]


def expand(value: Any, values: Mapping[str, str]) -> Any:
    """``value`` with ``$name`` placeholders filled from ``values`` (lists and dicts too).

    >>> expand(["open", "$home/a.txt", "${url}/x"], {"home": "/h", "url": "http://l:1"})
    ['open', '/h/a.txt', 'http://l:1/x']
    """
    if isinstance(value, str):
        template = string.Template(value)
        unknown = sorted(n for n in template_fields(template) if n not in values)
        if unknown:
            raise DataError(f"setup value {value!r} names unknown values {unknown}")
        return template.safe_substitute(values)  # a lone '$' (a regex's end) stays
    if isinstance(value, list):
        return [expand(v, values) for v in value]
    if isinstance(value, dict):
        return {k: expand(v, values) for k, v in value.items()}
    return value


def _argv(argv: Any) -> list[str]:
    if isinstance(argv, str) or not isinstance(argv, Sequence) or not argv:
        raise DataError(f"argv must be a non-empty list of strings (no shell), got {argv!r}")
    return [str(a) for a in argv]


def launch(
    s: DesktopSession, argv: Any, window: str | None = None, timeout_s: float = 20.0
) -> None:
    s.launch(_argv(argv), window=window, timeout_s=float(timeout_s))


def command(s: DesktopSession, argv: Any, timeout_s: float = 10.0, check: bool = True) -> None:
    result = s.run(_argv(argv), timeout_s=float(timeout_s))
    if check and (result.timed_out or result.returncode != 0):
        why = "timed out" if result.timed_out else f"exited with {result.returncode}"
        raise GCCError(f"setup command {argv[0]!r} {why}: {result.stderr.strip()[:300]}")


def write_file(s: DesktopSession, path: str, text: str, name: str | None = None) -> None:
    full = _inside(s, path)
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(text)
    if name:
        s.files[name] = full


def mkdir(s: DesktopSession, path: str, name: str | None = None) -> None:
    full = _inside(s, path)
    full.mkdir(parents=True, exist_ok=True)
    if name:
        s.files[name] = full


def wait_window(s: DesktopSession, title: str, timeout_s: float = 20.0) -> None:
    s.focus(title, timeout_s=float(timeout_s))


def sleep(s: DesktopSession, seconds: float) -> None:
    if not 0 <= float(seconds) <= 10:
        raise DataError(f"sleep takes 0..10 seconds, got {seconds!r}")
    time.sleep(float(seconds))


def http_server(s: DesktopSession, dir: str, name: str = "url") -> None:
    """Serve a folder of the home read-only on 127.0.0.1 (Python's ``http.server``)."""
    folder = _inside(s, dir)
    port = s.free_port()
    argv = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    s.start_server([*argv, "--directory", str(folder)], port=port)
    s.vars[name] = f"http://127.0.0.1:{port}"


def choose(s: DesktopSession, name: str, options: list[Any]) -> None:
    """Pick one of ``options`` with the episode's seeded generator into the value ``name``
    (what the seed varies: a file name, a phrase, a page)."""
    if not isinstance(options, list) or not options:
        raise DataError(f"choose {name!r}: options must be a non-empty list")
    pick = options[int(s.rng.integers(len(options)))]
    if isinstance(pick, dict):  # several values chosen together: name_key = value
        for k, v in pick.items():
            s.vars[f"{name}_{k}"] = str(v)
    else:
        s.vars[name] = str(pick)


COMMON: Mapping[str, StepFn] = {
    "choose": choose,
    "launch": launch,
    "command": command,
    "write_file": write_file,
    "mkdir": mkdir,
    "wait_window": wait_window,
    "sleep": sleep,
    "http_server": http_server,
}


def run_setup(
    session: DesktopSession,
    steps: Sequence[SetupStep],
    kinds: Mapping[str, StepFn] | None = None,
) -> None:
    """Apply ``steps`` in order with the common kinds plus ``kinds``; errors name the step."""
    table = {**COMMON, **(kinds or {})}
    for i, step in enumerate(steps):
        fn = table.get(step.kind)
        if fn is None:
            raise DataError(
                f"setup step {i + 1}: unknown kind {step.kind!r}; known: {sorted(table)}"
            )
        args = expand(dict(step.args), {**session.vars, "home": str(session.home)})
        try:
            fn(session, **args)
        except TypeError as e:
            raise DataError(
                f"setup step {i + 1} ({step.kind}): bad arguments {args}: {e}"
            ) from None


def _inside(s: DesktopSession, path: str) -> Path:
    full = (s.home / path).resolve()
    if s.home.resolve() not in full.parents:
        raise DataError(f"setup path {path!r} leaves the episode's home")
    return full
