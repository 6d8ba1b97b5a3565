"""The real Red Dead Redemption 2's profile: window, controls, pause method, camera, HUD regions.

Facts from the Cradle paper: WASD moves, the mouse turns the view (a camera mouse with no
visible cursor outside menus, and different scales on the X and Y axes), Esc pauses with an
animation of up to 0.5 s each way, ``tab`` held opens the weapon wheel, right mouse aims, left
mouse shoots.

The camera's scale is kept apart from :class:`~gcc_envs.core.profile.LiveProfile` in a
:class:`Camera`: mouse pixels per degree of view rotation *in frame pixels of the observation*
(the pixels ``MoveBy`` events are written in), measured at a reference frame width, plus the
horizontal field of view. The simulator's camera is exact (:data:`SIM_CAMERA`). The real game's
depends on its mouse-sensitivity setting and the capture resolution, so it is a table of
calibrated values per resolution (:data:`CALIBRATED`, :func:`real_camera`) that a user refreshes
on their own machine with ``gcc-gym calibrate`` (it sends known ``MoveBy`` amounts and measures
how far the picture shifts).

>>> SIM_CAMERA.pixels_per_degree_at(640)
(2.0, 2.5)
>>> real_camera((1920, 1080)).size
(1920, 1080)
"""

from __future__ import annotations

from dataclasses import dataclass

from gcc_envs.core.profile import LiveProfile

KEYS = (
    "w",
    "a",
    "s",
    "d",
    "shift",
    "space",
    "e",
    "r",
    "f",
    "q",
    "tab",
    "esc",
    "enter",
    "1",
    "2",
    "3",
    "4",
)

#: Mouse pixels per degree of view rotation in the simulator at its native 1280×720
#: (horizontal, vertical): the two axes differ, as in the real game.
SIM_PIXELS_PER_DEGREE = (4.0, 5.0)

PROFILE = LiveProfile(
    window_title=r"^Red Dead Redemption 2",
    keys=KEYS,
    pause="key",
    pause_key="esc",
    mouse="camera",
    max_mouse_px=160.0,
    resolution=(1280, 720),
    # At 16:9; the round minimap is the circle inscribed in its region, the player at its centre.
    hud={
        "minimap": (0.0203, 0.7083, 0.1445, 0.2569),
        "objective": (0.25, 0.86, 0.50, 0.08),
        "prompts": (0.80, 0.70, 0.19, 0.25),
        "tutorial": (0.015, 0.03, 0.32, 0.20),
    },
    # A placeholder until calibrated on your machine (`gcc-gym calibrate`): the 1920x1080
    # guess of CALIBRATED below, scaled to this resolution.
    pixels_per_degree=(4.0, 5.0),
)


@dataclass(frozen=True)
class Camera:
    """How mouse motion turns the view: pixels per degree at a frame size, and the FOV.

    Mouse pixels are frame pixels of the observation, so they scale with the frame: a frame
    half as wide needs half the horizontal pixels for the same turn (and vertical pixels scale
    with the height).
    """

    #: (horizontal, vertical) mouse pixels per degree at frames of ``size``.
    pixels_per_degree: tuple[float, float]
    #: (W, H) of the frames the figures were measured at.
    size: tuple[int, int] = (1280, 720)
    #: Horizontal field of view of the first-person picture, in degrees.
    hfov_deg: float = 70.0
    #: True once measured (``gcc-gym calibrate``); False for a placeholder guess.
    calibrated: bool = True

    def __post_init__(self) -> None:
        px, py = self.pixels_per_degree
        if not (px > 0 and py > 0):
            raise ValueError(f"pixels_per_degree must be positive, got {self.pixels_per_degree}")
        if min(self.size) <= 0:
            raise ValueError(f"size must be positive, got {self.size}")
        if not 10.0 <= self.hfov_deg <= 170.0:
            raise ValueError(f"hfov_deg must lie in [10, 170], got {self.hfov_deg}")

    def pixels_per_degree_at(self, width: int, height: int | None = None) -> tuple[float, float]:
        """Pixels per degree for frames ``width`` × ``height`` (height: same aspect)."""
        W, H = self.size
        sx = width / W
        sy = sx if height is None else height / H
        return self.pixels_per_degree[0] * sx, self.pixels_per_degree[1] * sy


@dataclass(frozen=True)
class RDR2Live:
    """What the real game needs beyond :class:`LiveProfile`: pause check and camera table."""

    #: Name of the :mod:`gcc_envs.games.rdr2.vision` check that confirms the pause menu shows.
    pause_template: str = "pause_menu"
    #: Seconds the pause (and unpause) animation takes; input is ignored meanwhile.
    pause_animation_s: float = 0.5
    #: How the game reads the mouse: raw input (DirectInput), relative motion only.
    mouse_input: str = "raw"


#: The simulator's camera: exact, at its native width, with its renderer's 70° field of view.
SIM_CAMERA = Camera(SIM_PIXELS_PER_DEGREE, size=(1280, 720), hfov_deg=70.0)

LIVE = RDR2Live()

#: Calibrated cameras of the real game per capture resolution (W, H), at the default mouse
#: sensitivity. The 1920×1080 entry is a placeholder guess (``calibrated=False``) until a user
#: runs ``gcc-gym calibrate`` on their machine and adds the measured row.
CALIBRATED: dict[tuple[int, int], Camera] = {
    (1920, 1080): Camera((6.0, 7.5), size=(1920, 1080), hfov_deg=70.0, calibrated=False),
}


def real_camera(
    resolution: tuple[int, int], table: dict[tuple[int, int], Camera] | None = None
) -> Camera:
    """The real game's camera at ``resolution`` (W, H).

    An exact entry of ``table`` (default :data:`CALIBRATED`) wins; otherwise the entry with the
    nearest aspect ratio is used as is (:meth:`Camera.pixels_per_degree_at` scales it to the
    frame width). Measure your own with ``gcc-gym calibrate``: mouse sensitivity and FOV
    settings change the figures.
    """
    table = CALIBRATED if table is None else table
    if not table:
        raise ValueError("no calibrated camera: run `gcc-gym calibrate` and add its result")
    if resolution in table:
        return table[resolution]
    aspect = resolution[0] / resolution[1]
    best = min(table, key=lambda r: abs(r[0] / r[1] - aspect))
    return table[best]
