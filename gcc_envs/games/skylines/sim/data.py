"""Game data: ``games/skylines/data/*.toml`` parsed once into frozen dataclasses.

Every problem is a :class:`~gcc_envs.errors.DataError` naming the file, the entry and what is
wrong (via :mod:`gcc_envs.games.toml_data`).

>>> d = load_data()
>>> d.tools["wind_turbine"].cost, d.tools["wind_turbine"].power_mw, d.scenarios["city"].budget
(6000, 8.0, 70000)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from gcc_envs.errors import DataError
from gcc_envs.games.toml_data import RGB, Entry, entries, read

#: The folder holding the game's TOML files.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"

MENUS = ("roads", "zoning", "electricity", "water", "bulldozer")
KINDS = ("line", "building", "area", "bulldoze")
RULES = ("land", "shore")
#: Zone codes of the cell grid: 0 none, 1 residential, 2 commercial, 3 industrial.
ZONE_CODES = (1, 2, 3)


@dataclass(frozen=True)
class Tool:
    """One item of the toolbar's panels (or the bulldozer)."""

    id: str
    name: str
    menu: str
    kind: str
    color: RGB
    cost: int = 0
    upkeep: float = 0.0
    size: tuple[int, int] = (1, 1)
    rule: str = "land"
    min_cells: int = 1
    power_mw: float = 0.0
    consumes_mw: float = 0.0
    water: int = 0
    sewage: int = 0
    pollution: int = 0
    zone: int = -1


@dataclass(frozen=True)
class Zone:
    id: str
    code: int
    letter: str
    capacity: int
    fill: float
    power_mw: float
    water: int
    color: RGB


@dataclass(frozen=True)
class Growth:
    zone_depth: int
    pipe_reach: int
    power_gap: int
    residents_base: float
    residents_per_job: float
    worker_share: float
    commerce_per_resident: float
    commerce_base: float
    industry_base: float
    max_spawn: int
    abandon_weeks: int
    clear_weeks: int
    dead_end_factor: float
    pollution_factor: float
    pollution_reach: int
    week_seconds: float
    tax_resident: float
    tax_job: float


@dataclass(frozen=True)
class Scenario:
    id: str
    budget: int
    floor: int
    land: tuple[int, int]
    ramp_gap: tuple[int, int]
    owned_rows: int
    growth_weeks: int
    target_population: int


@dataclass(frozen=True)
class GameData:
    tools: dict[str, Tool]
    zones: dict[int, Zone]
    growth: Growth
    scenarios: dict[str, Scenario]

    def menu_tools(self, menu: str) -> tuple[Tool, ...]:
        """The tools of a toolbar menu, in panel order."""
        return tuple(t for t in self.tools.values() if t.menu == menu)


def _pair(e: Entry, key: str, default: tuple[int, int] | None = None) -> tuple[int, int]:
    v = e.get(key, list, default)
    if v is default:
        return v  # type: ignore[return-value]
    if len(v) != 2 or not all(isinstance(n, int) and not isinstance(n, bool) for n in v):
        e.fail(f"field {key!r} must be two integers, got {v!r}")
    if v[0] > v[1] and key != "size":
        e.fail(f"field {key!r} must be [low, high], got {v!r}")
    return (int(v[0]), int(v[1]))


def _num(e: Entry, key: str, default: float | None = None) -> float:
    v = e.get(key, (int, float), ... if default is None else default)
    if v < 0:
        e.fail(f"field {key!r} must be >= 0, got {v!r}")
    return float(v)


def _tool(e: Entry) -> Tool:
    kind = e.choice("kind", KINDS)
    size = _pair(e, "size", (1, 1))
    if min(size) < 1:
        e.fail(f"field 'size' must be positive, got {list(size)}")
    zone = e.int("zone", -1)
    if kind == "area" and zone not in (0, *ZONE_CODES):
        e.fail("an area tool needs zone = 0 (de-zone), 1, 2 or 3")
    return Tool(
        id=e.get("id", str),
        name=e.get("name", str),
        menu=e.choice("menu", MENUS),
        kind=kind,
        color=e.color("color"),
        cost=e.int("cost", 0, lo=0),
        upkeep=_num(e, "upkeep", 0.0),
        size=size,
        rule=e.choice("rule", RULES, "land"),
        min_cells=e.int("min_cells", 1, lo=1),
        power_mw=_num(e, "power_mw", 0.0),
        consumes_mw=_num(e, "consumes_mw", 0.0),
        water=e.int("water", 0, lo=0),
        sewage=e.int("sewage", 0, lo=0),
        pollution=e.int("pollution", 0, lo=0),
        zone=zone,
    )


