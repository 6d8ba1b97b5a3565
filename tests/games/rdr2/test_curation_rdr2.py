"""Tutorial-gated skills: ``skills="curated"`` (the default) lists a skill once its box shows."""

from __future__ import annotations

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs.errors import GCCError
from gcc_envs.games.rdr2.curation import GATES
from wrappers import UseSkills

SIZE = (72, 128)


def test_a_gated_skill_appears_only_after_its_tutorial_box() -> None:
    env = UseSkills(gym.make("GCC/RDR2-Mission1", task="mission1:search_house", obs_size=SIZE))
    env.reset(seed=3)
    assert "loot" not in env.skills and "loot(" not in env.skill_text
    info = env.step("loot()")[-1]
    assert "unknown skill 'loot'" in info["last_action_error"] and not info["events"]
    sim = env.unwrapped.backend.sim
    for _ in range(60):  # walk in: the loot tutorial shows inside the house
        if "loot" in sim.state.ui.tutorials_seen:
            break
        door = sim.state.props["house_door"]
        if not door.open:
            sim.state.player.x, sim.state.player.y = door.x, door.y + 2.0
            env.step("interact()")
        sim.state.player.x, sim.state.player.y = door.x, door.y - 3.0
        env.step("wait(duration=0.2)")
    assert "loot" in env.skills and "loot(" in env.skill_text
    assert env.step("loot()")[-1]["last_action_error"] is None
    env.close()


def test_ungated_skills_are_there_from_the_start_and_all_lists_everything() -> None:
    curated = gym.make("GCC/RDR2-Mission2", task="mission2:follow_javier", obs_size=SIZE)
    everything = gym.make("GCC/RDR2-Mission2", obs_size=SIZE, skills="all")
    curated.reset(seed=0)
    everything.reset(seed=0)
    lib, full = curated.unwrapped.skills, everything.unwrapped.skills
    assert {"turn", "follow", "navigate_path", "interact", "mount_horse"} <= set(lib)
    assert set(full) - set(lib) == {g for g in GATES if g in full} - set(lib)
    assert "climb" not in lib and "climb" in full  # mission 2 has not taught climbing yet
    assert "select_weapon" in lib  # taught in mission 1 (the mission's known tutorials)
    with pytest.raises(GCCError, match="skills must be one of"):
        gym.make("GCC/RDR2-Mission1", obs_size=SIZE, skills="some")
    curated.close()
    everything.close()
