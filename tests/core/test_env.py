"""GCCEnv on the fake simulator and the recording backend: no game, no real sleeping.

Programs, code actions, the action modes, timing modes (wall-clock modes on a manual clock),
bad input, held keys, signals and the end-of-episode check — the core's own behaviour.
"""

import numpy as np
import pytest

import gcc_envs
from gcc_envs import Click, Done, KeyDown, KeyPress, KeyUp, MouseDown, Program, Wait
from gcc_envs.backends.sim import SimBackend
from gcc_envs.core.env import GCCEnv
from gcc_envs.core.events import Fail
from gcc_envs.core.skills import SkillLibrary
from gcc_envs.core.task import Task, TaskStatus
from gcc_envs.errors import BackendError, GCCError, InvalidActionError
from gcc_envs.testing import FAKE_KEYS, FakeSim, ManualClock, RecordingBackend

SIZE = (48, 64)


class Corner(Task):
    """Reach the top-left corner; the last ``final`` call is remembered."""

    name = "Corner"
    instruction = "Go to the top-left corner."
    max_steps = 20
    shaping = 1.0

    def __init__(self):
        self.finals = 0

    def evaluate(self, probe):
        d = max(getattr(probe, "x", 1.0), getattr(probe, "y", 1.0))
        return TaskStatus(progress=max(0.0, 1 - d), success=d < 0.05, metrics={"d": d})

    def final(self, probe, status):
        self.finals += 1
        return status


def walk(direction: str = "w", duration: float = 0.5):
    """Walk for ``duration`` seconds."""
    return [KeyPress(direction, duration)]


SKILLS = SkillLibrary.from_functions(walk)


def make(task=None, backend=None, **kw):
    backend = backend or SimBackend(FakeSim(), SIZE)
    return GCCEnv(backend, task or Corner(), keys=FAKE_KEYS, skills=SKILLS, **kw)


def state(env):
    return env.backend.probe()


def noop(env):
    return {
        "keys": np.zeros(len(FAKE_KEYS), np.int8),
        "buttons": np.zeros(3, np.int8),
        "mouse": np.zeros(2, np.float32),
        "scroll": 0,
    }


def test_a_skill_call_runs_its_program_and_game_time_passes():
    env = make()
    env.reset(seed=0)
    y0 = state(env).y
    _, _, _, _, info = env.step("walk(direction='w', duration=1.0)")
    assert info["last_action_error"] is None
    assert state(env).y == pytest.approx(y0 - 0.25, abs=1e-6)
    assert info["t_game"] == pytest.approx(1.0)
    assert [e["type"] for e in info["events"]] == ["KeyPress"] and info["held_keys"] == []


def test_pyautogui_code_then_done_ends_the_episode_and_runs_the_final_check():
    task = Corner()
    env = make(task)
    env.reset(seed=0)
    _, _, term, _, info = env.step("pyautogui.press('e')")
    assert info["last_action_error"] is None and not term and task.finals == 0
    _, _, term, _, info = env.step("DONE")
    assert term and info["success"] is False and info["failure"] == "agent declared DONE"
    assert task.finals == 1


def test_fail_succeeds_only_on_an_infeasible_task():
    task = Corner()
    task.infeasible, task.shaping = True, 0.0
    env = make(task)
    env.reset(seed=0)
    _, reward, term, _, info = env.step(Fail())
    assert term and info["success"] and reward == pytest.approx(1.0)


@pytest.mark.parametrize(
    "action",
    [
        "import os",
        "__import__('os').system('true')",
        "pyautogui.press('nosuchkey')",
        "walk(duration=-1)",
        "walk(duration=1e9)",
        "teleport(x=1)",
        Click(5000, 5),
        [KeyDown("w"), Click(-1, 3)],
        {"keys": np.full(len(FAKE_KEYS), 2), "buttons": np.zeros(3), "mouse": np.zeros(2)},
        42,
    ],
)
def test_bad_input_is_reported_not_raised_and_nothing_stays_held(action):
    env = make()
    env.reset(seed=0)
    p0 = (state(env).x, state(env).y)
    obs, _, term, trunc, info = env.step(action)
    assert isinstance(info["last_action_error"], str) and info["last_action_error"]
    assert info["invalid_actions"] == 1 and not term and not trunc
    assert info["held_keys"] == [] and not env.backend.held
    assert (state(env).x, state(env).y) == p0
    assert obs.shape == (*SIZE, 3)
    assert info["t_game"] == pytest.approx(env.step_seconds)


