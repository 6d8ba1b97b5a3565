"""The RDR2 renderer's 3D view: frame contract, ray caster, billboards, camera."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gcc_envs.games.rdr2.sim.raycast import camera_rays, cast
from gcc_envs.games.rdr2.sim.render import camera, render, render_world
from gcc_envs.games.rdr2.sim.showcase import blank_state
from gcc_envs.games.rdr2.sim.sprites import project
from gcc_envs.games.rdr2.sim.state import CELL_M, NPC

# A walled yard; the rock wall at column 12 faces a player standing at column 4, looking east.
YARD = "\n".join(["#" * 14] + ["#" + "." * 12 + "#"] * 9 + ["#" * 14])


def yard_state(**kw):
    return blank_state(YARD, 4.0, 5.5, yaw_deg=0.0, **kw)


@pytest.mark.parametrize("size", [(84, 84), (96, 160), (720, 1280), (1080, 1920)])
def test_render_returns_fresh_uint8_frame_of_requested_size(size):
    st = yard_state()
    a = render(st, *size)
    b = render(st, *size)
    assert a.shape == (*size, 3) and a.dtype == np.uint8
    assert not np.shares_memory(a, b)
    assert np.array_equal(a, b)  # a pure function of the state
    a[:] = 0
    assert np.array_equal(render(st, *size), b)


def test_render_rejects_absurd_sizes():
    with pytest.raises(ValueError, match="render size"):
        render(yard_state(), 0, 100)


def test_cast_reports_perpendicular_distance_to_a_flat_wall():
    grid = np.zeros((41, 20), bool)
    grid[:, 12] = True
    rays = camera_rays(0.0, math.radians(70), 64)
    hits = cast(grid, 9.0, 20.5, rays.x, rays.y)
    # every column sees the same flat face at x = 12: 3 cells, no fisheye bulge
    np.testing.assert_allclose(hits.dist, 3.0, atol=1e-9)
    assert (hits.col == 12).all() and (hits.side == 0).all()
    # where along the face each ray lands grows left to right across the screen
    along = 20.5 + hits.dist * rays.y
    np.testing.assert_allclose(hits.u, along - np.floor(along), atol=1e-9)


def test_cast_hits_north_face_and_reports_misses_as_inf():
    grid = np.zeros((10, 10), bool)
    grid[2, 5] = True
    hits = cast(grid, 5.5, 7.5, np.array([0.0, 1.0]), np.array([-1.0, 0.0]), max_dist=20.0)
    assert hits.dist[0] == pytest.approx(4.5)  # face of row 2 lies at y = 3
    assert hits.side[0] == 1 and hits.row[0] == 2
    assert math.isinf(hits.dist[1]) and hits.col[1] == -1  # leaves the map to the east


def test_cast_respects_max_distance():
    grid = np.zeros((5, 30), bool)
    grid[:, 25] = True
    hits = cast(grid, 1.5, 2.5, np.array([1.0]), np.array([0.0]), max_dist=10.0)
    assert math.isinf(hits.dist[0])


def test_wall_straight_ahead_fills_the_centre_column_with_its_texture():
    st = yard_state()
    frame = render_world(st, 120, 200)
    cam = camera(st, 120, 200)
    d = 12.0 - 4.0  # cells to the wall face
    k = cam.proj / (d * CELL_M)
    foot = cam.horizon + cam.eye_m * k
    col = frame[:, 100].astype(int)
    # just above the wall's foot the column is grey rock, not snow or sky
    rock = col[int(foot) - 3]
    assert abs(rock[0] - rock[2]) < 40 and rock.mean() < 200


def _with_npc(col: float) -> np.ndarray:
    st = yard_state()
    st.map.walls[4:8, 8] = 3  # a plank wall 4 cells ahead of the player
    if col is not None:
        st.npcs["dutch"] = NPC("dutch", "dutch", col * CELL_M, 5.5 * CELL_M)
    return render_world(st, 180, 320)


def test_billboard_in_front_of_a_wall_is_drawn():
    base, front = _with_npc(None), _with_npc(6.5)
    changed = np.any(base != front, axis=2)
    ys, xs = np.nonzero(changed)
    assert changed.sum() > 200
    assert abs(xs.mean() - 160) < 15  # straight ahead


def test_billboard_behind_a_wall_is_hidden():
    base, behind = _with_npc(None), _with_npc(10.5)
    assert np.array_equal(base, behind)


def test_billboard_projection_is_centred_and_shrinks_with_distance():
    st = yard_state()
    cam = camera(st, 720, 1280)
    near = project(cam, 6.0, 5.5, 0.8, 1.85)
    far = project(cam, 10.0, 5.5, 0.8, 1.85)
    assert near is not None and far is not None
    assert (near.x0 + near.x1) / 2 == pytest.approx(640.0)
    assert (near.y1 - near.y0) > (far.y1 - far.y0) * 1.9
    assert project(cam, 1.0, 5.5, 0.8, 1.85) is None  # behind the camera


def test_mounted_camera_sits_higher_and_pitch_moves_the_horizon():
    st = yard_state()
    on_foot = camera(st, 720, 1280)
    st.player.mounted = "horse"
    mounted = camera(st, 720, 1280)
    assert mounted.eye_m > on_foot.eye_m
    st.player.pitch_deg = 20.0
    assert camera(st, 720, 1280).horizon > mounted.horizon  # looking up: horizon drops


def test_looking_up_shows_more_sky():
    st = yard_state(snow=False)  # a clear blue sky over grass and rock

    def sky_share(frame):
        return (frame[:, :, 2].astype(int) - frame[:, :, 0] > 40).mean()

    level = render_world(st, 90, 160)
    st.player.pitch_deg = 30.0
    up = render_world(st, 90, 160)
    st.player.pitch_deg = -30.0
    down = render_world(st, 90, 160)
    assert sky_share(up) > sky_share(level) > sky_share(down)


def test_fence_hides_part_of_a_billboard_behind_it():
    def frame(npc: bool) -> np.ndarray:
        st = yard_state()
        st.map.walls[1:10, 6] = 5  # a fence two cells ahead, across the whole yard
        if npc:
            st.npcs["micah"] = NPC("micah", "micah", 8.0 * CELL_M, 5.5 * CELL_M)
        return render_world(st, 180, 320)

    fence_only, with_npc = frame(False), frame(True)
    changed = np.any(fence_only != with_npc, axis=2)
    assert changed.sum() > 100  # seen over and between the rails
    split = [(np.diff(np.nonzero(changed[:, c])[0]) > 1).any() for c in range(150, 170)]
    assert any(split)  # a rail cuts the figure's legs into pieces


def test_closed_door_is_drawn_and_an_open_one_shows_the_room_behind():
    def centre(block: int) -> np.ndarray:
        st = yard_state()
        st.map.walls[1:10, 8] = 3  # plank wall across the yard
        st.map.walls[5, 8] = block
        return render_world(st, 180, 320)[60:130, 150:170]

    plank, door, opened = centre(3), centre(4), centre(0)
    assert np.abs(door.astype(int) - plank).mean() > 10  # a door looks like a door
    assert np.abs(opened.astype(int) - door).mean() > 10  # open: the far rock wall shows


def test_characters_are_told_apart_by_their_colours():
    from gcc_envs.games.rdr2.sim import sprite_art

    kinds = ["dutch", "micah", "javier", "john", "enemy", "clerk"]
    looks = {}
    for k in kinds:
        img = sprite_art.person(k).astype(int)
        head = img[: img.shape[0] // 4]  # hat, face and bandana
        body = img[img.shape[0] // 4 : img.shape[0] // 2]  # coat, shirt, scarf
        looks[k] = np.concatenate([part[part[..., 3] > 0][:, :3].mean(0) for part in (head, body)])
    for i, a in enumerate(kinds):
        for b in kinds[i + 1 :]:
            assert np.abs(looks[a] - looks[b]).sum() > 40, (a, b)


def test_the_sky_skips_only_ridges_it_could_not_show(monkeypatch):
    """The ridge is left out when even its highest possible top lies below the sky; the
    canvas is the one the full ridge test paints, for views from far down to far up."""
    from gcc_envs.games.rdr2.sim import sky

    turns = np.linspace(0.0, 2.0 * math.pi, 20001, dtype=np.float32)
    assert float(sky.ridge_elevation(turns).max()) < sky.RIDGE_MAX_ELEVATION
    colors = sky.sky_colors(12.0, False)
    rng = np.random.default_rng(4)
    skipped = drawn = 0
    for _ in range(300):
        h, w = (int(v) for v in rng.choice([84, 96, 160, 720], 2))
        horizon = float(rng.uniform(-0.2 * h, 1.3 * h))
        proj, yaw = w / 2.0 / math.tan(math.radians(35.0)), float(rng.uniform(0, 2 * math.pi))
        fast = np.zeros((h, w), np.uint32)
        sky.paint_sky(fast, horizon, proj, yaw, math.radians(70.0), colors)
        with monkeypatch.context() as m:
            m.setattr(sky, "RIDGE_MAX_ELEVATION", 1.5)  # never skips
            full = np.zeros((h, w), np.uint32)
            sky.paint_sky(full, horizon, proj, yaw, math.radians(70.0), colors)
        np.testing.assert_array_equal(fast, full)
        r_sky = min(h, max(0, math.ceil(horizon) + 1))
        if r_sky:
            skipped += math.floor(horizon - math.tan(0.1225) * proj) >= r_sky
            drawn += math.floor(horizon - math.tan(0.1225) * proj) < r_sky
    assert skipped > 20 and drawn > 20
