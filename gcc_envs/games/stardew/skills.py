"""Stardew Valley's skill library, after the Cradle paper's procedural memory for the game.

Atomic skills press keys for a while. Composite skills (``go_through_door``,
``get_out_of_house``, ``enter_door_and_sleep``, ``buy_item``) are closed-loop programs that
look only at frames: after every short key press they find the farmer and their target on the
new frame by template matching (:mod:`gcc_envs.games.stardew.vision`) and decide the next
press. They never read game state, and each gives up after :data:`MAX_MOVES` presses.

Frame sizes: the skills need tiles of at least 16 px, i.e. frames about 180 px tall or more
at 16:9; they are tested at 720x1280 (the default) and 360x640, and also run at 1080x1920,
480x640 and 600x600. Very wide, short frames (400x1280) show too few rows of tiles for the
target to be in view. On frames too small to read (84x84) they stop at once, pressing nothing.
A skill that cannot find what it needs simply stops (no error): the next frame shows the
agent where the farmer ended up.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from functools import lru_cache

import numpy as np

from gcc_envs.core.events import TAP_S, Click, Event, KeyPress, Wait
from gcc_envs.core.profile import LiveProfile
from gcc_envs.core.skills import SkillLibrary
from gcc_envs.errors import CodeActionError
from gcc_envs.games.stardew.sim import layout
from gcc_envs.games.stardew.sim.loader import load_data
from gcc_envs.games.stardew.sim.world import SPEED
from gcc_envs.games.stardew.vision import Hit, Screen, art, feet, find_text, shop_rows

#: Seconds a tool swing or an action takes before the farmer can act again.
SWING_S = 0.45
_SLOT_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "=")
#: Most key presses one composite skill makes before it gives up.
MAX_MOVES = 40
#: Longest single press while walking (s): the skill looks again after each one.
PRESS_S = 0.5
#: How close (tiles) the farmer's feet must come to a spot to count as there.
TOL = 0.15

ProgramGen = Generator[Event, "np.ndarray | None", None]


# ---------------------------------------------------------------- atomic skills
def move_up(duration: float = 0.5) -> list[Event]:
    """Walk up (north) by holding 'w' for `duration` seconds."""
    return [KeyPress("w", duration)]


def move_down(duration: float = 0.5) -> list[Event]:
    """Walk down (south) by holding 's' for `duration` seconds."""
    return [KeyPress("s", duration)]


def move_left(duration: float = 0.5) -> list[Event]:
    """Walk left (west) by holding 'a' for `duration` seconds."""
    return [KeyPress("a", duration)]


def move_right(duration: float = 0.5) -> list[Event]:
    """Walk right (east) by holding 'd' for `duration` seconds."""
    return [KeyPress("d", duration)]


def do_action() -> list[Event]:
    """Act on what the farmer faces: open a door, talk, use the bed or counter, harvest ('x')."""
    return [KeyPress("x"), Wait(SWING_S)]


def use_tool() -> list[Event]:
    """Use the selected tool or item on the tile the farmer faces ('c')."""
    return [KeyPress("c"), Wait(SWING_S)]


def select_tool(key: int) -> list[Event]:
    """Select toolbar slot `key` (1-12; 1 Axe, 2 Hoe, 3 Watering Can, 4 Pickaxe, 5 Scythe, 6 Seeds)."""
    if not 1 <= key <= len(_SLOT_KEYS):
        raise CodeActionError(f"select_tool(key) takes a slot from 1 to 12, got {key}")
    return [KeyPress(_SLOT_KEYS[key - 1])]


# ---------------------------------------------------------------- closed-loop walking
class _Walk:
    """Presses keys and hands back the frame after each; counts presses against a budget."""

    def __init__(self, budget: int = MAX_MOVES) -> None:
        self.left = budget

    @property
    def spent(self) -> bool:
        return self.left <= 0

    def do(self, event: Event) -> Generator[Event, np.ndarray | None, Screen]:
        """Send ``event``; the frame that comes back, ready for matching."""
        frame = yield event
        if frame is None:  # only a program driven outside an env gets no frames
            raise CodeActionError("composite skills need frames: run them through env.step")
        return Screen(frame)

    def press(self, key: str, seconds: float) -> Generator[Event, np.ndarray | None, Screen]:
        self.left -= 1
        return (yield from self.do(KeyPress(key, min(max(seconds, TAP_S), PRESS_S))))

    def look(self, seconds: float = 0.0) -> Generator[Event, np.ndarray | None, Screen]:
        return (yield from self.do(Wait(seconds)))


def _key(axis: str, d: float) -> str:
    if axis == "x":
        return "d" if d > 0 else "a"
    return "s" if d > 0 else "w"


Locate = Callable[[Screen, Hit], "tuple[float, float] | None"]


def _approach(
    w: _Walk, scr: Screen, locate: Locate, order: str = "xy", tol: tuple[float, float] = (TOL, TOL)
) -> Generator[Event, np.ndarray | None, tuple[Screen, bool]]:
    """Walk until the farmer's feet are within ``tol`` of the spot ``locate`` finds.

    Axes are walked in ``order``; an axis that does not move the farmer counts as blocked and
    the other one (or a one-tile side step) is tried, so a shelf or a table is walked around.
    """
    last: tuple[str, float] | None = None
    blocked: set[str] = set()
    sides = 0
    while not w.spent:
        me = scr.farmer()
        goal = None if me is None else locate(scr, me)
        if me is None or goal is None:
            return scr, False
        fx, fy = feet(me)
        d = {"x": goal[0] - fx, "y": goal[1] - fy}
        need = [a for a in order if abs(d[a]) > tol[0 if a == "x" else 1]]
        if not need:
            return scr, True
        if last is not None and abs(d[last[0]] - last[1]) < 0.05:
            blocked.add(last[0])
        free = [a for a in need if a not in blocked]
        if free:
            a = free[0]
            last = (a, d[a])
            scr = yield from w.press(_key(a, d[a]), abs(d[a]) / SPEED)
            continue
        a = "y" if need[0] == "x" else "x"  # side-step across the blocked axis: +1, -2, +3
        sides += 1
        last, blocked = None, set()
        scr = yield from w.press(_key(a, (-1) ** (sides + 1)), sides / SPEED)
    return scr, False


def _nearest(hits: list[Hit], me: Hit, above: bool = False) -> Hit | None:
    fx, fy = feet(me)
    if above:
        hits = [h for h in hits if h.y + 1 <= fy] or hits
    if not hits:
        return None
    return min(hits, key=lambda h: (h.x + 0.5 - fx) ** 2 + (h.y + 0.5 - fy) ** 2)


def _through(w: _Walk, scr: Screen, key: str) -> Generator[Event, np.ndarray | None, Screen]:
    """Keep walking ``key``-wards in short presses until indoors/outdoors flips."""
    inside = scr.indoors
    for _ in range(8):
        if w.spent or scr.indoors != inside:
            break
        scr = yield from w.press(key, 0.25)
    return scr


def _exit_room(w: _Walk, scr: Screen) -> Generator[Event, np.ndarray | None, Screen]:
    """Indoors: walk onto the exit mat at the bottom of the room and out."""
    a = art()
    for _ in range(3):  # the toolbar may hide the mat: walk down to flip it up and look again
        me = scr.farmer()
        if me is None or scr.find_all(a.mat, [me], limit=1):
            break
        scr = yield from w.press("s", 2.0 / SPEED)

    def above_mat(s: Screen, me: Hit) -> tuple[float, float] | None:
        m = _nearest(s.find_all(a.mat, [me]), me)
        return None if m is None else (m.x + 0.5, m.y - 0.3)

    # down to the free row above the mat first, around furniture, then along it to the mat
    scr, ok = yield from _approach(w, scr, above_mat, "yx", (0.12, 0.45))
    if ok:
        scr = yield from _through(w, scr, "s")
    return scr


def _enter_door(w: _Walk, scr: Screen) -> Generator[Event, np.ndarray | None, Screen]:
    """Outdoors: walk below the nearest door, line up with it and walk in."""
    a = art()
    door: Hit | None = None
    for _ in range(3):  # the farmer may stand in front of the door: step back and look
        me = scr.farmer()
        if me is None:
            return scr
        door = _nearest(scr.find_all(a.door, [me]), me, above=True)
        if door is not None and door.y + 1 + 1.6 <= feet(me)[1]:
            break
        scr = yield from w.press("s", 1.6 / SPEED)
    if door is None:
        return scr

    def below(s: Screen, me: Hit) -> tuple[float, float] | None:
        d = _nearest(s.find_all(a.door, [me]), me, above=True)
        return None if d is None else (d.x + 0.5, feet(me)[1])

    scr, ok = yield from _approach(w, scr, below, "x", (0.12, 99.0))
    if ok:
        scr = yield from _through(w, scr, "w")
    return scr


# ---------------------------------------------------------------- composite skills
def go_through_door() -> ProgramGen:
    """Walk to the nearest door on screen and go through it (indoors: out by the exit mat).

    Reads frames only (template matching); frames >= 180 px tall (see the module notes);
    gives up after 40 key presses.
    """
    w = _Walk()
    scr = yield from w.look()
    if not scr.ok:
        return
    if scr.indoors:
        yield from _exit_room(w, scr)
    else:
        yield from _enter_door(w, scr)


def get_out_of_house() -> ProgramGen:
    """Walk from the bed (or anywhere in the house) to the exit mat and out onto the farm.

    Reads frames only; frames >= 180 px tall (see ``go_through_door``).
    """
    w = _Walk()
    scr = yield from w.look()
    if scr.ok and scr.indoors:
        yield from _exit_room(w, scr)


def enter_door_and_sleep() -> ProgramGen:
    """Enter the farmhouse from the farm, walk beside the bed, use it and answer "Yes" to sleep.

    Starts on the farm with the house door in view, or already in the house. Reads frames
    only; frames >= 180 px tall (see ``go_through_door``).
    """
    w = _Walk()
    scr = yield from w.look()
    if not scr.ok:
        return
    if not scr.indoors:
        scr = yield from _enter_door(w, scr)
        if not scr.indoors:
            return
    a = art()
    me = scr.farmer()
    bed = scr.find((a.bed,))
    if me is None or bed is None:
        return
    # the bed stands against a wall: stand beside it on the room's side (where the farmer is)
    side = 1.0 if feet(me)[0] > bed.x + 0.5 else -1.0

    def by_bed(s: Screen, me: Hit) -> tuple[float, float] | None:
        bed = s.find((a.bed,))
        return None if bed is None else (bed.x + 0.5 + side, bed.y + 1.5)

    scr, ok = yield from _approach(w, scr, by_bed, "xy")
    if not ok:
        return
    for _ in range(2):
        yield from w.press("a" if side > 0 else "d", TAP_S)  # face the bed (it stops the farmer)
        yield KeyPress("x")
        scr = yield from w.look(SWING_S / 3)
        yes = find_text(scr.frame, "Yes", 0.9, layout.DIALOGUE_BOX)
        if yes is not None:
            yield Click(*yes)
            yield Wait(0.5)
            return


def buy_item(item: str = "Parsnip Seeds", count: int = 1) -> ProgramGen:
    """In Pierre's store (open 9:00-17:00): buy `count` (1-99) of `item` from Pierre.

    Walks to the counter in front of Pierre, acts on it, clicks the item's row of the shop
    menu `count` times and closes the menu. Reads frames only; frames >= 180 px tall.
    """
    names = {it.name.lower(): it.name for it in load_data().items.values()}
    if item.lower() not in names:
        raise CodeActionError(f"buy_item(): unknown item {item!r}")
    if not 1 <= count <= 99:
        raise CodeActionError(f"buy_item(): count must be 1 to 99, got {count}")
    return _buy(names[item.lower()], count)


@lru_cache(maxsize=1)
def _sold() -> tuple[str, ...]:
    """Names of everything a shop can sell (what ``buy_item`` reads the menu rows against)."""
    return tuple(it.name for it in load_data().items.values() if it.price > 0)


def _buy(item: str, count: int) -> ProgramGen:
    w = _Walk()
    scr = yield from w.look()
    if not (scr.ok and scr.indoors):
        return
    a = art()

    def counter(s: Screen, me: Hit) -> tuple[float, float] | None:
        p = s.find((a.pierre,))
        return None if p is None else (p.x + 0.5, feet(p)[1] + 2.0)

    scr, ok = yield from _approach(w, scr, counter, "yx")
    if not ok:
        return
    yield from w.press("w", TAP_S)  # face the counter
    yield KeyPress("x")
    scr = yield from w.look(0.2)
    rows = shop_rows(scr.frame, _sold())
    if not any(rows):
        return  # no shop menu: the shop is closed
    if item not in rows:  # not sold here today: close the menu
        yield KeyPress("esc")
        yield Wait(0.1)
        return
    u, v = layout.SHOP_ROWS[rows.index(item)].center
    h, w_ = scr.frame.shape[:2]
    at = (min(round(u * w_), w_ - 1), min(round(v * h), h - 1))
    for _ in range(count):
        yield Click(*at)
        yield Wait(0.05)
    yield KeyPress("esc")
    yield Wait(0.1)


ATOMIC = (move_up, move_down, move_left, move_right, do_action, use_tool, select_tool)
COMPOSITE = (go_through_door, get_out_of_house, enter_door_and_sleep, buy_item)
SKILLS = SkillLibrary.from_functions(*ATOMIC, *COMPOSITE)


#: A grid of concrete calls for agents that act at the skill level with a ``Discrete`` action
#: (``wrappers.UseSkillGrid``): moves of 0.25/0.5/1 s, tool use, action, toolbar slots 1-6.
SKILL_GRID: dict[str, dict[str, tuple[float | int, ...]]] = {
    "move_up": {"duration": (0.25, 0.5, 1.0)},
    "move_down": {"duration": (0.25, 0.5, 1.0)},
    "move_left": {"duration": (0.25, 0.5, 1.0)},
    "move_right": {"duration": (0.25, 0.5, 1.0)},
    "use_tool": {},
    "do_action": {},
    "select_tool": {"key": (1, 2, 3, 4, 5, 6)},
}


def skills_for(profile: LiveProfile, real: bool) -> SkillLibrary:
    """The skills an env gets (the spec's ``make_skills``): they read only frames, laid out
    as the game lays its screen out at any size, so the simulator and the real game share
    them."""
    return SKILLS
