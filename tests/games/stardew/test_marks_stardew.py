"""MarkRegions on Stardew's screens: the shop menu rows and the toolbar slots are found."""

import gymnasium as gym

import gcc_envs  # noqa: F401  (registers the ids)
from wrappers import MarkRegions
from wrappers.mark_regions import detect_regions, draw_marks

HD = (720, 1280)


def shop_frame():
    """A 1280×720 Stardew frame with Pierre's shop open, and its menu rows (x0, y0, x1, y1)."""
    from gcc_envs.games.stardew.sim import layout

    env = gym.make("GCC/Stardew-Shopping", obs_size=HD)
    env.reset(seed=0)
    sim = env.unwrapped.backend.sim
    sim.state.menu = "shop"  # opening it by walking the scripted path to the store is too slow
    frame = sim.render(*HD)
    h, w = HD
    rows = [
        (round(r.u0 * w), round(r.v0 * h), round(r.u1 * w), round(r.v1 * h))
        for r in layout.SHOP_ROWS[: len(sim.state.shop)]  # the seeded stock
    ]
    return frame, rows


def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area = lambda r: (r[2] - r[0]) * (r[3] - r[1])  # noqa: E731
    return inter / (area(a) + area(b) - inter)


def test_mark_regions_finds_every_row_of_the_stardew_shop_menu():
    frame, rows = shop_frame()
    marks = detect_regions(frame)
    boxes = [(m.x, m.y, m.x + m.w, m.y + m.h) for m in marks]
    for r in rows:
        assert max(iou(r, b) for b in boxes) > 0.8, r
    out = draw_marks(frame, marks)
    tops = [(m.x, m.y + m.h // 2) for m in marks]
    assert all((out[y, x] != frame[y, x]).any() for x, y in tops)  # box outlines were drawn


def test_mark_regions_finds_the_toolbar_slots_and_not_the_grass_of_the_farm():
    from gcc_envs.games.stardew.sim import layout

    env = MarkRegions(gym.make("GCC/Stardew-FarmClearup", obs_size=HD))
    _, info = env.reset(seed=0)
    boxes = [(m["x"], m["y"], m["x"] + m["w"], m["y"] + m["h"]) for m in info["marks"]]
    h, w = HD
    for i in range(12):
        r = layout.toolbar_slot(i)
        slot = (round(r.u0 * w), round(r.v0 * h), round(r.u1 * w), round(r.v1 * h))
        assert max(iou(slot, b) for b in boxes) > 0.7, slot
    assert len(boxes) < 30  # texture (grass tiles, words) is not proposed
