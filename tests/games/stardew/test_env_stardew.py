"""The env on the Stardew simulator: programs, code actions, timing modes, bad input, shaping.

The core's own tests (tests/core) cover the same mechanics on the fake simulator; these show
them on a real game. Wall-clock modes run on a manual clock, so nothing sleeps for seconds.
"""

import gymnasium as gym
import numpy as np
import pytest

import gcc_envs
from gcc_envs import Click, KeyDown, KeyPress, Program, Wait
from gcc_envs.errors import GCCError, InvalidActionError
from gcc_envs.testing import ManualClock

SIZE = (72, 128)


def make(task="FarmClearup", **kw):
    return gym.make(f"GCC/Stardew-{task}", obs_size=SIZE, **kw)


def state(env):
    return env.unwrapped.backend.probe()


def held(env):
    return set(env.unwrapped.backend.held.keys)


def test_code_skill_call_moves_the_farmer():
    env = make()
    env.reset(seed=0)
    y0 = state(env).player.y
    _, _, _, _, info = env.step("move_down(duration=0.5)")
    assert info["last_action_error"] is None
    assert state(env).player.y > y0 + 1.0
    assert info["t_game"] == pytest.approx(0.5, abs=0.02)
    assert [e["type"] for e in info["events"]] == ["KeyPress"]
    assert held(env) == set()


def test_pyautogui_code_and_done_end_the_episode():
    env = make()
    env.reset(seed=0)
    _, _, term, _, info = env.step("pyautogui.press('c')")
    assert info["last_action_error"] is None and not term
    _, _, term, _, info = env.step("DONE")
    assert term and info["success"] is False
    assert info["failure"] == "agent declared DONE"


@pytest.mark.parametrize(
    "action",
    [
        "import os",
        "__import__('os').system('true')",
        "pyautogui.press('nosuchkey')",
        "move_up(duration=-1)",
        "move_up(duration=1e9)",
        "teleport(x=1)",
        Click(5000, 5),
        [KeyDown("w"), Click(-1, 3)],
        {"keys": np.full(21, 2), "buttons": np.zeros(3), "mouse": np.zeros(2), "scroll": 0},
        42,
    ],
)
def test_bad_input_is_reported_not_raised_and_nothing_stays_held(action):
    env = make()
    env.reset(seed=0)
    p0 = (state(env).player.x, state(env).player.y)
    obs, r, term, trunc, info = env.step(action)
    assert isinstance(info["last_action_error"], str) and info["last_action_error"]
    assert info["invalid_actions"] == 1
    assert info["held_keys"] == [] and held(env) == set()
    assert (state(env).player.x, state(env).player.y) == p0
    assert obs.shape == (*SIZE, 3)
    assert info["t_game"] == pytest.approx(env.unwrapped.step_seconds)


def test_unknown_key_names_are_refused_where_events_are_made():
    with pytest.raises(InvalidActionError):
        KeyDown("hyper-ultra")


def test_a_program_that_crashes_releases_every_key():
    env = make()
    env.reset(seed=0)

    def broken():
        yield KeyDown("w")
        yield KeyDown("d")
        raise RuntimeError("skill bug")

    with pytest.raises(RuntimeError):
        env.step(Program(broken))
    assert held(env) == set()


def test_closed_loop_program_sees_frames_after_each_event():
    env = make()
    env.reset(seed=0)
    seen = []

    def look():
        frame = yield KeyPress("s", 0.3)
        seen.append(frame.shape)
        frame = yield Wait(0.2)
        seen.append(frame.shape)

    env.step(Program(look))
    assert seen == [(*SIZE, 3), (*SIZE, 3)]


def test_state_mode_keeps_keys_held_across_steps():
    env = make()
    env.reset(seed=0)
    act = {
        "keys": np.zeros(21, np.int8),
        "buttons": np.zeros(3, np.int8),
        "mouse": np.zeros(2, np.float32),
        "scroll": 0,
    }
    act["keys"][2] = 1  # s
    y0 = state(env).player.y
    _, _, _, _, i1 = env.step(act)
    _, _, _, _, i2 = env.step(act)
    assert i1["held_keys"] == ["s"] and i2["held_keys"] == ["s"]
    assert [e["type"] for e in i1["events"]] == ["KeyDown", "Wait"]
    assert [e["type"] for e in i2["events"]] == ["Wait"]
    assert state(env).player.y > y0 + 1.5
    act["keys"][2] = 0
    _, _, _, _, i3 = env.step(act)
    assert i3["held_keys"] == []


def test_frames_are_sampled_at_fps_when_recording():
    env = make(fps=4)
    env.reset(seed=0)
    env.unwrapped.record_frames = True
    _, _, _, _, info = env.step(Wait(2.0))
    assert info["frames_recorded"] == 8
    assert len(env.unwrapped.recorded_frames) == 8


