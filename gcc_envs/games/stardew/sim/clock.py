"""The day clock: minutes passing, nights (crops grow, soil dries), sleeping and passing out."""

from __future__ import annotations

from gcc_envs.games.stardew.sim.state import DAY_START, PASS_OUT, TICKS_PER_MINUTE, WorldState
from gcc_envs.games.stardew.sim.world import show_message

#: Most money lost when passing out.
PASS_OUT_MAX_LOSS = 1000


def ticks_to_pass_out(state: WorldState) -> int:
    """Clock ticks left before 2:00 AM."""
    return (PASS_OUT - state.minutes) * TICKS_PER_MINUTE - state.minute_ticks


def run(state: WorldState, ticks: int) -> None:
    """Let ``ticks`` clock ticks pass (the caller stops at the pass-out time)."""
    t = state.minute_ticks + ticks
    state.minutes += t // TICKS_PER_MINUTE
    state.minute_ticks = t % TICKS_PER_MINUTE
    if state.minutes >= PASS_OUT:
        pass_out(state)


def _night(state: WorldState) -> None:
    """Watered crops grow one day; all soil dries."""
    crops = state.data.crops
    for loc in state.locations.values():
        if not loc.soil:
            continue
        for soil in loc.soil.values():
            if soil.watered and soil.crop is not None:
                if soil.crop.days < crops[soil.crop.crop].days:
                    soil.crop.days += 1
            soil.watered = False
        loc.version += 1


def _wake(state: WorldState) -> None:
    state.day += 1
    state.minutes = DAY_START
    state.minute_ticks = 0
    state.menu = None
    state.swing = None
    spot_map = next(state.map(n) for n, m in state.data.maps.items() if m.wake is not None)
    assert spot_map.wake is not None
    state.location = spot_map.name
    p = state.player
    p.x, p.y = spot_map.wake.x + 0.5, spot_map.wake.y + 0.5
    p.facing = spot_map.wake.facing
    if state.raining():
        rain(state)


def rain(state: WorldState) -> None:
    """Rain waters all soil on the outdoor maps (at dawn of a rainy day)."""
    for name, loc in state.locations.items():
        if loc.soil and state.map(name).outdoor:
            for soil in loc.soil.values():
                soil.watered = True
            loc.version += 1


def sleep(state: WorldState) -> None:
    """Go to bed: the night passes, next day 6:00 AM with full energy."""
    _night(state)
    _wake(state)
    state.player.energy = state.player.max_energy
    state.stats.sleeps += 1


def pass_out(state: WorldState) -> None:
    """2:00 AM: the player collapses; next day in bed, half energy, some money lost."""
    _night(state)
    _wake(state)
    loss = min(state.money // 10, PASS_OUT_MAX_LOSS)
    state.money -= loss
    state.player.energy = state.player.max_energy // 2
    state.stats.passed_out += 1
    show_message(state, f"You passed out from exhaustion and lost {loss}g.")
