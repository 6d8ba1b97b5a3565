"""Tests of the safe code parser: round trips, examples, hostile inputs and fuzzing."""

from __future__ import annotations

import ast
import builtins
import doctest
import inspect
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gcc_envs.core import code
from gcc_envs.core import events as ev
from gcc_envs.core.code import extract_code, from_pyautogui, parse_code
from gcc_envs.core.expand import PointerTracker, event_seconds, expand
from gcc_envs.core.program import MAX_PROGRAM_S
from gcc_envs.core.skills import Skill, SkillCall, SkillLibrary
from gcc_envs.errors import CodeActionError

FUZZ = settings(
    max_examples=1000,
    deadline=timedelta(seconds=2),
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def move_up(duration: float = 0.5):
    """Walk up (north) by holding 'w' for ``duration`` seconds."""
    return [ev.KeyPress("w", duration)]


def turn(degree: int):
    """Turn right by ``degree`` degrees."""
    return [ev.MoveBy(degree, 0)]


def say(text: str, loud: bool = False):
    """Type ``text`` into the chat."""
    return [ev.TypeText(text.upper() if loud else text)]


SKILLS = SkillLibrary.from_functions(move_up, turn, say)


# ---- round trip: parse_code(e.to_pyautogui()) == [e] for every event type --------------------

EXAMPLES: list[ev.Event] = [
    ev.KeyDown("w"), ev.KeyDown("enter"), ev.KeyDown("'"), ev.KeyDown("\\"),
    ev.KeyUp("w"), ev.KeyUp("shift"), ev.KeyUp('"'), ev.KeyUp(" "),
    ev.KeyPress("w"), ev.KeyPress("f5"), ev.KeyPress("esc", 0.5), ev.KeyPress("a", 0.0500001),
    ev.KeyPress(",", 60.0),
    ev.Hotkey(("ctrl", "c")), ev.Hotkey(("enter",)),
    ev.Hotkey(("ctrl", "shift", "alt", "'", "1", "f12")),
    ev.TypeText("hello world"), ev.TypeText(""), ev.TypeText("a\n\t'\"\\{}", 0.3),
    ev.TypeText("x" * ev.MAX_TEXT, 0.02),
    ev.MoveTo(0, 0), ev.MoveTo(-5, 1920, 0.25), ev.MoveTo(ev.MAX_COORD, -ev.MAX_COORD, 60.0),
    ev.MoveBy(10, -20), ev.MoveBy(0, 0, 1.5), ev.MoveBy(-ev.MAX_COORD, 3),
    ev.MouseDown(), ev.MouseDown("right"), ev.MouseDown("middle"),
    ev.MouseUp(), ev.MouseUp("right"), ev.MouseUp("middle"),
    ev.Click(1, 2), ev.Click(100, 200, "right"), ev.Click(-3, 4, "middle", 3),
    ev.Click(5, 6, count=2),
    ev.DragTo(10, 20), ev.DragTo(0, -1, "right", 0.0), ev.DragTo(3, 4, "middle", 2.5),
    ev.Scroll(dy=3), ev.Scroll(dy=-100), ev.Scroll(dx=3), ev.Scroll(dx=-1, x=10, y=20),
    ev.Scroll(dy=5, x=0, y=0),
    ev.Wait(0.0), ev.Wait(0.5), ev.Wait(60.0), ev.Wait(1e-300), ev.Wait(1),
    ev.Done(), ev.Fail(),
]  # fmt: skip


def test_examples_cover_every_event_type():
    assert {type(e) for e in EXAMPLES} == set(ev.EVENT_CLASSES)


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: repr(e)[:60])
def test_to_pyautogui_round_trips(event):
    assert parse_code(event.to_pyautogui()) == [event]
    assert from_pyautogui(event.to_pyautogui()) == [event]


