"""Run a parsed shell string with builtins confined to the episode's home; nothing else runs.

The interpreter never hands a task file's text to a real shell. Every command is a builtin
written here — file commands (``cd mkdir mv cp rm touch cat echo``), text tools (``grep sed
jq head tail bc``), control (``test [ true false sleep timeout sudo export``) and the package
manager (``apt``/``apt-get``: never run, it only checks the program is present) — or one of the
host's allowlisted programs (``gsettings``, ``dconf``, ``xdg-mime``), run as an argument list
with the episode's environment and a timeout. Paths must resolve inside the home (symlinks
followed); a write outside it is refused with :class:`ShellError`. A whole command has one
deadline: ``sleep`` and programs stop at it, so nothing hangs past it. ``python -c`` code goes
to the host, which accepts only the snippet kinds it recognises (:mod:`.snippets`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from gcc_envs.core.probe import RunResult
from gcc_envs.osworld.shell_builtins import BUILTINS
from gcc_envs.osworld.shell_parse import (
    AndOr,
    If,
    Pipeline,
    Seq,
    ShellError,
    Simple,
    Sub,
    Word,
    parse,
)
from gcc_envs.osworld.shell_state import (
    MAX_OUTPUT,
    OWNED_VARS,
    ExitStatus,
    ShellHost,
    ShellState,
    assign,
    confine,
    read_path,
    text_of,
    write_path,
)

__all__ = ["ShellError", "ShellHost", "confine", "run_argv", "run_shell", "split_simple"]


def run_shell(host: ShellHost, text: str, timeout_s: float = 20.0) -> RunResult:
    """Run ``text``; a refused construct or command raises :class:`ShellError`."""
    tree = parse(text)
    state = ShellState(
        host, time.monotonic() + timeout_s, host.home, {"HOME": str(host.home)}, _call
    )
    status, out, err = _seq(state, tree, b"")
    return RunResult(status, text_of(out), "\n".join([*state.notes, text_of(err)]).strip())


def run_argv(host: ShellHost, argv: Sequence[str], timeout_s: float = 20.0) -> RunResult:
    """Run an argument list (``"shell": false``) through the same builtins."""
    if not argv or not all(isinstance(a, str) for a in argv):
        raise ShellError(f"a command is a non-empty list of strings, got {argv!r:.100}")
    state = ShellState(
        host, time.monotonic() + timeout_s, host.home, {"HOME": str(host.home)}, _call
    )
    status, out, err = _call(state, list(argv), b"", {})
    return RunResult(status, text_of(out), "\n".join([*state.notes, text_of(err)]).strip())


# ---- tree ----------------------------------------------------------------------------------

Out = tuple[int, bytes, bytes]


def _seq(st: ShellState, seq: Seq, stdin: bytes) -> Out:
    status, out, err = 0, b"", b""
    for item in seq.items:
        status, o, e = _and_or(st, item, stdin)
        out, err = (out + o)[:MAX_OUTPUT], (err + e)[:MAX_OUTPUT]
    return status, out, err


def _and_or(st: ShellState, node: AndOr, stdin: bytes) -> Out:
    status, out, err = _pipeline(st, node.first, stdin)
    for op, pipe in node.rest:
        if (op == "&&") == (status == 0):
            status, o, e = _pipeline(st, pipe, stdin)
            out, err = out + o, err + e
    return status, out, err


def _pipeline(st: ShellState, node: Pipeline, stdin: bytes) -> Out:
    data, err, status = stdin, b"", 0
    for cmd in node.cmds:
        status, data, e = _command(st, cmd, data)
        err += e
    return status, data, err


def _command(st: ShellState, cmd: Simple | Sub | If, stdin: bytes) -> Out:
    if isinstance(cmd, Sub):
        saved = (st.cwd, dict(st.vars), dict(st.env))
        try:
            return _seq(st, cmd.body, stdin)
        finally:
            st.cwd, st.vars, st.env = saved[0], saved[1], saved[2]
    if isinstance(cmd, If):
        status, out, err = _seq(st, cmd.cond, stdin)
        branch = cmd.then if status == 0 else cmd.otherwise
        if branch is None:
            return 0, out, err
        s2, o2, e2 = _seq(st, branch, stdin)
        return s2, out + o2, err + e2
    return _simple(st, cmd, stdin)


def _expand(st: ShellState, word: Word) -> str:
    pieces: list[str] = []
    for i, part in enumerate(word.parts):
        if part.kind == "lit":
            text = part.text
            if i == 0 and not part.quoted and (text == "~" or text.startswith("~/")):
                text = str(st.host.home) + text[1:]
            pieces.append(text)
        elif part.kind == "var":
            pieces.append(st.vars.get(part.text, ""))
        else:
            assert part.tree is not None
            _, out, _ = _seq(st, part.tree, b"")
            pieces.append(text_of(out).rstrip("\n"))
    return "".join(pieces)


def _simple(st: ShellState, cmd: Simple, stdin: bytes) -> Out:
    assigns = {name: _expand(st, w) for name, w in cmd.assigns}
    argv = [_expand(st, w) for w in cmd.words]
    for target_op, target in cmd.redirects:
        if target_op == "<" and target is not None:
            stdin = read_path(st, _expand(st, target))
    if not argv:
        assign(st, assigns, exported=False)
        return 0, b"", b""
    status, out, err = _call(st, argv, stdin, assigns)
    for op, target in cmd.redirects:
        if op in (">", ">>", "1>", "&>") and target is not None:
            write_path(st, _expand(st, target), out, append=op == ">>")
            out = b""
        elif op in ("2>", "2>>") and target is not None:
            write_path(st, _expand(st, target), err, append=op == "2>>")
            err = b""
        elif op == "2>&1":
            out, err = out + err, b""
    return status, out, err


def _call(st: ShellState, argv: list[str], stdin: bytes, assigns: Mapping[str, str]) -> Out:
    if time.monotonic() > st.deadline:
        raise ShellError("the command ran past its deadline; stopped")
    name, args = argv[0], argv[1:]
    builtin = BUILTINS.get(name)
    try:
        if builtin is not None:
            out = builtin(st, args, stdin)
            if isinstance(out, tuple):  # (status, output): a text tool that found nothing
                return out[0], out[1], b""
            return 0, out if isinstance(out, bytes) else b"", b""
        if name in st.host.programs:
            env = {**st.env, **{k: v for k, v in assigns.items() if k not in OWNED_VARS}}
            result = st.host.run_program(argv, max(0.1, st.deadline - time.monotonic()), env)
            if result.timed_out:
                raise ShellError(f"{name} did not finish before the deadline; stopped")
            return result.returncode, result.stdout.encode(), result.stderr.encode()
    except ExitStatus as e:
        return e.status, b"", f"{name}: {e}\n".encode() if str(e) else b""
    except ValueError as e:  # a text tool's unsupported or malformed arguments
        return 2, b"", f"{name}: {e}\n".encode()
    raise ShellError(
        f"{name!r} is not run here: a task file's commands run only as builtins "
        f"({', '.join(sorted(BUILTINS))}) or the programs {sorted(st.host.programs)}"
    )


def split_simple(text: str) -> tuple[dict[str, str], list[str]]:
    """``(env, argv)`` of a shell string that is one plain command (``VAR=x prog args``)."""
    tree = parse(text)
    if len(tree.items) != 1 or tree.items[0].rest or len(tree.items[0].first.cmds) != 1:
        raise ShellError(f"expected one plain command, got {text!r:.80}")
    cmd = tree.items[0].first.cmds[0]
    if not isinstance(cmd, Simple) or cmd.redirects or not cmd.words:
        raise ShellError(f"expected one plain command, got {text!r:.80}")
    if any(p.kind != "lit" for w in (*cmd.words, *(v for _, v in cmd.assigns)) for p in w.parts):
        raise ShellError(f"expansions are not allowed in a launched command: {text!r:.80}")
    env = {name: "".join(p.text for p in w.parts) for name, w in cmd.assigns}
    return env, ["".join(p.text for p in w.parts) for w in cmd.words]
