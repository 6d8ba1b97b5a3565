"""Red Dead Redemption 2's skill library, after the Cradle paper's procedural memory for the game.

Basic skills: ``turn(degree)``, ``move_forward(duration)``, ``shoot(x, y)``,
``select_item_at(x, y)``. Composite ones: ``turn_and_move_forward``, ``follow`` and
``navigate_path`` (closed loops over the minimap, ``duration`` iterations, 20 by default as in
the paper, but never more than :data:`COMPOSITE_BUDGET_S` game seconds per call, so one call
cannot play a whole checkpoint), ``fight`` (a burst of sub-second punches). Plus what the missions need: horse
handling, interaction, looting, the weapon wheel, aiming, reloading, jumping, climbing, running.

Turning is a camera mouse: ``MoveBy`` pixels per degree come from a
:class:`~gcc_envs.games.rdr2.live.Camera` and scale with the frame's width, which a skill reads
from the first frame it gets — so the same library drives the simulator at any ``obs_size``
and, built with :func:`make_skills` over :func:`~gcc_envs.games.rdr2.live.real_camera`, the
real game. Skills that need a frame are closed-loop programs; they never read game state.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import numpy as np

from gcc_envs.core.events import (
    TAP_S,
    Event,
    KeyDown,
    KeyPress,
    KeyUp,
    MouseDown,
    MouseUp,
    MoveBy,
    MoveTo,
    Wait,
)
from gcc_envs.core.profile import LiveProfile
from gcc_envs.core.skills import SkillLibrary
from gcc_envs.errors import CodeActionError, GCCError
from gcc_envs.games.rdr2 import vision
from gcc_envs.games.rdr2.live import PROFILE, SIM_CAMERA, Camera
from gcc_envs.games.rdr2.sim import minimap

ProgramGen = Generator[Event, "np.ndarray | None", None]

#: Weapons on the wheel, clockwise from the top (the simulator's order).
WEAPONS = ("revolver", "rifle", "knife", "lasso", "fists", "bow")
#: Seconds of walking between two looks at the minimap in ``follow``/``navigate_path``.
STEP_S = 0.4
#: Game seconds one ``follow``/``navigate_path`` call may run at most (about ten of its
#: iterations): a call covers at most ~30 m riding, ~15 m on foot.
COMPOSITE_BUDGET_S = 5.0
#: Largest turn (degrees) one navigation iteration makes.
MAX_STEER_DEG = 120.0
#: ``follow`` stops walking when the ally's dot is this close (fraction of the minimap radius).
FOLLOW_NEAR = 0.12
#: Seconds ``r`` is held to loot (the progress circle must fill).
LOOT_S = 1.6
#: Seconds the right mouse is held before a shot (the aim settles).
AIM_SETTLE_S = 0.15
#: Punches in one ``fight()`` and the pause between them.
PUNCHES = 6
PUNCH_GAP_S = 0.15
#: Seconds the mouse glides while turning (the game reads motion per frame).
TURN_GLIDE_S = 0.1
#: Seconds ``tab`` is held before the wheel is ready, and after the pointer reaches a sector.
WHEEL_OPEN_S = 0.3
WHEEL_HOVER_S = 0.2


def _need_frame(frame: np.ndarray | None) -> np.ndarray:
    if frame is None:  # only a program driven outside an env gets no frames
        raise CodeActionError("this skill reads frames: run it through env.step")
    return frame


MinimapLocator = Callable[[int, int], "tuple[float, float, float]"]


def sim_minimap(height: int, width: int) -> tuple[float, float, float]:
    """(cx, cy, r) of the simulator's minimap in a frame of this size (its HUD layout)."""
    b = minimap.box(height, width)
    return float(b.cx), float(b.cy), float(b.r)


def profile_minimap(
    region: tuple[float, float, float, float] = PROFILE.hud["minimap"],
) -> MinimapLocator:
    """A locator for the real game: the circle inscribed in the profile's minimap region."""

    def at(height: int, width: int) -> tuple[float, float, float]:
        return vision.circle_of(region, height, width)

    return at