_keys = st.sampled_from(sorted(ev.KEY_NAMES))
_seconds = st.floats(0.0, ev.MAX_EVENT_S, allow_nan=False)
_buttons = st.sampled_from(ev.BUTTONS)
_clicks = st.integers(-100, 100).filter(bool)


def _fits(events) -> bool:
    """Whether ``events`` fit in one step (at most ``MAX_PROGRAM_S`` game seconds)."""
    return sum(event_seconds(e) for e in events) <= MAX_PROGRAM_S


def event_strategies(
    limit: int = ev.MAX_COORD, seconds: st.SearchStrategy = _seconds
) -> dict[type[ev.Event], st.SearchStrategy]:
    """A strategy per event class, over valid fields with coordinates in ``[-limit, limit]``
    and durations from ``seconds``; each event fits in one step."""
    _seconds = seconds
    xy = st.integers(-limit, limit)
    where = st.one_of(st.just((None, None)), st.tuples(xy, xy))
    text = st.text(st.sampled_from(sorted(ev.TYPEABLE)), max_size=200)
    return {
        ev.KeyDown: st.builds(ev.KeyDown, _keys),
        ev.KeyUp: st.builds(ev.KeyUp, _keys),
        ev.KeyPress: st.builds(ev.KeyPress, _keys, st.one_of(st.just(ev.TAP_S), _seconds)),
        ev.Hotkey: st.builds(ev.Hotkey, st.lists(_keys, min_size=1, max_size=6).map(tuple)),
        ev.TypeText: st.builds(ev.TypeText, text, _seconds).filter(lambda e: _fits([e])),
        ev.MoveTo: st.builds(ev.MoveTo, xy, xy, st.one_of(st.just(0.0), _seconds)),
        ev.MoveBy: st.builds(ev.MoveBy, xy, xy, st.one_of(st.just(0.0), _seconds)),
        ev.MouseDown: st.builds(ev.MouseDown, _buttons),
        ev.MouseUp: st.builds(ev.MouseUp, _buttons),
        ev.Click: st.builds(ev.Click, xy, xy, _buttons, st.integers(1, 3)),
        ev.DragTo: st.builds(ev.DragTo, xy, xy, _buttons, _seconds),
        ev.Scroll: st.one_of(
            st.builds(lambda n, p: ev.Scroll(dy=n, x=p[0], y=p[1]), _clicks, where),
            st.builds(lambda n, p: ev.Scroll(dx=n, x=p[0], y=p[1]), _clicks, where),
        ),
        ev.Wait: st.builds(ev.Wait, _seconds),
        ev.Done: st.just(ev.Done()),
        ev.Fail: st.just(ev.Fail()),
    }


_events = st.one_of(*event_strategies().values())
# Small coordinates, so that a run of relative moves stays inside MAX_COORD when expanded.
# Short durations, so that most programs fit in one step.
_program_events = st.lists(
    st.one_of(*event_strategies(2000, st.floats(0.0, 5.0)).values()), max_size=12
).filter(_fits)


def test_event_strategies_cover_every_event_type():
    assert set(event_strategies()) == set(ev.EVENT_CLASSES)


@FUZZ
@given(_events)
def test_generated_event_round_trips(event):
    assert parse_code(event.to_pyautogui()) == [event]


def _primitives(actions: list) -> list:
    pointer = PointerTracker()
    return [p for a in actions for p in expand(a, pointer)]


@settings(max_examples=300, deadline=timedelta(seconds=2), database=None)
@given(_program_events, st.sampled_from(["\n", "; "]))
def test_generated_program_parses_to_the_same_primitives(events, separator):
    program = separator.join(e.to_pyautogui() for e in events)
    assert _primitives(parse_code(program)) == _primitives(events)


