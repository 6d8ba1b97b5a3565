"""Scripted RDR2 players for Missions 1-3: one small plan per checkpoint, one call per step.

``RDR2Script(env, privileged=True)`` is the oracle: it reads the simulator's state to plan
(:mod:`agents.scripted.rdr2_body`, :mod:`agents.scripted.rdr2_fight`) and answers every step
with the code text of one skill call, the paper's ``max_skill_calls=1``, so it plays through
``UseSkills`` exactly as an agent would: mounting by the prompt, ``follow`` after a companion
and ``navigate_path`` along the route line (each capped at a few game seconds a call), legs of
``turn_and_move_forward``, ``climb`` at ledges, ``interact`` for doors, horses and John,
``loot`` at the drawers that hold supplies, ``select_weapon`` and ``shoot`` in fights,
``select_item_at``/``confirm`` in the store. It only calls skills the game has unlocked (their
tutorial box has shown).

``RDR2Script(env, privileged=False)`` reads nothing but the frames
(:mod:`agents.scripted.rdr2_eyes`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from agents.scripted.rdr2_body import CELL_M, call
from agents.scripted.rdr2_fight import Gunfighter
from gcc_envs.games.rdr2.sim.world import SUPPLIES

#: Checkpoints done on foot (climbing, carrying, searching, leading a horse, shooting).
ON_FOOT = frozenset(
    {
        "search_house",
        "go_to_barn",
        "lead_horse",
        "follow_micah",
        "search_for_john",
        "carry_john",
        "kill_wolves",
        "buy_supplies",
    }
)
#: ``follow`` iterations asked for per call (the skill's own budget caps the seconds).
FOLLOW_ITERATIONS = 20
#: Planned legs walked after ``navigate_path`` got nowhere, before it is tried again.
PLANNED_LEGS = 3


class RDR2Script:
    """The RDR2 scripted player: the state-reading oracle, or the frame-only reader."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        if privileged:
            self.impl: Any = RDR2Planner(env, privileged=True)
        else:
            from agents.scripted.rdr2_eyes import RDR2Eyes

            self.impl = RDR2Eyes(env)

    def reset(self, info: dict[str, Any]) -> None:
        self.impl.reset(info)

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> str:
        return self.impl.act(obs, info)


