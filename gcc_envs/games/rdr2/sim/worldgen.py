"""Building a mission's starting :class:`WorldState`, at its first checkpoint or a later one."""

from __future__ import annotations

import numpy as np

from gcc_envs.errors import GCCError
from gcc_envs.games.rdr2.sim import interact, missions
from gcc_envs.games.rdr2.sim.actors import npc_from_spec
from gcc_envs.games.rdr2.sim.data import GameData
from gcc_envs.games.rdr2.sim.state import (
    CLIP_SIZE,
    Horse,
    MissionState,
    Player,
    Prop,
    Rect,
    WorldMap,
    WorldState,
)

#: Largest random turn of the player's starting view (degrees).
YAW_JITTER_DEG = 5.0


def new_world(
    data: GameData,
    mission: str,
    rng: np.random.Generator,
    checkpoint: str | None = None,
    single: bool = False,
) -> WorldState:
    """The world at the start of ``mission`` (or of its ``checkpoint``, everything before done).

    ``single`` ends the mission when that checkpoint is done. ``data`` is this episode's
    (:func:`~gcc_envs.games.rdr2.sim.variation.vary` drew its content); ``rng`` here only
    shifts the time of day by up to half an hour and turns the starting view by up to
    :data:`YAW_JITTER_DEG`.
    """
    if mission not in data.missions:
        raise GCCError(f"unknown RDR2 mission {mission!r}; known: {sorted(data.missions)}")
    md = data.missions[mission]
    names = [c.name for c in md.checkpoints]
    if checkpoint is None:
        start = 0
    elif checkpoint in names:
        start = names.index(checkpoint)
    else:
        raise GCCError(f"{mission} has no checkpoint {checkpoint!r}; its checkpoints: {names}")
    region = data.regions[md.region]
    wmap = WorldMap(
        name=region.name,
        walls=region.walls.copy(),
        ground=region.ground.copy(),
        level=region.level.copy(),
        roof=region.roof.copy(),
        areas={k: Rect(*v) for k, v in region.areas.items()},
        snow=region.snow,
    )
    first = md.checkpoints[0]
    x, y, yaw = first.player
    weapon = md.weapon
    player = Player(
        x=x,
        y=y,
        yaw_deg=yaw,
        weapon=weapon,
        weapons=md.weapons,
        money=md.money,
        ammo_clip=CLIP_SIZE.get("revolver", 6),
    )
    horses = {}
    for h in md.horses:
        hx, hy, hyaw = h.at
        horses[h.id] = Horse(
            id=h.id,
            name=h.name,
            x=hx,
            y=hy,
            yaw_deg=hyaw,
            owner=h.owner,
            rider=h.rider,
            calm=h.calm,
        )
        if h.rider == "arthur":
            player.mounted = h.id
    npcs = {s.name: npc_from_spec(s) for s in md.npcs if s.spawn is None}
    props = {}
    for s in md.props:
        px, py, pyaw = s.at
        props[s.id] = Prop(
            id=s.id,
            kind=s.kind,
            x=px,
            y=py,
            yaw_deg=pyaw,
            items=dict(s.items),
            solid=s.solid,
            cell=s.cell,
        )
    state = WorldState(
        map=wmap,
        player=player,
        mission=MissionState(
            name=mission, checkpoints=tuple(names), start_index=start, single=single
        ),
        horses=horses,
        npcs=npcs,
        props=props,
        start_hour=md.start_hour + float(rng.uniform(0.0, 0.5)),
        covers=list(md.covers),
    )
    state.ui.tutorials_seen.update(md.known_tutorials)
    if md.shop:
        state.ui.shop.rows = tuple((item, price) for item, price, _ in md.shop)
    for cp in md.checkpoints[:start]:
        missions.skip(state, data, cp.name)
        # the tutorials of checkpoints already passed have been seen
        if cp.tutorial is not None:
            state.ui.tutorials_seen.add(cp.tutorial)
    missions.enter(state, data, start, teleport=True)
    state.player.yaw_deg = (
        state.player.yaw_deg + float(rng.uniform(-YAW_JITTER_DEG, YAW_JITTER_DEG))
    ) % 360.0
    state.ui.prompts = interact.prompts(state)  # the first frame shows them already
    return state
