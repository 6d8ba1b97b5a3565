"""The Meitu twins on a real GIMP are fair tests: the scripted policy (through
``agents.make_policy``) succeeds, while doing nothing and seed 0's input replayed on a seed
whose choices differ fail; a plausible wrong end state fails (the right and wrong files GIMP
writes are judged in the same episode). The random policy's runs are in
``benchmarks/apps_fairness.py``.

The wrong-end checks are keyboard-and-mouse events through the env: GIMP's action search
(``/``), its shortcuts, its file dialogs (a path in the location entry) and clicks on the
picture, found on the screen by template matching.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from types import SimpleNamespace

import cv2
import gymnasium as gym
import numpy as np
import pytest
from twin_fairness import check_scripted_fair, ci_sample

import gcc_envs  # noqa: F401 - registers the ids
from agents.scripted.meitu import MeituScript
from gcc_envs import Click, DragTo, Hotkey, KeyPress, MoveTo, Program, TypeText, Wait
from gcc_envs.apps.meitu import SUITE
from gcc_envs.apps.meitu.setup import KEEP, SCENES, STICKERS

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(180),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("gimp") is None, reason="Debian package gimp missing"),
]
SEED = 7
TASKS = [t.env_id(SUITE.title) for t in SUITE.tasks]
#: The tasks whose scripted run CI repeats (``GCC_TWINS=all``: every task).
CI_TASKS = ci_sample(TASKS, ("GCC/Meitu-ApplyFilter", "GCC/Meitu-CircleFrame"))
FOCUS = [Click(200, 680), Wait(0.3)]  # the grey canvas around the picture: GIMP takes keys


def action(name: str) -> list:
    """GIMP's Search Actions (``/``): run the action called ``name``."""
    return [KeyPress("/"), Wait(1.0), TypeText(name, 0.02), Wait(0.8), KeyPress("enter"), Wait(1.0)]


#: GIMP's moves as the scripted solutions make them (closed loop: each waits for the screen,
#: which a loaded machine needs), on the twin's 1280x800 frames.
GIMP = MeituScript(SimpleNamespace(observation_space=SimpleNamespace(shape=(800, 1280, 3))))


def export(name: str) -> Program:
    """File > Export As under ``name`` (next to the picture), then the format's Export."""
    return GIMP.export(name)


def open_picture(path: str) -> Program:
    """File > Open of ``path`` (under the home), until the picture shows."""
    return GIMP.open_picture(path)


def open_next(env: gym.Env, path: str) -> Program:
    """File > Open of the scene ``path`` (under the home) while another picture shows, until
    the new one does."""
    return GIMP.open_next(path, GIMP.picture(env.unwrapped.backend.capture()))


def open_layer(path: str) -> Program:
    """File > Open as Layers of ``path`` (under the home)."""
    return GIMP.open_layer(path)


def act(env: gym.Env, steps: Sequence[list | Program]) -> dict:
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


def passes(env: gym.Env, steps: Sequence[list | Program]) -> bool:
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


def picture_at(env: gym.Env, name: str) -> tuple[int, int]:
    """Where the picture's top-left pixel is on the screen (found by template matching)."""
    src = cv2.imread(str(env.unwrapped.session.home / KEEP / name))[:, :, ::-1]
    screen = env.unwrapped.backend.capture()
    res = cv2.matchTemplate(screen, np.ascontiguousarray(src), cv2.TM_SQDIFF_NORMED)
    _, _, (x, y), _ = cv2.minMaxLoc(res)
    assert res[y, x] < 0.05, "the picture is not on the screen"
    return x, y


@pytest.mark.parametrize("env_id", CI_TASKS)
def test_the_scripted_policy_succeeds_and_nothing_and_replay_fail(env_id):
    check_scripted_fair(env_id)


@pytest.fixture
def make():
    made: list[gym.Env] = []

    def _make(env_id: str) -> tuple[gym.Env, str, dict[str, str]]:
        """The task on :data:`SEED` with its picture (or first photo) open in GIMP, its folder
        (under the home) and its chosen values."""
        env = gym.make(env_id)
        made.append(env)
        env.reset(seed=SEED)
        settle(env, 2)
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        chosen = dict(env.unwrapped.session.vars)
        first = chosen.get("picture", chosen.get("photos_a"))
        act(env, [open_picture(f"Pictures/{chosen['folder']}/{first}")])
        return env, f"Pictures/{chosen['folder']}", chosen

    yield _make
    for env in made:
        env.close()


