"""The CapCut twins on a real Shotcut: a scripted solution succeeds, doing nothing and a
plausible wrong end state (an export without the music, a cut at the wrong second) fail.

The scripts are keyboard-and-mouse events through the env: Shotcut's shortcuts (Ctrl+O,
``k`` pause, ``i``/``o`` in and out points, ``a`` append, Ctrl+U audio track), its player's
time field and its Export panel, at their places on the 1280x800 screen.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence

import gymnasium as gym
import pytest

import gcc_envs  # noqa: F401 - registers the ids
from gcc_envs import Click, DragTo, Hotkey, KeyPress, MoveTo, TypeText, Wait
from gcc_envs.apps.capcut.media import FPS
from gcc_envs.apps.software.reading import ANSWER

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.slow,
    pytest.mark.timeout(240),
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
    pytest.mark.skipif(shutil.which("shotcut") is None, reason="Debian package shotcut missing"),
]
SEED = 7
PLAYER = Click(780, 270)  # the player's picture: gives it the keyboard


def seek(seconds: float) -> list:
    s, f = int(seconds), round((seconds - int(seconds)) * FPS)
    return [Click(692, 426, "left", 3), Wait(0.3), Hotkey(("ctrl", "a")),
            TypeText(f"00:00:{s:02d}:{f:02d}", 0.03), KeyPress("enter"), Wait(0.8), PLAYER]  # fmt: skip


def export(name: str) -> list:
    return [Click(1077, 114), Wait(1.5), Click(306, 434), Wait(2.0), Hotkey(("ctrl", "a")),
            TypeText(name, 0.03), KeyPress("enter"), Wait(4.0)]  # fmt: skip


def open_file(path: str) -> list:
    return [Hotkey(("ctrl", "o")), Wait(2.0), Hotkey(("ctrl", "a")), TypeText(path, 0.02),
            KeyPress("enter"), Wait(2.0), PLAYER, KeyPress("k")]  # fmt: skip


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


def done(env: gym.Env, seconds: int = 15) -> bool:
    """Wait up to ``seconds`` for the end state (a file still being written), then say DONE:
    whether the env judges the episode a success (the checker at the episode's end)."""
    for _ in range(seconds):
        if env.unwrapped.score() >= 1.0:
            break
        env.step(Wait(1.0))
    _, _, terminated, _, info = env.step("DONE")
    return bool(terminated and info["success"] and info["metrics"]["efficiency"] > 0)


@pytest.fixture
def make():
    made: list[gym.Env] = []

    def _make(env_id: str) -> gym.Env:
        env = gym.make(env_id)
        made.append(env)
        env.reset(seed=SEED)
        settle(env, 2)
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        return env

    yield _make
    for env in made:
        env.close()


def test_add_music_wants_the_music_in_the_export(make):
    env = make("GCC/CapCut-ImportAddMusicExport")
    home = str(env.unwrapped.session.home)
    video = [Wait(1.0), *open_file(f"{home}/Videos/A_cradle.mp4"), KeyPress("a"), Wait(1.5)]
    assert not passes(env, [video, export("silent.mp4"), [Wait(4.0)]])
    music = [Hotkey(("ctrl", "u")), Wait(1.0), *open_file(f"{home}/Music/music.wav"), Wait(0.5)]
    a1 = [Click(600, 690), Wait(0.5), KeyPress("a"), Wait(1.5)]  # the audio track, then append
    act(env, [music, a1, export("with-music.mp4")])
    assert done(env)


def test_trim_wants_one_to_five_seconds_not_just_the_end_cut(make):
    env = make("GCC/CapCut-TrimFirstAndLast")
    start = [Wait(1.0), PLAYER, Wait(0.3), KeyPress("k"), Wait(0.5)]
    out5 = [*seek(5.0), KeyPress("o"), Wait(0.5)]
    assert not passes(env, [start, out5, export("cut-end.mp4"), [Wait(3.0)]])
    in1 = [*seek(1.0), KeyPress("i"), Wait(0.5)]
    act(env, [in1, export("trimmed.mp4")])
    assert done(env)


def test_cut_at_goal_wants_the_goal_second_not_later(make):
    env = make("GCC/CapCut-CutAtGoal")
    goal = json.loads((env.unwrapped.session.home / ANSWER).read_text())["goal_s"]
    start = [Wait(1.0), PLAYER, Wait(0.3), KeyPress("k"), Wait(0.5)]
    late = [*seek(goal + 1.5), KeyPress("o"), Wait(0.5)]
    assert not passes(env, [start, late, export("late.mp4"), [Wait(3.0)]])
    right = [*seek(goal), KeyPress("o"), Wait(0.5)]
    act(env, [right, export("goal.mp4")])
    assert done(env)


def test_transition_wants_a_blend_between_the_clips_not_a_hard_cut(make):
    env = make("GCC/CapCut-AddTransitionExport")
    home = str(env.unwrapped.session.home)
    project = [Wait(1.0), *open_file(f"{home}/Videos/first.mlt"), Wait(0.5)]
    assert not passes(env, [project, export("hard-cut.mp4"), [Wait(4.0)]])
    # clip 2 dragged one second (25 px at this zoom) onto clip 1: Shotcut makes a transition
    overlap = [MoveTo(300, 620), DragTo(272, 620, "left", 1.5), Wait(1.5)]
    act(env, [overlap, export("transition.mp4")])
    assert done(env)


def test_face_sticker_wants_the_face_not_another_sticker(make):
    env = make("GCC/CapCut-AddFaceStickerExport")
    home = str(env.unwrapped.session.home)

    def on_v2(kind: str) -> list:  # the sticker appended to a new track above the video
        return [[Hotkey(("ctrl", "i")), Wait(1.0), *open_file(f"{home}/Pictures/Stickers/{kind}.png")],
                [Click(250, 610), Wait(0.5), KeyPress("a"), Wait(1.5)]]  # fmt: skip

    project = [Wait(1.0), *open_file(f"{home}/Videos/first.mlt"), Wait(0.5)]
    assert not passes(env, [project, *on_v2("star"), export("star.mp4"), [Wait(5.0)]])
    undo = [Hotkey(("ctrl", "z")), Wait(0.5), Hotkey(("ctrl", "z")), Wait(0.5)]  # append, track
    act(env, [undo, *on_v2("face"), export("face.mp4")])
    assert done(env, 15)
