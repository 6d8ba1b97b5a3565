"""The safe parser of agent code: pyautogui calls, skill calls and WAIT/FAIL/DONE → events.

Agent answers are data, never code to run. :func:`parse_code` reads them with ``ast.parse`` and
walks the tree against a whitelist: one call per statement — ``pyautogui.<function>(...)``,
``time.sleep(s)`` or a skill ``name(...)`` — with literal arguments, or a bare ``WAIT``,
``FAIL`` or ``DONE``. Everything else is a :class:`CodeActionError` naming the line and what was
refused. Nothing is executed, evaluated or compiled to run.

>>> parse_code("pyautogui.click(100, 200); time.sleep(0.5)\\nDONE")
[Click(x=100, y=200, button='left', count=1), Wait(seconds=0.5), Done()]
>>> parse_code("pyautogui.keyDown('w'); time.sleep(1.5); pyautogui.keyUp('w')")
[KeyPress(key='w', hold_s=1.5)]
"""

from __future__ import annotations

import ast
import inspect
import re
import textwrap
import warnings
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

from gcc_envs.core import events as ev
from gcc_envs.core.events import Event
from gcc_envs.core.expand import event_seconds
from gcc_envs.core.program import MAX_PROGRAM_S
from gcc_envs.core.skills import Skill, SkillCall
from gcc_envs.errors import CodeActionError, InvalidActionError

MAX_CODE_CHARS = 20_000  #: longest code text accepted, in characters
MAX_STATEMENTS = 200  #: most statements in one text
MAX_DEPTH = 4  #: deepest nesting of list/tuple literals in an argument
MAX_EVENTS = 1000  #: most events and skill calls one text may produce
MAX_REPEAT = 100  #: largest ``presses`` / ``clicks`` count of one call
MAX_NUMBER = 1e6  #: largest magnitude of a number literal
MAX_STR = 1000  #: longest string literal, in characters
MAX_LISTED = 20  #: how many skill names an "unknown skill" message lists

Action = Event | SkillCall

_TOKENS: dict[str, Callable[[], Event]] = {
    "WAIT": lambda: ev.Wait(1.0), "FAIL": ev.Fail, "DONE": ev.Done
}  # fmt: skip
_RULE = (
    "write one call per statement — pyautogui.<function>(...), time.sleep(s) or a skill — with "
    "literal arguments, or WAIT, FAIL, DONE"
)
_ARG_RULE = "arguments must be literals (numbers, strings, True/False/None, lists of them)"
_WHAT = {
    "Import": "import", "ImportFrom": "import", "Assign": "assignment", "AugAssign": "assignment",
    "AnnAssign": "assignment", "NamedExpr": "walrus (:=)", "For": "for loop", "While": "while loop",
    "If": "if statement", "FunctionDef": "function definition", "ClassDef": "class definition",
    "Lambda": "lambda", "ListComp": "comprehension", "Attribute": "attribute access",
    "Name": "name", "Subscript": "subscript", "BinOp": "arithmetic", "Call": "nested call",
    "Starred": "starred argument (*args)", "JoinedStr": "f-string with expressions",
    "Constant": "bare value",
}  # fmt: skip


def _what(node: ast.AST) -> str:
    kind = type(node).__name__
    what = _WHAT.get(kind, f"{kind} {'statement' if isinstance(node, ast.stmt) else 'expression'}")
    if isinstance(node, ast.Name):
        what += f" {node.id!r}"
    elif isinstance(node, ast.Attribute):
        what += f" '.{node.attr}'"
    return what


def _refused(node: ast.AST, rule: str = _RULE) -> CodeActionError:
    return CodeActionError(f"{_what(node)} is not allowed: {rule}")


# ---- literals ------------------------------------------------------------------------------


