"""The pyautogui ``python -c`` snippets of OSWorld's task files, read as input — never run.

Some setup steps click or type to prepare the screen (``python -c "import pyautogui;
pyautogui.press('esc')"``). Input stays with the env's process, which owns the screen, so such
a snippet is read with the safe parser (:func:`gcc_envs.core.code.parse_code`) and its events
are sent; every other ``python -c`` runs in the episode's sandbox like any command.

>>> pyautogui_events(["python", "-c", "import pyautogui; pyautogui.press('esc')"])
(KeyPress(key='esc', hold_s=0.05),)
>>> pyautogui_events(["python3", "-c", "import json; print(1)"]) is None
True
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from gcc_envs.core.code import parse_code
from gcc_envs.core.events import Event
from gcc_envs.errors import CodeActionError

#: The interpreter names a snippet is run with in task files.
PYTHONS = frozenset({"python", "python3"})


def pyautogui_events(argv: Sequence[str]) -> tuple[Event, ...] | None:
    """The events of ``python -c CODE`` when CODE is pyautogui input; None for anything else.

    Pyautogui code the safe parser refuses (loops, names, ...) raises
    :class:`~gcc_envs.errors.CodeActionError` with the reason.
    """
    if len(argv) != 3 or argv[0].rsplit("/", 1)[-1] not in PYTHONS or argv[1] != "-c":
        return None
    code = argv[2]
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None  # python itself says what is wrong, in the sandbox
    imports = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    if "pyautogui" not in imports:
        return None
    try:
        actions = parse_code(code)
    except CodeActionError as e:
        raise CodeActionError(f"python -c pyautogui code refused by the safe parser: {e}") from None
    return tuple(a for a in actions if isinstance(a, Event))