@dataclass(frozen=True)
class RDR2Skills:
    """The skills, bound to a camera scale, where the minimap is, and the HUD colours."""

    camera: Camera = SIM_CAMERA
    minimap_at: MinimapLocator = sim_minimap
    colours: vision.HudColours = field(default_factory=vision.HudColours)

    # ------------------------------------------------------------ helpers
    def mouse_px(
        self, frame: np.ndarray, yaw_deg: float, pitch_deg: float = 0.0
    ) -> tuple[int, int]:
        """``MoveBy`` pixels that turn the view by (yaw right, pitch down) degrees on frames
        the size of ``frame``."""
        H, W = frame.shape[:2]
        px, py = self.camera.pixels_per_degree_at(W, H)
        return int(round(yaw_deg * px)), int(round(pitch_deg * py))

    def _turn(self, frame: np.ndarray, yaw: float, pitch: float = 0.0) -> ProgramGen:
        dx, dy = self.mouse_px(frame, yaw, pitch)
        if dx or dy:
            yield MoveBy(dx, dy, TURN_GLIDE_S)

    # ------------------------------------------------------------ basic skills
    def turn(self, degree: float) -> ProgramGen:
        """Turn the view (and Arthur) by `degree` degrees: positive right, negative left."""
        frame = _need_frame((yield Wait(0.0)))
        yield from self._turn(frame, degree)

    def move_forward(self, duration: float = 1.0) -> list[Event]:
        """Walk (or ride) forward by holding 'w' for `duration` seconds."""
        return [KeyPress("w", duration)]

    def turn_and_move_forward(self, degree: float, duration: float = 1.0) -> ProgramGen:
        """Turn by `degree` degrees (positive right), then walk forward for `duration` seconds."""
        yield from self.turn(degree)
        yield KeyPress("w", duration)

    def shoot(self, x: int, y: int) -> ProgramGen:
        """Aim (right mouse), turn so that screen point (`x`, `y`) is under the crosshair, fire."""
        frame = _need_frame((yield MouseDown("right")))
        H, W = frame.shape[:2]
        yield Wait(AIM_SETTLE_S)
        yaw, pitch = vision.angle_to_point(x, y, W, H, self.camera.hfov_deg)
        yield from self._turn(frame, yaw, pitch)
        yield Wait(TAP_S)
        yield MouseDown("left")
        yield Wait(TAP_S)
        yield MouseUp("left")
        yield Wait(0.1)
        yield MouseUp("right")

    def select_item_at(self, x: int, y: int) -> list[Event]:
        """Move the pointer to (`x`, `y`), e.g. over a weapon-wheel sector or a menu row."""
        return [MoveTo(x, y, 0.1), Wait(0.1)]

    # ------------------------------------------------------------ composite skills
    def _steer(self, duration: int, target: str) -> ProgramGen:
        if duration < 1:
            raise CodeActionError(f"duration counts iterations and must be >= 1, got {duration}")
        frame = _need_frame((yield Wait(0.0)))
        circle = self.minimap_at(*frame.shape[:2])
        walking = False
        spent = 0.0
        for _ in range(duration):
            if spent + STEP_S > COMPOSITE_BUDGET_S + 1e-9:
                break
            mm = vision.minimap_crop(frame, circle)
            if target == "route":
                bearing = vision.route_bearing(mm, self.colours)
                near = False
            else:
                dots = vision.blips(mm, self.colours.ally, self.colours)
                bearing = dots[0].bearing if dots else None
                near = bool(dots) and dots[0].distance < FOLLOW_NEAR
            if bearing is None:
                break
            if near:
                if walking:
                    yield KeyUp("w")
                    walking = False
            elif not walking:
                yield KeyDown("w")
                walking = True
            turn = max(-MAX_STEER_DEG, min(MAX_STEER_DEG, bearing))
            dx, _ = self.mouse_px(frame, turn)
            if dx:
                frame = _need_frame((yield MoveBy(dx, 0, TURN_GLIDE_S)))
                spent += TURN_GLIDE_S
            frame = _need_frame((yield Wait(STEP_S)))
            spent += STEP_S
        if walking:
            yield KeyUp("w")

    def navigate_path(self, duration: int = 20) -> ProgramGen:
        """Walk along the red route line of the minimap for `duration` iterations (~0.4 s each).

        Reads the minimap only; stops early when no route is shown, and after 5 game seconds.
        """
        yield from self._steer(duration, "route")

    def follow(self, duration: int = 20) -> ProgramGen:
        """Follow the nearest ally (blue dot on the minimap) for `duration` iterations (~0.4 s each).

        Stops walking while the ally is close; ends early when no ally is on the minimap, and
        after 5 game seconds.
        """
        yield from self._steer(duration, "ally")

    def fight(self) -> list[Event]:
        """Throw a burst of quick punches ('f') at whoever is in front."""
        out: list[Event] = []
        for _ in range(PUNCHES):
            out += [KeyPress("f"), Wait(PUNCH_GAP_S)]
        return out

    # ------------------------------------------------------------ game skills
    def interact(self) -> list[Event]:
        """Press 'e': talk, open a door, pick up, or whatever the prompt at the right says."""
        return [KeyPress("e"), Wait(0.2)]

    def mount_horse(self) -> list[Event]:
        """Mount the horse next to you ('e' beside it)."""
        return [KeyPress("e"), Wait(1.0)]

    def dismount_horse(self) -> list[Event]:
        """Get off the horse you ride ('e')."""
        return [KeyPress("e"), Wait(1.0)]

    def hitch_horse(self) -> list[Event]:
        """Hitch your horse at the hitching post you stand by ('e' while its prompt shows)."""
        return [KeyPress("e"), Wait(1.0)]

    def loot(self) -> list[Event]:
        """Search the drawer, cupboard or body in front: hold 'r' until the circle fills."""
        return [KeyPress("r", LOOT_S), Wait(0.2)]

    def open_weapon_wheel(self, duration: float = 1.0) -> list[Event]:
        """Hold 'tab' for `duration` seconds to look at the weapon wheel, then let go."""
        return [KeyPress("tab", duration)]

    def select_weapon(self, name: str = "revolver") -> ProgramGen:
        """Equip weapon `name` (revolver, rifle, knife, lasso, fists, bow) via the weapon wheel.

        Holds 'tab', points at the weapon's sector, releases.
        """
        if name not in WEAPONS:
            raise CodeActionError(f"select_weapon(): unknown weapon {name!r}; one of {WEAPONS}")
        return self._wheel(WEAPONS.index(name))

    def _wheel(self, sector: int) -> ProgramGen:
        frame = _need_frame((yield KeyDown("tab")))
        H, W = frame.shape[:2]
        yield Wait(WHEEL_OPEN_S)
        x, y = vision.wheel_point(sector, len(WEAPONS), W, H)
        yield MoveTo(x, y, 0.1)
        yield Wait(WHEEL_HOVER_S)
        yield KeyUp("tab")
        yield Wait(0.1)

    def aim(self, duration: float = 1.0) -> list[Event]:
        """Hold the right mouse button for `duration` seconds: aim down the sights."""
        return [MouseDown("right"), Wait(duration), MouseUp("right")]

    def reload(self) -> list[Event]:
        """Reload the gun in hand ('r' tapped)."""
        return [KeyPress("r"), Wait(0.5)]

    def jump(self) -> list[Event]:
        """Jump ('space')."""
        return [KeyPress("space"), Wait(0.3)]

    def climb(self) -> list[Event]:
        """Climb the ledge in front: walk into it and press 'space'."""
        return [KeyDown("w"), Wait(0.2), KeyPress("space"), Wait(0.6), KeyUp("w")]

    def run(self, duration: float = 1.0) -> list[Event]:
        """Run (or gallop) forward for `duration` seconds: 'shift' held with 'w'."""
        return [KeyDown("shift"), KeyPress("w", duration), KeyUp("shift")]

    def confirm(self) -> list[Event]:
        """Press 'enter': buy the highlighted catalogue row, accept a menu entry."""
        return [KeyPress("enter"), Wait(0.2)]

    def close_menu(self) -> list[Event]:
        """Press 'esc': close the shop catalogue or the weapon wheel (in play, it pauses)."""
        return [KeyPress("esc"), Wait(0.2)]

    def wait(self, duration: float = 1.0) -> list[Event]:
        """Do nothing for `duration` seconds (let a tutorial, an NPC or a reload finish)."""
        return [Wait(duration)]

    # ------------------------------------------------------------ the library
    def library(self) -> SkillLibrary:
        """All skills as a :class:`SkillLibrary`."""
        return SkillLibrary.from_functions(*(getattr(self, n) for n in SKILL_NAMES))


