"""Pure text tools for the shell builtins: ``test``, ``grep``, ``sed``, ``jq``, ``head``, ``bc``...

Each takes its arguments and input bytes (files come through ``read``, which the interpreter
confines to the home) and returns ``(status, output)``; they implement the options OSWorld's
task files use, and refuse others with ``ValueError``.

>>> grep(["-oE", "[0-9]+\\\\.[0-9]+"], b"factor 1.25 and 2.5\\n", lambda p: b"")
(0, b'1.25\\n2.5\\n')
>>> bc([], b"1.25 >= 1.2\\n", lambda p: b"")
(0, b'1\\n')
>>> jq(". + {\\"a\\": 1}", b'{"b": 2}')
b'{\\n  "b": 2,\\n  "a": 1\\n}\\n'
"""

from __future__ import annotations

import ast
import json
import operator
import re
from collections.abc import Callable, Sequence

Read = Callable[[str], bytes]


def test(args: Sequence[str], exists: Callable[[str, str], bool]) -> bool:
    """The truth of a ``test`` / ``[`` expression (files checked through ``exists``)."""
    args = list(args)
    if args and args[0] == "!":
        return not test(args[1:], exists)
    if not args:
        return False
    if len(args) == 1:
        return args[0] != ""
    if len(args) == 2:
        op, value = args
        if op == "-n":
            return value != ""
        if op == "-z":
            return value == ""
        if op in ("-d", "-f", "-e", "-s", "-r", "-w", "-x", "-L"):
            return exists(value, op)
        raise ValueError(f"test: unknown operator {op!r}")
    if len(args) == 3:
        a, op, b = args
        if op in ("=", "=="):
            return a == b
        if op == "!=":
            return a != b
        ints = {"-eq": operator.eq, "-ne": operator.ne, "-gt": operator.gt, "-ge": operator.ge,
                "-lt": operator.lt, "-le": operator.le}  # fmt: skip
        if op in ints:
            try:
                return bool(ints[op](int(a), int(b)))
            except ValueError:
                raise ValueError(f"test: integer expression expected: {a!r} {op} {b!r}") from None
    raise ValueError(f"test: unsupported expression {' '.join(args)!r}")


