"""Scripted model replies for Stardew Shopping: the scripted expert's choices as skill-call text.

The test server calls :func:`shopping_replies`'s function with each request body. Action-
planning requests get the next one or two skill calls the expert (``ShoppingScript``, which
reads the simulator's state) would make — a composite skill, or the first straight run of its
path as ``move_*(duration=...)``; the other modules get fixed, well-formed answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.scripted.stardew import _MOVES, ShoppingScript
from gcc_envs.games.stardew.sim.world import SPEED

CANNED = {
    "[information_gathering]": "Description: the farmer stands on a tile map.",
    "[self_reflection]": "Success: yes\nCause: none\nContinue: no",
    "[task_inference]": "Task: go shopping\nHorizon: long\nSummary: walking to Pierre's store.",
}


def _first_run(sc: ShoppingScript, path: list[tuple[int, int]]) -> list[str]:
    p = sc.state.player
    d = (path[1][0] - path[0][0], path[1][1] - path[0][1])
    end = path[1]
    for a, b in zip(path[1:], path[2:]):
        if (b[0] - a[0], b[1] - a[1]) != d:
            break
        end = b
    calls = []
    axis = 1 if d[0] else 0  # centre across the run first, as the expert's walk does
    off = path[0][axis] + 0.5 - (p.x, p.y)[axis]
    if abs(off) > 0.12:
        side = (0, 1 if off > 0 else -1) if axis else (1 if off > 0 else -1, 0)
        calls.append(f"{_MOVES[side]}(duration={round(abs(off) / SPEED, 3)})")
    gap = ((end[0] + 0.5 - p.x) if d[0] else (end[1] + 0.5 - p.y)) * (d[0] or d[1])
    calls.append(f"{_MOVES[d]}(duration={round(max(gap, 0.05) / SPEED, 3)})")
    return calls


def expert_calls(sc: ShoppingScript) -> list[str]:
    """At most two skill calls of code text the expert would make now."""
    choice = sc.act(None, {})  # type: ignore[arg-type]
    if isinstance(choice, str):
        return [choice]
    s = sc.state
    bought = s.stats.bought.get("parsnip_seeds", 0) > 0
    if not bought and s.location == "town":
        goals = [sc.near_door("store")]
    elif bought and s.location == "farm":
        goals = [sc.near_door("farmhouse")]
    else:
        nxt = (sc.ROUTE_HOME if bought else sc.ROUTE_OUT)[s.location]
        goals = sc.warp_tiles(nxt)
    path = sc.route(goals)
    if path is None or len(path) < 2:
        return ["move_down(duration=0.3)"]
    return _first_run(sc, path)


def shopping_replies(env: Any, log: list[list[str]]) -> Callable[[dict[str, Any]], str]:
    sc = ShoppingScript(env.unwrapped, privileged=True)

    def reply(body: dict[str, Any]) -> str:
        content = body["messages"][0]["content"]
        text = content if isinstance(content, str) else content[0]["text"]
        head = text.split("]", 1)[0] + "]"
        if head in CANNED:
            return CANNED[head]
        calls = expert_calls(sc)
        log.append(calls)
        return "Reasoning: follow the path.\nAction:\n```python\n" + "\n".join(calls) + "\n```"

    return reply