SKILL_NAMES = (
    "turn",
    "move_forward",
    "turn_and_move_forward",
    "shoot",
    "select_item_at",
    "navigate_path",
    "follow",
    "fight",
    "interact",
    "mount_horse",
    "dismount_horse",
    "hitch_horse",
    "loot",
    "open_weapon_wheel",
    "select_weapon",
    "aim",
    "reload",
    "jump",
    "climb",
    "run",
    "confirm",
    "close_menu",
    "wait",
)


def make_skills(
    camera: Camera = SIM_CAMERA,
    minimap_at: MinimapLocator = sim_minimap,
    colours: vision.HudColours | None = None,
) -> SkillLibrary:
    """A skill library for a camera and HUD: the simulator's by default; for the real game
    ``make_skills(real_camera((W, H)), profile_minimap(), HudColours(...))``."""
    kit = RDR2Skills(camera, minimap_at, vision.HudColours() if colours is None else colours)
    return kit.library()


#: The simulator's skills (its exact camera, its HUD).
SKILLS = make_skills()


def skills_for(profile: LiveProfile, real: bool) -> SkillLibrary:
    """The skills an env gets (the spec's ``make_skills``): the simulator's exact camera and
    HUD, or on a real screen (``real``) the camera of ``profile`` (its ``pixels_per_degree`` at
    its ``resolution``) and the minimap where its HUD regions put it."""
    if not real:
        return SKILLS
    if profile.pixels_per_degree is None:
        raise GCCError(
            "the live profile has no pixels_per_degree: measure it with `gcc-gym calibrate` "
            "and put it in the profile"
        )
    camera = Camera(
        profile.pixels_per_degree, size=profile.resolution, hfov_deg=SIM_CAMERA.hfov_deg
    )
    return make_skills(camera, profile_minimap(profile.hud["minimap"]))
