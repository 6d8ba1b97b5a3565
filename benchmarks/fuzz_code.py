"""Hostile agent code: the parser runs nothing, never crashes or hangs, and no step runs long.

Run: ``python benchmarks/fuzz_code.py [--inputs N] [--steps M] [--seed S] [--json]``. It makes
``N`` inputs by splicing and mutating a corpus of hostile and of valid code (imports, dunder
walks, ``exec``/``eval``/``open`` calls, deep nesting, huge numbers and strings, long
``typewrite`` intervals, sleep chains, NUL bytes, random bytes as text, ...) and parses each
with :func:`gcc_envs.core.code.parse_code` against a skill library while every way of running
code is watched (``exec``, ``eval``, ``compile`` to code, ``__import__``, ``open``,
``os.system``, ``os.popen``, ``subprocess.Popen``). Then the first ``M`` inputs it accepted are
stepped on a lockstep env over the core's fake simulator (``gcc_envs.testing``), which parses
them again and runs them: no game is needed.

Figures: **tried**; **executed** (a watched function was called); **crashed** (an exception that
is not ``CodeActionError``); **hung** (a parse over 2 s, or a step over 20 s); **accepted**;
**stepped**; **long** (a step that advanced more than ``MAX_PROGRAM_S`` + the step's own time).
"""

from __future__ import annotations

import argparse
import builtins
import json
import random
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

HOSTILE = [
    "import os; os.system('touch /tmp/gcc-pwned')",
    "__import__('os').system('id')",
    "exec('print(1)')",
    "eval('1+1')",
    "open('/etc/passwd').read()",
    "pyautogui.click(*[1, 2])",
    "pyautogui.__class__.__base__.__subclasses__()",
    "().__class__.__bases__[0].__subclasses__()",
    "getattr(pyautogui, 'click')(1, 2)",
    "lambda: 1",
    "[x for x in range(10**9)]",
    "while True: pass",
    "def f(): pass",
    "class A: pass",
    "with open('x', 'w'): pass",
    "pyautogui.typewrite('a' * 10**6)",
    "pyautogui.press('a', presses=10**9)",
    "pyautogui.typewrite('abcdef', interval=60)",
    "pyautogui.press('a', presses=100, interval=60)",
    "time.sleep(60); time.sleep(60); time.sleep(60); time.sleep(60); time.sleep(60); time.sleep(60)",
    "pyautogui.moveTo(10, 10, duration=1e308)",
    "pyautogui.moveRel(99999999999, 0)",
    "pyautogui.click(1e309, 2)",
    "pyautogui.click(float('nan'), 2)",
    "pyautogui.scroll(10**100)",
    "pyautogui.hotkey(*['ctrl'] * 100)",
    "pyautogui.keyDown('ctrl'); FAIL",
    "pyautogui.typewrite(f'{__import__(\"os\")}')",
    "pyautogui.locateCenterOnScreen('x.png')",
    "subprocess.Popen(['sh'])",
    "import subprocess",
    "from os import system",
    "move_up(duration=10**9)",
    "move_up(duration=-1)",
    "move_up(duration=59); move_up(duration=59); move_up(duration=59); move_up(duration=59); "
    "move_up(duration=59); move_up(duration=59)",
    "turn(degree=10**7)",
    "say('" + "a" * 999 + "')",
    "turn(" + "[" * 200 + "]" * 200 + ")",
    "(" * 500 + ")" * 500,
    "pyautogui.click(" + "-" * 5000 + "1, 2)",
    "'\\x00'",
    "pyautogui.typewrite('\\ud800')",
    "x = 1",
    "DONE.__class__",
    "print(open)",
    "breakpoint()",
    "raise SystemExit",
    "yield 1",
    "await x",
    "match x:\n    case 1:\n        pass",
]
VALID = [
    "pyautogui.click(100, 200)",
    "pyautogui.press('enter')",
    "pyautogui.hotkey('ctrl', 'c')",
    "pyautogui.typewrite('hello', interval=0.05)",
    "pyautogui.moveTo(50, 60, duration=0.5)",
    "pyautogui.moveRel(10, -5)",
    "pyautogui.dragTo(100, 100, duration=0.3)",
    "pyautogui.scroll(-3)",
    "pyautogui.keyDown('w'); time.sleep(1.5); pyautogui.keyUp('w')",
    "time.sleep(0.5)",
    "move_up(duration=0.5)",
    "move_up(0.25)",
    "turn(degree=30)",
    "say('hello', loud=True)",
    "WAIT",
    "DONE",
    "FAIL",
    "import pyautogui",
    "```python\npyautogui.press('a')\n```",
]
FRAGMENTS = [
    "(",
    ")",
    "[",
    "]",
    ",",
    "=",
    ";",
    "\n",
    " ",
    "'",
    '"',
    "\\",
    "*",
    "**",
    ".",
    "__",
    "1e309",
    "10**9",
    "-",
    "#",
    "\x00",
    "é",
    "\t",
    "import ",
    "lambda ",
    "os.",
    "pyautogui.",
    "time.sleep",
    "interval=60",
    "duration=60",
    "presses=100",
    "DONE",
    "WAIT",
]
WATCHED = [
    ("builtins", "exec"), ("builtins", "eval"), ("builtins", "open"), ("builtins", "compile"),
    ("builtins", "__import__"), ("os", "system"), ("os", "popen"), ("subprocess", "Popen"),
]  # fmt: skip


