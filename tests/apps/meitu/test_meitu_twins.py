"""The Meitu twins on a real GIMP: a scripted solution succeeds, doing nothing and a plausible
wrong end state fail (the right and wrong files GIMP writes are judged in the same episode).

The scripts are keyboard-and-mouse events through the env: GIMP's action search (``/``),
its shortcuts, its file dialogs (Ctrl+L, a path) and clicks on the picture, which the script
finds on the screen it is shown (template matching), as a person would.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

import cv2
import gymnasium as gym
import numpy as np
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, DragTo, Hotkey, KeyPress, MoveTo, TypeText, Wait
from gcc_envs.apps.meitu.setup import KEEP

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("gimp") is None, reason="Debian package gimp missing"),
]
SEED = 7
FOCUS = [Click(200, 680), Wait(0.3)]  # the grey canvas around the picture: GIMP takes keys


def action(name: str) -> list:
    """GIMP's Search Actions (``/``): run the action called ``name``."""
    return [KeyPress("/"), Wait(1.0), TypeText(name, 0.02), Wait(0.8), KeyPress("enter"), Wait(1.0)]


def export(name: str) -> list:
    """File > Export As under ``name`` (next to the picture), then the format's Export."""
    return [Hotkey(("ctrl", "shift", "e")), Wait(1.5), Hotkey(("ctrl", "a")),
            TypeText(name, 0.02), KeyPress("enter"), Wait(1.5), KeyPress("enter"), Wait(2.0)]  # fmt: skip


def open_layer(path: str) -> list:
    return [Hotkey(("ctrl", "alt", "o")), Wait(1.5), Hotkey(("ctrl", "l")), Hotkey(("ctrl", "a")),
            TypeText(path, 0.02), Wait(0.5), KeyPress("enter"), Wait(1.5)]  # fmt: skip


def act(env: gym.Env, steps: Sequence[list]) -> dict:
    info: dict = {}
    for events in steps:
        _, _, terminated, _, info = env.step(events)
        assert info["last_action_error"] is None, info["last_action_error"]
        if terminated:
            break
    return info


def settle(env: gym.Env, seconds: int) -> dict:
    info: dict = {}
    for _ in range(seconds):
        _, _, terminated, _, info = env.step(Wait(1.0))
        if terminated:
            break
    return info


def passes(env: gym.Env, steps: Sequence[list]) -> bool:
    """Act out ``steps``; whether the task's checker passes the desktop as it is now."""
    act(env, steps)
    return env.unwrapped.score() >= 1.0


def done(env: gym.Env, seconds: int = 6) -> bool:
    """Wait up to ``seconds`` for the end state (a file still being written), then say DONE:
    whether the env judges the episode a success (the checker at the episode's end)."""
    for _ in range(seconds):
        if env.unwrapped.score() >= 1.0:
            break
        env.step(Wait(1.0))
    _, _, terminated, _, info = env.step("DONE")
    return bool(terminated and info["success"] and info["metrics"]["efficiency"] > 0)


def picture_at(env: gym.Env, name: str = "A_picture.jpg") -> tuple[int, int]:
    """Where the picture's top-left pixel is on the screen (found by template matching)."""
    src = cv2.imread(str(env.unwrapped.session.home / KEEP / name))[:, :, ::-1]
    screen = env.unwrapped.backend.capture()
    res = cv2.matchTemplate(screen, np.ascontiguousarray(src), cv2.TM_SQDIFF_NORMED)
    _, _, (x, y), _ = cv2.minMaxLoc(res)
    assert res[y, x] < 0.05, "the picture is not on the screen"
    return x, y


@pytest.fixture
def make():
    made: list[gym.Env] = []

    def _make(env_id: str) -> tuple[gym.Env, str]:
        env = gym.make(env_id)
        made.append(env)
        env.reset(seed=SEED)
        settle(env, 2)
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        return env, str(env.unwrapped.session.home)

    yield _make
    for env in made:
        env.close()


