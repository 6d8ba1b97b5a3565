import numpy as np
import pytest

from gcc_envs.backends.sim import SimBackend
from gcc_envs.core import events as ev
from gcc_envs.errors import BackendError
from gcc_envs.games.stardew.sim import StardewSim


def _backend(obs_size=(90, 160)):
    backend = SimBackend(StardewSim(), obs_size)
    backend.reset(np.random.default_rng(0), {"scenario": "shopping"})
    return backend


def test_absolute_moves_reach_the_sim_as_window_fractions():
    backend = _backend()
    backend.send(ev.MoveTo(159, 0))
    u, v = backend.sim.state.pointer
    assert u == pytest.approx(159.5 / 160) and v == pytest.approx(0.5 / 90)


def test_relative_motion_needs_a_camera_mouse_game():
    backend = _backend()
    with pytest.raises(BackendError, match="no relative"):
        backend.send(ev.MoveBy(10, 0))


def test_release_all_stops_a_held_walk():
    backend = _backend()
    start = (backend.sim.state.player.x, backend.sim.state.player.y)
    backend.send(ev.KeyDown("s"))
    backend.advance(0.5)
    walked = (backend.sim.state.player.x, backend.sim.state.player.y)
    assert walked != start
    backend.release_all()
    backend.advance(1.0)
    assert (backend.sim.state.player.x, backend.sim.state.player.y) == walked
