"""Parsing a mission file's ``[variation]`` table into a :class:`VariationSpec`.

Cells in the file, metres out (as the rest of the mission data); ranges are ``[lo, hi]``.
Every problem raises ``DataError`` naming the file, the entry and what is wrong.
"""

from __future__ import annotations

from typing import Any

from gcc_envs.core.toml_data import Entry, entries
from gcc_envs.games.rdr2.sim.data import (
    ContainerSpec,
    GroupSpec,
    Pose,
    Range,
    Rect,
    SquadSpec,
    StoreSlot,
    VariationSpec,
)
from gcc_envs.games.rdr2.sim.state import CELL_M


class _Var(Entry):
    def rect(self, key: str, default: Any = ...) -> Rect:
        v = self.get(key, list, default)
        if v is None:
            return v
        if not (len(v) == 4 and all(isinstance(c, int) and not isinstance(c, bool) for c in v)):
            self.fail(f"field {key!r} must be [x0, y0, x1, y1] in cells, got {v!r}")
        if not (v[0] < v[2] and v[1] < v[3]):
            self.fail(f"field {key!r} is an empty rectangle: {v!r}")
        return (v[0], v[1], v[2], v[3])

    def range(self, key: str, default: Any = ..., ints: bool = False) -> Any:
        v = self.get(key, list, default)
        if v is None:
            return v
        kinds = (int,) if ints else (int, float)
        if not (
            len(v) == 2
            and all(isinstance(c, kinds) and not isinstance(c, bool) for c in v)
            and v[0] <= v[1]
        ):
            self.fail(f"field {key!r} must be a range [lo, hi] with lo <= hi, got {v!r}")
        return (int(v[0]), int(v[1])) if ints else (float(v[0]), float(v[1]))

    def pair(self, key: str) -> tuple[float, float]:
        v = self.get(key, list)
        if not (
            len(v) == 2 and all(isinstance(c, int | float) and not isinstance(c, bool) for c in v)
        ):
            self.fail(f"field {key!r} must be two numbers, got {v!r}")
        return (float(v[0]), float(v[1]))

    def poses(self, key: str, raw: Any) -> tuple[Pose, ...]:
        if not (isinstance(raw, list) and raw):
            self.fail(f"{key} must be a non-empty list of [col, row(, yaw)] poses")
        out = []
        for v in raw:
            if not (
                isinstance(v, list)
                and len(v) in (2, 3)
                and all(isinstance(c, int | float) and not isinstance(c, bool) for c in v)
            ):
                self.fail(f"{key}: {v!r} is not [col, row] or [col, row, yaw]")
            yaw = float(v[2]) if len(v) == 3 else 0.0
            out.append((float(v[0]) * CELL_M, float(v[1]) * CELL_M, yaw))
        return tuple(out)


def _squad(e: _Var) -> SquadSpec:
    ring = e.range("ring_m", None)
    same: Range = (0.0, 0.0)
    return SquadSpec(
        prefix=e.get("prefix", str),
        count=e.range("count", ints=True),
        spawn=e.rect("spawn"),
        ring_m=ring,
        cover=e.rect("cover", None),
        extra_cover=e.range("extra_cover", [0, 0], ints=True),
        hide_s=e.range("hide_s", [1.6, 1.6]),
        expose_s=e.range("expose_s", [1.0, 1.0]),
        flank=e.range("flank", list(same)),
        stalk_s=e.range("stalk_s", list(same)),
    )


def load_variation(file: str, table: dict[str, Any]) -> VariationSpec:
    """The :class:`VariationSpec` of a mission file's ``[variation]`` table (may be empty)."""
    top = _Var(file, "variation", table)
    slots = tuple(
        (thing, top.poses(f"variation.slots.{thing}", raw))
        for thing, raw in top.get("slots", dict, {}).items()
    )
    ends = tuple(
        (path, tuple(q[:2] for q in top.poses(f"variation.ends.{path}", raw)))
        for path, raw in top.get("ends", dict, {}).items()
    )
    groups = tuple(
        GroupSpec(
            area=g.rect("area"),
            shift=g.pair("shift"),
            anchor=g.get("anchor", str),
        )
        for g in entries(file, table, "groups", _Var)
    )
    c = table.get("containers")
    containers = None
    if c is not None:
        ce = _Var(file, "variation.containers", c)
        extras = ce.get("extras", dict, {})
        if not all(isinstance(n, int) and n > 0 for n in extras.values()):
            ce.fail(f"extras must map items to positive counts, got {extras!r}")
        containers = ContainerSpec(
            area=ce.get("area", str),
            count=ce.range("count", ints=True),
            kinds=tuple(ce.get("kinds", list)),
            supplies=tuple(ce.get("supplies", list)),
            with_supplies=ce.range("with_supplies", ints=True),
            extras=tuple(sorted(extras.items())),
        )
        if containers.with_supplies[1] > len(containers.supplies):
            ce.fail("with_supplies asks for more containers than there are supply items")
    stores = []
    for s in entries(file, table, "store", _Var):
        side = s.choice("door_side", ("south", "north"))
        stores.append(StoreSlot(rect=s.rect("rect"), door_side=side))
    strays = []
    for cp, raw in top.get("strays", dict, {}).items():
        if not (
            isinstance(raw, list)
            and len(raw) == 3
            and isinstance(raw[0], str)
            and all(isinstance(v, int | float) for v in raw[1:])
            and 0 <= raw[1] <= raw[2]
        ):
            top.fail(f"strays.{cp} must be [horse, lo_m, hi_m], got {raw!r}")
        strays.append((cp, raw[0], (float(raw[1]), float(raw[2]))))
    spreads = []
    for cp, raw in top.get("spreads", dict, {}).items():
        if not (
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
            and raw[0] > 0
            and raw[1] >= 0
        ):
            top.fail(f"spreads.{cp} must be [radius_m, far_m] (radius > 0), got {raw!r}")
        spreads.append((cp, float(raw[0]), float(raw[1])))
    return VariationSpec(
        jitter_m=float(top.get("jitter", (int, float), 0.0)) * CELL_M,
        yaw_deg=float(top.get("yaw", (int, float), 0.0)),
        free_yaw=tuple(top.get("free_yaw", list, [])),
        slots=slots,
        ends=ends,
        groups=groups,
        containers=containers,
        squads=tuple(_squad(e) for e in entries(file, table, "squads", _Var)),
        store=tuple(stores),
        shuffle_shop=bool(top.get("shuffle_shop", bool, False)),
        strays=tuple(strays),
        spreads=tuple(spreads),
    )
