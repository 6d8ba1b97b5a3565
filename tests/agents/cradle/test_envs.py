"""CradlePolicy can be built for every registered env, with that game's checked templates."""

from __future__ import annotations

import gymnasium as gym
import pytest

import gcc_envs
from agents.cradle import CradleConfig, CradlePolicy
from agents.cradle.game_settings import load_settings
from agents.cradle.policy import game_of
from agents.cradle.prompts import FIELDS, PROMPT_DIR, load_prompts
from gcc_envs.core.spec import load
from gcc_envs.errors import DataError
from gcc_envs.registration import SPECS, spec_of

KEY = "GCC_TEST_OPENAI_KEY"


def _shipped_ids():
    """Ids of the games and suites the package ships (not the tests' own toy specs)."""
    shipped = {load(path).key for path in SPECS}
    return [i for i in gcc_envs.env_ids() if spec_of(i).key in shipped]


@pytest.mark.parametrize("env_id", _shipped_ids())
def test_cradle_policy_is_built_for_every_shipped_env(env_id, server):
    env = gym.make(env_id, obs_size=(90, 160))  # the desktop env launches nothing until reset
    for fused in (False, True):
        policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY,
                              config=CradleConfig(fused=fused))  # fmt: skip
        assert set(policy.prompts) >= {"fused", "action_planning"} and len(policy.procedural.base)
        policy.close()
    env.close()
    assert server.requests == []


def test_every_shipped_game_and_suite_has_templates_and_valid_settings():
    for env_id in _shipped_ids():
        env = gym.make(env_id)  # builds nothing heavy until reset
        game = game_of(env)
        env.close()
        load_prompts(game)
        load_settings(game)


def test_a_template_with_a_missing_field_is_refused_at_load(tmp_path):
    for m in ("information_gathering", "self_reflection", "task_inference", "skill_curation",
              "action_planning", "fused"):  # fmt: skip
        (tmp_path / "g").mkdir(exist_ok=True)
        (tmp_path / "g" / f"{m}.txt").write_text("$subtask")
    with pytest.raises(DataError, match="missing field"):
        load_prompts("g", tmp_path)


def test_bad_settings_name_the_file_and_the_key(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "settings.toml").write_text("max_calls = 0\n")
    with pytest.raises(DataError, match="settings.toml: settings: field 'max_calls' must be >= 1"):
        load_settings("g", tmp_path)
    (tmp_path / "g" / "settings.toml").write_text('visual_prompts = ["sparkles"]\n')
    with pytest.raises(DataError, match=r"field 'visual_prompts' lists \['sparkles'\]"):
        load_settings("g", tmp_path)
    (tmp_path / "g" / "settings.toml").write_text("max_call = 2\n")  # a typo
    with pytest.raises(DataError, match=r"unknown field\(s\) \['max_call'\]"):
        load_settings("g", tmp_path)
    (tmp_path / "g" / "settings.toml").write_text("skill_curation = 1\n")
    with pytest.raises(DataError, match="'skill_curation' must be true or false"):
        load_settings("g", tmp_path)


@pytest.mark.parametrize("game", sorted(p.name for p in PROMPT_DIR.iterdir() if p.is_dir()))
def test_every_prompt_folder_loads_with_its_settings(game):
    assert set(load_prompts(game)) == set(FIELDS)
    assert load_settings(game).max_calls in (None, 1, 2)
