"""What the seed changes in RDR2: positions, counts, contents and tempers, within their ranges."""

from __future__ import annotations

import math

import pytest
from rdr2_helpers import make

from gcc_envs.errors import DataError
from gcc_envs.games.rdr2.sim import load_data, wolves
from gcc_envs.games.rdr2.sim.overlap import checkpoint_overlaps, overlap, task_objects
from gcc_envs.games.rdr2.sim.variation_loader import load_variation
from gcc_envs.games.rdr2.sim.world import SUPPLIES

SEEDS = (1, 2, 3, 4, 5)


def test_task_objects_overlap_at_most_a_third_across_seeds_on_every_checkpoint() -> None:
    overlaps = checkpoint_overlaps(SEEDS)
    assert len(overlaps) == 14
    assert max(overlaps.values()) <= 0.3, overlaps


def test_the_same_seed_gives_the_same_content_and_the_files_layout_is_kept_on_request() -> None:
    a, b = (
        make("mission1", "protect_dutch", seed=4, vary=True),
        make("mission1", "protect_dutch", seed=4, vary=True),
    )
    assert overlap(task_objects(a.state), task_objects(b.state)) == 1.0
    plain = make("mission1", "protect_dutch", seed=4, vary=False)
    data = load_data().missions["mission1"]
    enemies = [n for n in plain.state.npcs.values() if n.kind == "enemy"]
    assert sorted(n.name for n in enemies) == [s.name for s in data.npcs if s.kind == "enemy"]
    assert (
        plain.state.props["hitch_post"].x
        == next(p for p in data.props if p.id == "hitch_post").at[0]
    )