# ---- examples -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("move_up(duration=1)", [SkillCall("move_up", (), (("duration", 1.0),))]),
        ("move_up(1)", [SkillCall("move_up", (), (("duration", 1.0),))]),
        ("move_up()", [SkillCall("move_up", (), ())]),
        ("turn(degree=30)", [SkillCall("turn", (), (("degree", 30),))]),
        ("say('hi', loud=True)", [SkillCall("say", (), (("text", "hi"), ("loud", True)))]),
    ],
)
def test_skill_calls_are_bound_by_keyword(text, expected):
    result = parse_code(text, SKILLS)
    assert result == expected
    assert all(
        type(v) is type(w)
        for (_, v), (_, w) in zip(result[0].kwargs, expected[0].kwargs, strict=True)
    )


def test_skill_call_to_code_round_trips():
    call = parse_code("move_up(2)", SKILLS)[0]
    assert parse_code(call.to_code(), SKILLS) == [call]
    assert SKILLS.program(call).events == (ev.KeyPress("w", 2.0),)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("turn(30.5)", "degree must be int"),
        ("turn()", "needs 'degree'"),
        ("move_up(1, 2)", "takes 1 argument"),
        ("move_up(speed=1)", "no parameter 'speed'"),
        ("move_up(1, duration=2)", "twice"),
        ("jump()", "unknown skill 'jump'.*known skills: move_up, turn, say"),
    ],
)
def test_bad_skill_calls_are_refused(text, match):
    with pytest.raises(CodeActionError, match=match):
        parse_code(text, SKILLS)


def test_unknown_skill_message_truncates_the_list():
    lib = SkillLibrary(Skill(f"s{i}", lambda: [], "", ()) for i in range(30))
    with pytest.raises(CodeActionError, match=r"s19, \.\.\. \(10 more\)") as info:
        parse_code("nope()", lib)
    assert "s20" not in str(info.value)


