"""The scripted policy comes from each task's row (``TaskSpec.script``): every scripted task of
every game builds its script and acts through the game's skills, one step at a time.

Whether a script succeeds is each game's own test (tests/games/<game>/); this suite reads the
scripts from the specs, so a new game's script is covered the day its row names it.
"""

from __future__ import annotations

import gymnasium as gym
import pytest
from spec_helpers import games

import agents
from gcc_envs import Program
from gcc_envs.errors import GCCError
from gcc_envs.registration import spec_of, task_of

SCRIPTED = [
    t.env_id(g.title) for g in games() for t in g.tasks if t.registered and t.script is not None
]


def test_every_scripted_task_is_listed():
    assert SCRIPTED  # the suite has something to check


@pytest.mark.parametrize("env_id", SCRIPTED)
def test_the_tasks_script_is_built_and_acts_through_the_skills(env_id):
    env = gym.make(env_id, obs_size=(180, 320))
    policy = agents.make_policy("scripted", env, privileged=True)
    assert type(policy.script).__name__ == task_of(env_id).script.rpartition(":")[2]
    obs, info = env.reset(seed=0)
    policy.reset(info)
    for _ in range(3):
        action = policy.act(obs, info)
        assert isinstance(action, (str, Program))
        obs, _, term, trunc, info = env.step(action)
        assert info["last_action_error"] is None
        if term or trunc:
            break
    env.close()


def test_a_task_without_a_script_is_refused_with_its_name():
    no_script = [i for i in gym.registry if i.startswith("GCC/") and _unscripted(i)]
    if not no_script:
        pytest.skip("every registered task has a script")
    env = gym.make(no_script[0])
    with pytest.raises(GCCError, match="no scripted policy"):
        agents.make_policy("scripted", env)
    env.close()


def _unscripted(env_id: str) -> bool:
    row = task_of(env_id)
    return row is not None and row.script is None and spec_of(env_id).default_backend == "sim"
