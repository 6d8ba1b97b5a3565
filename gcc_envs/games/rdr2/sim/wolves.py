"""Wolves: they circle the player, stop to growl, charge, bite and back off to circle again (hit
and run)."""

from __future__ import annotations

import math

import numpy as np

from gcc_envs.games.rdr2.sim import geometry as geo
from gcc_envs.games.rdr2.sim.state import CELL_M, NPC, WorldState
from gcc_envs.games.rdr2.sim.world import hurt_player, level_at

#: Wolves: reach and damage of a bite, seconds between bites.
BITE_M = 1.6
BITE_DAMAGE = 14.0
BITE_COOLDOWN_S = 1.2
#: Circling wolves keep this far from the player (metres) and move at this share of their speed.
STALK_M = 8.0
STALK_SPEED = 0.55
#: Seconds a wolf stands crouched and growling, facing the player, before it charges (the
#: wolves of RDR2 snarl with lowered heads before they lunge): the one time a wolf stands still.
GROWL_S = 4.0
#: A circling wolf turns to go round the other way at random, on average once in this many
#: seconds (wolves weave): where a circling one will be a few seconds on is not foreseen.
WEAVE_S = 1.0


def step_wolf(state: WorldState, npc: NPC, dt: float, rng: np.random.Generator) -> None:
    """Circle the player for ``npc.stalk_s`` seconds, closing to :data:`STALK_M`, growl where it
    stands for :data:`GROWL_S` (``stalk_left`` counts on below 0), then run straight at them
    (sliding along walls, up one-block ledges) and bite when close; after a bite, back off and
    circle again (hit and run)."""
    if not npc.alive:
        npc.vx = npc.vy = 0.0
        return
    x0, y0 = npc.x, npc.y
    _wolf_move(state, npc, dt, rng)
    npc.vx, npc.vy = (npc.x - x0) / dt, (npc.y - y0) / dt


def _wolf_move(state: WorldState, npc: NPC, dt: float, rng: np.random.Generator) -> None:
    p = state.player
    npc.cooldown = max(0.0, npc.cooldown - dt)
    d = geo.dist(npc.x, npc.y, p.x, p.y)
    m = state.map
    z = level_at(state, npc.x, npc.y)
    if npc.stalk_left > 0 and d > 0.1:
        npc.stalk_left -= dt
        npc.state = "stalk"
        if rng.random() < dt / WEAVE_S:
            npc.orbit = -npc.orbit
        ux, uy = (npc.x - p.x) / d, (npc.y - p.y) / d  # from the player out to the wolf
        radial = max(-1.0, min(1.0, (STALK_M - d) / 2.0))
        tx, ty = -uy * npc.orbit, ux * npc.orbit
        vx, vy = ux * radial + tx * 0.8, uy * radial + ty * 0.8
        n = math.hypot(vx, vy) or 1.0
        step = npc.speed * STALK_SPEED * dt
        dx, dy = vx / n * step, vy / n * step
        npc.x, npc.y = geo.move_circle(m.walls, m.level, CELL_M, npc.x, npc.y, dx, dy, 0.4, z + 1)
        npc.yaw_deg = geo.heading(dx, dy)
        return
    if npc.stalk_left > -GROWL_S and d > BITE_M:
        npc.stalk_left -= dt
        npc.state = "growl"
        npc.yaw_deg = geo.heading(p.x - npc.x, p.y - npc.y)
        return
    if d > BITE_M:
        npc.state = "run"
        step = min(npc.speed * dt, d - BITE_M * 0.8)
        dx, dy = (p.x - npc.x) / d * step, (p.y - npc.y) / d * step
        npc.x, npc.y = geo.move_circle(m.walls, m.level, CELL_M, npc.x, npc.y, dx, dy, 0.4, z + 1)
        npc.yaw_deg = geo.heading(p.x - npc.x, p.y - npc.y)
        return
    npc.state = "bite"
    if npc.cooldown <= 0 and p.alive:
        hurt_player(state, BITE_DAMAGE)
        npc.cooldown = BITE_COOLDOWN_S
        npc.stalk_left = npc.stalk_s