def _zone(e: Entry) -> Zone:
    code = e.int("code")
    if code not in ZONE_CODES:
        e.fail(f"field 'code' must be one of {ZONE_CODES}, got {code}")
    return Zone(
        id=e.get("id", str),
        code=code,
        letter=e.get("letter", str),
        capacity=e.int("capacity", lo=1),
        fill=_num(e, "fill"),
        power_mw=_num(e, "power_mw"),
        water=e.int("water", lo=0),
        color=e.color("color"),
    )


def _growth(file: str, doc: dict) -> Growth:
    g = Entry(file, "[growth]", doc.get("growth"))
    m = Entry(file, "[economy]", doc.get("economy"))
    ints = ("zone_depth", "pipe_reach", "power_gap", "max_spawn", "abandon_weeks", "clear_weeks")
    nums = (
        "residents_base",
        "residents_per_job",
        "worker_share",
        "commerce_per_resident",
        "commerce_base",
        "industry_base",
        "dead_end_factor",
        "pollution_factor",
        "week_seconds",
    )
    values: dict[str, float | int] = {k: g.int(k, lo=0) for k in ints}
    values.update({k: _num(g, k) for k in nums})
    values["pollution_reach"] = g.int("pollution_reach", lo=0)
    values["tax_resident"] = _num(m, "tax_resident")
    values["tax_job"] = _num(m, "tax_job")
    if not 0 < values["week_seconds"]:
        g.fail("field 'week_seconds' must be > 0")
    return Growth(**values)  # type: ignore[arg-type]


def _scenario(e: Entry) -> Scenario:
    return Scenario(
        id=e.get("id", str),
        budget=e.int("budget", lo=0),
        floor=e.int("floor", lo=0),
        land=_pair(e, "land"),
        ramp_gap=_pair(e, "ramp_gap"),
        owned_rows=e.int("owned_rows", lo=0),
        growth_weeks=e.int("growth_weeks", lo=1),
        target_population=e.int("target_population", lo=1),
    )


def _unique(file: str, items: list, key: str) -> dict:
    out: dict = {}
    for it in items:
        k = getattr(it, key)
        if k in out:
            raise DataError(f"{file}: {key} {k!r} is defined twice")
        out[k] = it
    return out


def load_data(root: Path = DATA_DIR) -> GameData:
    """Parse the TOML files under ``root`` (cached for the packaged folder)."""
    if root == DATA_DIR:
        return _packaged()
    return _load(root)


@lru_cache(maxsize=1)
def _packaged() -> GameData:
    return _load(DATA_DIR)


def _load(root: Path) -> GameData:
    tdoc, zdoc, sdoc = (read(root / f) for f in ("tools.toml", "zones.toml", "scenarios.toml"))
    tools = _unique("tools.toml", [_tool(e) for e in entries("tools.toml", tdoc, "tool")], "id")
    zones = _unique("zones.toml", [_zone(e) for e in entries("zones.toml", zdoc, "zone")], "code")
    scen = entries("scenarios.toml", sdoc, "scenario")
    scenarios = _unique("scenarios.toml", [_scenario(e) for e in scen], "id")
    if set(zones) != set(ZONE_CODES):
        raise DataError(f"zones.toml: needs zones with codes {ZONE_CODES}, got {sorted(zones)}")
    for menu in MENUS:
        if not any(t.menu == menu for t in tools.values()):
            raise DataError(f"tools.toml: the {menu!r} menu has no tool")
    return GameData(tools, zones, _growth("zones.toml", zdoc), scenarios)
