"""The builtins of the confined shell: each ``builtin(state, args, stdin)``.

A builtin returns its output (bytes), ``(status, output)``, or None, and raises
:class:`ExitStatus` for a failure of the command (not of the runner) or ``ShellError`` for
what it refuses. File paths go through :func:`.shell_state.confine`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from gcc_envs.osworld import textops
from gcc_envs.osworld.shell_parse import ShellError
from gcc_envs.osworld.shell_state import (
    ExitStatus,
    ShellState,
    assign,
    confine,
    read_path,
    write_path,
)

#: What ``apt install PKG`` needs on the PATH (a package's main program), else the name itself.
PACKAGE_PROGRAMS = {"sysstat": "sar", "jq": "jq", "xdg-utils": "xdg-mime", "dconf-cli": "dconf"}
#: Programs that are builtins here (so ``apt install jq`` needs no jq on the PATH).
BUILTIN_PACKAGES = frozenset({"jq"})

TextTool = Callable[[list[str], bytes, Callable[[str], bytes]], tuple[int, bytes]]
Builtin = Callable[[ShellState, list[str], bytes], "bytes | tuple[int, bytes] | None"]


def _echo(st: ShellState, args: list[str], stdin: bytes) -> bytes:
    newline = True
    while args and args[0] in ("-n", "-e", "-E"):
        newline = newline and args[0] != "-n"
        args = args[1:]
    return (" ".join(args) + ("\n" if newline else "")).encode()


def _cd(st: ShellState, args: list[str], stdin: bytes) -> None:
    target = confine(st.host.home, st.cwd, args[0] if args else str(st.host.home))
    if not target.is_dir():
        raise ExitStatus(1, f"{args[0] if args else '~'}: no such directory")
    st.cwd = target


def _mkdir(st: ShellState, args: list[str], stdin: bytes) -> None:
    parents = "-p" in args
    for a in (a for a in args if not a.startswith("-")):
        if not st.host.writable:
            raise ShellError("mkdir is refused: a getter only reads")
        p = confine(st.host.home, st.cwd, a)
        try:
            p.mkdir(parents=parents, exist_ok=parents)
        except OSError as e:
            raise ExitStatus(1, f"cannot create {a!r}: {e.strerror}") from None


def _mv(st: ShellState, args: list[str], stdin: bytes) -> None:
    paths = [a for a in args if not a.startswith("-")]
    if len(paths) != 2 or not st.host.writable:
        raise ShellError("mv takes two paths (and only in setup steps)")
    src, dst = (confine(st.host.home, st.cwd, a) for a in paths)
    if dst.is_dir():
        dst = dst / src.name
    try:
        src.replace(dst)
    except OSError as e:
        raise ExitStatus(1, f"cannot move {paths[0]!r}: {e.strerror}") from None


def _touch(st: ShellState, args: list[str], stdin: bytes) -> None:
    for a in (a for a in args if not a.startswith("-")):
        write_path(st, a, b"", append=True)


def _cat(st: ShellState, args: list[str], stdin: bytes) -> bytes:
    files = [a for a in args if a != "-"]
    return b"".join(read_path(st, a) for a in files) if files else stdin


def _test(st: ShellState, args: list[str], stdin: bytes) -> None:
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
        raise ExitStatus(1, "")


def _false(st: ShellState, args: list[str], stdin: bytes) -> None:
    raise ExitStatus(1, "")


def _sleep(st: ShellState, args: list[str], stdin: bytes) -> None:
    try:
        seconds = float(args[0].rstrip("s")) if args else 0.0
    except ValueError:
        raise ExitStatus(1, f"invalid time {args[0]!r}") from None
    if time.monotonic() + seconds > st.deadline:
        raise ShellError(f"sleep {seconds:g} s would run past the command's deadline; refused")
    time.sleep(max(0.0, seconds))


def _timeout(st: ShellState, args: list[str], stdin: bytes) -> tuple[int, bytes]:
    while args and args[0].startswith("-"):
        args = args[2:] if args[0] in ("-s", "-k") else args[1:]
    if len(args) < 2:
        raise ExitStatus(125, "timeout needs a duration and a command")
    try:
        limit = float(args[0].rstrip("s"))
    except ValueError:
        raise ExitStatus(125, f"invalid duration {args[0]!r}") from None
    saved = st.deadline
    st.deadline = min(saved, time.monotonic() + limit)
    try:
        status, out, err = st.call(st, args[1:], stdin, {})
    finally:
        st.deadline = saved
    return status, out


def _sudo(st: ShellState, args: list[str], stdin: bytes) -> tuple[int, bytes]:
    while args and args[0].startswith("-"):  # -S reads a password we never use
        args = args[1:]
    if not args:
        raise ExitStatus(1, "sudo needs a command")
    st.notes.append(f"ran {args[0]!r} without sudo, as the episode's user")
    status, out, _ = st.call(st, args, b"", {})
    return status, out


def _apt(st: ShellState, args: list[str], stdin: bytes) -> None:
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


def _export(st: ShellState, args: list[str], stdin: bytes) -> None:
    for a in args:
        name, eq, value = a.partition("=")
        if eq:
            assign(st, {name: value}, exported=True)


def _python(st: ShellState, args: list[str], stdin: bytes) -> bytes:
    if len(args) < 2 or args[0] != "-c":
        raise ShellError("python runs only with -c CODE here (a recognised snippet)")
    result = st.host.python(args[1], st.deadline)
    if result.returncode:
        raise ExitStatus(result.returncode, result.stderr)
    return result.stdout.encode()


def _text_tool(fn: TextTool) -> Builtin:
    def run(st: ShellState, args: list[str], stdin: bytes) -> tuple[int, bytes]:
        return fn(args, stdin, lambda path: read_path(st, path))

    return run


def _sed(st: ShellState, args: list[str], stdin: bytes) -> bytes:
    in_place = "-i" in args
    script, files = textops.sed_args(args)
    if not in_place:
        data = b"".join(read_path(st, f) for f in files) if files else stdin
        return textops.sed(script, data)
    for f in files:
        write_path(st, f, textops.sed(script, read_path(st, f)))
    return b""


def _jq(st: ShellState, args: list[str], stdin: bytes) -> bytes:
    words = [a for a in args if not a.startswith("-")]
    if not words:
        raise ExitStatus(2, "jq needs a filter")
    data = read_path(st, words[1]) if len(words) > 1 else stdin
    try:
        return textops.jq(words[0], data)
    except (ValueError, json.JSONDecodeError) as e:
        raise ExitStatus(5, str(e)) from None


BUILTINS: dict[str, Builtin] = {
    "echo": _echo, "cd": _cd, "mkdir": _mkdir, "mv": _mv, "touch": _touch, "cat": _cat,
    "test": _test, "[": _test, "true": lambda st, a, i: None, ":": lambda st, a, i: None,
    "false": _false,
    "sleep": _sleep, "timeout": _timeout, "sudo": _sudo, "apt": _apt, "apt-get": _apt,
    "export": _export, "python": _python, "python3": _python, "sed": _sed, "jq": _jq,
    "grep": _text_tool(textops.grep), "head": _text_tool(textops.head),
    "tail": _text_tool(textops.tail), "bc": _text_tool(textops.bc), "wc": _text_tool(textops.wc),
}  # fmt: skip