def inputs(n: int, rng: random.Random) -> Iterator[str]:
    corpus = HOSTILE + VALID
    for i in range(n):
        kind = i % 6
        if kind == 0:
            yield rng.choice(corpus)
        elif kind == 1:  # two snippets spliced at random points
            a, b = rng.choice(corpus), rng.choice(corpus)
            yield a[: rng.randrange(len(a) + 1)] + b[rng.randrange(len(b) + 1) :]
        elif kind == 2:  # fragments inserted into a snippet
            s = list(rng.choice(corpus))
            for _ in range(rng.randrange(1, 6)):
                s.insert(rng.randrange(len(s) + 1), rng.choice(FRAGMENTS))
            yield "".join(s)
        elif kind == 3:  # a chain of valid statements, some long
            yield rng.choice([";", "\n"]).join(
                rng.choice(corpus) for _ in range(rng.randrange(1, 9))
            )
        elif kind == 4:  # random bytes as text
            yield rng.randbytes(rng.randrange(1, 200)).decode("latin-1")
        else:  # characters deleted, duplicated or swapped
            s = list(rng.choice(corpus))
            for _ in range(rng.randrange(1, 4)):
                if s:
                    j = rng.randrange(len(s))
                    op = rng.randrange(3)
                    if op == 0:
                        del s[j]
                    elif op == 1:
                        s.insert(j, s[j])
                    else:
                        k = rng.randrange(len(s))
                        s[j], s[k] = s[k], s[j]
            yield "".join(s)


