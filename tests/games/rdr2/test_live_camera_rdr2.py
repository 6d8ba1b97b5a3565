"""On a real screen RDR2's skills turn by the live profile's camera, not the simulator's."""

from dataclasses import replace

import pytest

from gcc_envs.core.events import MoveBy
from gcc_envs.games.rdr2 import GAME
from gcc_envs.games.rdr2.env import RDR2Env
from gcc_envs.games.rdr2.skills import SKILLS
from gcc_envs.judges import NoJudge
from gcc_envs.testing import ManualClock, RecordingBackend


def env_with(pixels_per_degree, clock_driven=False):
    class Env(RDR2Env):
        game_spec = replace(
            GAME, profile=replace(GAME.profile, pixels_per_degree=pixels_per_degree)
        )

    clock = ManualClock()
    judge = NoJudge()  # a real screen's game has a judge; this one never claims success
    backend = RecordingBackend((1280, 720), clock_driven=clock_driven, clock=clock, judge=judge)
    mode = "lockstep" if clock_driven else "paused"
    env = Env(backend, "mission1", time_mode=mode, wall_clock=clock.wall, judge=judge)
    return env, backend


def turned_px(env, backend, degree=30):
    env.reset(seed=0)
    env.step(f"turn(degree={degree})")
    return sum(e.dx for e in backend.sent if isinstance(e, MoveBy))


def test_a_desktop_env_turns_by_the_profiles_pixels_per_degree():
    slow, slow_backend = env_with((4.0, 5.0))
    fast, fast_backend = env_with((8.0, 10.0))
    assert slow.skills is not SKILLS  # built for the real game, not the simulator
    assert turned_px(slow, slow_backend) == pytest.approx(120, abs=2)
    assert turned_px(fast, fast_backend) == pytest.approx(240, abs=2)


def test_the_simulator_keeps_its_own_exact_camera_whatever_the_profile_says():
    env, backend = env_with((8.0, 10.0), clock_driven=True)
    assert env.skills is SKILLS
    assert turned_px(env, backend) == pytest.approx(120, abs=2)
