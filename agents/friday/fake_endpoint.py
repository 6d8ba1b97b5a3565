"""A scripted FRIDAY model served on loopback, for suites that name it (``endpoint = "fake:NAME"``).

:func:`serve` starts :class:`agents.cradle.testing.FakeOpenAI` — a real HTTP server on
127.0.0.1 that wants ``Bearer <token>`` — with a fresh random token put in the environment
variable :data:`TOKEN_ENV`, and one of the :data:`SCRIPTS` answering. Its usage counts as a
real server's would (prompt tokens = characters // 4), so the accounting of a fake run is the
accounting of a real one with the same prompts; the cost follows the model *name* the suite
gives (``gpt-4o`` is priced as gpt-4o). ``office`` (:mod:`agents.friday.fake_office`) learns a
spreadsheet tool that held-out tasks then succeed with.

The scripts are a stand-in for a model, not a model: ``games`` knows one call sequence per game
(Stardew: leave the house; Dealer's Life 2: open the shop), which it writes as a new tool when
none is listed and calls when the configurator retrieved it; its critic accepts every subtask
(score 9). It cannot finish either game's task: the env's verdict stays a failure, so a suite on
it checks the protocol and its accounting, not an agent.

>>> with serve("games") as (base_url, token_env):
...     base_url.startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from agents.friday.fake_office import office
from agents.friday.testing import Script
from gcc_envs.errors import GCCError

#: The variable holding the served endpoint's token (the policy's ``api_key_env``).
TOKEN_ENV = "GCC_FAKE_OPENAI_KEY"

#: Per game (a skill its actor prompt lists): the tool's name, calls and description.
GAME_TOOLS = {
    "get_out_of_house": ("leave_house", "get_out_of_house()", "Walk out of the farmhouse"),
    "open_shop": ("open_the_shop", "open_shop()", "Open the pawn shop for the day"),
}
_TASK = re.compile(r"^Task: (.*)$", re.M)


def _task(prompt: str) -> str:
    m = _TASK.search(prompt)
    return m.group(1) if m else ""


def _curriculum(prompt: str) -> str:
    tasks = [
        {"instruction": "Practice: leave the house or open the shop, whichever the game has.",
         "check": None, "expect": None},
        {"instruction": "Practice: do it again, then stop.", "check": None, "expect": None},
    ]  # fmt: skip
    return json.dumps({"tasks": tasks})


def _plan(prompt: str) -> str:
    task = _task(prompt) or "the task"
    return json.dumps({"subtasks": [{"id": "1", "description": task, "dependencies": []}]})


def _actor(prompt: str) -> str:
    for skill, (name, calls, description) in GAME_TOOLS.items():
        if f"{name}:" in prompt or f"{name}()" in prompt:  # retrieved: call it
            return f"Reasoning: the repository has a tool for this.\nInvocation: {name}()"
        if skill in prompt:
            return (f"Reasoning: try it.\n```python\n{calls}\n```\nTool: {name}\n"
                    f"Description: {description}")  # fmt: skip
    return "Reasoning: not sure what to do; look around.\n```python\n```\nTool: none"


def _critic(prompt: str) -> str:
    return json.dumps({"complete": True, "score": 9, "reasoning": "the calls ran"})


def games() -> Script:
    """The ``games`` script (see the module's text)."""
    return Script(curriculum=_curriculum, planner=_plan, actor=_actor, refiner=_actor,
                  critic=_critic)  # fmt: skip


SCRIPTS: dict[str, Callable[[], Callable[[dict[str, Any]], str]]] = {
    "games": games,
    "office": office,
}


@contextmanager
def serve(name: str) -> Iterator[tuple[str, str]]:
    """Serve script ``name`` on loopback; yields ``(base_url, token_env)``. The token variable
    is set for the duration and restored after."""
    from agents.cradle.testing import FakeOpenAI

    if name not in SCRIPTS:
        raise GCCError(f"no fake endpoint script {name!r}; known: {sorted(SCRIPTS)}")
    token = secrets.token_hex(16)
    old = os.environ.get(TOKEN_ENV)
    os.environ[TOKEN_ENV] = token
    server = FakeOpenAI(token=token, default=SCRIPTS[name]()).start()
    try:
        yield server.base_url, TOKEN_ENV
    finally:
        server.stop()
        if old is None:
            os.environ.pop(TOKEN_ENV, None)
        else:
            os.environ[TOKEN_ENV] = old