def test_bare_pyautogui_name_is_a_skill_call():
    with pytest.raises(CodeActionError, match=r"write pyautogui\.click\(\.\.\.\)"):
        parse_code("click(1, 2)")

    def click(x: int, y: int):
        """Click a grid cell."""
        return [ev.Click(x * 10, y * 10)]

    lib = SkillLibrary.from_functions(click)
    assert parse_code("click(1, 2)", lib) == [SkillCall("click", (), (("x", 1), ("y", 2)))]
    assert parse_code("pyautogui.click(1, 2)", lib) == [ev.Click(1, 2)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DONE", [ev.Done()]),
        ("WAIT", [ev.Wait(1.0)]),
        ("FAIL", [ev.Fail()]),
        ("time.sleep(0.5)", [ev.Wait(0.5)]),
        ("pyautogui.sleep(2)", [ev.Wait(2.0)]),
        ("pyautogui.press('c')", [ev.KeyPress("c")]),
        ("pyautogui.press('Enter')", [ev.KeyPress("enter")]),
        ("pyautogui.press(['a', 'b'])", [ev.KeyPress("a"), ev.KeyPress("b")]),
        (
            "pyautogui.press('a', presses=2, interval=0.1)",
            [ev.KeyPress("a"), ev.Wait(0.1), ev.KeyPress("a")],
        ),
        ("pyautogui.press([])", []),
        ("pyautogui.keyDown('shift')", [ev.KeyDown("shift")]),
        ("pyautogui.keyUp(key='shift')", [ev.KeyUp("shift")]),
        ("pyautogui.hotkey('ctrl', 'c', interval=0.1)", [ev.Hotkey(("ctrl", "c"))]),
        ("pyautogui.hotkey(['ctrl', 'v'])", [ev.Hotkey(("ctrl", "v"))]),
        ("pyautogui.typewrite('hi')", [ev.TypeText("hi")]),
        ("pyautogui.write(message='hi', interval=0.2)", [ev.TypeText("hi", 0.2)]),
        (
            "pyautogui.typewrite(['a', 'enter'])",
            [ev.KeyPress("a"), ev.Wait(0.01), ev.KeyPress("enter")],
        ),
        ("pyautogui.typewrite(f'a{{b}}')", [ev.TypeText("a{b}")]),
        ("pyautogui.moveTo(1, 2, 0.5)", [ev.MoveTo(1, 2, 0.5)]),
        ("pyautogui.moveTo(x=1, y=2, duration=0.5)", [ev.MoveTo(1, 2, 0.5)]),
        ("pyautogui.moveTo((1, 2))", [ev.MoveTo(1, 2)]),
        ("pyautogui.moveTo(1.6, -2.4)", [ev.MoveTo(2, -2)]),
        ("pyautogui.moveRel(3, -4)", [ev.MoveBy(3, -4)]),
        ("pyautogui.move(xOffset=3, yOffset=4, duration=1)", [ev.MoveBy(3, 4, 1.0)]),
        ("pyautogui.click(10, 20)", [ev.Click(10, 20)]),
        ("pyautogui.click(10, 20, 2, 0.0, 'right')", [ev.Click(10, 20, "right", 2)]),
        ("pyautogui.click(x=10, y=20, button='primary')", [ev.Click(10, 20)]),
        ("pyautogui.click(10, 20, duration=0.5)", [ev.MoveTo(10, 20, 0.5), ev.Click(10, 20)]),
        ("pyautogui.click()", [ev.MouseDown(), ev.Wait(ev.MIN_TAP_S), ev.MouseUp()]),
        (
            "pyautogui.click(button='right', clicks=2, interval=0.2)",
            [ev.MouseDown("right"), ev.Wait(ev.MIN_TAP_S), ev.MouseUp("right"), ev.Wait(0.2)]
            + [ev.MouseDown("right"), ev.Wait(ev.MIN_TAP_S), ev.MouseUp("right")],
        ),
        (
            "pyautogui.click(1, 2, clicks=4)",
            [ev.MoveTo(1, 2)] + [ev.MouseDown(), ev.Wait(ev.MIN_TAP_S), ev.MouseUp()] * 4,
        ),
        ("pyautogui.click(1, 2, clicks=0)", [ev.MoveTo(1, 2)]),
        ("pyautogui.doubleClick(5, 6)", [ev.Click(5, 6, count=2)]),
        ("pyautogui.tripleClick(5, 6, button='middle')", [ev.Click(5, 6, "middle", 3)]),
        ("pyautogui.rightClick(5, 6)", [ev.Click(5, 6, "right")]),
        ("pyautogui.middleClick(x=5, y=6)", [ev.Click(5, 6, "middle")]),
        ("pyautogui.mouseDown()", [ev.MouseDown()]),
        ("pyautogui.mouseDown(1, 2, 'right')", [ev.MoveTo(1, 2), ev.MouseDown("right")]),
        ("pyautogui.mouseUp(x=1, y=2)", [ev.MoveTo(1, 2), ev.MouseUp()]),
        ("pyautogui.dragTo(30, 40)", [ev.DragTo(30, 40)]),
        ("pyautogui.dragTo(30, 40, 1.0, button='right')", [ev.DragTo(30, 40, "right", 1.0)]),
        ("pyautogui.scroll(-3)", [ev.Scroll(dy=-3)]),
        ("pyautogui.vscroll(2, 10, 20)", [ev.Scroll(dy=2, x=10, y=20)]),
        ("pyautogui.hscroll(clicks=4, x=1, y=2)", [ev.Scroll(dx=4, x=1, y=2)]),
        ("pass\n'a string comment'\n# a comment", []),
        ("", []),
    ],
)
def test_examples(text, expected):
    assert parse_code(text) == expected