def test_lockstep_think_time_costs_game_time_deterministically():
    env = make(think_time=3.0)
    env.reset(seed=0)
    m0 = state(env).minutes
    _, _, _, _, info = env.step(Wait(0.5))
    assert info["t_game"] == pytest.approx(3.5)
    env.step(Wait(0.5))
    env.step(Wait(0.5))
    env.step(Wait(0.5))
    # 14 game seconds = two 10-minute ticks of the day clock (7 s each)
    assert state(env).minutes == m0 + 20


def test_think_time_as_a_function_of_the_step():
    env = make(think_time=lambda step: 1.0 * step)
    env.reset(seed=0)
    times = [env.step(Wait(0.25))[4]["t_game"] for _ in range(3)]
    assert times == pytest.approx([0.25, 1.25, 2.25])


def test_think_time_needs_lockstep():
    with pytest.raises(GCCError):
        make(time_mode="paused", think_time=1.0)


def test_paused_mode_stops_game_time_between_steps():
    clock = ManualClock()
    env = make(time_mode="paused", wall_clock=clock.wall)
    env.reset(seed=0)
    env.step(Wait(0.25))
    g0, m0 = env.unwrapped.clock.game_time, state(env).minutes
    clock.tick(1.0)
    _, _, _, _, info = env.step(Wait(0.25))
    assert info["t_paused"] >= 0.95
    assert info["t_game"] == pytest.approx(0.25, abs=0.05)
    assert info["game_time"] - g0 == pytest.approx(0.25, abs=0.05)
    assert state(env).minutes == m0


def test_realtime_mode_lets_the_world_run_while_the_agent_thinks():
    clock = ManualClock()
    env = make(time_mode="realtime", wall_clock=clock.wall)
    env.reset(seed=0)
    env.step(Wait(0.25))
    g0 = env.unwrapped.clock.game_time
    clock.tick(1.0)
    _, _, _, _, info = env.step(Wait(0.25))
    assert info["t_paused"] == 0.0
    assert info["t_game"] == pytest.approx(1.25, abs=0.15)
    assert info["game_time"] - g0 == pytest.approx(1.25, abs=0.15)


def test_realtime_mode_advances_the_day_clock():
    clock = ManualClock()
    env = make(time_mode="realtime", wall_clock=clock.wall)
    env.reset(seed=0)
    m0 = state(env).minutes
    clock.tick(7.2)  # one 10-minute tick of the day clock
    env.step(Wait(0.1))
    assert state(env).minutes >= m0 + 10


def test_step_before_reset_is_an_error():
    env = make()
    with pytest.raises(GCCError):
        env.unwrapped.step(Wait(0.1))


def test_episode_truncates_after_the_registered_step_limit():
    env = make()
    env.reset(seed=0)
    steps, term, trunc = 0, False, False
    while not (term or trunc) and steps < 200:
        _, _, term, trunc, info = env.step(Wait(0.05))
        steps += 1
    assert trunc and not term and steps == 100
    assert info["metrics"]["cleared"] == 0.0


def test_package_exports_the_public_names():
    assert callable(gcc_envs.parse_code)
    assert issubclass(gcc_envs.CodeActionError, gcc_envs.GCCError)
    assert gcc_envs.Program([Wait(1.0)]).events == (Wait(1.0),)


def test_shaping_kwarg_makes_a_denser_learning_variant():
    import agents

    env = gym.make("GCC/Stardew-FarmClearup", shaping=20.0)
    assert env.unwrapped.task.shaping == 20.0
    policy = agents.make_policy("scripted", env, privileged=True)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    total = 0.0
    for _ in range(6):  # the scripted player walks to an obstacle, then clears it
        obs, reward, _, _, info = env.step(policy.act(obs, info))
        total += reward
        if info["metrics"]["cleared"] >= 1:
            break
    assert info["metrics"]["cleared"] >= 1
    assert total == pytest.approx(info["metrics"]["cleared"])  # 20 x (cleared / 20)
    with pytest.raises(GCCError):
        make(shaping=-1.0)


def test_a_backend_refusal_mid_program_is_reported_and_releases_keys():
    env = make()
    env.reset(seed=0)
    backend = env.unwrapped.backend
    real_send = backend.send

    def refuse_clicks(event):
        if type(event).__name__ == "MouseDown":
            raise gcc_envs.BackendError("the target window refused focus; input not sent")
        real_send(event)

    backend.send = refuse_clicks
    _, _, term, _, info = env.step([KeyDown("w"), Click(5, 5)])
    assert "refused focus" in info["last_action_error"]
    assert not term and info["invalid_actions"] == 1
    assert held(env) == set() and info["held_keys"] == []