def _constant(value: object) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        if not abs(value) <= MAX_NUMBER:  # also refuses inf and nan; no float() of huge ints
            raise CodeActionError(f"number out of range: |x| must be at most {MAX_NUMBER:g}")
        return value
    if isinstance(value, str):
        if len(value) > MAX_STR:
            raise CodeActionError(f"string literal longer than {MAX_STR} characters")
        return value
    raise CodeActionError(f"{type(value).__name__} literal is not allowed: {_ARG_RULE}")


def _literal(node: ast.expr, depth: int = 0) -> Any:
    """The value of a literal argument; lists and tuples become tuples."""
    if depth > MAX_DEPTH:
        raise CodeActionError(f"literal nested deeper than {MAX_DEPTH} levels")
    if isinstance(node, ast.Constant):
        return _constant(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = node.operand
        if isinstance(v, ast.Constant) and type(v.value) in (int, float):
            return _constant(-v.value if isinstance(node.op, ast.USub) else v.value)
        raise CodeActionError(f"a sign may only prefix a number: {_ARG_RULE}")
    if isinstance(node, (ast.List, ast.Tuple)):
        return tuple(_literal(e, depth + 1) for e in node.elts)
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        return _constant("".join(v.value for v in node.values))  # type: ignore[attr-defined]
    raise _refused(node, _ARG_RULE)


def _arguments(call: ast.Call) -> tuple[tuple[Any, ...], dict[str, Any]]:
    args = tuple(_literal(a) for a in call.args)
    kwargs: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg is None:
            raise CodeActionError(f"keyword unpacking (**kwargs) is not allowed: {_ARG_RULE}")
        kwargs[kw.arg] = _literal(kw.value)
    return args, kwargs


# ---- pyautogui functions (real pyautogui signatures, minus tween/logScreenshot/_pause) ------


def _num(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise CodeActionError(f"{what} must be a non-negative number, got {value!r}")
    return float(value)


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_REPEAT:
        raise CodeActionError(f"{what} must be an int from 0 to {MAX_REPEAT}, got {value!r}")
    return value


def _button(value: Any) -> str:
    value = {"primary": "left", "secondary": "right"}.get(value, value)
    if value not in ev.BUTTONS:
        raise CodeActionError(f"button must be one of {ev.BUTTONS}, got {value!r}")
    return str(value)


def _point(x: Any, y: Any) -> tuple[Any, Any] | None:
    if isinstance(x, tuple) and len(x) == 2 and y is None:  # moveTo((x, y))
        x, y = x
    if (x is None) != (y is None):
        raise CodeActionError("give both x and y, or neither")
    return None if x is None else (x, y)


def _at(x: Any, y: Any) -> tuple[Any, Any]:
    point = _point(x, y)
    if point is None:
        raise CodeActionError("x and y are required")
    return point


def _moved(x: Any, y: Any, duration: Any) -> list[Event]:
    point = _point(x, y)
    return [] if point is None else [ev.MoveTo(*point, duration)]


def _keys(keys: Any, repeat: int = 1) -> tuple[Any, ...]:
    keys = (keys,) if isinstance(keys, str) else keys
    if not isinstance(keys, tuple):
        raise CodeActionError(f"keys must be a key name or a list of them, got {keys!r}")
    if len(keys) * repeat > MAX_EVENTS:
        raise CodeActionError(f"more than {MAX_EVENTS} key presses in one call")
    return keys


def _spaced(groups: list[list[Event]], gap: float) -> list[Event]:
    """The groups' events in order, with a ``Wait(gap)`` between groups when ``gap > 0``."""
    out: list[Event] = []
    for i, group in enumerate(groups):
        out.extend([ev.Wait(gap), *group] if i and gap > 0 else group)
    return out


def _press(keys: Any, presses: Any = 1, interval: Any = 0.0) -> list[Event]:
    n = _count(presses, "presses")
    keys = _keys(keys, n)
    return _spaced([[ev.KeyPress(k)] for _ in range(n) for k in keys], _num(interval, "interval"))


def _hotkey(*keys: Any, interval: Any = 0.0) -> list[Event]:
    _num(interval, "interval")
    return [ev.Hotkey(keys[0] if len(keys) == 1 and isinstance(keys[0], tuple) else keys)]


def _typewrite(message: Any, interval: Any = 0.01) -> list[Event]:
    gap = _num(interval, "interval")
    if isinstance(message, tuple):  # typewrite(['a', 'enter']): a list of key names
        return _spaced([[ev.KeyPress(k)] for k in _keys(message)], gap)
    return [ev.TypeText(message, gap)]


def _move_to(x: Any = None, y: Any = None, duration: Any = 0.0) -> list[Event]:
    return [ev.MoveTo(*_at(x, y), duration)]


def _move_rel(xOffset: Any = None, yOffset: Any = None, duration: Any = 0.0) -> list[Event]:
    return [ev.MoveBy(*_at(xOffset, yOffset), duration)]


def _click(
    x: Any = None, y: Any = None, clicks: Any = 1, interval: Any = 0.0, button: Any = "left",
    duration: Any = 0.0,
) -> list[Event]:  # fmt: skip
    n, gap, button = _count(clicks, "clicks"), _num(interval, "interval"), _button(button)
    point, glide = _point(x, y), _num(duration, "duration") > 0
    if point is not None and 1 <= n <= 3 and gap == 0:
        return [*(_moved(x, y, duration) if glide else []), ev.Click(*point, button, n)]
    taps = [[ev.MouseDown(button), ev.Wait(ev.MIN_TAP_S), ev.MouseUp(button)] for _ in range(n)]
    return _moved(x, y, duration) + _spaced(taps, gap)


def _n_clicks(n: int) -> Callable[..., list[Event]]:
    def click(
        x: Any = None, y: Any = None, interval: Any = 0.0, button: Any = "left", duration: Any = 0.0
    ) -> list[Event]:
        return _click(x, y, n, interval, button, duration)

    return click


def _button_click(button: str) -> Callable[..., list[Event]]:
    def click(x: Any = None, y: Any = None, duration: Any = 0.0) -> list[Event]:
        return _click(x, y, 1, 0.0, button, duration)

    return click


def _mouse(cls: type[ev.MouseDown | ev.MouseUp]) -> Callable[..., list[Event]]:
    def mouse(
        x: Any = None, y: Any = None, button: Any = "left", duration: Any = 0.0
    ) -> list[Event]:
        return [*_moved(x, y, duration), cls(_button(button))]

    return mouse


def _drag_to(
    x: Any = None, y: Any = None, duration: Any = 0.2, *, button: Any = "left"
) -> list[Event]:
    return [ev.DragTo(*_at(x, y), _button(button), duration)]


def _sleep(seconds: Any, /) -> list[Event]:
    return [ev.Wait(seconds)]


# What each pyautogui function makes, with pyautogui's own signature (tween etc. left out).
_PYAUTOGUI: dict[str, Callable[..., list[Event]]] = {
    "press": _press, "hotkey": _hotkey, "typewrite": _typewrite, "write": _typewrite,
    "keyDown": lambda key: [ev.KeyDown(key)],
    "keyUp": lambda key: [ev.KeyUp(key)],
    "moveTo": _move_to, "moveRel": _move_rel, "move": _move_rel, "dragTo": _drag_to,
    "click": _click, "doubleClick": _n_clicks(2), "tripleClick": _n_clicks(3),
    "rightClick": _button_click("right"), "middleClick": _button_click("middle"),
    "mouseDown": _mouse(ev.MouseDown), "mouseUp": _mouse(ev.MouseUp),
    "scroll": lambda clicks, x=None, y=None: [ev.Scroll(dy=clicks, x=x, y=y)],
    "vscroll": lambda clicks, x=None, y=None: [ev.Scroll(dy=clicks, x=x, y=y)],
    "hscroll": lambda clicks, x=None, y=None: [ev.Scroll(dx=clicks, x=x, y=y)],
    "sleep": _sleep,
}  # fmt: skip


def _plain_signature(fn: Callable[..., Any]) -> inspect.Signature:
    """The signature of ``fn`` without annotations: binds calls and reads well in messages."""
    sig = inspect.signature(fn)
    params = [p.replace(annotation=p.empty) for p in sig.parameters.values()]
    return sig.replace(parameters=params, return_annotation=sig.empty)


_CALLS = {f"pyautogui.{k}": v for k, v in _PYAUTOGUI.items()} | {"time.sleep": _sleep}
_SIGNATURES = {name: _plain_signature(fn) for name, fn in _CALLS.items()}


# ---- statements ----------------------------------------------------------------------------


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a short chain of names, else None (computed callee)."""
    parts: list[str] = []
    for _ in range(4):
        if isinstance(node, ast.Name):
            return ".".join([node.id, *reversed(parts)])
        if not isinstance(node, ast.Attribute):
            return None
        parts.append(node.attr)
        node = node.value
    return None


def _unknown(name: str, skills: Mapping[str, Skill]) -> CodeActionError:
    if "." in name:
        return CodeActionError(
            f"calling {name!r} is not allowed; allowed: time.sleep and pyautogui."
            f"{{{', '.join(_PYAUTOGUI)}}}"
        )
    hint = f"; for the pyautogui function write pyautogui.{name}(...)" if name in _PYAUTOGUI else ""
    known = ", ".join(islice(skills, MAX_LISTED)) or "(none)"
    more = f", ... ({len(skills) - MAX_LISTED} more)" if len(skills) > MAX_LISTED else ""
    return CodeActionError(f"unknown skill {name!r}{hint}; known skills: {known}{more}")


def _call(node: ast.Call, skills: Mapping[str, Skill]) -> list[Action]:
    name = _dotted(node.func)
    if name is None:
        what = "the result of a call" if isinstance(node.func, ast.Call) else _what(node.func)
        raise CodeActionError(f"{what} cannot be called: call functions and skills by name")
    is_skill = name not in _CALLS and "." not in name and name in skills
    if name not in _CALLS and not is_skill:
        raise _unknown(name, skills)
    args, kwargs = _arguments(node)
    if not is_skill:
        sig = _SIGNATURES[name]
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise CodeActionError(f"{name}{sig}: {e}") from None
        return list(_CALLS[name](*bound.args, **bound.kwargs))
    return [SkillCall(name, (), tuple(skills[name].bind(args, kwargs).items()))]


#: ``import`` lines tolerated as no-ops: exactly the modules whose calls are whitelisted.
_HARMLESS_IMPORTS = frozenset({"pyautogui", "time"})


def _statement(stmt: ast.stmt, skills: Mapping[str, Skill]) -> list[Action]:
    if isinstance(stmt, ast.Pass):
        return []
    if isinstance(stmt, ast.Import) and all(
        a.name in _HARMLESS_IMPORTS and a.asname is None for a in stmt.names
    ):
        return []  # OSWorld-style answers open with these; the names are already whitelisted
    if not isinstance(stmt, ast.Expr):
        raise _refused(stmt)
    value = stmt.value
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return []  # a docstring or string comment
    if isinstance(value, ast.Name) and value.id in _TOKENS:
        return [_TOKENS[value.id]()]
    if isinstance(value, ast.Call):
        return _call(value, skills)
    raise _refused(value)


def _fold_holds(chunks: list[list[Action]]) -> list[Action]:
    """Fold ``keyDown(k); time.sleep(s); keyUp(k)`` statements into ``KeyPress(k, s)``.

    Only holds of at least ``TAP_S`` are folded, so the folded program expands to the same
    primitives as the unfolded one (``KeyPress`` never holds shorter than ``TAP_S``).
    """
    out: list[Action] = []
    i = 0
    while i < len(chunks):
        window = [ch[0] if len(ch) == 1 else None for ch in chunks[i : i + 3]]
        a, b, c = window + [None] * (3 - len(window))
        if (
            isinstance(a, ev.KeyDown)
            and isinstance(b, ev.Wait)
            and b.seconds >= ev.TAP_S  # a shorter hold: KeyPress would lengthen it
            and c == ev.KeyUp(a.key)
        ):
            out.append(ev.KeyPress(a.key, b.seconds))
            i += 3
        else:
            out.extend(chunks[i])
            i += 1
    return out


def _parse(text: object) -> ast.Module:
    if not isinstance(text, str):
        raise CodeActionError(f"code must be a string, got {type(text).__name__}")
    if len(text) > MAX_CODE_CHARS:
        raise CodeActionError(f"code longer than {MAX_CODE_CHARS} characters ({len(text)})")
    if "\x00" in text:
        raise CodeActionError("code contains a NUL byte")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, "<agent code>")
    except SyntaxError as e:
        raise CodeActionError(f"line {e.lineno}: syntax error: {e.msg}") from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as e:
        raise CodeActionError(f"code too deep or not text ({type(e).__name__})") from None


def parse_code(text: str, skills: Mapping[str, Skill] | None = None) -> list[Action]:
    """Parse agent code into events and skill calls; raise :class:`CodeActionError` if refused.

    Skill calls are checked with :meth:`Skill.bind` and carry all arguments by keyword.
    """
    skills = {} if skills is None else skills
    module = _parse(text)
    if len(module.body) > MAX_STATEMENTS:
        raise CodeActionError(f"more than {MAX_STATEMENTS} statements ({len(module.body)})")
    chunks: list[list[Action]] = []
    total, seconds = 0, 0.0
    for stmt in module.body:
        try:
            chunk = _statement(stmt, skills)
        except InvalidActionError as e:
            raise CodeActionError(f"line {stmt.lineno}: {e}") from None
        total += len(chunk)
        if total > MAX_EVENTS:
            raise CodeActionError(f"line {stmt.lineno}: more than {MAX_EVENTS} events in total")
        seconds += sum(event_seconds(a) for a in chunk if isinstance(a, Event))
        if seconds > MAX_PROGRAM_S:
            raise CodeActionError(
                f"line {stmt.lineno}: the code takes {seconds:.6g} game seconds by here; one "
                f"step may take at most {MAX_PROGRAM_S:.0f} (waits, holds, durations, intervals)"
            )
        chunks.append(chunk)
    return _fold_holds(chunks)


def from_pyautogui(line: str) -> list[Event]:
    """Parse pyautogui code (no skills) into events: the inverse of ``Event.to_pyautogui``.

    >>> from_pyautogui("pyautogui.hotkey('ctrl', 'c')")
    [Hotkey(keys=('ctrl', 'c'))]
    """
    return [a for a in parse_code(line) if isinstance(a, Event)]


_FENCE_TAG = re.compile(r"[A-Za-z][\w+.#-]*|")
_PYTHON_TAGS = {"python", "python3", "py", "py3"}


def extract_code(text: str) -> str:
    """The code of markdown fenced blocks in ``text``, or ``text`` itself if it has none.

    Python-tagged blocks are preferred; when there are none, every block is used. Blocks are
    dedented and joined with newlines; an unclosed last fence runs to the end of the text.

    >>> extract_code("Sure:\\n```python\\npyautogui.press('c')\\n```\\nthen\\n```\\nDONE\\n```")
    "pyautogui.press('c')\\n"
    """
    parts = text.split("```")
    if len(parts) < 2:
        return text
    blocks: list[tuple[str, str]] = []
    for body in parts[1::2]:
        head, newline, rest = body.partition("\n")
        tag = head.strip()
        if newline and _FENCE_TAG.fullmatch(tag) and tag not in _TOKENS:
            blocks.append((tag.lower(), rest))
        else:
            blocks.append(("", body))
    chosen = [b for tag, b in blocks if tag in _PYTHON_TAGS] or [b for _, b in blocks]
    return "\n".join(textwrap.dedent(b) for b in chosen)
