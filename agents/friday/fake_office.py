"""The ``office`` script of the loopback fake endpoint (``endpoint = "fake:office"``): a stand-in
model that learns one spreadsheet tool and one slides tool, so a suite can show FRIDAY's
protocol measuring a gain.

Asked for a curriculum it proposes one practice task: for an objective that names slides, a
title in ``~/practice.pptx`` (checked in the sandbox with python-pptx), else a bold number in
``~/practice.xlsx`` (checked with openpyxl). Its actor, on a spreadsheet task:

* with ``write_cell`` retrieved from the repository: calls it with the workbook, cell and text
  the instruction names (``Make ~/NAME.xlsx whose B2 says Total, in bold.``);
* on the practice task without it: writes ``write_cell`` (openpyxl, run in the sandbox) and
  calls it; the critic scores it 9 from its output, so it is kept;
* on any other task without it: writes plain text into a file named ``.xlsx`` (what a model
  that does not know openpyxl does), which the task's check refuses.

and likewise on a slides task with ``write_title`` (python-pptx: a new presentation whose
first slide has the title the instruction names, ``Make ~/NAME.pptx whose first slide's title
is Quarterly Review.``), where without it it writes plain text named ``.pptx``.

So held-out spreadsheet and slides tasks fail before learning and succeed after, with only the store
changed; the tool runs for real inside the episode's sandbox. A model this is not: it reads
the instruction with a regular expression.
"""

from __future__ import annotations

import json
import re
import sys

from agents.friday.testing import Script

WRITE_CELL = '''def write_cell(path: str, cell: str, value: object, bold: bool = True) -> str:
    """Save a new spreadsheet workbook (.xlsx) at path with value in cell, bold if asked."""
    import os
    from openpyxl import Workbook
    from openpyxl.styles import Font
    wb = Workbook()
    wb.active[cell] = value
    wb.active[cell].font = Font(bold=bold)
    wb.save(os.path.expanduser(path))
    return f"saved {path}: {cell}={value!r} bold={bold}"
'''
WRITE_TEXT = '''def write_text(path: str, text: str) -> str:
    """Write text into a file."""
    import os
    with open(os.path.expanduser(path), "w") as f:
        f.write(text)
    return f"wrote {path}"
'''
WRITE_TITLE = '''def write_title(path: str, title: str, subtitle: str = "") -> str:
    """Save a new presentation (.pptx) at path: one title page with title and subtitle."""
    import os
    from pptx import Presentation
    prs = Presentation()
    page = prs.slides.add_slide(prs.slide_layouts[0])
    page.shapes.title.text = title
    page.placeholders[1].text = subtitle
    prs.save(os.path.expanduser(path))
    return f"saved {path}: title={title!r} subtitle={subtitle!r}"
'''
PRACTICE_SLIDES = "Create ~/practice.pptx whose first slide's title is Hello."
_HELD_OUT_SLIDES = re.compile(r"Make (~/[\w.-]+\.pptx) whose first slide's title is (.+?)\.$", re.M)
PRACTICE = "Create ~/practice.xlsx with the number 7 in cell A1, in bold."
_HELD_OUT = re.compile(r"Make (~/[\w.-]+\.xlsx) whose ([A-Z]{1,2}[0-9]{1,4}) says (.+?), in bold")


def _practice() -> dict[str, object]:
    """The practice task, its check run in the sandbox by this interpreter (which has openpyxl)."""
    code = ("from openpyxl import load_workbook; "
            "c = load_workbook('/home/user/practice.xlsx').active['A1']; "
            "print(f'{c.value} bold={c.font.b}')")  # fmt: skip
    return {"instruction": PRACTICE, "check": f'{sys.executable} -c "{code}"',
            "expect": "7 bold=True"}  # fmt: skip


def _practice_slides() -> dict[str, object]:
    """The slides practice task, its check run in the sandbox with python-pptx."""
    code = ("from pptx import Presentation; "
            "print(Presentation('/home/user/practice.pptx').slides[0].shapes.title.text)")  # fmt: skip
    return {"instruction": PRACTICE_SLIDES, "check": f'{sys.executable} -c "{code}"',
            "expect": "Hello"}  # fmt: skip


def _curriculum(prompt: str) -> str:
    slides = "slides" in prompt.lower()  # the objective names the app
    return json.dumps({"tasks": [_practice_slides() if slides else _practice()]})


def _plan(prompt: str) -> str:
    task = prompt.split("Task: ", 1)[1].splitlines()[0] if "Task: " in prompt else "the task"
    return json.dumps({"subtasks": [{"id": "1", "description": task, "dependencies": []}]})


def _args(prompt: str) -> str | None:
    """The ``write_cell`` arguments the prompt's task names, or None."""
    if "~/practice.xlsx" in prompt:
        return "'~/practice.xlsx', 'A1', 7"
    m = _HELD_OUT.search(prompt)
    return None if m is None else f"{m.group(1)!r}, {m.group(2)!r}, {m.group(3)!r}"


def _slides_args(prompt: str) -> str | None:
    """The ``write_title`` arguments the prompt's task names, or None."""
    if "~/practice.pptx" in prompt:
        return "'~/practice.pptx', 'Hello'"
    m = _HELD_OUT_SLIDES.search(prompt)
    return None if m is None else f"{m.group(1)!r}, {m.group(2)!r}"


def _slides_actor(prompt: str, args: str) -> str:
    if "- write_title:" in prompt:  # retrieved from the repository: call it
        return f"Reasoning: the repository has a tool for this.\nInvocation: write_title({args})"
    if "~/practice.pptx" in prompt:
        return f"Reasoning: no tool fits.\n```python\n{WRITE_TITLE}```\nInvocation: write_title({args})"
    return (f"Reasoning: write it.\n```python\n{WRITE_TEXT}```\n"
            f"Invocation: write_text({args})")  # fmt: skip


def _actor(prompt: str) -> str:
    slides = _slides_args(prompt)
    if slides is not None:
        return _slides_actor(prompt, slides)
    args = _args(prompt)
    if args is None:
        return "Reasoning: not a spreadsheet task I know.\n```python\n```\nTool: none"
    if "- write_cell:" in prompt:  # retrieved from the repository: call it
        return f"Reasoning: the repository has a tool for this.\nInvocation: write_cell({args})"
    if "~/practice.xlsx" in prompt:
        return (
            f"Reasoning: no tool fits.\n```python\n{WRITE_CELL}```\nInvocation: write_cell({args})"
        )
    path, _, text = args.split(", ", 2)
    return (f"Reasoning: write it.\n```python\n{WRITE_TEXT}```\n"
            f"Invocation: write_text({path}, {text})")  # fmt: skip


def _critic(prompt: str) -> str:
    score = 9 if "saved " in prompt else 3  # judged from the code's output
    ok = "saved " in prompt or "wrote " in prompt
    return json.dumps({"complete": ok, "score": score, "reasoning": "judged from the output"})


def office() -> Script:
    """The ``office`` script (see the module's text)."""
    return Script(curriculum=_curriculum, planner=_plan, actor=_actor, refiner=_actor,
                  critic=_critic)  # fmt: skip