def test_unknown_key_names_are_refused_where_events_are_made():
    with pytest.raises(InvalidActionError):
        KeyDown("hyper-ultra")


def test_a_program_that_crashes_releases_every_key_and_pauses_again():
    backend = RecordingBackend(clock_driven=False, clock=ManualClock())
    env = make(backend=backend, time_mode="paused", wall_clock=backend.clock.wall)
    env.reset(seed=0)

    def broken():
        yield KeyDown("w")
        yield MouseDown("left")
        raise RuntimeError("skill bug")

    with pytest.raises(RuntimeError):
        env.step(Program(broken))
    assert not env.held and not backend.held
    assert backend.calls[-2:] == ["release_all", "pause"]


def test_a_backend_refusal_mid_program_is_reported_and_releases_keys():
    backend = RecordingBackend(fail_on=MouseDown)
    env = make(backend=backend)
    env.reset(seed=0)
    _, _, term, _, info = env.step([KeyDown("w"), Click(5, 5)])
    assert "refused MouseDown" in info["last_action_error"]
    assert not term and info["invalid_actions"] == 1
    assert not env.held and not backend.held and info["held_keys"] == []


def test_closed_loop_programs_see_a_frame_after_each_event():
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


def test_state_mode_keeps_keys_held_across_steps_and_diffs_them():
    env = make()
    env.reset(seed=0)
    act = noop(env)
    act["keys"][FAKE_KEYS.index("s")] = 1
    y0 = state(env).y
    i1, i2 = env.step(act)[4], env.step(act)[4]
    assert i1["held_keys"] == ["s"] and i2["held_keys"] == ["s"]
    assert [e["type"] for e in i1["events"]] == ["KeyDown", "Wait"]
    assert [e["type"] for e in i2["events"]] == ["Wait"]
    assert state(env).y == pytest.approx(min(1.0, y0 + 2 * 0.25 * 0.25))
    act["keys"][:] = 0
    assert env.step(act)[4]["held_keys"] == []


def test_a_skill_after_a_raw_key_down_starts_from_nothing_held():
    env = make()
    env.reset(seed=0)
    env.step(KeyDown("d"))  # a raw action leaves 'd' down
    assert env.held.keys == ("d",)
    x0 = state(env).x
    _, _, _, _, info = env.step("walk(direction='w', duration=1.0)")
    assert info["events"][0] == {"t": pytest.approx(info["events"][0]["t"]), **KeyUp("d").to_dict()}
    assert state(env).x == pytest.approx(x0)  # 'd' did not walk on during the skill
    assert info["held_keys"] == []


def test_camera_mouse_moves_reach_the_simulator_as_motion():
    env = make(mouse="camera", action_mode="state")
    env.reset(seed=0)
    act = noop(env)
    act["mouse"] = np.array([0.5, 0.0], np.float32)
    env.step(act)
    assert state(env).heading == pytest.approx(90.0 * 50 / SIZE[1])