def bre_to_re(pattern: str) -> str:
    """A POSIX basic regular expression as a Python one (``\\(`` groups, literal ``+?{}|()``)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            n = pattern[i + 1]
            out.append(n if n in "(){}|+?" else "\\" + n)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def _flags(args: Sequence[str], with_value: str = "") -> tuple[set[str], list[str], dict[str, str]]:
    flags: set[str] = set()
    values: dict[str, str] = {}
    rest: list[str] = []
    it = iter(args)
    for a in it:
        if a.startswith("-") and len(a) > 1 and not rest:
            for j, ch in enumerate(a[1:]):
                if ch in with_value:
                    values[ch] = a[j + 2 :] or next(it, "")
                    break
                flags.add(ch)
        else:
            rest.append(a)
    return flags, rest, values


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines()


def grep(args: Sequence[str], stdin: bytes, read: Read) -> tuple[int, bytes]:
    flags, rest, values = _flags(args, "e")
    if "e" in values:
        pattern = values["e"]
    elif rest:
        pattern, rest = rest[0], rest[1:]
    else:
        raise ValueError("grep needs a pattern")
    unknown = flags - set("qoEciFvw")
    if unknown:
        raise ValueError(f"grep: options {sorted(unknown)} are not supported")
    if "F" in flags:
        regex = re.escape(pattern)
    else:
        regex = pattern if "E" in flags else bre_to_re(pattern)
    if "w" in flags:
        regex = rf"\b(?:{regex})\b"
    rx = re.compile(regex, re.IGNORECASE if "i" in flags else 0)
    lines = [ln for f in rest for ln in _lines(read(f))] if rest else _lines(stdin)
    out: list[str] = []
    count = 0
    for line in lines:
        hits = [m.group(0) for m in rx.finditer(line)]
        matched = bool(hits) != ("v" in flags)
        if not matched:
            continue
        count += 1
        out.extend(hits if "o" in flags and "v" not in flags else [line])
    if "q" in flags:
        return (0 if count else 1), b""
    if "c" in flags:
        return (0 if count else 1), f"{count}\n".encode()
    return (0 if count else 1), "".join(s + "\n" for s in out).encode()


def _count_arg(args: Sequence[str]) -> tuple[int, list[str]]:
    n, rest, it = 10, [], iter(args)
    for a in it:
        if a == "-n":
            n = int(next(it, "10"))
        elif re.fullmatch(r"-n?\d+", a):
            n = int(a.lstrip("-n"))
        else:
            rest.append(a)
    return n, rest


def head(args: Sequence[str], stdin: bytes, read: Read) -> tuple[int, bytes]:
    n, files = _count_arg(args)
    lines = [ln for f in files for ln in _lines(read(f))] if files else _lines(stdin)
    return 0, "".join(s + "\n" for s in lines[:n]).encode()


def tail(args: Sequence[str], stdin: bytes, read: Read) -> tuple[int, bytes]:
    n, files = _count_arg(args)
    lines = [ln for f in files for ln in _lines(read(f))] if files else _lines(stdin)
    return 0, "".join(s + "\n" for s in lines[-n:] if n).encode()


def wc(args: Sequence[str], stdin: bytes, read: Read) -> tuple[int, bytes]:
    flags, files, _ = _flags(args)
    data = b"".join(read(f) for f in files) if files else stdin
    counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
    shown = [str(counts[k]) for k in "lwc" if k in flags] or [str(counts[k]) for k in "lwc"]
    return 0, (" ".join(shown) + "\n").encode()


_BC_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.Mod: operator.mod}  # fmt: skip
_BC_CMP = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
           ast.Eq: operator.eq, ast.NotEq: operator.ne}  # fmt: skip


def _bc_value(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _bc_value(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _BC_OPS:
        return float(_BC_OPS[type(node.op)](_bc_value(node.left), _bc_value(node.right)))
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _BC_CMP:
        ok = _BC_CMP[type(node.ops[0])](_bc_value(node.left), _bc_value(node.comparators[0]))
        return 1.0 if ok else 0.0
    raise ValueError("bc: only numbers, + - * / % and one comparison are supported")


def bc(args: Sequence[str], stdin: bytes, read: Read) -> tuple[int, bytes]:
    out = []
    for line in _lines(stdin):
        if not line.strip():
            continue
        if len(line) > 200:
            raise ValueError("bc: expression too long")
        try:
            value = _bc_value(ast.parse(line.strip(), mode="eval").body)
        except (SyntaxError, ZeroDivisionError) as e:
            return 1, f"(standard_in) 1: {type(e).__name__}\n".encode()
        out.append(str(int(value)) if value == int(value) else f"{value:.20f}".rstrip("0"))
    return 0, "".join(s + "\n" for s in out).encode()


def sed_args(args: Sequence[str]) -> tuple[str, list[str]]:
    """``(script, files)`` of a ``sed`` command line (``-i``, ``-e`` and ``-E`` understood)."""
    script, files, extended, it = None, [], False, iter(args)
    for a in it:
        if a == "-e":
            script = next(it, "")
        elif a in ("-i", "--in-place"):
            continue
        elif a == "-E":
            extended = True
        elif a.startswith("-"):
            raise ValueError(f"sed: option {a!r} is not supported")
        elif script is None:
            script = a
        else:
            files.append(a)
    if script is None:
        raise ValueError("sed needs a script")
    return ("E" if extended else "") + script, files


def sed(script: str, data: bytes) -> bytes:
    """Apply one ``s/RE/REPLACEMENT/FLAGS`` command to each line of ``data``."""
    extended = script.startswith("E")
    body = script[1:] if extended else script
    if len(body) < 2 or body[0] != "s":
        raise ValueError(f"sed: only s/// is supported, got {script!r}")
    d = body[1]
    fields = re.split(rf"(?<!\\){re.escape(d)}", body[2:])
    if len(fields) != 3 or set(fields[2]) - set("gI"):
        raise ValueError(f"sed: malformed s command {script!r}")
    regex = fields[0] if extended else bre_to_re(fields[0])
    repl = re.sub(r"\\(\d)", r"\\\1", fields[1].replace("\\" + d, d)).replace("&", r"\g<0>")
    rx = re.compile(regex, re.IGNORECASE if "I" in fields[2] else 0)
    count = 0 if "g" in fields[2] else 1
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    return "\n".join(rx.sub(repl, ln, count=count) for ln in lines).encode()


def jq(filter_: str, data: bytes) -> bytes:
    """``.`` or ``. + {OBJECT}`` (a shallow merge, as jq's ``+`` on objects) over JSON input."""
    doc = json.loads(data.decode("utf-8") or "null")
    f = filter_.strip()
    if f != ".":
        m = re.fullmatch(r"\.\s*\+\s*(\{.*\})", f, re.S)
        if m is None:
            raise ValueError(f"jq: only '.' and '. + {{...}}' filters are supported, got {f!r}")
        extra = json.loads(m.group(1))
        if not isinstance(doc, dict):
            raise ValueError("jq: '+' needs an object input")
        doc = {**doc, **extra}
    return (json.dumps(doc, indent=2) + "\n").encode()