@contextmanager
def watched(calls: list[str]) -> Iterator[None]:
    """Count calls of the watched functions (the real ones still run: the counts are the test)."""
    import importlib

    real_import = builtins.__import__

    def spy(module: str, name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            if name == "__import__" and args and args[0] == "unicodedata":
                return real(*args, **kwargs)  # CPython's parser normalizes identifiers with it
            if name == "compile" and len(args) > 3 and args[3] & 0x400:  # ast.PyCF_ONLY_AST
                return real(*args, **kwargs)
            calls.append(f"{module}.{name}")
            return real(*args, **kwargs)

        return call

    saved = []
    for module, name in WATCHED:
        mod = importlib.import_module(module) if module != "builtins" else builtins
        real = getattr(mod, name)
        saved.append((mod, name, real))
        setattr(mod, name, spy(module, name, real))
    try:
        yield
    finally:
        for mod, name, real in saved:
            setattr(mod, name, real)
        builtins.__import__ = real_import


class Hang(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise Hang


def move_up(duration: float = 0.5) -> list[Any]:
    """Walk up by holding 'w' for ``duration`` seconds."""
    from gcc_envs.core import events as ev

    return [ev.KeyPress("w", duration)]


def turn(degree: int) -> list[Any]:
    """Turn right by ``degree`` degrees."""
    from gcc_envs.core import events as ev

    return [ev.MoveBy(degree, 0)]


def say(text: str, loud: bool = False) -> list[Any]:
    """Type ``text`` into the chat."""
    from gcc_envs.core import events as ev

    return [ev.TypeText(text.upper() if loud else text)]


def fake_env() -> Any:
    """A lockstep env over the core's fake simulator, with the three skills above."""
    from gcc_envs.backends.sim import SimBackend
    from gcc_envs.core.env import GCCEnv
    from gcc_envs.core.skills import SkillLibrary
    from gcc_envs.core.task import Task, TaskStatus
    from gcc_envs.testing import FAKE_KEYS, FakeSim

    class Open(Task):
        name, instruction, max_steps = "Open", "Do anything.", 10**6

        def evaluate(self, probe: Any) -> TaskStatus:
            return TaskStatus()

    skills = SkillLibrary.from_functions(move_up, turn, say)
    return GCCEnv(SimBackend(FakeSim(), (36, 64)), Open(), keys=FAKE_KEYS, skills=skills)


def run(n: int, steps: int, seed: int) -> dict[str, int]:
    from gcc_envs.core.code import parse_code
    from gcc_envs.core.program import MAX_PROGRAM_S
    from gcc_envs.errors import CodeActionError

    env = fake_env()
    env.reset(seed=0)
    skills = env.skills
    rng = random.Random(seed)
    counts = dict.fromkeys(
        ("tried", "executed", "crashed", "hung", "accepted", "stepped", "long"), 0
    )
    accepted: list[str] = []
    signal.signal(signal.SIGALRM, _alarm)
    for text in inputs(n, rng):
        counts["tried"] += 1
        calls: list[str] = []
        signal.setitimer(signal.ITIMER_REAL, 2.0)
        try:
            with watched(calls):
                parse_code(text, skills)
            counts["accepted"] += 1
            if len(accepted) < steps:
                accepted.append(text)
        except CodeActionError:
            pass
        except Hang:
            counts["hung"] += 1
        except Exception as e:  # noqa: BLE001 - what the fuzzer counts
            counts["crashed"] += 1
            print(f"# crashed: {text!r}: {type(e).__name__}: {e}", file=sys.stderr)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if calls:
            counts["executed"] += 1
            print(f"# executed {calls}: {text!r}", file=sys.stderr)
    for text in accepted:
        signal.alarm(20)
        try:
            _, _, terminated, truncated, info = env.step(text)
            counts["stepped"] += 1
            if info["t_game"] > MAX_PROGRAM_S + env.step_seconds + 1e-6:
                counts["long"] += 1
                print(f"# long: {info['t_game']:.1f} s: {text!r}", file=sys.stderr)
            if terminated or truncated:
                env.reset(seed=0)
        except Hang:
            counts["hung"] += 1
        except Exception as e:  # noqa: BLE001
            counts["crashed"] += 1
            print(f"# step crashed: {text!r}: {type(e).__name__}: {e}", file=sys.stderr)
            env.reset(seed=0)
        finally:
            signal.alarm(0)
    env.close()
    return counts


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--inputs", type=int, default=20_000, help="inputs to parse")
    p.add_argument("--steps", type=int, default=300, help="accepted inputs to step on the sim")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    counts = run(args.inputs, args.steps, args.seed)
    print(json.dumps(counts) if args.json else ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