def test_apply_filter_wants_the_described_photo_changed_not_a_resave_or_a_look_alike(make):
    env, folder, chosen = make("GCC/Meitu-ApplyFilter")
    assert not passes(env, [FOCUS, export("A_same.jpg")])
    other = next(n for n in SCENES if n != chosen["picture"])  # its colour or its kind, or neither
    act(env, [open_next(env, f"{folder}/{other}")])
    assert not passes(env, [[*FOCUS, *action("Value Invert")], export("other_filtered.jpg")])
    act(env, [open_next(env, f"{folder}/{chosen['picture']}")])  # a second view of it
    act(env, [[*FOCUS, *action("Value Invert")], export("A_filtered.jpg")])
    assert done(env, 5)


def test_cutout_wants_a_transparent_background_not_a_filled_one(make):
    env, _, chosen = make("GCC/Meitu-CutoutPerson")
    x, y = picture_at(env, chosen["picture"])
    select_bg = [KeyPress("u"), Wait(0.3), Click(x + 6, y + 6), Wait(1.0)]
    # no alpha channel: Delete fills the background with white, the PNG has no transparency
    assert not passes(
        env, [FOCUS, select_bg, [KeyPress("delete"), Wait(0.5)], export("A_flat.png")]
    )
    right = [[Hotkey(("ctrl", "z")), Wait(0.5), *action("Add Alpha Channel")],
             [KeyPress("delete"), Wait(0.5), Hotkey(("ctrl", "shift", "a"))], export("A_cutout.png")]  # fmt: skip
    act(env, right)
    assert done(env, 5)


def test_sticker_wants_the_named_sticker_not_another_one(make):
    env, folder, chosen = make("GCC/Meitu-AddFlowerSticker")
    stickers = f"{folder.rpartition('/')[0]}/Stickers"
    wrong = next(k for k in STICKERS if k != chosen["sticker"])
    assert not passes(env, [FOCUS, open_layer(f"{stickers}/{wrong}.png"), export("A_wrong.jpg")])
    act(env, [[Hotkey(("ctrl", "z")), Wait(0.5)], open_layer(f"{stickers}/{chosen['sticker']}.png"),
              export("A_sticker.jpg")])  # fmt: skip
    assert done(env, 5)


def test_collage_wants_the_photos_side_by_side_not_stacked(make):
    env, folder, chosen = make("GCC/Meitu-MakeCollage")
    b, c = chosen["photos_b"], chosen["photos_c"]
    # opened as layers, each photo lands in the middle: the third covers the second
    stacked = [GIMP.canvas_width(1440), open_layer(f"{folder}/{b}"), open_layer(f"{folder}/{c}"),
               GIMP.save("collage.xcf")]  # fmt: skip
    assert not passes(env, stacked)
    act(env, [GIMP.layer_x(960), [Hotkey(("ctrl", "s")), Wait(2.0)]])  # the third moved right
    assert done(env, 8)


def test_circle_frame_wants_a_circle_not_a_rectangle(make):
    env, _, chosen = make("GCC/Meitu-CircleFrame")
    x, y = picture_at(env, chosen["picture"])
    frame = [Hotkey(("ctrl", "i")), Wait(0.3), Hotkey(("ctrl", ",")), Wait(0.5),
             Hotkey(("ctrl", "shift", "a")), Wait(0.3)]  # fmt: skip

    def select(tool: str) -> list:
        return [KeyPress(tool), Wait(0.3), MoveTo(x + 70, y + 10), DragTo(x + 410, y + 350, "left", 1.0),
                Wait(0.5)]  # fmt: skip

    assert not passes(env, [[*FOCUS, *select("r")], frame, export("A_square.jpg")])
    undo = [Hotkey(("ctrl", "z")) for _ in range(4)]  # select none, fill, invert, rectangle
    act(env, [[*undo, Wait(0.5), *select("e")], frame, export("A_frame.jpg")])
    assert done(env, 5)
