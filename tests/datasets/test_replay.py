"""Replaying a lockstep episode from meta.json and its event log gives the recorded frames."""

import json
import shutil

import numpy as np
import pytest
from dataset_helpers import record
from spec_helpers import sim_ids

from gcc_envs import Click, KeyDown, Program, Wait
from gcc_envs.datasets import Episode, load, replay
from gcc_envs.datasets.meta import write_meta
from gcc_envs.errors import DataError
from gcc_envs.registration import versioned_id


def assert_replays_exactly(out):
    episodes = list(load(out))
    assert episodes
    for ep in episodes:
        frames = replay(ep)
        assert len(frames) == len(ep.frames) == len(ep) + 1
        for i, (got, want) in enumerate(zip(frames, ep.frames)):
            assert np.array_equal(got, want), f"{ep.path.name}: frame {i} differs"
    return episodes


def test_random_state_mode_policy_replays_exactly(random_dataset):
    out, _ = random_dataset
    assert_replays_exactly(out)


@pytest.mark.parametrize("env_id", sim_ids())
def test_every_simulator_id_replays_seeded_random_play_exactly(tmp_path, env_id):
    record(tmp_path, [4], env_id=env_id, steps=6)
    (ep,) = assert_replays_exactly(tmp_path)
    assert ep.meta["env_id"] == versioned_id(env_id)


def test_code_skill_calls_replay_exactly(tmp_path):
    code = [
        "move_down(duration=1.0)",
        "move_right(duration=0.5)",
        "select_tool(key=2)",
        "use_tool()",
        "pyautogui.press('nosuchkey')",  # refused: no events, still a step
        "move_left(duration=0.75)\nmove_up(duration=0.5)",
        "do_action()",
    ]
    record(tmp_path, [5], env_id="GCC/Stardew-Cultivation", policy=lambda t: code[t], steps=7)
    (ep,) = assert_replays_exactly(tmp_path)
    assert ep.actions == code and [s["action_kind"] for s in ep.steps] == ["code"] * 7
    assert ep.steps[0]["events"][0]["type"] == "KeyPress"
    assert ep.steps[4]["last_action_error"] and ep.steps[4]["events"] == []


def test_closed_loop_skills_that_look_at_the_screen_replay_exactly(tmp_path):
    code = ["get_out_of_house()", "move_down(duration=1.0)"]
    record(
        tmp_path,
        [5],
        env_id="GCC/Stardew-Cultivation",
        policy=lambda t: code[t],
        steps=2,
        size=(180, 320),  # the skills need tiles of 16 px or more to find the door
    )
    (ep,) = assert_replays_exactly(tmp_path)
    assert len(ep.events[0]) > 1  # the skill walked, looking at frames between events


def test_random_event_mode_policy_replays_exactly(tmp_path):
    record(tmp_path, [3], env_id="GCC/Stardew-Shopping", action_mode="event", steps=15)
    (ep,) = assert_replays_exactly(tmp_path)
    assert {s["action_kind"] for s in ep.steps} == {"space"}


def test_a_program_failing_half_way_replays_with_the_keys_it_released(tmp_path):
    def fails_after_holding_s():
        yield KeyDown("s")
        yield Wait(0.5)
        yield Click(5000, 5)  # outside the frame: the env refuses it and releases every key

    actions = [
        Program([KeyDown("d"), Wait(0.25)]),  # 'd' stays held into the next step
        Program(fails_after_holding_s, name="fails"),
        Program([Wait(0.5)]),  # would walk right and down if anything were still held
    ]
    record(tmp_path, [0], policy=lambda t: actions[t], steps=3)
    (ep,) = assert_replays_exactly(tmp_path)
    assert ep.steps[1]["action_kind"] == "program" and ep.steps[1]["last_action_error"]
    assert ep.steps[0]["held_keys"] == ["d"] and ep.steps[1]["held_keys"] == []


def test_unseeded_resets_replay_from_the_recorded_generator_state(tmp_path):
    record(tmp_path, [None, None], steps=4)
    episodes = assert_replays_exactly(tmp_path)
    assert [ep.path.name for ep in episodes] == [
        "episode-000000-seed-none",
        "episode-000001-seed-none",
    ]
    assert all(ep.seed is None and ep.meta["rng_state"] for ep in episodes)


def test_replay_refuses_episodes_that_ran_in_wall_clock_time(random_dataset, tmp_path):
    out, _ = random_dataset
    src = out / "episode-000000-seed-1"
    copy = tmp_path / src.name
    shutil.copytree(src, copy)
    meta = json.loads((copy / "meta.json").read_text())
    write_meta(copy, {**meta, "time_mode": "paused"})
    with pytest.raises(DataError, match="lockstep"):
        replay(Episode(copy))