@pytest.mark.parametrize(
    ("mission", "checkpoint", "kind"),
    [
        ("mission1", "protect_dutch", "enemy"),
        ("mission2", "kill_wolves", "wolf"),
    ],
)
def test_foe_counts_stay_in_range_and_change_with_the_seed(mission, checkpoint, kind) -> None:
    counts = []
    for seed in range(8):
        s = make(mission, checkpoint, seed=seed, vary=True).state
        foes = [n for n in s.npcs.values() if n.kind == kind]
        counts.append(len(foes))
        for n in foes:  # on open ground inside the map
            c, r = int(n.x // 2), int(n.y // 2)
            assert s.map.walls[r, c] == 0
    assert min(counts) >= 3 and max(counts) <= 5 and len(set(counts)) > 1


def test_supplies_hide_in_two_or_three_of_five_to_seven_containers() -> None:
    spots = set()
    for seed in SEEDS:
        s = make("mission1", "search_house", seed=seed, vary=True).state
        boxes = [p for p in s.props.values() if p.kind in ("drawer", "cupboard")]
        full = [p for p in boxes if any(k in SUPPLIES for k in p.items)]
        assert 5 <= len(boxes) <= 7 and 2 <= len(full) <= 3
        assert all(s.map.areas["house"].contains(p.x, p.y) for p in boxes)
        spots |= {(round(p.x), round(p.y)) for p in full}
    assert len(spots) >= 8  # the supplies are somewhere else each time


def test_the_store_stands_on_different_plots_with_its_clerk_inside() -> None:
    plots = set()
    for seed in range(8):
        s = make("mission3", seed=seed, vary=True).state
        store = s.map.areas["store"]
        door = s.props["store_door"]
        assert store.contains(s.npcs["clerk"].x, s.npcs["clerk"].y)
        assert s.map.walls[door.cell[1], door.cell[0]] != 0  # a closed door in the wall
        plots.add((store.x0, store.y0))
    assert len(plots) >= 3


def test_the_ride_starts_with_the_horse_wandered_off() -> None:
    for seed in SEEDS:
        s = make("mission1", "follow_dutch", seed=seed, vary=True).state
        h = s.horses["arthur_horse"]
        assert s.player.mounted is None and 4.0 <= math.dist((s.player.x, s.player.y), (h.x, h.y))


def test_flanking_enemies_run_to_new_cover_after_a_shot() -> None:
    sim = make("mission1", "protect_dutch", seed=2, vary=True)
    s = sim.state
    enemies = [n for n in s.npcs.values() if n.kind == "enemy"]
    first = {n.name: n.cover for n in enemies}
    for n in enemies:
        n.flank = 1.0
    for _ in range(60):
        sim.advance(0.5)
        s.player.health = 100.0  # keep everyone standing
        for ally in ("dutch", "micah"):
            s.npcs[ally].health = 400.0
    moved = [n.name for n in enemies if n.cover != first[n.name]]
    assert moved and all(n.cover in s.covers for n in enemies)


def test_wolves_circle_crouch_growling_charge_and_back_off_after_a_bite() -> None:
    sim = make("mission2", "kill_wolves", seed=3, vary=True)
    s = sim.state
    wolf = next(n for n in s.npcs.values() if n.kind == "wolf")
    assert wolf.stalk_s > 0
    seen, growl, fastest = [], [], 0.0
    for _ in range(600):
        sim.advance(1 / 30)
        s.player.health = 100.0
        if not seen or seen[-1] != wolf.state:
            seen.append(wolf.state)
        if wolf.state == "growl":
            growl.append((wolf.x, wolf.y, wolf.vx, wolf.vy))
        else:
            fastest = max(fastest, math.hypot(wolf.vx, wolf.vy))
    assert seen[:4] == ["stalk", "growl", "run", "bite"]
    assert "stalk" in seen[seen.index("bite") :]  # hit and run
    assert "growl" in seen[seen.index("bite") + 1 :]  # and growls again before the next run
    # it stands still while it growls, for GROWL_S (a frame apart at most, per growl)
    first = growl[: round(wolves.GROWL_S * 30)]
    assert len({(x, y) for x, y, _, _ in first}) == 1 and all(vx == vy == 0 for *_, vx, vy in first)
    assert fastest > 0.9 * wolf.speed  # and runs in at full speed


def test_a_companion_stops_waiting_and_time_limits_fail_the_checkpoint() -> None:
    sim = make("mission1", "follow_dutch", seed=1, vary=True)
    s = sim.state
    sim.advance(40.0)  # never mounts: Dutch waits 25 s, then rides on without Arthur
    assert s.mission.failure in ("abandoned Dutch", "abandoned Micah")
    sim = make("mission1", "go_to_barn", seed=1, vary=True)
    sim.advance(70.0)
    assert sim.state.mission.failure is None
    sim.advance(10.0)  # 75 s: the checkpoint's own failure line
    assert sim.state.mission.failure == "the O'Driscolls came back"


def test_bad_variation_data_is_refused_naming_the_file() -> None:
    with pytest.raises(DataError, match=r"mission9\.toml.*count"):
        load_variation("mission9.toml", {"squads": [{"prefix": "x", "count": [5, 3]}]})
    with pytest.raises(DataError, match="strays"):
        load_variation("mission9.toml", {"strays": {"follow_dutch": ["horse", 9, 2]}})
    assert load_variation("m.toml", {}).jitter_m == 0.0  # no table: nothing varies


def test_clear_cells_are_decided_as_the_python_distances_decide_them():
    """Squads' free cover cells: numpy decides, near-ties go to ``geo.dist`` and
    ``geo.segment_point_distance`` (exactly 3.0 and 2.5 away are not clear)."""
    import numpy as np

    from gcc_envs.games.rdr2.sim import geometry as geo
    from gcc_envs.games.rdr2.sim.populate import _clear_of

    rng = np.random.default_rng(8)
    pts = [tuple(float(v) for v in p) for p in rng.uniform(0, 40, (12, 2))]
    segs = [(tuple(map(float, a)), tuple(map(float, b))) for a, b in rng.uniform(0, 40, (6, 2, 2))]
    segs.append(((5.0, 5.0), (5.0, 5.0)))  # a zero-length segment
    cands = [tuple(float(v) for v in p) for p in rng.uniform(0, 40, (400, 2))]
    cands += [(pts[0][0] + 3.0, pts[0][1]), (5.0, 7.5), (5.0, 7.5 + 1e-12)]  # exact ties
    want = [
        all(geo.dist(*q, *a) > 3.0 for a in pts)
        and all(geo.segment_point_distance(*a, *b, *q) > 2.5 for a, b in segs)
        for q in cands
    ]
    got = _clear_of(cands, pts, 3.0, segs, 2.5)
    assert got == want
    assert True in got and False in got
    assert _clear_of([], pts, 3.0, segs, 2.5) == []
    assert _clear_of(cands[:3], [], 3.0, [], 2.5) == [True, True, True]


def test_clearance_at_least_answers_as_the_whole_clearance_compares():
    """Route segments' room is asked with an early stop; on a real region, for thresholds at
    and around every value a clearance takes (the wall steps 0.3, 0.6, 0.6 + 0.3, 1.2; crates'
    distances), the answer is the comparison of the whole clearance."""
    import numpy as np

    from gcc_envs.games.rdr2.sim.ground import Ground

    data = load_data()
    ground = Ground(data.regions[data.missions["mission1"].region])
    rows, cols = ground.rows, ground.cols
    rng = np.random.default_rng(9)
    solids = [tuple(map(float, p)) for p in rng.uniform(0, 2 * min(rows, cols), (6, 2))]
    answers = set()
    for _ in range(300):
        a = (float(rng.uniform(0, cols * 2)), float(rng.uniform(0, rows * 2)))
        b = (a[0] + float(rng.normal(0, 4)), a[1] + float(rng.normal(0, 4)))
        full = ground.clearance(a, b, solids)
        for t in (full, full - 1e-9, full + 1e-9, 0.0, -1e-9, 0.3, 0.6, 0.6 + 0.3, 0.9, 1.2, 3.0):
            got = ground.clearance_at_least(a, b, solids, t)
            assert got == (full >= t), (a, b, t, full)
            answers.add(got)
        assert ground.clearance_at_least(a, b, solids, float("nan")) is False
    assert answers == {True, False}


def test_john_lies_off_the_route_lines_end_so_he_must_be_looked_for() -> None:
    for seed in SEEDS:
        s = make("mission2", "search_for_john", seed=seed, vary=True).state
        john, end = s.npcs["john"], s.checkpoint_route[-1]
        assert math.dist((john.x, john.y), end) >= 15.0, (seed, john.x, john.y, end)


def test_micahs_walk_ends_at_one_of_the_files_far_apart_places_and_his_route_line_with_it() -> None:
    ends = dict(load_data().missions["mission1"].variation.ends)["micah_walk"]
    assert min(math.dist(a, b) for i, a in enumerate(ends) for b in ends[i + 1 :]) >= 16.0
    drawn = set()
    for seed in range(12):
        s = make("mission1", "follow_micah", seed=seed, vary=True).state
        end = s.npcs["micah"].path[-1]
        assert end == s.checkpoint_route[-1]  # the minimap's route line leads where he goes
        near = min(range(len(ends)), key=lambda i: math.dist(end, ends[i]))
        assert math.dist(end, ends[near]) <= 1.5 + 1e-9, (seed, end)
        drawn.add(near)
    assert drawn == set(range(len(ends)))
    with pytest.raises(DataError, match=r"variation\.ends\.walk"):
        load_variation("mission9.toml", {"ends": {"walk": []}})


def test_the_hitching_ride_starts_anywhere_near_and_the_rest_of_the_episode_is_unchanged() -> None:
    """``[variation.spreads]``: hitch_horse starts up to its radius from the jittered start, at
    least ``far`` from the post (its route line's end), and its route line begins there; drawn
    last, so without it every other checkpoint and thing is drawn the same."""
    from dataclasses import replace

    import numpy as np

    from gcc_envs.games.rdr2.sim.variation import vary

    data = load_data()
    md = data.missions["mission1"]
    ((name, radius, far),) = md.variation.spreads
    assert name == "hitch_horse" and radius >= 10.0 and far >= 12.0
    unspread = replace(
        data,
        missions={
            **data.missions,
            "mission1": replace(md, variation=replace(md.variation, spreads=())),
        },
    )
    i = md.checkpoint_index(name)
    starts, moves = set(), []
    for seed in range(12):
        a = vary(data, "mission1", np.random.default_rng(seed)).missions["mission1"]
        b = vary(unspread, "mission1", np.random.default_rng(seed)).missions["mission1"]
        cp, was = a.checkpoints[i], b.checkpoints[i]
        route = a.paths[cp.route]
        assert route[0] == cp.player[:2] and route[1:] == b.paths[cp.route][1:]
        assert cp.player[2] == was.player[2]  # the same view
        moves.append(math.dist(cp.player[:2], was.player[:2]))
        assert moves[-1] <= radius + 1e-9 and math.dist(cp.player[:2], route[-1]) >= far - 1e-9
        post = next(p for p in a.props if p.id == "hitch_post").at[:2]
        assert route[-1] == post
        others = [c for j, c in enumerate(a.checkpoints) if j != i]
        assert others == [c for j, c in enumerate(b.checkpoints) if j != i]
        assert (a.props, a.horses, a.npcs) == (b.props, b.horses, b.npcs)
        starts.add(tuple(round(v) for v in cp.player[:2]))
    assert len(starts) == 12 and max(moves) > radius / 2  # spread, not a jitter


def test_a_spread_that_is_malformed_or_names_no_checkpoint_is_refused(tmp_path) -> None:
    from gcc_envs.games.rdr2.sim.loader import DATA_DIR, load_mission

    with pytest.raises(DataError, match="spreads"):
        load_variation("mission9.toml", {"spreads": {"hitch_horse": [10]}})
    with pytest.raises(DataError, match="spreads"):
        load_variation("mission9.toml", {"spreads": {"hitch_horse": [0, 12]}})
    data = load_data()
    text = (DATA_DIR / "mission1.toml").read_text()
    assert "hitch_horse = [" in text
    bad = tmp_path / "mission1.toml"
    bad.write_text(text.replace("\nhitch_horse = [", "\nhitch_hors = [", 1))
    with pytest.raises(DataError, match=r"mission1\.toml.*'hitch_hors' is not in this mission"):
        load_mission(bad, data.regions, data.tutorials)
