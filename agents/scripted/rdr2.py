"""Scripted RDR2 players for Missions 1-3, one small plan per checkpoint (expert demos).

Every input goes through the game's skills (:mod:`gcc_envs.games.rdr2.skills`): walking and
riding are ``turn_and_move_forward`` legs, ledges ``climb``, prompts ``interact``/``hitch_horse``/
``mount_horse``, drawers ``loot``, guns ``select_weapon``/``shoot``/``reload``, the store
``select_item_at``/``confirm``; following a companion uses ``follow`` and the ride home
``navigate_path``, which read only the minimap. The scripts read the simulator's state
(``privileged=True``) to plan (:mod:`agents.scripted.rdr2_body`, :mod:`agents.scripted.rdr2_fight`).
One step is one errand (a stretch of walking, an interaction, a few shots).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from agents.scripted.rdr2_body import CELL_M, skill
from agents.scripted.rdr2_fight import Gunfighter
from gcc_envs.core.program import sequence

#: Checkpoints done on foot (climbing, carrying, searching, leading a horse, shooting).
ON_FOOT = frozenset(
    {"search_house", "lead_horse", "search_for_john", "carry_john", "kill_wolves", "buy_supplies"}
)


class RDR2Script(Gunfighter):
    """Runs the plan of the current checkpoint; plans on the simulator's state."""

    def __init__(self, env: Any, privileged: bool = False) -> None:
        super().__init__(env, privileged)
        #: Distance to the followed companion after the last ``follow`` step.
        self.last_follow: float | None = None
        #: Where the last ``navigate_path`` step began.
        self.last_nav: tuple[float, float] | None = None

    def reset(self, info: dict[str, Any]) -> None:
        self.quiet = 0
        self.last_follow = None
        self.last_nav = None

    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any:
        self.size = obs.shape[:2]
        s = self.s
        cp = s.mission.current
        plan: Callable[[], Any] | None = getattr(self, f"_{cp}", None)
        if cp is None or plan is None or not s.player.alive:
            return skill("wait", duration=0.5)
        if s.ui.shop.open and cp != "buy_supplies":
            return skill("close_menu")
        if cp in ON_FOOT and s.player.mounted:
            return skill("dismount_horse")
        return plan()

    # ------------------------------------------------------------ Mission 1
    def _follow(self, name: str) -> Any:
        """Follow ``name`` with the ``follow`` skill (it steers by the minimap's blue dot);
        when that got no closer last step (a wall between, or another ally's dot nearer),
        walk a planned leg instead."""
        s = self.s
        npc = s.npcs[name]
        d = self.dist(npc.x, npc.y)
        if d <= 5.0:
            self.last_follow = None
            return skill("wait", duration=1.0)
        stalled = self.last_follow is not None and d > self.last_follow - 1.0
        self.last_follow = d
        if stalled:
            self.last_follow = None
            return self.walk((npc.x, npc.y), stop_m=4.0, legs=4)
        return skill("follow", duration=8)

    def _follow_dutch(self) -> Any:
        return self._follow("dutch")

    def _hitch_horse(self) -> Any:
        post = self.s.props["hitch_post"]
        if not self.seen("hitch"):
            return self.walk((post.x, post.y), stop_m=3.0)
        return self.approach_and(post.x, post.y, 3.0, skill("hitch_horse"))

    def _search_house(self) -> Any:
        s = self.s
        p = s.player
        if p.mounted:
            return skill("dismount_horse")
        door = s.props.get("house_door")
        house = s.map.areas["house"]
        inside = house.contains(p.x, p.y)
        if door is not None and not door.open and not inside:
            return self.approach_and(door.x, door.y, 2.0, skill("interact"))
        goals = [
            pr
            for pr in s.props.values()
            if pr.kind in ("drawer", "cupboard") and not pr.looted and _supplies(pr.items)
        ] or [pr for pr in s.props.values() if pr.kind in ("drawer", "cupboard") and not pr.looted]
        if not goals:
            return skill("wait", duration=0.5)
        pr = min(goals, key=lambda g: self.dist(g.x, g.y))
        if self.dist(pr.x, pr.y) > 1.6:
            return self.walk(self.stand_by(pr.x, pr.y, 1.5), stop_m=0.35)
        return sequence([self.face(pr.x, pr.y), skill("loot")])

    def _protect_dutch(self) -> Any:
        p = self.s.player
        if not self.seen("weapon_wheel"):
            return skill("wait", duration=0.5)
        if p.weapon not in ("revolver", "rifle"):
            best = "rifle" if "rifle" in p.weapons else "revolver"
            return skill("select_weapon", name=best)
        return self.fight("enemy")

    def _go_to_barn(self) -> Any:
        x0, y0 = self.s.map.areas["barn"].centre()
        return self.walk((x0, y0 + 2.0), stop_m=1.5)

    def _lead_horse(self) -> Any:
        s = self.s
        horse = s.horses["barn_horse"]
        p = s.player
        if p.leading != "barn_horse":
            if self.dist(horse.x, horse.y) > 2.4 or not self.seen("calm_horse"):
                return self.walk(self.stand_by(horse.x, horse.y, 2.0), stop_m=0.4, legs=4)
            return sequence([self.face(horse.x, horse.y), skill("interact")])
        yard = s.map.areas["yard"]
        gx, gy = yard.centre()
        return self.walk((gx, gy), stop_m=2.0, legs=3)

    def _follow_micah(self) -> Any:
        return self._follow("micah")

    def _return_to_camp(self) -> Any:
        s = self.s
        p = s.player
        horse = s.horses.get("arthur_horse")
        if not p.mounted and horse is not None and horse.alive:
            if not self.seen("mount"):
                return skill("wait", duration=0.5)
            if self.dist(horse.x, horse.y) > 2.2:
                return self.walk(self.stand_by(horse.x, horse.y, 2.0), stop_m=0.4)
            return sequence([self.face(horse.x, horse.y), skill("mount_horse")])
        # The minimap's route line first; where that got nowhere last step (pressed against a
        # fence, say), a planned stretch instead.
        here = (p.x, p.y)
        last, self.last_nav = self.last_nav, None
        moved = last is None or math.hypot(here[0] - last[0], here[1] - last[1]) > 1.0
        if s.route and len(s.route) >= 2 and moved:
            self.last_nav = here
            return skill("navigate_path", duration=10)
        return self.walk(s.map.areas["camp"].centre(), stop_m=3.0, legs=5)

    # ------------------------------------------------------------ Mission 2
    def _follow_javier(self) -> Any:
        return self._follow("javier")

    def _search_for_john(self) -> Any:
        john = self.s.npcs["john"]
        return self.walk((john.x, john.y), stop_m=2.5)

    def _carry_john(self) -> Any:
        s = self.s
        p = s.player
        john = s.npcs["john"]
        if not p.carrying:
            if not self.seen("carry"):
                return skill("wait", duration=0.5)
            if self.dist(john.x, john.y) > 1.8:
                return self.walk(self.stand_by(john.x, john.y, 1.6), stop_m=0.3)
            return sequence([self.face(john.x, john.y), skill("interact")])
        horse = min(
            (h for h in s.horses.values() if h.alive),
            key=lambda h: self.dist(h.x, h.y),
        )
        if self.dist(horse.x, horse.y) > 2.6:
            return self.walk(self.stand_by(horse.x, horse.y, 2.2), stop_m=0.4)
        return sequence([self.face(horse.x, horse.y), skill("interact")])

    def _kill_wolves(self) -> Any:
        p = self.s.player
        if p.weapon not in ("revolver", "rifle") and self.seen("weapon_wheel"):
            return skill("select_weapon", name="revolver")
        return self.fight("wolf")

    # ------------------------------------------------------------ Mission 3
    def _buy_supplies(self) -> Any:
        s = self.s
        p = s.player
        ui = s.ui
        if ui.shop.open:
            row = next((i for i, (item, _) in enumerate(ui.shop.rows) if _is_supply(item)), 0)
            if ui.shop.hovered != row:
                H, W = self.size
                return skill("select_item_at", x=int(0.75 * W), y=int((0.23 + 0.07 * row) * H))
            return skill("confirm")
        if p.mounted:
            return skill("dismount_horse")
        door = s.props["store_door"]
        store = s.map.areas["store"]
        if not door.open and not store.contains(p.x, p.y):
            return self.approach_and(door.x, door.y, 2.0, skill("interact"))
        clerk = s.npcs["clerk"]
        if self.dist(clerk.x, clerk.y) > 4.4 or not store.contains(p.x, p.y):
            col = door.cell[0] + 0.5 if door.cell else (store.x0 + store.x1) / 2
            spot = (col * CELL_M, (store.y1 - 1.75) * CELL_M)
            return self.walk(spot, stop_m=0.3)
        if not self.seen("shop"):
            return skill("wait", duration=0.3)
        return sequence([self.face(clerk.x, clerk.y), skill("interact")])


def _supplies(items: dict[str, int]) -> bool:
    return any(_is_supply(k) and n > 0 for k, n in items.items())


def _is_supply(item: str) -> bool:
    return item in ("canned_food", "coffee", "medicine", "canned_beans", "biscuits")
