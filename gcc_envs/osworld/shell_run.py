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

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from gcc_envs.core.probe import RunResult
from gcc_envs.osworld import textops
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

MAX_OUTPUT = 1 << 20  #: most bytes of output kept from one command
#: Variables the episode owns: a task file's ``export`` of them is ignored (logged).
OWNED_VARS = frozenset({"HOME", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
                        "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "PATH", "USER"})  # fmt: skip
#: What ``apt install PKG`` needs on the PATH (a package's main program), else the name itself.
PACKAGE_PROGRAMS = {"sysstat": "sar", "jq": "jq", "xdg-utils": "xdg-mime", "dconf-cli": "dconf"}
#: Programs that are builtins here (so ``apt install jq`` needs no jq on the PATH).
BUILTIN_PACKAGES = frozenset({"jq"})


class ShellHost(Protocol):
    """Where a shell string acts: the home's files and the allowlisted programs."""

    home: Path
    #: Whether builtins may write (setup steps) or only read (getters).
    writable: bool
    #: Program names :meth:`run_program` accepts.
    programs: frozenset[str]

    def run_program(
        self, argv: Sequence[str], timeout_s: float, env: Mapping[str, str]
    ) -> RunResult: ...
    def python(self, code: str, deadline: float) -> RunResult: ...
    def has_program(self, name: str) -> bool: ...


@dataclass
class _State:
    host: ShellHost
    deadline: float
    cwd: Path
    vars: dict[str, str]
    env: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def run_shell(host: ShellHost, text: str, timeout_s: float = 20.0) -> RunResult:
    """Run ``text``; a refused construct or command raises :class:`ShellError`."""
    tree = parse(text)
    state = _State(host, time.monotonic() + timeout_s, host.home, {"HOME": str(host.home)})
    status, out, err = _seq(state, tree, b"")
    return RunResult(status, _text(out), "\n".join([*state.notes, _text(err)]).strip())


def run_argv(host: ShellHost, argv: Sequence[str], timeout_s: float = 20.0) -> RunResult:
    """Run an argument list (``"shell": false``) through the same builtins."""
    if not argv or not all(isinstance(a, str) for a in argv):
        raise ShellError(f"a command is a non-empty list of strings, got {argv!r:.100}")
    state = _State(host, time.monotonic() + timeout_s, host.home, {"HOME": str(host.home)})
    status, out, err = _call(state, list(argv), b"", {})
    return RunResult(status, _text(out), "\n".join([*state.notes, _text(err)]).strip())


def _text(b: bytes) -> str:
    return b.decode("utf-8", "replace")


# ---- tree ----------------------------------------------------------------------------------

Out = tuple[int, bytes, bytes]


def _seq(st: _State, seq: Seq, stdin: bytes) -> Out:
    status, out, err = 0, b"", b""
    for item in seq.items:
        status, o, e = _and_or(st, item, stdin)
        out, err = (out + o)[:MAX_OUTPUT], (err + e)[:MAX_OUTPUT]
    return status, out, err


def _and_or(st: _State, node: AndOr, stdin: bytes) -> Out:
    status, out, err = _pipeline(st, node.first, stdin)
    for op, pipe in node.rest:
        if (op == "&&") == (status == 0):
            status, o, e = _pipeline(st, pipe, stdin)
            out, err = out + o, err + e
    return status, out, err


def _pipeline(st: _State, node: Pipeline, stdin: bytes) -> Out:
    data, err, status = stdin, b"", 0
    for cmd in node.cmds:
        status, data, e = _command(st, cmd, data)
        err += e
    return status, data, err


def _command(st: _State, cmd: Simple | Sub | If, stdin: bytes) -> Out:
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


def _expand(st: _State, word: Word) -> str:
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
            pieces.append(_text(out).rstrip("\n"))
    return "".join(pieces)


def _simple(st: _State, cmd: Simple, stdin: bytes) -> Out:
    assigns = {name: _expand(st, w) for name, w in cmd.assigns}
    argv = [_expand(st, w) for w in cmd.words]
    for target_op, target in cmd.redirects:
        if target_op == "<" and target is not None:
            stdin = _read(st, _expand(st, target))
    if not argv:
        _assign(st, assigns, exported=False)
        return 0, b"", b""
    status, out, err = _call(st, argv, stdin, assigns)
    for op, target in cmd.redirects:
        if op in (">", ">>", "1>", "&>") and target is not None:
            _write(st, _expand(st, target), out, append=op == ">>")
            out = b""
        elif op in ("2>", "2>>") and target is not None:
            _write(st, _expand(st, target), err, append=op == "2>>")
            err = b""
        elif op == "2>&1":
            out, err = out + err, b""
    return status, out, err


def _assign(st: _State, values: Mapping[str, str], exported: bool) -> None:
    for name, value in values.items():
        if name in OWNED_VARS:
            st.notes.append(f"ignored {name}={value!r}: the episode sets {name} itself")
            continue
        st.vars[name] = value
        if exported:
            st.env[name] = value


# ---- paths ---------------------------------------------------------------------------------


def confine(home: Path, cwd: Path, path: str) -> Path:
    """``path`` (relative to ``cwd``) resolved with symlinks; :class:`ShellError` if outside."""
    p = Path(os.path.normpath(cwd / path))
    real, root = Path(os.path.realpath(p)), Path(os.path.realpath(home))
    if real != root and root not in real.parents:
        raise ShellError(f"{path!r} is outside the episode's home; refused")
    return real


def _read(st: _State, path: str) -> bytes:
    if path == "/dev/null":
        return b""
    p = confine(st.host.home, st.cwd, path)
    try:
        return p.read_bytes()[:MAX_OUTPUT]
    except OSError as e:
        raise _Status(1, f"{path}: {e.strerror}") from None


def _write(st: _State, path: str, data: bytes, append: bool = False) -> None:
    if path == "/dev/null":
        return
    if not st.host.writable:
        raise ShellError(f"writing {path!r} is refused: a getter only reads")
    p = confine(st.host.home, st.cwd, path)
    try:
        with open(p, "ab" if append else "wb") as f:
            f.write(data)
    except OSError as e:
        raise _Status(1, f"{path}: {e.strerror}") from None


class _Status(Exception):
    """A builtin's non-zero exit status with its message (not an error of the runner)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


# ---- commands ------------------------------------------------------------------------------


def _call(st: _State, argv: list[str], stdin: bytes, assigns: Mapping[str, str]) -> Out:
    if time.monotonic() > st.deadline:
        raise ShellError("the command ran past its deadline; stopped")
    name, args = argv[0], argv[1:]
    builtin = _BUILTINS.get(name)
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
    except _Status as e:
        return e.status, b"", f"{name}: {e}\n".encode() if str(e) else b""
    except ValueError as e:  # a text tool's unsupported or malformed arguments
        return 2, b"", f"{name}: {e}\n".encode()
    raise ShellError(
        f"{name!r} is not run here: a task file's commands run only as builtins "
        f"({', '.join(sorted(_BUILTINS))}) or the programs {sorted(st.host.programs)}"
    )


def _echo(st: _State, args: list[str], stdin: bytes) -> bytes:
    newline = True
    while args and args[0] in ("-n", "-e", "-E"):
        newline = newline and args[0] != "-n"
        args = args[1:]
    return (" ".join(args) + ("\n" if newline else "")).encode()


def _cd(st: _State, args: list[str], stdin: bytes) -> None:
    target = confine(st.host.home, st.cwd, args[0] if args else str(st.host.home))
    if not target.is_dir():
        raise _Status(1, f"{args[0] if args else '~'}: no such directory")
    st.cwd = target


def _mkdir(st: _State, args: list[str], stdin: bytes) -> None:
    parents = "-p" in args
    for a in (a for a in args if not a.startswith("-")):
        if not st.host.writable:
            raise ShellError("mkdir is refused: a getter only reads")
        p = confine(st.host.home, st.cwd, a)
        try:
            p.mkdir(parents=parents, exist_ok=parents)
        except OSError as e:
            raise _Status(1, f"cannot create {a!r}: {e.strerror}") from None


def _mv(st: _State, args: list[str], stdin: bytes) -> None:
    paths = [a for a in args if not a.startswith("-")]
    if len(paths) != 2 or not st.host.writable:
        raise ShellError("mv takes two paths (and only in setup steps)")
    src, dst = (confine(st.host.home, st.cwd, a) for a in paths)
    if dst.is_dir():
        dst = dst / src.name
    try:
        src.replace(dst)
    except OSError as e:
        raise _Status(1, f"cannot move {paths[0]!r}: {e.strerror}") from None


def _touch(st: _State, args: list[str], stdin: bytes) -> None:
    for a in (a for a in args if not a.startswith("-")):
        _write(st, a, b"", append=True)


def _cat(st: _State, args: list[str], stdin: bytes) -> bytes:
    files = [a for a in args if a != "-"]
    return b"".join(_read(st, a) for a in files) if files else stdin


def _test(st: _State, args: list[str], stdin: bytes) -> None:
    if args and args[-1] == "]":
        args = args[:-1]
    home, cwd = st.host.home, st.cwd

    def exists(path: str, kind: str) -> bool:
        p = confine(home, cwd, path)
        return {
            "-d": p.is_dir,
            "-f": p.is_file,
            "-s": lambda: p.is_file() and p.stat().st_size > 0,
        }.get(kind, p.exists)()

    if not textops.test(args, exists):
        raise _Status(1, "")


def _false(st: _State, args: list[str], stdin: bytes) -> None:
    raise _Status(1, "")


def _sleep(st: _State, args: list[str], stdin: bytes) -> None:
    try:
        seconds = float(args[0].rstrip("s")) if args else 0.0
    except ValueError:
        raise _Status(1, f"invalid time {args[0]!r}") from None
    if time.monotonic() + seconds > st.deadline:
        raise ShellError(f"sleep {seconds:g} s would run past the command's deadline; refused")
    time.sleep(max(0.0, seconds))


def _timeout(st: _State, args: list[str], stdin: bytes) -> tuple[int, bytes]:
    while args and args[0].startswith("-"):
        args = args[2:] if args[0] in ("-s", "-k") else args[1:]
    if len(args) < 2:
        raise _Status(125, "timeout needs a duration and a command")
    try:
        limit = float(args[0].rstrip("s"))
    except ValueError:
        raise _Status(125, f"invalid duration {args[0]!r}") from None
    saved = st.deadline
    st.deadline = min(saved, time.monotonic() + limit)
    try:
        status, out, err = _call(st, args[1:], stdin, {})
    finally:
        st.deadline = saved
    return status, out


def _sudo(st: _State, args: list[str], stdin: bytes) -> tuple[int, bytes]:
    while args and args[0].startswith("-"):  # -S reads a password we never use
        args = args[1:]
    if not args:
        raise _Status(1, "sudo needs a command")
    st.notes.append(f"ran {args[0]!r} without sudo, as the episode's user")
    status, out, _ = _call(st, args, b"", {})
    return status, out


def _apt(st: _State, args: list[str], stdin: bytes) -> None:
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] in ("update", "upgrade"):
        return
    if words[0] != "install":
        raise ShellError(f"apt {words[0]!r} is not run here")
    missing = [
        p for p in words[1:]
        if p not in BUILTIN_PACKAGES and not st.host.has_program(PACKAGE_PROGRAMS.get(p, p))
    ]  # fmt: skip
    if missing:
        raise ShellError(
            f"this task needs {', '.join(missing)} on the desktop (packages are never installed "
            f"by a task here); install it first: apt-get install {' '.join(missing)}"
        )
    st.notes.append(f"packages {words[1:]} already present; apt not run")


def _export(st: _State, args: list[str], stdin: bytes) -> None:
    for a in args:
        name, eq, value = a.partition("=")
        if eq:
            _assign(st, {name: value}, exported=True)


def _python(st: _State, args: list[str], stdin: bytes) -> bytes:
    if len(args) < 2 or args[0] != "-c":
        raise ShellError("python runs only with -c CODE here (a recognised snippet)")
    result = st.host.python(args[1], st.deadline)
    if result.returncode:
        raise _Status(result.returncode, result.stderr)
    return result.stdout.encode()


TextTool = Callable[[list[str], bytes, Callable[[str], bytes]], tuple[int, bytes]]
Builtin = Callable[["_State", list[str], bytes], "bytes | tuple[int, bytes] | None"]


def _text_tool(fn: TextTool) -> Builtin:
    def run(st: _State, args: list[str], stdin: bytes) -> tuple[int, bytes]:
        return fn(args, stdin, lambda path: _read(st, path))

    return run


def _sed(st: _State, args: list[str], stdin: bytes) -> bytes:
    in_place = "-i" in args
    script, files = textops.sed_args(args)
    if not in_place:
        data = b"".join(_read(st, f) for f in files) if files else stdin
        return textops.sed(script, data)
    for f in files:
        _write(st, f, textops.sed(script, _read(st, f)))
    return b""


def _jq(st: _State, args: list[str], stdin: bytes) -> bytes:
    words = [a for a in args if not a.startswith("-")]
    if not words:
        raise _Status(2, "jq needs a filter")
    data = _read(st, words[1]) if len(words) > 1 else stdin
    try:
        return textops.jq(words[0], data)
    except (ValueError, json.JSONDecodeError) as e:
        raise _Status(5, str(e)) from None


_BUILTINS: dict[str, Builtin] = {
    "echo": _echo, "cd": _cd, "mkdir": _mkdir, "mv": _mv, "touch": _touch, "cat": _cat,
    "test": _test, "[": _test, "true": lambda st, a, i: None, ":": lambda st, a, i: None,
    "false": _false,
    "sleep": _sleep, "timeout": _timeout, "sudo": _sudo, "apt": _apt, "apt-get": _apt,
    "export": _export, "python": _python, "python3": _python, "sed": _sed, "jq": _jq,
    "grep": _text_tool(textops.grep), "head": _text_tool(textops.head),
    "tail": _text_tool(textops.tail), "bc": _text_tool(textops.bc), "wc": _text_tool(textops.wc),
}  # fmt: skip


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
