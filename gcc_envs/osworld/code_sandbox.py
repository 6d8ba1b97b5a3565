"""``code="sandbox"``: an agent's Python action run as OSWorld runs it — but inside the episode.

OSWorld's ``pyautogui`` action space is Python that runs in its VM: agents write loops,
assignments, imports and helper functions around their ``pyautogui`` calls. By default this
package reads such code with its safe parser (literal calls only; anything else is refused
whole). With ``code="sandbox"`` the code runs for real — as the episode's user, inside the
episode's sandbox (its home, its loopback, its display; nothing else), in a fresh Python
with ``pyautogui`` imported, under a deadline (:data:`CODE_TIMEOUT_S`) and a size limit on
the code (:data:`MAX_CODE_CHARS`). ``pyautogui``'s input goes to the episode's X server; keys
and buttons the code leaves held are released after it (the env releases every key the X
server reports down). What the code prints is kept; a non-zero exit or the deadline is the
step's error (``info["last_action_error"]``), never an exception in the env's process.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from gcc_envs.errors import GCCError, InvalidActionError

#: Longest an action's code may run (OSWorld's own controller gives a command 30 s or so).
CODE_TIMEOUT_S = 30.0
#: Longest code text accepted (an agent's action, not a program).
MAX_CODE_CHARS = 64_000
#: The ways code actions are read: parsed (literal calls, the default) or run in the sandbox.
CODE_MODES = ("parse", "sandbox")
#: OSWorld's special actions: never code.
SIGNALS = ("DONE", "FAIL", "WAIT")

#: What runs the action inside the sandbox: pyautogui without its fail-safe corner and with
#: OSWorld's pause, then the action's code as ``__main__``.
_RUNNER = """
import sys, time
import pyautogui
pyautogui.FAILSAFE = False
pyautogui.PAUSE = 0.1
code = sys.argv[1]
namespace = {"__name__": "__main__", "pyautogui": pyautogui, "time": time}
exec(compile(code, "<action>", "exec"), namespace)
"""


@dataclass(frozen=True)
class CodeResult:
    """What running an action's code gave: its error (None when it ran to its end) and output."""

    error: str | None
    stdout: str = ""


def check_mode(code: Any) -> str:
    """``code`` when it is one of :data:`CODE_MODES` (a :class:`GCCError` names them if not)."""
    if code not in CODE_MODES:
        raise GCCError(f"code must be one of {CODE_MODES}, got {code!r}")
    return str(code)


def run_code(episode: Any, code: str, timeout_s: float = CODE_TIMEOUT_S) -> CodeResult:
    """Run ``code`` in ``episode``'s sandbox (an :class:`~gcc_envs.osworld.runtime.Episode`),
    then release whatever input it left held."""
    if not isinstance(code, str):
        raise InvalidActionError(f"code actions are text, got {type(code).__name__}")
    if len(code) > MAX_CODE_CHARS:
        raise InvalidActionError(f"the code is {len(code)} characters; at most {MAX_CODE_CHARS}")
    if "\0" in code:
        raise InvalidActionError("the code contains a NUL character")
    try:
        result = episode.run([sys.executable, "-c", _RUNNER, code], timeout_s)
    finally:
        backend = getattr(episode.session, "backend", None)
        if backend is not None and hasattr(backend, "release_display_input"):
            backend.release_display_input()
    if result.timed_out:
        return CodeResult(f"the code ran past {timeout_s:g} s and was stopped", result.stdout)
    if result.returncode:
        tail = result.stderr.strip().splitlines()[-3:]
        return CodeResult(f"the code failed (exit status {result.returncode}): " + " | ".join(tail), result.stdout)  # fmt: skip
    return CodeResult(None, result.stdout)