class RDR2Planner(Gunfighter):
    """Runs the plan of the current checkpoint; plans on the simulator's state."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        super().__init__(env, privileged)
        #: Distance to the followed companion after the last ``follow`` step.
        self.last_follow: float | None = None
        #: Where the last ``navigate_path`` step began.
        self.last_nav: tuple[float, float] | None = None
        #: Planned legs left before ``navigate_path`` is tried again.
        self.planned_legs = 0

    def reset(self, info: dict[str, Any]) -> None:
        self.reset_body()
        self.quiet = 0
        self.last_follow = None
        self.last_nav = None
        self.planned_legs = 0

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> str:
        self.size = obs.shape[:2]
        try:
            return self._act()
        finally:
            self.steps += 1

    def _act(self) -> str:
        s = self.s
        cp = s.mission.current
        plan: Callable[[], str] | None = getattr(self, f"_{cp}", None)
        if cp is None or plan is None or not s.player.alive:
            return call("wait", duration=0.5)
        if s.ui.shop.open and cp != "buy_supplies":
            return call("close_menu")
        if cp in ON_FOOT and s.player.mounted:
            return call("dismount_horse")
        return plan()

    # ------------------------------------------------------------ shared
    def _mount(self) -> str | None:
        """One step of getting onto Arthur's horse, or None when riding already."""
        s = self.s
        p = s.player
        horse = s.horses.get("arthur_horse")
        if p.mounted or horse is None or not horse.alive:
            return None
        return self.approach_and(horse.x, horse.y, 2.2, call("mount_horse"), face_deg=None)

    def _follow(self, name: str) -> str:
        """Ride (or walk) after ``name`` with the ``follow`` skill (it steers by the minimap's
        blue dot); when that got no closer last step (a wall between, or another ally's dot
        nearer), walk a planned leg instead."""
        s = self.s
        npc = s.npcs[name]
        d = self.dist(npc.x, npc.y)
        if d <= 5.0:
            self.last_follow = None
            return call("wait", duration=1.0)
        stalled = self.last_follow is not None and d > self.last_follow - 1.0
        self.last_follow = d
        if stalled:
            self.last_follow = None
            step = self.walk((npc.x, npc.y), stop_m=4.0)
            if step is not None:
                return step
        return call("follow", duration=FOLLOW_ITERATIONS)

    def _navigate(self, area: str) -> str:
        """Along the minimap's route line; where that got nowhere last step (pressed against
        a fence, say), a planned leg instead."""
        s = self.s
        p = s.player
        here = (p.x, p.y)
        last, self.last_nav = self.last_nav, None
        if last is not None and math.hypot(here[0] - last[0], here[1] - last[1]) <= 1.0:
            self.planned_legs = PLANNED_LEGS  # the line led into something: walk around it
        if s.route and len(s.route) >= 2 and self.planned_legs <= 0:
            self.last_nav = here
            return call("navigate_path", duration=FOLLOW_ITERATIONS)
        self.planned_legs -= 1
        return self.walk(s.map.areas[area].centre(), stop_m=3.0) or call("wait", duration=0.5)

    def _open_door(self, door_id: str) -> str | None:
        """One step of opening ``door_id`` (None when it is open or gone)."""
        door = self.s.props.get(door_id)
        if door is None or door.open:
            return None
        return self.approach_and(door.x, door.y, 2.4, call("interact"), face_deg=None)

    # ------------------------------------------------------------ Mission 1
    def _follow_dutch(self) -> str:
        return self._mount() or self._follow("dutch")

    def _hitch_horse(self) -> str:
        post = self.s.props["hitch_post"]
        if not self.seen("hitch"):
            return self.walk((post.x, post.y), stop_m=1.4) or call("wait", duration=0.3)
        return self.approach_and(post.x, post.y, 1.2, call("hitch_horse"))

    def _search_house(self) -> str:
        s = self.s
        p = s.player
        inside = s.map.areas["house"].contains(p.x, p.y)
        if not inside:
            step = self._open_door("house_door")
            if step is not None:
                return step
        lootable = [pr for pr in s.props.values() if pr.kind in ("drawer", "cupboard")]
        goals = [pr for pr in lootable if not pr.looted and _supplies(pr.items)]
        goals = goals or [pr for pr in lootable if not pr.looted]
        if not goals:
            return call("wait", duration=0.5)
        pr = min(goals, key=lambda g: self.dist(g.x, g.y))
        if self.dist(pr.x, pr.y) > 1.6:
            step = self.walk(self.stand_by(pr.x, pr.y, 1.5), stop_m=0.35)
            if step is not None:
                return step
        if abs(self.bearing(pr.x, pr.y)) > 25.0:
            return self.face(pr.x, pr.y)
        if not self.seen("loot"):
            return call("wait", duration=0.3)
        return call("loot")

    def _protect_dutch(self) -> str:
        p = self.s.player
        if not (self.seen("weapon_wheel") or self.seen("need_gun")):
            return call("wait", duration=0.5)
        if p.weapon not in ("revolver", "rifle"):
            best = "rifle" if "rifle" in p.weapons else "revolver"
            return call("select_weapon", name=best)
        return self.fight("enemy")

    def _go_to_barn(self) -> str:
        x0, y0 = self.s.map.areas["barn"].centre()
        return (
            self._open_door("barn_door")
            or self.walk((x0, y0 + 2.0), stop_m=1.5)
            or call("wait", duration=0.3)
        )

    def _lead(self) -> str | None:
        """One step of taking the barn horse by the reins (None when led already)."""
        s = self.s
        horse = s.horses["barn_horse"]
        if s.player.leading == "barn_horse":
            return None
        if self.dist(horse.x, horse.y) > 2.4 or not self.seen("calm_horse"):
            step = self.walk(self.stand_by(horse.x, horse.y, 2.0), stop_m=0.4)
            if step is not None:
                return step
        return call("interact")

    def _lead_horse(self) -> str:
        """Take the horse by the reins, then walk it along the route line (never running,
        never straying: it balks or pulls free) to the line's end."""
        s = self.s
        route = s.route or [s.map.areas["yard"].centre()]
        return (
            self._lead()
            or self._open_door("barn_door")
            or self._lead_along(route)
            or call("wait", duration=0.3)
        )

    def _lead_along(self, route: list[tuple[float, float]]) -> str | None:
        """A walking leg to the next point of ``route`` past the player (the horse in tow)."""
        p = self.s.player
        near = min(range(len(route)), key=lambda i: self.dist(*route[i]))
        nxt = min(near + 1, len(route) - 1)
        if nxt < len(route) - 1 and self.dist(*route[nxt]) < 1.0:
            nxt += 1
        horse = self.s.horses["barn_horse"]
        if math.hypot(horse.x - p.x, horse.y - p.y) > 3.0:  # let it come up first
            return call("wait", duration=0.5)
        return self.walk(route[nxt], stop_m=0.5 if nxt < len(route) - 1 else 1.0)

    def _follow_micah(self) -> str:
        return self._lead() or self._follow("micah")

    def _return_to_camp(self) -> str:
        if not self.s.player.mounted and not self.seen("mount"):
            return call("wait", duration=0.5)
        return self._mount() or self._navigate("camp")

    # ------------------------------------------------------------ Mission 2
    def _follow_javier(self) -> str:
        return self._mount() or self._follow("javier")

    def _search_for_john(self) -> str:
        john = self.s.npcs["john"]
        return self.walk((john.x, john.y), stop_m=2.5) or call("wait", duration=0.3)

    def _carry_john(self) -> str:
        s = self.s
        p = s.player
        john = s.npcs["john"]
        if not p.carrying:
            if not self.seen("carry"):
                return call("wait", duration=0.5)
            return self.approach_and(john.x, john.y, 1.8, call("interact"), face_deg=None)
        horse = min((h for h in s.horses.values() if h.alive), key=lambda h: self.dist(h.x, h.y))
        return self.approach_and(horse.x, horse.y, 2.6, call("interact"), face_deg=None)

    def _kill_wolves(self) -> str:
        p = self.s.player
        if p.weapon not in ("revolver", "rifle") and self.seen("weapon_wheel"):
            return call("select_weapon", name="revolver")
        return self.fight("wolf")

    # ------------------------------------------------------------ Mission 3
    def _buy_supplies(self) -> str:
        s = self.s
        p = s.player
        ui = s.ui
        if ui.shop.open:
            row = next((i for i, (item, _) in enumerate(ui.shop.rows) if item in SUPPLIES), 0)
            if ui.shop.hovered != row:
                H, W = self.size
                return call("select_item_at", x=int(0.75 * W), y=int((0.23 + 0.07 * row) * H))
            return call("confirm")
        store = s.map.areas["store"]
        inside = store.contains(p.x, p.y)
        if not inside:
            step = self._open_door("store_door")
            if step is not None:
                return step
        clerk = s.npcs["clerk"]
        if self.dist(clerk.x, clerk.y) > 4.4 or not inside:
            door = s.props["store_door"]
            col = door.cell[0] + 0.5 if door.cell else (store.x0 + store.x1) / 2
            south = door.cell is None or door.cell[1] >= store.y1
            row = store.y1 - 1.75 if south else store.y0 + 1.75
            step = self.walk((col * CELL_M, row * CELL_M), stop_m=0.3)
            if step is not None:
                return step
        if not self.seen("shop"):
            return call("wait", duration=0.3)
        if abs(self.bearing(clerk.x, clerk.y)) > 20.0:
            return self.face(clerk.x, clerk.y)
        return call("interact")


def _supplies(items: dict[str, int]) -> bool:
    return any(k in SUPPLIES and n > 0 for k, n in items.items())
