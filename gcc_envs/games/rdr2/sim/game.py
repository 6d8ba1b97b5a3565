"""``RDR2Sim``: the Red Dead Redemption II mission simulator behind the ``Simulator`` protocol.

Input arrives as key / mouse events between calls to :meth:`RDR2Sim.advance`, which runs the
world in fixed steps of :data:`~gcc_envs.games.rdr2.sim.state.DT`. Relative mouse motion
(``pointer_move_by``) turns the view outside menus; inside the weapon wheel, the pause menu and
the store catalogue it moves the cursor. Pausing takes :data:`PAUSE_ANIMATION_S` of world time
each way, during which the world moves and the player cannot act.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from gcc_envs.errors import GCCError
from gcc_envs.games.rdr2.live import KEYS, SIM_PIXELS_PER_DEGREE
from gcc_envs.games.rdr2.sim import (
    actors,
    combat,
    interact,
    menus,
    missions,
    player,
    progress,
    screens,
    wolves,
)
from gcc_envs.games.rdr2.sim.data import GameData
from gcc_envs.games.rdr2.sim.loader import load_data
from gcc_envs.games.rdr2.sim.render import FrameMemo, render, render_screen
from gcc_envs.games.rdr2.sim.state import (
    DT,
    GUNS,
    PAUSE_ANIMATION_S,
    WEAPONS,
    WorldState,
)
from gcc_envs.games.rdr2.sim.variation import vary
from gcc_envs.games.rdr2.sim.world import fade_ui, regen
from gcc_envs.games.rdr2.sim.worldgen import new_world

_ALIASES = {"escape": "esc", "return": "enter", "shiftleft": "shift", "shiftright": "shift"}
_OPTIONS = ("mission", "checkpoint", "single", "instruction", "vary")
NATIVE_W, NATIVE_H = 1280, 720


class RDR2Sim:
    """Three missions of RDR2's opening chapter, simulated: camp, homestead, mountain, town.

    Controls (lowercase pyautogui names): ``w a s d`` move relative to the view, ``shift`` runs
    (gallops), ``space`` jumps and climbs a one-block ledge (once its tutorial has shown), ``e``
    does what the ``[E]`` prompt says, holding ``r`` for 1.5 s searches a drawer (else ``r``
    reloads), holding ``tab`` opens the weapon wheel (the pointer picks, releasing equips),
    ``1``-``4`` equip revolver / rifle / knife / lasso, the right button aims, the left button
    fires (or punches), ``f`` punches, ``esc`` opens and closes the pause menu, ``enter``
    confirms and restarts from the checkpoint after a failure, ``q`` takes cover by a wall or
    a solid prop (moving leaves it).
    """

    keys: tuple[str, ...] = KEYS
    native_size: tuple[int, int] = (NATIVE_W, NATIVE_H)

    def __init__(self, data: GameData | None = None) -> None:
        #: The content as the files give it, and this episode's (drawn at reset).
        self._base = data if data is not None else load_data()
        self._data = self._base
        self._state: WorldState | None = None
        self._held: set[str] = set()
        self._buttons: set[str] = set()
        self._acc = 0.0
        self._rng = np.random.default_rng(0)
        self._snapshot: WorldState | None = None
        self._prompting = False  # whether the last tick's world shows its key prompts
        #: The last view drawn behind the pause menu and what it was drawn from
        #: (:func:`_frozen_key`), then the menu drawn on it and what that shows.
        self._paused_frame: tuple[Any, np.ndarray, Any, np.ndarray | None] | None = None
        #: What the last frame drew that the next may reuse (a view that has not moved).
        self._memo = FrameMemo()

    # ---- protocol
    @property
    def state(self) -> WorldState:
        if self._state is None:
            raise GCCError("RDR2Sim.reset() must be called before use")
        return self._state

    @property
    def data(self) -> GameData:
        """This episode's content (the files' content with the seed's variation drawn)."""
        return self._data

    def fork(self) -> RDR2Sim:
        """A copy of the running game that shares the read-only data: what-if runs (planners
        that look ahead) advance it without touching this one. It rolls dice of its own (drawn
        from a copy of this game's, so the same game forks alike): what the game leaves to
        chance later (enemy fire, flanking, wolves' turns) is a guess there, not a foresight."""
        twin = RDR2Sim(self._base)
        twin._data = self._data
        twin._state = copy.deepcopy(self._state)
        twin._held, twin._buttons = set(self._held), set(self._buttons)
        twin._acc = self._acc
        twin._rng = np.random.default_rng(int(copy.deepcopy(self._rng).integers(0, 2**63 - 1)))
        twin._snapshot = None
        return twin

    def reset(self, rng: np.random.Generator, options: Mapping[str, Any] | None = None) -> None:
        """Start ``options["mission"]`` (default ``mission1``) at its beginning or at
        ``options["checkpoint"]`` (then, unless ``single=False``, only that checkpoint is played).

        ``rng`` draws the episode's content (:mod:`~gcc_envs.games.rdr2.sim.variation`);
        ``vary=False`` keeps the files' layout as written (tests, demonstrations).
        """
        opts = dict(options or {})
        unknown = sorted(set(opts) - set(_OPTIONS))
        if unknown:
            raise GCCError(f"unknown RDR2Sim reset options {unknown}; known: {list(_OPTIONS)}")
        checkpoint = opts.get("checkpoint")
        single = bool(opts.get("single", checkpoint is not None))
        self._rng = np.random.default_rng(int(rng.integers(0, 2**63 - 1)))
        mission = str(opts.get("mission", "mission1"))
        if mission not in self._base.missions:
            raise GCCError(
                f"unknown RDR2 mission {mission!r}; known: {sorted(self._base.missions)}"
            )
        self._data = self._base
        if opts.get("vary", True):
            self._data = vary(self._base, mission, np.random.default_rng(int(rng.integers(2**63))))
        self._state = new_world(self._data, mission, rng, checkpoint, single)
        self._paused_frame = None
        self._held.clear()
        self._buttons.clear()
        self._acc = 0.0
        self._snapshot = copy.deepcopy(self._state)

    def set_paused(self, paused: bool) -> None:
        """Pause (running the 0.5 s pausing animation now) or start resuming."""
        pause = self.state.ui.pause
        if paused:
            if pause.phase in ("running", "resuming"):
                pause.phase, pause.anim_left = "pausing", PAUSE_ANIMATION_S
            ticked = False
            while pause.phase == "pausing":
                self._tick()
                ticked = True
            if ticked:
                self._show_prompts()
            self._acc = 0.0
        elif pause.phase in ("paused", "pausing"):
            pause.phase, pause.anim_left = "resuming", PAUSE_ANIMATION_S

    @property
    def paused(self) -> bool:
        return self.state.ui.pause.phase == "paused"

    def advance(self, seconds: float) -> None:
        """Run the world for ``seconds`` of game time with the input currently held."""
        if not math.isfinite(seconds) or seconds < 0:
            raise GCCError(f"advance needs a finite, non-negative duration, got {seconds!r}")
        if self.paused:
            return
        self._acc += seconds / DT
        n = int(self._acc + 1e-6)
        self._acc = max(self._acc - n, 0.0)
        ticked = False
        for _ in range(n):
            if self.paused:
                self._acc = 0.0
                break
            self._tick()
            ticked = True
        if ticked:  # the prompts shown are those of the last tick's world
            self._show_prompts()

    def render(self, height: int, width: int) -> np.ndarray:
        """The screen at (height, width), RGB uint8, a fresh array.

        While the game is paused the world does not tick, so the blurred view behind the pause
        menu is drawn once and kept until something it shows changes (as a game keeps its
        frozen view); the frame is the one :func:`render` draws."""
        s = self.state
        if s.ui.pause.phase != "paused":
            return render(s, int(height), int(width), self._memo)
        key = _frozen_key(s, int(height), int(width))
        if self._paused_frame is None or self._paused_frame[0] != key:
            back = screens.pause_background(render_screen(s, int(height), int(width), self._memo))
            self._paused_frame = (key, back, None, None)
        _, back, menu_key, menu = self._paused_frame
        pause = s.ui.pause
        now = (pause.hovered, tuple(pause.items))  # all the menu shows
        if menu is None or menu_key != now:
            menu = screens.draw_pause_menu(back.copy(), s)
            self._paused_frame = (key, back, now, menu)
        return menu.copy()

    # ---- input
    def can_act(self) -> bool:
        """Whether player input takes effect now (not paused, animating or on a result screen)."""
        return _acting(self.state)

    def key_down(self, key: str) -> None:
        k = _ALIASES.get(key.lower(), key.lower())
        if k in self._held:
            return
        self._held.add(k)
        s = self.state
        ui = s.ui
        if ui.pause.phase == "paused":
            self._pause_menu_key(k)
            return
        if ui.overlay.kind == "mission_failed":
            if k == "enter":
                self._restart_checkpoint()
            return
        if k == "esc":
            if ui.shop.open:
                ui.shop.open = False
            elif ui.wheel.open:
                ui.wheel.open = False
            elif ui.pause.phase == "running":
                ui.pause.phase, ui.pause.anim_left = "pausing", PAUSE_ANIMATION_S
            return
        if not self.can_act():
            return
        if ui.shop.open:
            self._shop_key(k)
            return
        if k == "tab" and "weapon_wheel" in ui.tutorials_seen:
            menus.open_wheel(s)
        elif ui.wheel.open:
            return
        elif k == "e":
            interact.press(s)
        elif k == "r":
            if not ("loot" in ui.tutorials_seen and player.lootable_in_reach(s)):
                combat.start_reload(s)
        elif k == "f":
            combat.melee(s)
        elif k == "q":
            combat.take_cover(s)
        elif k == "space":
            player.jump(s, can_climb="climb" in ui.tutorials_seen)
        elif k in ("1", "2", "3", "4") and "weapon_wheel" in ui.tutorials_seen:
            weapon = WEAPONS[int(k) - 1]
            if weapon in s.player.weapons:
                s.player.weapon = weapon
                self._check_gun()

    def key_up(self, key: str) -> None:
        k = _ALIASES.get(key.lower(), key.lower())
        self._held.discard(k)
        s = self.state
        if k == "tab" and s.ui.wheel.open:
            menus.close_wheel(s)
            self._check_gun()
        if k == "r":
            s.ui.loot_progress = None

    def pointer_move(self, u: float, v: float) -> None:
        """Absolute pointer (window fractions): a cursor in menus, ignored in gameplay."""
        s = self.state
        s.ui.pointer = (min(max(float(u), 0.0), 1.0), min(max(float(v), 0.0), 1.0))
        self._hover()

    def pointer_move_by(self, du: float, dv: float) -> None:
        """Relative motion (window fractions): turns the view, or moves a menu cursor."""
        s = self.state
        ui = s.ui
        if ui.wheel.open or ui.pause.phase == "paused" or ui.shop.open:
            u, v = ui.pointer
            ui.pointer = (min(max(u + du, 0.0), 1.0), min(max(v + dv, 0.0), 1.0))
            self._hover()
            return
        if not self.can_act():
            return
        ppd_x, ppd_y = SIM_PIXELS_PER_DEGREE
        player.turn(s, du * NATIVE_W / ppd_x, -dv * NATIVE_H / ppd_y)

    def mouse_down(self, button: str) -> None:
        self._buttons.add(button)
        s = self.state
        ui = s.ui
        if ui.pause.phase == "paused":
            if button == "left" and menus.pause_item_at(*ui.pointer, len(ui.pause.items)) == 0:
                self._resume()
            return
        if not self.can_act():
            return
        if ui.shop.open:
            row = menus.shop_row_at(*ui.pointer, len(ui.shop.rows))
            if button == "left" and row is not None:
                menus.buy(s, self._mission_shop(), row)
            return
        if ui.wheel.open:
            return
        if button == "right":
            s.player.aiming = not s.player.carrying
        elif button == "left":
            if s.player.weapon in GUNS:
                combat.shoot(s, self._rng)
            else:
                combat.melee(s)

    def mouse_up(self, button: str) -> None:
        self._buttons.discard(button)
        if button == "right":
            self.state.player.aiming = False

    def scroll(self, dy: int, dx: int = 0) -> None:
        s = self.state
        if s.ui.shop.open and dy and s.ui.shop.rows:
            h = s.ui.shop.hovered or 0
            s.ui.shop.hovered = (h + (1 if dy < 0 else -1)) % len(s.ui.shop.rows)

    @property
    def held_keys(self) -> tuple[str, ...]:
        return tuple(sorted(self._held))

    # ---- menus
    def _hover(self) -> None:
        s = self.state
        ui = s.ui
        if ui.wheel.open:
            menus.hover_wheel(s)
        elif ui.pause.phase == "paused":
            ui.pause.hovered = menus.pause_item_at(*ui.pointer, len(ui.pause.items))
        elif ui.shop.open:
            row = menus.shop_row_at(*ui.pointer, len(ui.shop.rows))
            if row is not None:
                ui.shop.hovered = row

    def _pause_menu_key(self, k: str) -> None:
        pm = self.state.ui.pause
        if k == "esc" or (k == "enter" and (pm.hovered or 0) == 0):
            self._resume()
        elif k in ("w", "s"):
            h = pm.hovered or 0
            pm.hovered = (h + (1 if k == "s" else -1)) % len(pm.items)

    def _resume(self) -> None:
        pm = self.state.ui.pause
        pm.phase, pm.anim_left = "resuming", PAUSE_ANIMATION_S

    def _shop_key(self, k: str) -> None:
        shop = self.state.ui.shop
        n = len(shop.rows)
        if k in ("w", "s") and n:
            h = shop.hovered or 0
            shop.hovered = (h + (1 if k == "s" else -1)) % n
        elif k == "enter" and shop.hovered is not None:
            menus.buy(self.state, self._mission_shop(), shop.hovered)
        elif k == "e":
            shop.open = False

    def _mission_shop(self) -> tuple[tuple[str, float, bool], ...]:
        return self._data.missions[self.state.mission.name].shop

    def _check_gun(self) -> None:
        """In a gunfight, a weapon that does not shoot brings the weapon tutorial back."""
        s = self.state
        cp = missions.spec(s, self._data)
        if cp is not None and cp.name == "protect_dutch" and s.player.weapon not in GUNS:
            missions.show_tutorial(s, self._data, "need_gun")
            missions.say(s, "Dutch: Use your gun, Arthur!")

    def _restart_checkpoint(self) -> None:
        if self._snapshot is not None:
            self._state = copy.deepcopy(self._snapshot)
            self._paused_frame = None
            self._held.clear()

    # ---- the world step
    def _tick(self) -> None:
        s = self._state  # (only advance and set_paused tick, after their self.state)
        assert s is not None
        dt = DT
        act = _acting(s)
        p = s.player
        if act and not s.ui.shop.open and not s.ui.wheel.open:
            player.move(s, self._held, dt)
            if "loot" in s.ui.tutorials_seen:
                player.loot_tick(s, "r" in self._held, dt)
        else:
            p.moving = False
            s.ui.loot_progress = None
        if p.jump_left != 0.0:  # max(0.0, v - dt), left alone at 0 (as are flinches)
            v = p.jump_left - dt
            p.jump_left = v if v > 0.0 else 0.0
        combat.step_guns(s, dt)
        for npc in s.npcs.values():
            if npc.flinch != 0.0:
                v = npc.flinch - dt
                npc.flinch = v if v > 0.0 else 0.0
            if npc.kind == "enemy":
                combat.step_enemy(s, npc, dt, self._rng)
            elif npc.kind == "wolf":
                wolves.step_wolf(s, npc, dt, self._rng)
            elif npc.state == "carried":
                npc.x, npc.y, npc.yaw_deg = p.x, p.y, p.yaw_deg
            elif npc.kind in ("dutch", "micah", "javier"):
                actors.step_companion(s, npc, dt)
        for npc in s.npcs.values():
            if npc.state == "on_horse" and npc.mounted in s.horses:
                h = s.horses[npc.mounted]
                npc.x, npc.y, npc.yaw_deg = h.x, h.y, h.yaw_deg
        actors.step_horses(s, dt)
        regen(s, dt)
        fade_ui(s, dt)
        self._mission_step()
        # whether prompts show is decided here, before the pause animation moves on below
        self._prompting = _acting(s) and not s.ui.shop.open
        missions.update_route(s)
        pm = s.ui.pause
        if pm.phase in ("pausing", "resuming"):
            pm.anim_left -= dt
            if pm.anim_left <= 1e-9:
                pm.anim_left = 0.0
                pm.phase = "paused" if pm.phase == "pausing" else "running"
        s.clock += dt
        s.tick += 1

    def _show_prompts(self) -> None:
        """The key prompts of the world as it stands (only the HUD reads them, so they are
        worked out once after the ticks of an advance, not on every tick)."""
        s = self.state
        s.ui.prompts = interact.prompts(s) if self._prompting else []

    def _mission_step(self) -> None:
        s, data = self._state, self._data
        assert s is not None
        ms = s.mission
        if ms.failure is not None or ms.passed:
            return
        cp = missions.spec(s, data)  # the same checkpoint for every question below
        due = missions.tutorial_at(s, cp)
        if due is not None:
            missions.show_tutorial(s, data, due)
        reason = missions.failure_at(s, data, cp)
        if reason is not None:
            ms.failure = reason
            s.ui.overlay.kind, s.ui.overlay.text = "mission_failed", f"Mission failed: {reason}"
            s.ui.overlay.since = s.clock
            return
        missions.objective_at(s, cp)
        if not missions.done_at(s, data, cp):
            progress.update_at(s, data, cp)
            return
        nxt = ms.index + 1
        if ms.single or nxt >= len(ms.checkpoints):
            ms.index, ms.passed = nxt, True
            s.ui.overlay.kind, s.ui.overlay.text = "mission_passed", "MISSION PASSED"
            s.ui.overlay.since = s.clock
            s.route = None
            return
        missions.enter(s, data, nxt, teleport=False)
        s.ui.overlay.kind, s.ui.overlay.text = "checkpoint", "Checkpoint"
        s.ui.overlay.since = s.clock
        self._snapshot = copy.deepcopy(s)


def _acting(s: WorldState) -> bool:
    """:meth:`RDR2Sim.can_act` of state ``s`` (the tick asks it twice a tick)."""
    return (
        s.ui.pause.phase == "running"
        and s.ui.overlay.kind not in ("mission_failed", "mission_passed")
        and s.player.alive
    )


def _frozen_key(s: WorldState, height: int, width: int) -> tuple[Any, ...]:
    """What the view behind the pause menu is drawn from that may change without a tick: what
    input changes at once (aiming, the weapon, the loot bar, the wheel, the shop),
    and the state's identity, tick and the player's pose (a state replaced or moved by hand)."""
    p, ui = s.player, s.ui
    return (
        id(s), s.tick, s.clock, height, width,
        p.x, p.y, p.z, p.yaw_deg, p.pitch_deg, p.health, p.aiming, p.weapon, p.mounted,
        p.alive, ui.loot_progress, ui.wheel.open, ui.wheel.hovered, ui.shop.open,
        ui.shop.hovered, ui.overlay.kind, ui.overlay.text, ui.objective, ui.subtitle,
        s.map.version, len(s.npcs),
    )  # fmt: skip
