"""Tools: FRIDAY's procedural memory, held as data — source text, never run here.

A tool is a Python function, a bash script or a list of whitelisted GUI calls, with its
description, signature, the critic's score and where it came from. The source is read with
``ast`` only: to check that a Python tool defines the function it names, to derive its
signature and docstring, and to parse a call of it (literal arguments only, against the names
of the tools offered). The text the env runs is built by :func:`action_code`; where the env has
``code="sandbox"`` it runs inside the episode's sandbox, otherwise only ``calls`` tools are
used and the env's safe parser reads them.

>>> t = python_tool("def add(a: int, b: int = 1):\\n    '''Add.'''\\n    return a + b\\n", "add")
>>> t.signature, t.description
('add(a: int, b: int=1)', 'Add.')
>>> call = parse_call("add(2, b=3)", {"add"})
>>> print(action_code(t, call), end="")
def add(a: int, b: int = 1):
    '''Add.'''
    return a + b
<BLANKLINE>
_friday_result = add(2, b=3)
if _friday_result is not None:
    print(_friday_result)
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from agents.friday.reply import ReplyError
from gcc_envs.core.code import parse_code
from gcc_envs.core.skills import SkillCall
from gcc_envs.errors import CodeActionError

LANGUAGES = ("python", "bash", "calls")
#: Longest tool source, in characters.
MAX_SOURCE = 20_000
MAX_DESCRIPTION = 1000
#: Longest call text and deepest literal nesting of its arguments.
MAX_CALL = 4000
MAX_DEPTH = 4
NAME = re.compile(r"[a-z_][a-z0-9_]{0,63}")
_SUFFIX = {"python": ".py", "bash": ".sh", "calls": ".txt"}


class ToolError(ReplyError):
    """A tool or a call of one that cannot be used; the message says what was wrong."""


@dataclass(frozen=True)
class Provenance:
    """Where a tool came from: the task and episode it was made in, and the model."""

    task: str = ""
    episode: str = ""
    model: str = ""


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    signature: str
    language: str
    source: str
    #: the critic's score, 0–10 (None: not scored yet)
    score: int | None = None
    provenance: Provenance = field(default_factory=Provenance)

    @property
    def suffix(self) -> str:
        return _SUFFIX[self.language]

    def doc(self) -> str:
        """What retrieval compares with a subtask: signature and description."""
        return f"{self.name.replace('_', ' ')}: {self.signature} {self.description}"

    def scored(self, score: int, provenance: Provenance | None = None) -> Tool:
        return replace(self, score=score, provenance=provenance or self.provenance)


#: A call of a tool: its name and literal arguments (the same value as a skill call).
ToolCall = SkillCall


def _parse(source: str, what: str, mode: str = "exec") -> ast.AST:
    if "\0" in source:
        raise ToolError(f"{what} contains a NUL character")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, f"<{what}>", mode)
    except SyntaxError as e:
        raise ToolError(f"{what}: line {e.lineno}: syntax error: {e.msg}") from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise ToolError(f"{what}: cannot be read ({type(e).__name__})") from None


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ToolError(
            f"a tool name is lower_case letters, digits and '_' (<= 64), got {name!r:.80}"
        )
    return name


def _check_text(source: Any, what: str) -> str:
    if not isinstance(source, str) or not source.strip():
        raise ToolError(f"{what} must be non-empty text")
    if len(source) > MAX_SOURCE:
        raise ToolError(f"{what} is {len(source):,} characters; at most {MAX_SOURCE:,}")
    return source


def python_tool(source: str, name: str, description: str = "", **kw: Any) -> Tool:
    """A Python tool: ``source`` must define the function ``name`` at its top level."""
    _check_name(name)
    _check_text(source, f"tool {name}")
    module = _parse(source, f"tool {name}")
    assert isinstance(module, ast.Module)
    fn = next((n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               and n.name == name), None)  # fmt: skip
    if fn is None or isinstance(fn, ast.AsyncFunctionDef):
        defined = [n.name for n in module.body if isinstance(n, ast.FunctionDef)]
        raise ToolError(
            f"tool {name}: the source defines no function {name}() at its top level "
            f"(it defines {', '.join(defined) or 'none'})"
        )
    doc = (ast.get_docstring(fn) or "").strip()
    description = (description or doc).strip()[:MAX_DESCRIPTION]
    if not description:
        raise ToolError(f"tool {name}: give it a docstring that says what it does")
    signature = f"{name}({ast.unparse(fn.args)})"
    return Tool(name, description, signature, "python", source, **kw)


def bash_tool(source: str, name: str, description: str, **kw: Any) -> Tool:
    """A bash tool: a script whose arguments are ``$1``, ``$2``, ..."""
    _check_name(name)
    _check_text(source, f"tool {name}")
    if "\0" in source:
        raise ToolError(f"tool {name} contains a NUL character")
    if not description.strip():
        raise ToolError(f"tool {name}: give it a description")
    return Tool(name, description.strip()[:MAX_DESCRIPTION], f"{name}(*args: str)", "bash",
                source, **kw)  # fmt: skip


def calls_tool(
    source: str, name: str, description: str, skills: Any = None, check: bool = True, **kw: Any
) -> Tool:
    """A GUI tool: whitelisted calls (``pyautogui.*``, ``time.sleep``, the env's ``skills``),
    checked by the env's safe parser (``check=False``: only its syntax, for a stored tool whose
    env is not known yet — it is checked against the env's skills before it is offered)."""
    _check_name(name)
    _check_text(source, f"tool {name}")
    if check:
        check_calls(source, name, skills)
    else:
        _parse(source, f"tool {name}")
    if not description.strip():
        raise ToolError(f"tool {name}: give it a description")
    return Tool(name, description.strip()[:MAX_DESCRIPTION], f"{name}()", "calls", source, **kw)


def check_calls(source: str, name: str, skills: Any = None) -> None:
    """:class:`ToolError` unless the env's safe parser accepts ``source`` (and it calls something)."""
    try:
        if not parse_code(source, skills):
            raise ToolError(f"tool {name}: the source calls nothing")
    except CodeActionError as e:
        raise ToolError(f"tool {name}: refused by the safe parser: {e}") from None


def make_tool(language: str, source: str, name: str, description: str = "", **kw: Any) -> Tool:
    """A tool of any language, validated (``skills`` and ``check`` apply to ``calls`` tools)."""
    if language in ("python", "bash"):
        kw.pop("skills", None)
        kw.pop("check", None)
        make = python_tool if language == "python" else bash_tool
        return make(source, name, description, **kw)
    if language == "calls":
        return calls_tool(source, name, description, **kw)
    raise ToolError(f"a tool's language is one of {LANGUAGES}, got {language!r:.40}")


def _literal(node: ast.expr, depth: int = 0) -> Any:
    if depth > MAX_DEPTH:
        raise ToolError(f"call arguments nest deeper than {MAX_DEPTH}")
    if isinstance(node, ast.Constant) and isinstance(
        node.value, (str, int, float, bool, type(None))
    ):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = node.operand
        if isinstance(inner, ast.Constant) and type(inner.value) in (int, float):
            return -inner.value
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [_literal(e, depth + 1) for e in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
        return {
            _literal(k, depth + 1): _literal(v, depth + 1) for k, v in zip(node.keys, node.values)
        }  # type: ignore[arg-type]
    raise ToolError(
        f"call arguments must be literals (text, numbers, True/False/None, lists, dicts), "
        f"got {type(node).__name__}"
    )


def parse_call(text: str, names: Collection[str]) -> ToolCall:
    """A call of one of the tools ``names`` with literal arguments; :class:`ToolError` if not."""
    text = text.strip().strip("`").strip()
    if not text:
        raise ToolError("the invocation is empty: write tool_name(arguments)")
    if len(text) > MAX_CALL:
        raise ToolError(f"the invocation is {len(text):,} characters; at most {MAX_CALL:,}")
    node = _parse(text, "invocation", "eval")
    assert isinstance(node, ast.Expression)
    call = node.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise ToolError("the invocation must be one call of a tool: tool_name(arguments)")
    name = call.func.id
    if name not in names:
        known = ", ".join(sorted(names)) or "none"
        raise ToolError(f"the invocation calls {name}, which is not a tool here (tools: {known})")
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        raise ToolError("the invocation may not use *args or **kwargs")
    args = tuple(_literal(a) for a in call.args)
    kwargs = tuple((str(k.arg), _literal(k.value)) for k in call.keywords)
    return ToolCall(name, args, kwargs)


def action_code(tool: Tool, call: ToolCall) -> str:
    """The code text the env runs for ``call`` of ``tool`` (the tool's source, then its call)."""
    if call.name != tool.name:
        raise ToolError(f"the call names {call.name}, not the tool {tool.name}")
    if tool.language == "python":
        return (f"{tool.source.rstrip()}\n\n_friday_result = {call.to_code()}\n"
                "if _friday_result is not None:\n    print(_friday_result)\n")  # fmt: skip
    if tool.language == "bash":
        if call.kwargs or not all(isinstance(a, (str, int, float)) for a in call.args):
            raise ToolError(f"bash tool {tool.name} takes text arguments by position only")
        argv = ["bash", "-c", tool.source, tool.name, *(str(a) for a in call.args)]
        return ("import subprocess, sys\n"
                f"_friday_run = subprocess.run({argv!r}, capture_output=True, text=True)\n"
                "print(_friday_run.stdout, end='')\n"
                "if _friday_run.returncode:\n"
                "    sys.exit(_friday_run.stderr[-2000:] or _friday_run.returncode)\n")  # fmt: skip
    if call.args or call.kwargs:
        raise ToolError(f"GUI tool {tool.name} takes no arguments")
    return tool.source
