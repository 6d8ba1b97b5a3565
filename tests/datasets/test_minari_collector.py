"""Minari's own ``DataCollector`` on every simulator id, read back with ``load_dataset``.

The collector stores ``env.spec`` as JSON, so this fails the day an id stops being data (a
callable entry point, kwargs JSON cannot hold); it runs with Minari's defaults, as a user would.
"""

from __future__ import annotations

import inspect

import gymnasium as gym
import numpy as np
import pytest
from spec_helpers import sim_ids

from gcc_envs.registration import versioned_id

minari = pytest.importorskip("minari", minversion="0.5.4")  # 0.5.3 misreads some frame shapes
pytest.importorskip("jax", reason="Minari's DataCollector needs minari[create] (jax)")

#: Every id whose game runs on a simulator.
GAME_IDS = sim_ids()
SMALL = (36, 64)


@pytest.fixture(autouse=True)
def minari_home(tmp_path, monkeypatch):
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "minari"))


def _lossless() -> dict[str, bool]:
    """``jpeg_encoding=False`` where this Minari has the option (lossy JPEG by default)."""
    params = inspect.signature(minari.DataCollector.__init__).parameters
    return {"jpeg_encoding": False} if "jpeg_encoding" in params else {}


@pytest.mark.parametrize("env_id", GAME_IDS)
def test_data_collector_records_a_sim_id_that_load_dataset_reads_back(env_id):
    env = minari.DataCollector(gym.make(env_id, obs_size=SMALL, max_episode_steps=3), **_lossless())
    env.action_space.seed(0)
    frames = [env.reset(seed=5)[0]]
    done = False
    while not done:
        obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
        frames.append(obs)
        done = terminated or truncated
    name = env_id.split("/")[1].lower()
    env.create_dataset(dataset_id=f"gcc/{name}-v0", algorithm_name="random", author="tests")
    env.close()

    ds = minari.load_dataset(f"gcc/{name}-v0")
    assert ds.total_episodes == 1 and ds.total_steps == len(frames) - 1
    (ep,) = ds.iterate_episodes()
    assert np.array_equal(ep.observations, np.stack(frames))
    assert ds.spec.env_spec.id == versioned_id(env_id)
    again = ds.recover_environment()
    assert np.array_equal(again.reset(seed=5)[0], frames[0])
    again.close()
