"""What the player does to the tile in front of them: tools (use) and the action button.

Every function here acts on the *target tile*, the neighbour of the player's tile in the facing
direction, as in the real game.
"""

from __future__ import annotations

from gcc_envs.games.stardew.sim.state import TOOLBAR, Planted, Slot, Soil, Swing, WorldState
from gcc_envs.games.stardew.sim.world import go_through, show_message
from gcc_envs.games.stardew.sim.worldgen import place_obstacle

#: Ticks a tool swing lasts; input is ignored meanwhile (0.4 s).
SWING_TICKS = 12
#: Ticks planting a seed lasts.
PLANT_TICKS = 6


def add_item(state: WorldState, item: str, count: int = 1) -> bool:
    """Put ``count`` of ``item`` in the inventory (stack, else first free slot)."""
    for slot in state.inventory:
        if slot is not None and slot.item == item and state.data.items[item].kind != "tool":
            slot.count += count
            return True
    for i, slot in enumerate(state.inventory):
        if slot is None:
            state.inventory[i] = Slot(item, count)
            return True
    show_message(state, "Your inventory is full.")
    return False


def _take_one(state: WorldState, index: int) -> None:
    slot = state.inventory[index]
    assert slot is not None
    slot.count -= 1
    if slot.count <= 0:
        state.inventory[index] = None


def _swing(state: WorldState, item: str, x: int, y: int, ticks: int = SWING_TICKS) -> None:
    state.swing = Swing(item, x, y, state.tick + ticks)


def use_selected(state: WorldState) -> None:
    """The use-tool button (``c`` / left click): swing the selected tool or plant the seed."""
    slot = state.inventory[state.selected]
    if slot is None or state.busy:
        return
    item = state.data.items[slot.item]
    x, y = state.target_tile
    if item.kind == "seed":
        plant(state, state.selected, x, y)
        return
    if item.tool is None:
        return
    p = state.player
    if p.energy <= 0 or p.energy < item.energy:
        show_message(state, "Not enough energy. You're too exhausted to use tools.")
        return
    if item.tool == "can" and p.water <= 0 and not _faces_water(state, x, y):
        show_message(state, "Your watering can is empty. Refill it at the pond.")
        return
    p.energy -= item.energy
    state.stats.tool_uses += 1
    _swing(state, item.id, x, y)
    if item.tool == "hoe":
        _till(state, x, y)
    elif item.tool == "can":
        _water(state, x, y)
    else:
        _hit(state, item.tool, x, y)


def _faces_water(state: WorldState, x: int, y: int) -> bool:
    m = state.map()
    return 0 <= x < m.width and 0 <= y < m.height and state.data.tiles[m.tiles[y, x]].water


def _hit(state: WorldState, tool: str, x: int, y: int) -> None:
    loc = state.locations[state.location]
    ob = loc.obstacles.get((x, y))
    if ob is None:
        return
    kind = state.data.obstacles[ob.kind]
    if tool not in kind.tools:
        return
    if kind.hits == 0:
        show_message(state, kind.message)
        return
    ob.hp -= 1
    loc.version += 1
    if ob.hp > 0:
        return
    for j in range(ob.size):
        for i in range(ob.size):
            del loc.obstacles[(ob.x + i, ob.y + j)]
    cleared = state.stats.cleared
    cleared[ob.kind] = cleared.get(ob.kind, 0) + 1
    for item, n in kind.drops:
        add_item(state, item, n)
    if kind.becomes is not None:
        place_obstacle(loc, state.data, kind.becomes, ob.x, ob.y)


def _till(state: WorldState, x: int, y: int) -> None:
    loc = state.locations[state.location]
    m = state.map()
    if not (0 <= x < m.width and 0 <= y < m.height) or (x, y) in loc.soil:
        return
    if (x, y) in loc.obstacles or not state.data.tiles[m.tiles[y, x]].farmable:
        return
    loc.soil[(x, y)] = Soil(watered=m.outdoor and state.raining())
    loc.version += 1
    state.stats.tilled += 1


def _water(state: WorldState, x: int, y: int) -> None:
    p = state.player
    if _faces_water(state, x, y):
        p.water = p.water_max
        show_message(state, "Watering can refilled.")
        return
    p.water -= 1
    loc = state.locations[state.location]
    soil = loc.soil.get((x, y))
    if soil is not None and not soil.watered:
        soil.watered = True
        loc.version += 1
        state.stats.watered += 1
        if soil.crop is not None:
            state.stats.watered_crops += 1


def plant(state: WorldState, index: int, x: int, y: int) -> bool:
    """Plant the seed in slot ``index`` on tilled, empty soil at (x, y)."""
    slot = state.inventory[index]
    assert slot is not None
    loc = state.locations[state.location]
    soil = loc.soil.get((x, y))
    if soil is None or soil.crop is not None or (x, y) in loc.obstacles:
        return False
    crop = state.data.items[slot.item].crop
    assert crop is not None
    soil.crop = Planted(crop)
    loc.version += 1
    _take_one(state, index)
    state.stats.planted += 1
    _swing(state, slot.item, x, y, PLANT_TICKS)
    return True


def harvest(state: WorldState, x: int, y: int) -> bool:
    soil = state.locations[state.location].soil.get((x, y))
    if soil is None or not state.is_ripe(state.location, x, y):
        return False
    assert soil.crop is not None
    produce = state.data.crops[soil.crop.crop].produce
    if not add_item(state, produce):
        return False
    soil.crop = None
    state.locations[state.location].version += 1
    state.stats.harvested += 1
    state.stats.harvest[produce] = state.stats.harvest.get(produce, 0) + 1
    return True


def act(state: WorldState) -> None:
    """The action button (``x`` / right click) on the target tile."""
    if state.busy:
        return
    x, y = state.target_tile
    m = state.map()
    if harvest(state, x, y):
        return
    slot = state.inventory[state.selected]
    if slot is not None and state.data.items[slot.item].kind == "seed":
        if plant(state, state.selected, x, y):
            return
    door = m.door_at.get((x, y))
    if door is not None:
        if door.is_open(state.minutes):
            go_through(state, door)
        else:
            show_message(state, door.message)
        return
    if not (0 <= x < m.width and 0 <= y < m.height):
        return
    kind = state.data.tiles[m.tiles[y, x]].name
    if kind in ("bed_top", "bed_bottom"):
        state.menu, state.menu_choice = "sleep", 0
    elif m.shop is not None and (x, y) == (m.shop.x, m.shop.y):
        if 9 * 60 <= state.minutes < 17 * 60:
            state.menu = "shop"
        else:
            show_message(state, "Nobody is at the counter. The shop is open 9:00 AM to 5:00 PM.")
    elif kind == "mailbox":
        show_message(state, "There's no mail today.")
    elif kind == "tv":
        show_message(state, "Nothing good on TV right now.")
    elif kind == "sign":
        for s in m.signs:
            if s.y == y and s.x <= x < s.x + s.w:
                show_message(state, f'The sign reads: "{s.text}"')


def buy(state: WorldState, item: str) -> bool:
    """Buy one ``item`` from the shop."""
    price = state.price_of(item)
    if state.money < price:
        show_message(state, "Not enough money.")
        return False
    if not add_item(state, item):
        return False
    state.money -= price
    state.stats.spent += price
    state.stats.bought[item] = state.stats.bought.get(item, 0) + 1
    return True


def select(state: WorldState, index: int) -> None:
    if 0 <= index < TOOLBAR:
        state.selected = index
