"""The ``python -c`` snippets of OSWorld's task files, recognised as data — never executed.

Three kinds occur: pyautogui input (clicks and keys that prepare the screen), an edit of a JSON
file (``d.setdefault('a', {})['b'] = 2``), and setting one ``key=value`` line of a config
file with ``re.sub``. :func:`recognise` reads the code with ``ast`` and returns what it asks
for as a typed operation, or raises :class:`ShellError` for anything else; the host then
carries the operation out with its own confined file and input functions.

>>> recognise("import pyautogui; pyautogui.press('esc')")
SendEvents(events=(KeyPress(key='esc', hold_s=0.05),))
>>> recognise("import json; p='/h/P'; d=json.load(open(p)); d.setdefault('a', {})['b'] = 2; "
...           "json.dump(d, open(p, 'w'))")
EditJson(path='/h/P', sets=((('a', 'b'), 2),))
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from gcc_envs.core.code import parse_code
from gcc_envs.core.events import Event
from gcc_envs.errors import CodeActionError
from gcc_envs.osworld.shell_parse import ShellError


@dataclass(frozen=True)
class SendEvents:
    """Input to send to the screen (screen pixels)."""

    events: tuple[Event, ...]


@dataclass(frozen=True)
class EditJson:
    """Set ``keys`` paths of the JSON object in ``path`` (creating objects on the way)."""

    path: str
    sets: tuple[tuple[tuple[str, ...], Any], ...]


@dataclass(frozen=True)
class SetLine:
    """Make ``key=value`` a line of the text file at ``home/relative`` (replacing ``#key=...``)."""

    relative: str
    key: str
    value: str


Snippet = SendEvents | EditJson | SetLine


def recognise(code: str) -> Snippet:
    """What a ``python -c`` snippet asks for (a :class:`ShellError` if it is no known kind)."""
    if not isinstance(code, str) or len(code) > 20_000:
        raise ShellError("python -c needs code text of at most 20000 characters")
    try:
        tree = ast.parse(code)
    except SyntaxError as e:
        raise ShellError(f"python -c: syntax error: {e.msg}") from None
    imports = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    if "pyautogui" in imports:
        try:
            actions = parse_code(code)
        except CodeActionError as e:
            raise ShellError(f"python -c pyautogui code refused by the safe parser: {e}") from None
        return SendEvents(tuple(a for a in actions if isinstance(a, Event)))
    if imports == {"json"}:
        return _json_edit(tree)
    if imports <= {"pathlib", "re"} and "pathlib" in imports:
        return _set_line(tree)
    raise ShellError(
        "python -c code is not run here; only pyautogui input, JSON edits and config-line "
        f"edits are recognised (imports: {sorted(imports) or 'none'})"
    )


def _const(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ShellError("python -c JSON edit: values must be literals") from None


def _json_edit(tree: ast.Module) -> EditJson:
    path: str | None = None
    sets: list[tuple[tuple[str, ...], Any]] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
            if isinstance(target, ast.Name) and isinstance(value, ast.Constant):
                path = value.value if isinstance(value.value, str) else None
                continue
            if isinstance(target, ast.Name) and ast.unparse(value) == "json.load(open(p))":
                continue
            if isinstance(target, ast.Subscript):
                sets.append((_key_path(target), _const(value)))
                continue
        if isinstance(stmt, ast.Expr) and ast.unparse(stmt.value) == "json.dump(d, open(p, 'w'))":
            continue
        raise ShellError(f"python -c JSON edit: statement {ast.unparse(stmt)!r:.80} not recognised")
    if path is None or not sets:
        raise ShellError("python -c JSON edit: no file or no assignment found")
    return EditJson(path, tuple(sets))


def _key_path(node: ast.expr) -> tuple[str, ...]:
    """``d['a']['b']`` or ``d.setdefault('a', {}).setdefault('b', {})['c']`` → keys."""
    keys: list[str] = []
    while True:
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            keys.append(str(node.slice.value))
            node = node.value
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "setdefault"
            and len(node.args) == 2
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[1], ast.Dict)
            and not node.args[1].keys
        ):
            keys.append(str(node.args[0].value))
            node = node.func.value
        elif isinstance(node, ast.Name) and node.id == "d":
            return tuple(reversed(keys))
        else:
            raise ShellError(
                f"python -c JSON edit: target {ast.unparse(node)!r:.80} not recognised"
            )


#: Calls a config-line edit may make (anything else means the snippet is some other program).
_LINE_CALLS = {"pathlib.Path.home", "p.parent.mkdir", "p.exists", "p.read_text", "re.sub",
               "re.search", "txt.endswith", "p.write_text"}  # fmt: skip


def _set_line(tree: ast.Module) -> SetLine:
    relative = None
    key = value = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if name not in _LINE_CALLS:
                raise ShellError(f"python -c config edit: call {name!r} not recognised")
            if name == "re.sub" and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
                m = re.fullmatch(r"([\w.-]+)=(.*)", str(node.args[1].value))
                if m:
                    key, value = m.group(1), m.group(2)
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Div)
            and ast.unparse(node.left) == "pathlib.Path.home()"
            and isinstance(node.right, ast.Constant)
        ):
            relative = str(node.right.value)
    if relative is None or key is None or value is None:
        raise ShellError("python -c config edit: no file under the home or no key=value found")
    return SetLine(relative, key, value)
