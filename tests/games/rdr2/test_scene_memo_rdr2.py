"""The simulator copies the scene (sky, ground, walls) of a view that has not moved instead of
casting it again (:class:`SceneMemo`): the same pixels and depths as a fresh cast, and a new
cast whenever anything the scene reads changes."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs.games.rdr2.sim import minimap, scene
from gcc_envs.games.rdr2.sim.render import FrameMemo, camera, render, render_world
from gcc_envs.games.rdr2.sim.scene import SceneMemo
from gcc_envs.games.rdr2.sim.showcase import blank_state
from gcc_envs.games.rdr2.sim.state import BLOCKS, GROUNDS

YARD = "\n".join(["#" * 14] + ["#" + "." * 12 + "#"] * 9 + ["#" * 14])


def _casts(monkeypatch):
    calls = []
    real = scene.draw_scene

    def counted(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(scene, "draw_scene", counted)
    return calls


def _draw(memo, st, h=60, w=80):
    canvas = np.empty((h, w), np.uint32)
    m = st.map
    grids = (m.walls, m.ground, m.level, m.roof)
    cam = camera(st, h, w)
    found = memo.draw(canvas, cam, grids, m.version, 0, m.snow, st.time_of_day())
    return canvas, found


def _fresh(st, h=60, w=80):
    return _draw(SceneMemo(), st, h, w)


def _same(a, b):
    (ca, fa), (cb, fb) = a, b
    np.testing.assert_array_equal(ca, cb)
    np.testing.assert_array_equal(fa.depth, fb.depth)
    np.testing.assert_array_equal(fa.low.dist, fb.low.dist)
    np.testing.assert_array_equal(fa.low_height, fb.low_height)


def test_a_still_view_is_copied_and_anything_the_scene_reads_casts_again(monkeypatch):
    st = blank_state(YARD, 4.0, 5.5, yaw_deg=0.0)
    memo = SceneMemo()
    first = _draw(memo, st)
    calls = _casts(monkeypatch)
    _same(_draw(memo, st), first)
    assert calls == []  # nothing changed: copied
    st.player.yaw_deg = 30.0  # the camera
    turned = _draw(memo, st)
    assert len(calls) == 1
    assert not np.array_equal(turned[0], first[0])
    monkeypatch.undo()
    _same(turned, _fresh(st))
    calls = _casts(monkeypatch)
    st.clock += 6 * 3600.0  # another palette
    later = _draw(memo, st)
    assert len(calls) == 1
    assert not np.array_equal(later[0], turned[0])
    st.map.walls[5, 7] = BLOCKS["rock"]  # an edit in place, as a door does it
    st.map.version += 1
    edited = _draw(memo, st)
    assert len(calls) == 2
    st.map.walls = st.map.walls.copy()  # another grid with the same content
    _draw(memo, st)
    assert len(calls) == 3
    _draw(memo, st, 40, 80)  # another size
    assert len(calls) == 4
    monkeypatch.undo()
    _same(edited, _fresh(st))


def test_the_kept_canvas_is_not_the_one_handed_out():
    st = blank_state(YARD, 4.0, 5.5, yaw_deg=0.0)
    memo = SceneMemo()
    first, _ = _draw(memo, st)
    kept = first.copy()
    first[:] = 0  # the caller draws billboards over it
    again, _ = _draw(memo, st)
    np.testing.assert_array_equal(again, kept)
    assert not np.shares_memory(again, first)
    frames = FrameMemo()
    for _ in range(2):
        np.testing.assert_array_equal(render_world(st, 60, 80, frames), render_world(st, 60, 80))


@pytest.mark.parametrize("env_id", ["GCC/RDR2-Mission1", "GCC/RDR2-Mission3"])
def test_random_play_copies_scenes_and_draws_the_frames_the_renderer_draws(env_id, monkeypatch):
    env = gym.make(env_id, obs_size=(84, 84))
    sim = env.unwrapped.backend.sim
    env.action_space.seed(5)
    env.reset(seed=5)
    calls = _casts(monkeypatch)
    asked = cast = 0
    real = SceneMemo.draw

    def asking(self, *args):
        nonlocal asked
        asked += 1
        return real(self, *args)

    monkeypatch.setattr(SceneMemo, "draw", asking)
    for _ in range(300):
        before = len(calls)
        obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
        cast += len(calls) - before
        np.testing.assert_array_equal(obs, render(sim.state, 84, 84))  # without the memo
        if terminated or truncated:
            env.reset()
    env.close()
    assert asked >= 200
    assert cast < 0.7 * asked, f"the simulator cast {cast} of the {asked} scenes it drew"


def test_the_player_walking_casts_every_frame(monkeypatch):
    env = gym.make("GCC/RDR2-Mission1", obs_size=(84, 84))
    sim = env.unwrapped.backend.sim
    env.reset(seed=0)
    calls = _casts(monkeypatch)
    sim.key_down("w")
    for _ in range(5):
        x = sim.state.player.x, sim.state.player.y
        sim.advance(0.2)
        assert (sim.state.player.x, sim.state.player.y) != x
        sim.render(84, 84)
    assert len(calls) == 5


def test_the_minimap_disc_is_drawn_again_when_anything_it_shows_moves(monkeypatch):
    env = gym.make("GCC/RDR2-Mission1", obs_size=(84, 84))
    env.reset(seed=2)
    st = env.unwrapped.backend.sim.state
    b = minimap.box(84, 84)
    memo = minimap.MinimapMemo()
    drawn = []
    real = minimap.disc

    def counted(state, box):
        drawn.append(1)
        return real(state, box)

    monkeypatch.setattr(minimap, "disc", counted)
    first = memo.patch(st, b).copy()
    assert memo.patch(st, b) is memo.patch(st, b) and len(drawn) == 1
    npc = next(iter(st.npcs.values()))
    horse = st.horses["arthur_horse"]

    def nudge_npc():
        npc.x += 1.5

    def nudge_horse():
        horse.x -= 2.0

    def nudge_route():
        st.route = [(st.player.x, st.player.y), (st.player.x + 9.0, st.player.y + 4.0)]

    def turn():
        st.player.yaw_deg += 40.0

    def edit_map():
        st.map.ground[:] = GROUNDS["water"]
        st.map.version += 1

    for change in (nudge_npc, nudge_horse, nudge_route, turn, edit_map):
        before = memo.patch(st, b).copy()
        n = len(drawn)
        change()
        after = memo.patch(st, b)
        assert len(drawn) == n + 1, change.__name__
        assert not np.array_equal(after, before), change.__name__
        np.testing.assert_array_equal(after, real(st, b))
    assert not np.array_equal(first, memo.patch(st, b))
    env.close()


def test_a_tree_planted_in_place_is_drawn_through_the_memo():
    st = blank_state(YARD, 3.0, 5.5, yaw_deg=0.0)
    memo = FrameMemo()
    before = render(st, 60, 80, memo)
    st.map.walls[5, 8] = BLOCKS["tree"]
    st.map.version += 1  # (an edit in place says so)
    after = render(st, 60, 80, memo)
    np.testing.assert_array_equal(after, render(st, 60, 80))
    assert not np.array_equal(after, before)