def test_multi_line_program():
    text = """
# open the file menu, then walk
pyautogui.moveTo(100, 200)
pyautogui.click()
time.sleep(0.5)
pyautogui.hotkey('ctrl', 's'); pyautogui.typewrite('notes.txt\\n')
move_up(duration=2)
DONE
"""
    assert parse_code(text, SKILLS) == [
        ev.MoveTo(100, 200),
        ev.MouseDown(),
        ev.Wait(ev.MIN_TAP_S),
        ev.MouseUp(),
        ev.Wait(0.5),
        ev.Hotkey(("ctrl", "s")),
        ev.TypeText("notes.txt\n"),
        SkillCall("move_up", (), (("duration", 2.0),)),
        ev.Done(),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "pyautogui.keyDown('w')\ntime.sleep(2)\npyautogui.keyUp('w')",
            [ev.KeyPress("w", 2.0)],
        ),
        (
            "pyautogui.keyDown('w'); time.sleep(1); pyautogui.keyUp('a')",
            [ev.KeyDown("w"), ev.Wait(1.0), ev.KeyUp("a")],
        ),
        (
            "pyautogui.keyDown('w'); time.sleep(0.01); pyautogui.keyUp('w')",
            [ev.KeyDown("w"), ev.Wait(0.01), ev.KeyUp("w")],
        ),
        (
            "pyautogui.keyDown('w'); pyautogui.keyDown('a'); time.sleep(1); pyautogui.keyUp('a')",
            [ev.KeyDown("w"), ev.KeyPress("a", 1.0)],
        ),
        (
            "pyautogui.keyDown('w'); time.sleep(1); pyautogui.press('x'); pyautogui.keyUp('w')",
            [ev.KeyDown("w"), ev.Wait(1.0), ev.KeyPress("x"), ev.KeyUp("w")],
        ),
    ],
)
def test_key_holds_are_folded_only_when_exact(text, expected):
    assert parse_code(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pyautogui.press('c')", "pyautogui.press('c')"),
        ("Sure:\n```python\npyautogui.press('c')\n```\nDone.", "pyautogui.press('c')\n"),
        ("```\nDONE\n```", "DONE\n"),
        ("```DONE```", "DONE"),
        ("```\nDONE\nWAIT\n```", "DONE\nWAIT\n"),
        ("a\n```py\nWAIT\n```\nb\n```python\nDONE\n```", "WAIT\n\nDONE\n"),
        ("```json\n{}\n```\n```python\nDONE\n```", "DONE\n"),
        ("```\nWAIT\n```\n```\nFAIL\n```", "WAIT\n\nFAIL\n"),
        ("1. Click:\n   ```python\n   pyautogui.click(1, 2)\n   ```", "pyautogui.click(1, 2)\n"),
        ("```python\nDONE", "DONE"),
    ],
)
def test_extract_code(text, expected):
    assert extract_code(text) == expected


def test_extract_code_output_parses():
    answer = "I will save.\n```python\npyautogui.hotkey('ctrl', 's')\nWAIT\n```\n"
    assert parse_code(extract_code(answer)) == [ev.Hotkey(("ctrl", "s")), ev.Wait(1.0)]


def test_parse_code_does_not_strip_fences_itself():
    with pytest.raises(CodeActionError, match="syntax error"):
        parse_code("```python\nDONE\n```")


# ---- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("pyautogui.click(1, 2)\n\nimport os", "line 3: import"),
        ("DONE\npyautogui.keyDown('nokey')", "line 2: unknown key"),
        ("time.sleep(-1)", "line 1: seconds must be between"),
        ("pyautogui.click(1, 2, foo=3)", r"line 1: pyautogui\.click\(x=None.*unexpected keyword"),
        ("pyautogui.locateCenterOnScreen('a.png')", "'pyautogui.locateCenterOnScreen' is not"),
        ("x = 1", "line 1: assignment is not allowed"),
        ("pyautogui.click(x, 2)", "name 'x' is not allowed"),
        ("pyautogui.moveTo(1)", "give both x and y"),
        ("pyautogui.moveTo()", "x and y are required"),
        ("pyautogui.scroll(0)", "exactly one of dy, dx"),
        ("def f(:", "line 1: syntax error"),
    ],
)
def test_refusals_name_the_line_and_the_reason(text, match):
    with pytest.raises(CodeActionError, match=match):
        parse_code(text)


