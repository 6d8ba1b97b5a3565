"""Small readers the twins' checkers share, all through a :class:`DesktopProbe`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gcc_envs.core.probe import DesktopProbe

#: Where a twin's setup leaves what its checker must know (the episode's answer key).
ANSWER = ".cache/gcc-task/answer.json"


def files_in(probe: DesktopProbe, folder: str) -> list[str]:
    """Names of the plain files directly in ``folder`` under the home (``[]`` when none)."""
    if not probe.exists(folder):
        return []
    r = probe.run(["find", str(probe.home / folder), "-maxdepth", "1", "-type", "f",
                   "-printf", "%f\\n"])  # fmt: skip
    return sorted(n for n in r.stdout.splitlines() if n) if r.returncode == 0 else []


def answer(probe: DesktopProbe) -> dict[str, Any]:
    """The answer key the setup wrote (``{}`` when there is none)."""
    if not probe.exists(ANSWER):
        return {}
    return json.loads(probe.read_file(ANSWER))


def write_answer(home: Path, **values: Any) -> None:
    """Merge ``values`` into the episode's answer key (setup steps call this)."""
    path = home / ANSWER
    path.parent.mkdir(parents=True, exist_ok=True)
    old = json.loads(path.read_text()) if path.is_file() else {}
    path.write_text(json.dumps({**old, **values}))


def jsonl(probe: DesktopProbe, path: str) -> list[dict[str, Any]]:
    """The records of a JSON-lines file under the home (``[]`` when missing)."""
    if not probe.exists(path):
        return []
    lines = probe.read_file(path).decode("utf-8", "replace").splitlines()
    return [json.loads(line) for line in lines if line.strip()]
