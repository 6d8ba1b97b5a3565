"""The fast render path draws exactly the frames the plain numpy renderer drew.

Two checks: (1) the hand-built showcase scenes (independent of the mission data), turned
through several views, hash to the digests the renderer gave before the speed work
(``render_digests.json``, written by the pre-speedup code with :func:`digests`; the shootout's
were taken again, with the numpy fallback, when the minimap gained the orange dot of the
player's own horse, and without that dot its frames hash to the old digests; all were taken
again when the HUD's text, the pause menu and the cores became baked layers, ``layers.bake``,
whose frames are within two levels of the calls', ``test_layers_rdr2.py``, and the snow
scenes' when snowfall's float32 terms became float64, flakes then a pixel off here and
there, and the pause menu's when its background was dimmed before it was scaled back up,
within a level); (2) states
along seeded random play of every mission render identically with the compiled kernels and
with the numpy fallback, at 720p and 84x84.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from gcc_envs.games.rdr2.sim import RDR2Sim, jit, raycast
from gcc_envs.games.rdr2.sim.render import render
from gcc_envs.games.rdr2.sim.showcase import SCENES

DIGESTS = Path(__file__).with_name("render_digests.json")
SIZES = ((720, 1280), (84, 84), (96, 160))
TURNS = (0.0, 37.0, 151.0, 242.0)


def digests() -> dict[str, str]:
    """SHA-256 of every showcase scene at each size and turn (the reference's keys)."""
    out = {}
    for name, build in SCENES.items():
        for turn in TURNS:
            st = build()
            st.player.yaw_deg = (st.player.yaw_deg + turn) % 360.0
            st.clock += turn / 30.0
            for h, w in SIZES:
                frame = render(st, h, w)
                out[f"{name}/{turn:g}/{h}x{w}"] = hashlib.sha256(frame.tobytes()).hexdigest()
    return out


def test_showcase_frames_match_the_pre_speedup_renderer():
    want = json.loads(DIGESTS.read_text())
    got = digests()
    assert sorted(got) == sorted(want)
    changed = [k for k in want if got[k] != want[k]]
    assert not changed, f"frames changed against the reference renderer: {changed}"


def _play_states(mission: str, seed: int, steps: int) -> list:
    """Copies of the state after each of ``steps`` seeded random inputs (0.25 s apart)."""
    import copy

    rng = np.random.default_rng(seed)
    sim = RDR2Sim()
    sim.reset(np.random.default_rng(seed), {"mission": mission})
    keys = ("w", "a", "d", "shift", "space", "e", "tab", "esc", "1", "2")
    out = []
    for _ in range(steps):
        held = [k for k in keys if rng.random() < 0.25]
        for k in held:
            sim.key_down(k)
        if sim.state.ui.wheel.open or sim.state.ui.pause.phase == "paused":
            sim.pointer_move(float(rng.random()), float(rng.random()))
        else:
            sim.pointer_move_by(float(rng.normal(0, 0.05)), float(rng.normal(0, 0.02)))
        sim.advance(0.25)
        for k in held:
            sim.key_up(k)
        out.append(copy.deepcopy(sim.state))
    return out


@pytest.mark.skipif(
    jit.compiled(raycast._cast_rays) is None, reason="numba is missing or GCC_NO_JIT=1"
)
@pytest.mark.parametrize("mission", ["mission1", "mission2", "mission3"])
def test_compiled_kernels_draw_the_numpy_frames(mission, monkeypatch):
    states = _play_states(mission, seed=7, steps=24)
    fast = {size: [render(s, *size) for s in states[::3]] for size in SIZES[:2]}
    monkeypatch.setattr(jit, "compiled", lambda fn: None)
    for size, frames in fast.items():
        for i, (s, f) in enumerate(zip(states[::3], frames, strict=True)):
            ref = render(s, *size)
            assert np.array_equal(f, ref), f"{mission} state {i} at {size}: fast != numpy"


@pytest.mark.skipif(
    jit.compiled(raycast._cast_rays) is None, reason="numba is missing or GCC_NO_JIT=1"
)
def test_compiled_ray_cast_equals_the_numpy_cast_bit_for_bit(monkeypatch):
    from gcc_envs.games.rdr2.sim.raycast import cast

    rng = np.random.default_rng(5)
    for trial in range(40):
        grid = rng.random((int(rng.integers(3, 40)), int(rng.integers(3, 40)))) < 0.2
        rows, cols = grid.shape
        # cell corners and centres too: the ties between x and y steps
        x = float(rng.integers(0, cols)) + (0.5 if trial % 3 else 0.0)
        y = float(rng.integers(0, rows)) + (0.5 if trial % 2 else rng.random())
        angles = np.concatenate([rng.uniform(0, 2 * np.pi, 60), np.arange(8) * np.pi / 4])
        rx, ry = np.cos(angles), np.sin(angles)
        rx[-8::2] = np.round(rx[-8::2])  # exactly axis-aligned rays
        limit = rng.uniform(1.0, 60.0, len(rx)) if trial % 2 else 50.0
        fast = cast(grid, x, y, rx, ry, limit)
        with monkeypatch.context() as m:
            m.setattr(jit, "compiled", lambda fn: None)
            ref = cast(grid, x, y, rx, ry, limit)
        for name in ("dist", "col", "row", "side", "u"):
            a, b = getattr(fast, name), getattr(ref, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), (trial, name)


def test_snowfall_puts_every_flake_where_its_motion_says():
    """Each flake's square lies where its sway, fall and the view's turn put it (worked out
    here flake by flake, in plain floats), within a pixel; nothing else is painted."""
    import math
    from types import SimpleNamespace

    from gcc_envs.games.rdr2.sim.hands import SNOW, draw_snowfall
    from gcc_envs.games.rdr2.sim.hud import scale

    rng = np.random.default_rng(4)
    sizes = ((84, 84), (96, 160), (17, 31), (720, 1280))
    for trial in range(300):
        h, w = sizes[trial % 3] if trial % 50 else sizes[3]
        yaw = float(rng.uniform(-720.0, 720.0)) if trial % 3 else float(rng.integers(-360, 360))
        clock = float(rng.uniform(0.0, 1e5)) if trial % 2 else float(rng.uniform(0.0, 60.0))
        st = SimpleNamespace(player=SimpleNamespace(yaw_deg=yaw), clock=clock)
        frame = rng.integers(0, 200, (h, w, 3), dtype=np.uint8)
        draw_snowfall(frame, st, 70.0)
        painted = (frame == SNOW).all(axis=2)
        n, k = max(8, int(h * w * 0.0004)), max(1, round(2 * scale(h, w)))
        across, down, seed = np.random.default_rng(1899).random((3, n))
        near = np.zeros((h + 2, w + 2), bool)
        for i in range(n):
            phase, fall = 6.0 * seed[i], 0.08 + 0.1 * seed[i]
            u = (across[i] - yaw / 70.0 + 0.05 * math.sin(clock + phase)) % 1.0
            v = (down[i] + clock * fall) % 1.0
            x, y = min(int(u * w), w - 1), min(int(v * h), h - 1)
            # (a flake on the frame's far edge may be cut)
            assert painted[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2].any(), (trial, i)
            near[y : y + k + 2, x : x + k + 2] = True  # the square, a pixel either side
        assert not (painted & ~near[1 : h + 1, 1 : w + 1]).any(), trial
