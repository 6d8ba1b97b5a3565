"""Leading the barn horse by the reins: it keeps to the route line at a walk (lead_horse)."""

from __future__ import annotations

from rdr2_helpers import face, make

from gcc_envs.games.rdr2.sim import RDR2Sim
from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.missions import checkpoint_done


def _leading() -> RDR2Sim:
    """lead_horse with the horse calmed, in hand, the player on the route line before it."""
    sim = make("mission1", "lead_horse")
    s = sim.state
    h = s.horses["barn_horse"]
    (ax, ay), (bx, by) = s.checkpoint_route[0], s.checkpoint_route[1]
    s.player.x, s.player.y = ax + (bx - ax) * 0.3, ay + (by - ay) * 0.3
    h.x, h.y, h.calm = s.player.x, s.player.y - 2.0, True
    s.player.leading = h.id
    face(sim, bx, by)
    return sim


def _walk(sim: RDR2Sim, seconds: float, run: bool = False) -> None:
    keys = ["shift", "w"] if run else ["w"]
    for k in keys:
        sim.key_down(k)
    sim.advance(seconds)
    for k in reversed(keys):
        sim.key_up(k)


def test_the_led_horse_follows_a_walk_along_the_route() -> None:
    sim = _leading()
    s = sim.state
    h = s.horses["barn_horse"]
    y0 = h.y
    _walk(sim, 1.0)
    assert s.player.leading == h.id
    assert h.y > y0 + 1.5


def test_the_horse_pulls_free_when_the_player_runs() -> None:
    sim = _leading()
    s = sim.state
    _walk(sim, 0.5, run=True)
    h = s.horses["barn_horse"]
    assert s.player.leading is None and not h.calm
    assert "shies" in s.ui.subtitle


def test_the_horse_stops_when_the_player_strays_off_the_route() -> None:
    sim = _leading()
    s = sim.state
    h = s.horses["barn_horse"]
    (ax, ay), (bx, by) = s.checkpoint_route[0], s.checkpoint_route[1]
    face(sim, ax - (by - ay) * 10.0, ay + (bx - ax) * 10.0)  # square off the line
    _walk(sim, 3.0)
    assert s.player.leading is None
    assert geo.dist(h.x, h.y, s.player.x, s.player.y) > 4.0
    assert "reins slip" in s.ui.subtitle


def test_leading_is_done_at_the_route_end_not_at_the_barn_door() -> None:
    sim = _leading()
    s = sim.state
    h = s.horses["barn_horse"]
    yard = s.map.areas["yard"]
    far = max(
        ((x, y) for x in range(0, 200) for y in range(0, 80) if yard.contains(x, y)),
        key=lambda q: geo.dist(*q, *s.checkpoint_route[-1]),
    )
    h.x, h.y = far
    assert not checkpoint_done(sim.state, sim.data)
    h.x, h.y = s.checkpoint_route[-1]
    assert checkpoint_done(sim.state, sim.data)
