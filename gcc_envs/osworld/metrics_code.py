"""OSWorld's checks of a program's files: its test suite passes
(``check_python_file_by_test_suite``), its text is the gold's (``compare_python_pure_text``),
its printed result is the expected one (``compare_result_files``); in :data:`CODE_METRICS`.

Semantics follow OSWorld's functions of the same names (``vscode.py``, ``general.py``); the
code is this project's. The difference: ``check_python_file_by_test_suite`` runs the test
suite and the agent's files in a throwaway sandbox
(:func:`~gcc_envs.sandbox.isolated.run_isolated`: its own user, an empty home, no network, no
display, SDL's dummy video and audio drivers), never in this process, where OSWorld imports
them into the evaluator's own; a suite that runs past :data:`TEST_TIMEOUT_S` raises (scored 0
with a note) where OSWorld would wait.

>>> compare_result_files("The median is 25.50\\n", "25.50")
1.0
>>> compare_python_pure_text("#!/usr/bin/env python\\nx = 1\\n\\n\\ty = 2  \\n", "x = 1\\n    y = 2\\n")
1.0
"""

from __future__ import annotations

import base64
import json
import logging
import sys
from typing import Any

from gcc_envs.osworld.filedata import FileData, file_bytes
from gcc_envs.osworld.metrics_text import file_text, score

log = logging.getLogger(__name__)
#: How long a task's test suite may run in its sandbox.
TEST_TIMEOUT_S = 120.0
#: First-line markers ``compare_python_pure_text`` skips (in the first three lines).
_PREAMBLE = ("#!", "# -*- coding:", "# coding:", "# coding=")


def compare_result_files(result: Any, expected: Any) -> float:
    """The result file says the expected one's content (both stripped): equal text; or, when
    the expected is a number, holds its text, or is a number within 1e-4 of it."""
    actual, wanted = file_text(result), file_text(expected)
    if actual is None or wanted is None:
        return 0.0
    actual, wanted = actual.strip(), wanted.strip()
    try:
        number = float(wanted)
    except ValueError:
        return score(actual == wanted)
    if wanted in actual:
        return 1.0
    try:
        return score(abs(float(actual) - number) < 1e-4)
    except ValueError:
        return 0.0


def _pure(text: str) -> list[str]:
    """Non-blank lines, tabs expanded to 4 columns and right-stripped, after a shebang or
    coding line among the first three."""
    lines = text.splitlines()
    start = 0
    while start < min(3, len(lines)) and lines[start].strip().startswith(_PREAMBLE):
        start += 1
    return [ln.expandtabs(4).rstrip() for ln in lines[start:] if ln.strip()]


def compare_python_pure_text(result: Any, expected: Any) -> float:
    """The files hold the same lines once blank lines, trailing blanks, tabs and a leading
    shebang or coding line are set aside (:func:`_pure`); either not UTF-8: 0."""
    try:
        actual, wanted = file_text(result), file_text(expected)
    except UnicodeDecodeError:
        return 0.0
    if actual is None or wanted is None:
        return 0.0
    return score(_pure(actual) == _pure(wanted))


# ---- a program's test suite ----------------------------------------------------------------

#: Runs inside the sandbox: unpacks the files (JSON on stdin), imports the test suite, calls
#: its function and writes the verdict as the last line of stdout (the test's output goes to
#: stderr).
RUNNER = r"""
import base64, importlib.util, json, os, sys
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
job = json.load(sys.stdin)
for name, data in job["files"].items():
    with open(name, "wb") as f:
        f.write(base64.b64decode(data))
sys.path.insert(0, os.getcwd())
out = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
try:
    spec = importlib.util.spec_from_file_location("osworld_test_suite", job["test"])
    module = importlib.util.module_from_spec(spec)
    sys.modules["osworld_test_suite"] = module
    spec.loader.exec_module(module)
    value = getattr(module, job["function"])()
    if isinstance(value, bool):
        verdict = {"score": float(value)}
    elif isinstance(value, (int, float)):
        verdict = {"score": max(0.0, min(1.0, float(value)))}
    else:
        verdict = {"score": float(bool(value))}
except BaseException as e:
    verdict = {"error": type(e).__name__ + ": " + str(e)[:300]}
out.write("\n" + json.dumps(verdict) + "\n")
out.flush()
os._exit(0)
"""


def check_python_file_by_test_suite(
    result: Any, expected: Any, test_function_name: str = "test"
) -> float:
    """The test suite (``expected``, a Python file) beside the agent's files (``result``, one
    or a list; missing ones left out) passes: its ``test_function_name`` function returns
    true, or a number (clipped to [0, 1]). Run in a throwaway sandbox (module docstring); an
    error in the suite or the agent's code scores 0."""
    if file_bytes(expected) is None:
        return 0.0
    files = result if isinstance(result, (list, tuple)) else [result]
    payload: dict[str, str] = {}
    for f in [*files, expected]:
        if f is None:
            continue
        if not isinstance(f, FileData):
            raise TypeError("check_python_file_by_test_suite: files must come from a file getter")
        payload[f.name] = base64.b64encode(f.data).decode()
    job = {"files": payload, "test": expected.name, "function": test_function_name}
    from gcc_envs.sandbox.isolated import run_isolated

    code, out, err = run_isolated(
        [sys.executable, "-I", "-c", RUNNER], json.dumps(job).encode(),
        timeout_s=TEST_TIMEOUT_S, max_output=4 << 20,
    )  # fmt: skip
    lines = out.decode("utf-8", "replace").strip().splitlines()
    try:
        verdict = json.loads(lines[-1]) if lines else {}
    except json.JSONDecodeError:
        verdict = {}
    if "score" not in verdict:
        why = verdict.get("error") or f"exit status {code}: {err.decode('utf-8', 'replace')[-300:]}"
        log.info("check_python_file_by_test_suite: the suite failed (%s)", why)
        return 0.0
    return float(verdict["score"])


CODE_METRICS = {
    "check_python_file_by_test_suite": check_python_file_by_test_suite,
    "compare_python_pure_text": compare_python_pure_text,
    "compare_result_files": compare_result_files,
}
