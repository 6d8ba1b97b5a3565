"""Helpers for the Skylines tests: fresh cities, building with the game's rules, running skills."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import gymnasium as gym
import numpy as np

import gcc_envs  # noqa: F401  (registers the ids)
from agents.scripted.skylines_blueprint import Step, blueprint
from gcc_envs.games.skylines.sim import SkylinesSim, layout, rules
from gcc_envs.games.skylines.sim.state import Cell, CityState, Preview

FRAMES = Path(__file__).resolve().parents[3] / "runs" / "frames" / "skylines"  # git-ignored


def save(name: str, frame: np.ndarray) -> None:
    """Write ``frame`` (RGB) as ``runs/frames/skylines/NAME.png`` for people to look at."""
    FRAMES.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(FRAMES / f"{name}.png"), cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))


def city(seed: int = 0, scenario: str = "city") -> SkylinesSim:
    sim = SkylinesSim()
    sim.reset(np.random.default_rng(seed), {"scenario": scenario})
    return sim


def preview(s: CityState, tool: str, *cells: Cell) -> Preview:
    t = s.data.tools[tool]
    if t.kind == "line":
        return rules.preview_line(s, t, cells[0], cells[1])
    if t.kind == "building":
        return rules.preview_building(s, t, cells[0])
    return rules.preview_area(s, t, cells[0], cells[1])


def build(s: CityState, tool: str, *cells: Cell) -> Preview:
    """Build with the game's rules; the preview must be valid."""
    p = preview(s, tool, *cells)
    assert p.ok, (tool, cells, p.error)
    assert rules.build(s, p)
    return p


def build_plan(s: CityState, steps: list[Step] | None = None, mistake: str | None = None) -> None:
    for st in steps if steps is not None else blueprint(s, mistake):
        build(s, st.tool, *st.cells)


def px(env: gym.Env, c: int, r: int) -> tuple[int, int]:
    W, H = env.unwrapped.backend.size
    return layout.cell_centre(c, r, W, H)


def state(env: gym.Env) -> CityState:
    return env.unwrapped.backend.probe()


def inland(s: CityState, k: int) -> int:
    """The column ``k`` cells from the sea-side edge (seen with the sea to the west)."""
    return layout.COLS - 1 - k if s.terrain.sea_side == "east" else k


def make(env_id: str = "GCC/Skylines-BuildCity", size=(360, 640), **kw: Any) -> gym.Env:  # type: ignore[no-untyped-def]
    return gym.make(env_id, obs_size=size, **kw)