@pytest.mark.parametrize("value", [None, 42, b"DONE", ["DONE"], ev.Done()])
def test_non_string_code_is_refused(value):
    with pytest.raises(CodeActionError, match="must be a string"):
        parse_code(value)


def test_limits_are_enforced():
    with pytest.raises(CodeActionError, match="longer than"):
        parse_code("WAIT\n" * (code.MAX_CODE_CHARS // 5 + 1))
    with pytest.raises(CodeActionError, match="statements"):
        parse_code("WAIT\n" * (code.MAX_STATEMENTS + 1))
    assert len(parse_code("WAIT\n" * code.MAX_STATEMENTS)) == code.MAX_STATEMENTS
    with pytest.raises(CodeActionError, match="events in total"):
        parse_code("pyautogui.press('a', presses=100)\n" * 11)
    with pytest.raises(CodeActionError, match="presses must be an int"):
        parse_code("pyautogui.press('a', presses=101)")
    with pytest.raises(CodeActionError, match="string literal longer"):
        parse_code(f"pyautogui.typewrite('{'a' * (code.MAX_STR + 1)}')")


MARKER = "MARKER"
HOSTILE = [
    "import os",
    "import pyautogui as p\np.click(1, 2)",
    "import pyautogui, os",
    "import time.os",
    "from os import system",
    "__import__('os').system('touch MARKER')",
    "__import__('subprocess').run(['touch', 'MARKER'])",
    "open('MARKER', 'w').write('x')",
    "exec(\"open('MARKER', 'w')\")",
    "eval(\"open('MARKER', 'w')\")",
    "compile('1', 'x', 'exec')",
    "(lambda: open('MARKER', 'w'))()",
    "f = lambda: open('MARKER', 'w')",
    "os.system('touch MARKER')",
    "subprocess.run(['touch', 'MARKER'])",
    "pyautogui.__class__.__init__.__globals__['os'].system('touch MARKER')",
    "().__class__.__bases__[0].__subclasses__()",
    "pyautogui.click.__globals__['os'].system('touch MARKER')",
    "pyautogui.click.__call__(1, 2)",
    "getattr(pyautogui, 'click')(1, 2)",
    "globals()['__builtins__']['open']('MARKER', 'w')",
    "pyautogui.locateCenterOnScreen('a.png')",
    "pyautogui.screenshot('MARKER')",
    "pyautogui.moveTo(1e309, 0)",
    "pyautogui.moveTo(-1e309, 0)",
    "pyautogui.moveTo(10**100, 0)",
    "pyautogui.moveTo(0x" + "f" * 5000 + ", 0)",
    "pyautogui.moveTo(" + "9" * 5000 + ", 0)",
    "time.sleep(1e6)",
    "pyautogui.press(" + "[" * 50 + "'a'" + "]" * 50 + ")",
    "pyautogui.press(" + "[" * 300 + "'a'" + "]" * 300 + ")",
    "(" * 1000 + "DONE" + ")" * 1000,
    "-" * 19_990 + "1",
    "1" + "+1" * 9_000,
    "a" + ".a" * 9_000,
    "not " * 4_000 + "DONE",
    "pyautogui.typewrite('héllo')",
    "__ｉｍｐｏｒｔ__('os').system('touch MARKER')",
    "ｅｘｅｃ(\"open('MARKER', 'w')\")",
    "pyautogui.click(1, 2)\x00",
    'pyautogui.typewrite(f\'{open("MARKER", "w")}\')',
    "pyautogui.typewrite(f'{1+1}')",
    "(x := open('MARKER', 'w'))",
    "pyautogui.click(x := 1, 2)",
    "@open('MARKER', 'w')\ndef f(): pass",
    "class A: pass",
    "pyautogui.click(**{'x': 1, 'y': 2})",
    "pyautogui.click(*[1, 2])",
    "for i in range(10**9): pyautogui.click(1, 2)",
    "while True: pass",
    "if True: DONE",
    "with open('MARKER', 'w'): pass",
    "try:\n    DONE\nexcept Exception:\n    pass",
    "pyautogui.click(1 + 1, 2)",
    "pyautogui.typewrite('a' * 10**6)",
    "pyautogui.press('a', presses=10**9)",
    "pyautogui.press(['a'][0])",
    "pyautogui.click(int('1'), 2)",
    "pyautogui.typewrite(b'abc')",
    "pyautogui.moveTo(1j, 2)",
    "pyautogui.moveTo(True, 2)",
    "pyautogui.click(-True, 2)",
    "pyautogui.click(- -1, 2)",
    "pyautogui.typewrite({'a': 1})",
    "pyautogui.typewrite({'a'})",
    "pyautogui.typewrite(...)",
    "pyautogui.typewrite([x for x in 'ab'])",
    "pyautogui.typewrite('a' if True else 'b')",
    "del pyautogui",
    "global pyautogui",
    "raise SystemExit",
    "assert False",
    "yield 1",
    "await pyautogui.click(1, 2)",
    "return DONE",
    "print('hi')",
    "breakpoint()",
    "DONE()",
    "WAIT = 5",
    "DONE.__class__",
    "'a'.join(['b'])",
    "pyautogui.pyautogui.click(1, 2)",
    "match x:\n    case 1:\n        pass",
    "pyautogui.hotkey('ctrl', 'c', 'v', 'a', 'b', 'd', 'e')",
    "pyautogui.click(1, 2, button='left; import os')",
    "x" * (code.MAX_CODE_CHARS + 1),
    "\ud800",
]


def test_hostile_list_is_long():
    assert len(HOSTILE) >= 30


@contextmanager
def nothing_may_run() -> Iterator[None]:
    """Make every way of running code or touching files fail loudly inside the block."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the parser tried to run something")

    real_compile = builtins.compile

    def compile_to_ast_only(source: object, filename: str, mode: str, flags: int = 0, **kw: object):
        if not flags & ast.PyCF_ONLY_AST:
            raise AssertionError("the parser compiled code to run")
        return real_compile(source, filename, mode, flags, **kw)  # type: ignore[call-overload]

    real_import = builtins.__import__

    def import_unicodedata_only(name: str, *args: object, **kwargs: object):
        if name != "unicodedata":  # CPython's parser NFKC-normalizes non-ASCII identifiers
            raise AssertionError(f"the parser tried to import {name}")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    guards = {"compile": compile_to_ast_only, "__import__": import_unicodedata_only}
    targets = [(builtins, n) for n in ("exec", "eval", "open", "__import__", "compile")]
    targets += [(os, "system"), (os, "popen"), (subprocess, "Popen")]
    saved = [getattr(obj, name) for obj, name in targets]
    try:
        for obj, name in targets:
            setattr(obj, name, guards.get(name, refuse))
        yield
    finally:
        for (obj, name), value in zip(targets, saved, strict=True):
            setattr(obj, name, value)


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:50]))
def test_hostile_input_is_refused_and_runs_nothing(text, tmp_path, monkeypatch):
    marker: Path = tmp_path / "pwned"
    text = text.replace(MARKER, str(marker))
    monkeypatch.chdir(tmp_path)
    start = time.perf_counter()
    with pytest.raises(CodeActionError), nothing_may_run():
        parse_code(text, SKILLS)
    assert time.perf_counter() - start < 1.0
    assert not marker.exists()
    assert list(tmp_path.iterdir()) == []


def test_module_examples_pass():
    assert doctest.testmod(code).failed == 0


# ---- fuzzing --------------------------------------------------------------------------------


def _outcome(text: str) -> None:
    """Parsing either returns events and skill calls or raises CodeActionError."""
    try:
        result = parse_code(text, SKILLS)
    except CodeActionError:
        return
    assert isinstance(result, list)
    assert all(isinstance(a, (ev.Event, SkillCall)) for a in result)


@FUZZ
@given(st.text())
def test_arbitrary_text_is_parsed_or_refused(text):
    _outcome(text)


_NAMES = [f"pyautogui.{n}" for n in code._PYAUTOGUI] + [
    "time.sleep", "move_up", "turn", "say", "click", "os.system", "__import__", "getattr",
    "pyautogui.locateCenterOnScreen", "exec", "open", "DONE",
]  # fmt: skip
_FRAGMENTS = [
    "pyautogui.", "time.sleep", "(", ")", "[", "]", "{", "}", ",", "=", ":", ";", "\n", " ",
    "    ", ".", "-", "+", "*", "**", "'", '"', "#", "\\", "lambda", "import", "os", "x", "f'",
    "{x}", "DONE", "WAIT", "FAIL", "pass", "if", "for", "in", "not", "True", "None", ":=", "@",
    "__class__", "__import__", "'left'", "'enter'", "1e309", "0x", "j", "\x00", "é",
]  # fmt: skip
_plausible_src = st.one_of(
    st.integers(-50, 2000).map(repr),
    st.floats(0.0, 5.0).map(repr),
    _keys.map(repr),
    _buttons.map(repr),
    st.lists(_keys, max_size=3).map(repr),
    st.sampled_from(["True", "None", "'hello'", "(10, 20)"]),
)
_wild_src = st.one_of(
    st.integers().map(repr),
    st.floats().map(repr),
    st.text(max_size=8).map(repr),
    st.sampled_from(["False", "...", "b'x'", "1j", "x", "f'{x}'", "-True", "[]", "-1e6", "1e7"]),
)
_leaf_src = st.one_of(*[_plausible_src] * 6, _wild_src)
_nested_src = st.recursive(
    _leaf_src,
    lambda inner: st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
    max_leaves=6,
)
_literal_src = st.one_of(*[_leaf_src] * 5, _nested_src)


@st.composite
def _call_src(draw: st.DrawFn) -> str:
    """A call of a known or hostile name, with keywords mostly from its real parameters."""
    name = draw(st.sampled_from(_NAMES))
    sig = code._SIGNATURES.get(name)
    params = list(sig.parameters) if sig else ["duration", "degree", "text", "loud"]
    args = draw(st.lists(_literal_src, max_size=2))
    keywords = st.sampled_from([*params, "foo", "_pause"])
    kwargs = draw(
        st.lists(st.tuples(keywords, _literal_src), max_size=3, unique_by=lambda kv: kv[0])
    )
    return f"{name}({', '.join(args + [f'{k}={v}' for k, v in kwargs])})"


@st.composite
def _keyword_call_src(draw: st.DrawFn) -> str:
    """A whitelisted call with plausible values for some of its real parameters, by keyword."""
    name = draw(st.sampled_from(sorted(code._SIGNATURES)))
    by_keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    params = [p.name for p in code._SIGNATURES[name].parameters.values() if p.kind in by_keyword]
    chosen = draw(st.lists(st.sampled_from(params), unique=True)) if params else []
    args = draw(st.lists(_plausible_src, max_size=1 if chosen else 3))
    kwargs = [f"{k}={draw(_plausible_src)}" for k in chosen]
    return f"{name}({', '.join(args + kwargs)})"


_soup_src = st.lists(
    st.one_of(st.sampled_from(_FRAGMENTS + _NAMES), _literal_src), max_size=25
).map("".join)
_program_src = st.builds(
    lambda stmts, sep: sep.join(stmts),
    st.lists(
        st.one_of(_call_src(), _keyword_call_src(), _keyword_call_src(), _soup_src),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from(["\n", "; "]),
)


@FUZZ
@given(_program_src)
def test_structured_code_is_parsed_or_refused(text):
    _outcome(text)


def test_plain_imports_of_pyautogui_and_time_are_tolerated():
    assert parse_code("import pyautogui\nimport time\npyautogui.click(1, 2)") == [ev.Click(1, 2)]
