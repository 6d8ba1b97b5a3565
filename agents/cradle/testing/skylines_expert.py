"""Scripted model replies for Cities: Skylines: the planner's next skill call as the action.

The test server calls the function :func:`skylines_replies` returns with each request body.
Action-planning and fused requests get the call the scripted planner (``SkylinesScript``,
privileged: it plans on the simulator's terrain) would make now, judged on the env's current
screen — a ``try_place_*`` call with pixel coordinates, then ``confirm_placement()`` or
``cancel_placement()`` — in the form GPT-4o answers the game's prompts. Once the plan is built
the expert keeps looking at the Roads menu (the run ends at the step limit, as in the paper).
The other modules get fixed, well-formed answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.scripted.skylines import SkylinesScript
from gcc_envs.core.program import Program

DESCRIPTION = (
    "A top-down city map by the sea with a highway along the far edge and its entry and exit "
    "ramps. The budget at the top left reads ₡70,000, population 0, the city is paused. The "
    "bottom toolbar shows Roads, Zoning, Electricity, Water & Sewage and Bulldozer."
)
CANNED = {
    "[information_gathering]": f"Description: {DESCRIPTION}\nInstructions: none",
    "[self_reflection]": "Success: yes\nCause: none\nContinue: no",
    "[task_inference]": (
        "Task: build the block from the blueprint\nHorizon: long\n"
        "Summary: roads, power and water are being placed; zones come last."
    ),
}
#: What the expert answers once its plan is built.
IDLE = "open_roads_menu()"


def expert_call(sc: SkylinesScript) -> str:
    """The one skill call the planner makes on the env's current screen."""
    choice = sc.act(sc.env.backend.capture(), {})
    return IDLE if isinstance(choice, Program) or choice == "DONE" else choice


def skylines_replies(env: Any, log: list[str]) -> Callable[[dict[str, Any]], str]:
    """A reply function for ``FakeOpenAI.default``; ``log`` collects the calls it chose."""
    sc = SkylinesScript(env.unwrapped, privileged=True)
    planned_for: list[Any] = [None]

    def reply(body: dict[str, Any]) -> str:
        content = body["messages"][0]["content"]
        text = content if isinstance(content, str) else content[0]["text"]
        head = text.split("]", 1)[0] + "]"
        if head in CANNED:
            return CANNED[head]
        state = env.unwrapped.backend.probe()
        if planned_for[0] is not state:  # a new episode: plan its city
            sc.reset({})
            planned_for[0] = state
        call = expert_call(sc)
        log.append(call)
        body_text = "Reasoning: follow the blueprint, one placement at a time.\nAction:\n"
        code = f"```python\n{call}\n```"
        if head == "[fused]":
            return (
                f"Description: {DESCRIPTION}\nInstructions: none\nSuccess: yes\nCause: none\n"
                "Task: build the block from the blueprint\nHorizon: long\n"
                "Summary: placing the blueprint's roads, services and zones.\n"
                f"{body_text}{code}"
            )
        return body_text + code

    return reply