def test_apply_filter_wants_a_changed_picture_not_a_resave(make):
    env, _ = make("GCC/Meitu-ApplyFilter")
    assert not passes(env, [FOCUS, export("A_same.jpg")])
    act(env, [[*FOCUS, *action("Value Invert")], export("A_filtered.jpg")])
    assert done(env, 5)


def test_cutout_wants_a_transparent_background_not_a_filled_one(make):
    env, _ = make("GCC/Meitu-CutoutPerson")
    x, y = picture_at(env)
    select_bg = [KeyPress("u"), Wait(0.3), Click(x + 6, y + 6), Wait(1.0)]
    # no alpha channel: Delete fills the background with white, the PNG has no transparency
    assert not passes(
        env, [FOCUS, select_bg, [KeyPress("delete"), Wait(0.5)], export("A_flat.png")]
    )
    right = [[Hotkey(("ctrl", "z")), Wait(0.5), *action("Add Alpha Channel")],
             [KeyPress("delete"), Wait(0.5), Hotkey(("ctrl", "shift", "a"))], export("A_cutout.png")]  # fmt: skip
    act(env, right)
    assert done(env, 5)


def test_flower_sticker_wants_the_flower_not_another_sticker(make):
    env, home = make("GCC/Meitu-AddFlowerSticker")
    stickers = f"{home}/Pictures/Stickers"
    assert not passes(env, [[*FOCUS, *open_layer(f"{stickers}/heart.png")], export("A_heart.jpg")])
    act(env, [[Hotkey(("ctrl", "z")), Wait(0.5), *open_layer(f"{stickers}/flower.png")],
                     export("A_sticker.jpg")])  # fmt: skip
    assert done(env, 5)


def test_collage_wants_three_photos_side_by_side_not_stacked(make):
    env, home = make("GCC/Meitu-MakeCollage")
    canvas = [*action("Canvas Size"), Wait(0.5), Click(125, 455, "left", 3), TypeText("1440", 0.02),
              KeyPress("tab"), Wait(0.3), Click(432, 772), Wait(1.0)]  # fmt: skip
    save = [Hotkey(("ctrl", "s")), Wait(1.5), Hotkey(("ctrl", "a")), TypeText("collage.xcf", 0.02),
            KeyPress("enter"), Wait(2.0)]  # fmt: skip
    # opened as layers, each photo lands in the middle: photo3 covers photo2
    stacked = [[*FOCUS, *canvas], open_layer(f"{home}/Pictures/photo2.jpg"),
               open_layer(f"{home}/Pictures/photo3.jpg"), save]  # fmt: skip
    assert not passes(env, stacked)
    move = [*action("Edit Layer Attributes"), Wait(0.5), Click(345, 606, "left", 3),
            TypeText("960", 0.02), KeyPress("tab"), Wait(0.3), Click(689, 768), Wait(1.0)]  # fmt: skip
    act(env, [move, [Hotkey(("ctrl", "s")), Wait(2.0)]])
    assert done(env, 5)


def test_circle_frame_wants_a_circle_not_a_rectangle(make):
    env, _ = make("GCC/Meitu-CircleFrame")
    x, y = picture_at(env)
    frame = [Hotkey(("ctrl", "i")), Wait(0.3), Hotkey(("ctrl", ",")), Wait(0.5),
             Hotkey(("ctrl", "shift", "a")), Wait(0.3)]  # fmt: skip

    def select(tool: str) -> list:
        return [KeyPress(tool), Wait(0.3), MoveTo(x + 70, y + 10), DragTo(x + 410, y + 350, "left", 1.0),
                Wait(0.5)]  # fmt: skip

    assert not passes(env, [[*FOCUS, *select("r")], frame, export("A_square.jpg")])
    undo = [Hotkey(("ctrl", "z")) for _ in range(4)]  # select none, fill, invert, rectangle
    act(env, [[*undo, Wait(0.5), *select("e")], frame, export("A_frame.jpg")])
    assert done(env, 5)
