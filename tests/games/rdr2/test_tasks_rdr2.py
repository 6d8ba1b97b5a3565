"""RDR2's task table: it matches the mission data, scores progress and names failures."""

from __future__ import annotations

import numpy as np
import pytest

from gcc_envs.errors import GCCError
from gcc_envs.games.rdr2.sim import RDR2Sim, load_data
from gcc_envs.games.rdr2.sim.world import hurt_npc
from gcc_envs.games.rdr2.tasks import CHECKPOINTS, TASKS, make_task, task_keys


def test_table_lists_the_papers_checkpoints_as_the_data_does() -> None:
    data = load_data()
    for mission, count in (("mission1", 8), ("mission2", 5), ("mission3", 1)):
        rows = [c for c in CHECKPOINTS if c.mission == mission]
        specs = data.missions[mission].checkpoints
        assert len(rows) == count
        assert [(r.name, r.difficulty) for r in rows] == [(c.name, c.difficulty) for c in specs]


def test_task_keys_cover_missions_and_single_checkpoints() -> None:
    keys = task_keys()
    assert keys[:3] == ["mission1", "mission2", "mission3"]
    assert "mission1:protect_dutch" in keys and len(keys) == 3 + 14
    assert list(TASKS) == keys and TASKS["mission2"] is not TASKS["mission2"]
    assert TASKS.get("mission1:protect_dutch").name == "Mission1:protect_dutch"
    assert TASKS.get("mission7") is None


def _episode(key: str) -> tuple[RDR2Sim, object]:
    task = make_task(key)
    sim = RDR2Sim()
    sim.reset(np.random.default_rng(0), task.reset_options())
    task.begin(sim.state)
    return sim, task


def test_mission_progress_is_the_share_of_checkpoints_passed() -> None:
    sim, task = _episode("mission1")
    s = sim.state
    assert task.evaluate(s).progress == 0.0
    s.player.x, s.player.y = s.npcs["dutch"].path[-1]
    own = s.horses["arthur_horse"]
    own.x, own.y = s.player.x + 1.0, s.player.y  # the horse came along
    for name in ("dutch", "micah"):  # both ride to the end of their paths
        npc = s.npcs[name]
        npc.x, npc.y = npc.path[-1]
        npc.path_index = len(npc.path)
    sim.advance(0.1)
    status = task.evaluate(s)
    assert s.mission.current == "hitch_horse"
    assert status.progress == pytest.approx(1 / 8, abs=0.01) and status.checkpoint == 1
    assert status.flags["follow_dutch"] and not status.flags["hitch_horse"]
    assert not status.success and status.failure is None


def test_progress_credits_enemies_down_inside_a_checkpoint() -> None:
    sim, task = _episode("mission1:protect_dutch")
    s = sim.state
    enemies = [n for n in s.npcs.values() if n.kind == "enemy"]
    assert len(enemies) >= 3 and task.evaluate(s).progress == 0.0
    for n in enemies[:-1]:  # all but one down
        hurt_npc(s, n, 1000.0, "arthur")
    sim.advance(0.1)
    status = task.evaluate(s)
    assert status.progress == pytest.approx((len(enemies) - 1) / len(enemies))
    assert not status.success


def test_progress_credits_the_way_covered_and_never_falls() -> None:
    sim, task = _episode("mission1:return_to_camp")
    s = sim.state
    route = sim.data.missions["mission1"].paths["route_camp"]
    s.player.x, s.player.y = (route[1][0] + route[2][0]) / 2, (route[1][1] + route[2][1]) / 2
    s.horses["arthur_horse"].x, s.horses["arthur_horse"].y = s.player.x, s.player.y
    sim.advance(0.1)
    half = task.evaluate(s).progress
    assert 0.3 < half < 0.95
    s.player.x, s.player.y = route[0]  # back where it began: the best so far stays
    sim.advance(0.1)
    assert task.evaluate(s).progress == pytest.approx(half)


def test_failure_reaches_the_status() -> None:
    sim, task = _episode("mission1:protect_dutch")
    hurt_npc(sim.state, sim.state.npcs["micah"], 1000.0, "enemy")
    sim.advance(0.1)
    status = task.evaluate(sim.state)
    assert status.failure == "Micah was killed" and not status.success


def test_single_checkpoint_task_succeeds_when_it_passes() -> None:
    sim, task = _episode("mission2:kill_wolves")
    for n in sim.state.npcs.values():
        if n.kind == "wolf":
            hurt_npc(sim.state, n, 100.0, "arthur")
    sim.advance(0.1)
    status = task.evaluate(sim.state)
    assert status.success and status.progress == 1.0
    assert task.reward(task.evaluate(sim.state), status) == 0.0


def test_mission3_counts_key_points_without_checkpoints() -> None:
    sim, task = _episode("mission3")
    s = sim.state
    town = s.map.areas["town"]
    s.player.x, s.player.y = (town.x0 + 1) * 2.0, (town.y0 + 8) * 2.0
    assert task.evaluate(s).progress == pytest.approx(0.25)
    s.ui.shop.open = True
    assert task.evaluate(s).progress == pytest.approx(0.5)
    assert task.evaluate(s).flags["in_town"] and not task.evaluate(s).flags["in_store"]


@pytest.mark.parametrize("key", ["mission4", "mission1:kill_wolves", "mission3:"])
def test_bad_task_keys_raise(key: str) -> None:
    if key == "mission3:":
        assert make_task(key).checkpoint is None  # an empty checkpoint means the mission
        return
    with pytest.raises(GCCError):
        make_task(key)