def test_relative_moves_stop_at_the_frame_edge_and_past_the_coordinate_range_are_refused():
    from gcc_envs.core.events import MAX_COORD, MoveBy, MoveTo

    env = make(backend=RecordingBackend(SIZE[::-1]))
    env.reset(seed=0)
    _, _, _, _, info = env.step([MoveBy(-500, 7), MoveBy(0, 0)])
    assert info["last_action_error"] is None and info["pointer"] == (0, SIZE[0] // 2 + 7)
    assert [e for e in env.backend.sent if isinstance(e, MoveTo)][-2:] == [
        MoveTo(0, SIZE[0] // 2 + 7),
        MoveTo(0, SIZE[0] // 2 + 7),
    ]
    _, _, _, _, info = env.step([MoveBy(MAX_COORD, 0)])
    assert info["last_action_error"] is None and info["pointer"][0] == SIZE[1] - 1
    _, _, _, _, info = env.step([MoveBy(MAX_COORD, 0)])  # aims past the coordinate range
    assert "out of range" in info["last_action_error"] and info["pointer"][0] == SIZE[1] - 1
    camera = make(mouse="camera", backend=RecordingBackend(SIZE[::-1]))
    camera.reset(seed=0)
    camera.step([MoveBy(0, 0), MoveBy(3, -4)])
    assert [e for e in camera.backend.sent if isinstance(e, MoveBy)] == [MoveBy(3, -4)]


def test_frames_are_sampled_at_fps_when_recording():
    env = make(fps=4)
    env.reset(seed=0)
    env.record_frames = True
    _, _, _, _, info = env.step(Wait(2.0))
    assert info["frames_recorded"] == 8 == len(env.recorded_frames)


def test_lockstep_think_time_costs_game_time_deterministically():
    env = make(think_time=3.0)
    env.reset(seed=0)
    _, _, _, _, info = env.step(Wait(0.5))
    assert info["t_game"] == pytest.approx(3.5)
    assert state(env).clock == pytest.approx(3.5)


def test_think_time_as_a_function_of_the_step():
    env = make(think_time=lambda step: 1.0 * step)
    env.reset(seed=0)
    times = [env.step(Wait(0.25))[4]["t_game"] for _ in range(3)]
    assert times == pytest.approx([0.25, 1.25, 2.25])


def test_think_time_needs_lockstep():
    backend = RecordingBackend(clock_driven=False, clock=ManualClock())
    with pytest.raises(GCCError):
        make(backend=backend, time_mode="paused", think_time=1.0)


def test_paused_mode_stops_game_time_between_steps():
    clock = ManualClock()
    env = make(time_mode="paused", wall_clock=clock.wall)
    env.reset(seed=0)
    env.step(Wait(0.25))
    g0, sim_t0 = env.clock.game_time, state(env).clock
    clock.tick(30.0)  # the agent thinks for half a minute
    _, _, _, _, info = env.step(Wait(0.25))
    assert info["t_paused"] == pytest.approx(30.0)
    assert info["t_game"] == pytest.approx(0.25)
    assert env.clock.game_time - g0 == pytest.approx(0.25)
    assert state(env).clock - sim_t0 == pytest.approx(0.25)


def test_realtime_mode_lets_the_world_run_while_the_agent_thinks():
    clock = ManualClock()
    env = make(time_mode="realtime", wall_clock=clock.wall)
    env.reset(seed=0)
    env.step(Wait(0.25))
    g0 = env.clock.game_time
    clock.tick(30.0)
    _, _, _, _, info = env.step(Wait(0.25))
    assert info["t_paused"] == 0.0
    assert info["t_game"] == pytest.approx(30.25)
    assert env.clock.game_time - g0 == pytest.approx(30.25)


def test_a_real_screen_in_paused_mode_is_resumed_for_each_step_and_paused_after():
    backend = RecordingBackend(clock_driven=False, clock=ManualClock())
    env = make(backend=backend, time_mode="paused", wall_clock=backend.clock.wall)
    env.reset(seed=0)
    backend.calls.clear()
    _, _, _, _, info = env.step(Wait(1.0))
    assert backend.calls == ["resume", "pause"]
    assert info["t_game"] == pytest.approx(1.0) and backend.advanced == pytest.approx(1.0)


def test_lockstep_is_refused_on_a_real_screen():
    with pytest.raises(GCCError, match="lockstep"):
        make(backend=RecordingBackend(clock_driven=False))


def test_step_before_reset_is_an_error():
    env = make()
    with pytest.raises(GCCError):
        env.step(Wait(0.1))


def test_the_final_check_runs_once_at_the_step_limit():
    task = Corner()
    env = make(task)
    env.reset(seed=0)
    for _ in range(task.max_steps - 1):
        env.step(Wait(0.05))
    assert task.finals == 0
    env.step(Wait(0.05))
    assert task.finals == 1


def test_shaping_gives_reward_per_unit_of_progress():
    env = make(shaping=10.0)
    env.reset(seed=0)
    p0 = env.step(Wait(0.1))[4]["progress"]
    _, reward, _, _, info = env.step("walk(direction='w', duration=0.5)")
    assert reward == pytest.approx(10.0 * (info["progress"] - p0))
    with pytest.raises(GCCError):
        make(shaping=-1.0)


def test_a_closed_backend_refuses_to_act():
    env = make()
    env.reset(seed=0)
    env.close()
    with pytest.raises(BackendError):
        env.backend.capture()


def test_package_exports_the_public_names():
    assert callable(gcc_envs.parse_code)
    assert issubclass(gcc_envs.CodeActionError, gcc_envs.GCCError)
    assert gcc_envs.Program([Wait(1.0)]).events == (Wait(1.0),)
    assert Done().to_dict()["type"] == "Done"


def test_t_game_and_game_time_are_shown_to_the_microsecond():
    from gcc_envs.core.program import sequence

    env = make()
    env.reset(seed=0)
    info = env.step(sequence([Wait(0.1), Wait(0.1), Wait(0.1)]))[4]
    assert 0.1 + 0.1 + 0.1 != 0.3 and info["t_game"] == 0.3 and info["game_time"] == 0.3
