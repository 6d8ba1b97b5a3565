"""The CapCut twins on a real Shotcut are fair tests: the scripted policy (through
``agents.make_policy``) succeeds, while doing nothing, seed 0's input replayed on a seed whose
choices differ, and a plausible wrong end state (an export without the music, a hard cut, a
cut a second late, only the end cut, another sticker) fail. The random policy's runs are in
``benchmarks/apps_fairness.py``.

One virtual display serves the whole module; each task's env resets on it per check. The
wrong end states are exported as a script would export them (:mod:`agents.scripted.capcut`),
waiting for Shotcut's job to end rather than for a fixed time.
"""

from __future__ import annotations

import json
import shutil

import gymnasium as gym
import pytest
from twin_fairness import TWIN_MARKS, check_scripted_fair, ci_sample, display_fixture, wrong_end

import agents
import gcc_envs  # noqa: F401 - registers the ids
from agents.scripted.capcut import CapCutScript
from gcc_envs import Hotkey, KeyPress, Wait
from gcc_envs.apps.capcut import SUITE
from gcc_envs.apps.software import fairness
from gcc_envs.apps.software.reading import ANSWER
from gcc_envs.apps.software.scripting import settle

pytestmark = [
    *TWIN_MARKS,
    pytest.mark.skipif(shutil.which("shotcut") is None, reason="Debian package shotcut missing"),
]
TASKS = [t.env_id(SUITE.title) for t in SUITE.tasks]
#: The tasks whose scripted run CI repeats (``GCC_TWINS=all``: every task).
CI_TASKS = ci_sample(TASKS, ("GCC/CapCut-TrimFirstAndLast", "GCC/CapCut-CutAtGoal"))
WRONG_SEED = 7


display = display_fixture(SUITE)


@pytest.mark.parametrize("env_id", CI_TASKS)
def test_the_scripted_policy_succeeds_and_nothing_and_replay_fail(env_id, display):
    check_scripted_fair(env_id, display=display)


@pytest.fixture
def wrong(display):
    made: list[gym.Env] = []

    def _make(env_id: str) -> tuple[gym.Env, dict[str, str], CapCutScript]:
        env = gym.make(env_id, display=display)
        made.append(env)
        env.reset(seed=WRONG_SEED)
        env.step(Wait(2.0))
        assert env.unwrapped.score() == 0.0, "doing nothing succeeded"
        return env, dict(env.unwrapped.session.vars), CapCutScript(env.unwrapped)

    yield _make
    for env in made:
        env.close()


def test_an_export_without_the_music_does_not_count(wrong):
    env, chosen, s = wrong("GCC/CapCut-ImportAddMusicExport")
    video = [s.open_file(f"~/Videos/{chosen['video']}"), settle([KeyPress("a"), Wait(1.5)])]
    assert wrong_end(env, [*video, s.export("silent.mp4")]) == 0.0


def test_only_the_end_cut_does_not_count(wrong):
    env, chosen, s = wrong("GCC/CapCut-TrimFirstAndLast")
    pause = [s.click(780, 270), Wait(0.3), KeyPress("k"), Wait(0.5)]
    out = [*s.seek(float(chosen["end"])), KeyPress("o"), Wait(0.5)]
    assert wrong_end(env, [settle(pause), settle(out), s.export("cut-end.mp4")]) == 0.0


def test_a_cut_a_second_and_a_half_late_does_not_count(wrong):
    env, _, s = wrong("GCC/CapCut-CutAtGoal")
    goal = json.loads((env.unwrapped.session.home / ANSWER).read_text())["goal_s"]
    pause = [s.click(780, 270), Wait(0.3), KeyPress("k"), Wait(0.5)]
    late = [*s.seek(goal + 1.5), KeyPress("o"), Wait(0.5)]
    assert wrong_end(env, [settle(pause), settle(late), s.export("late.mp4")]) == 0.0


def test_a_hard_cut_does_not_count(wrong):
    env, _, s = wrong("GCC/CapCut-AddTransitionExport")
    assert wrong_end(env, [s.open_file("~/Videos/first.mlt"), s.export("hard-cut.mp4")]) == 0.0


def test_another_sticker_does_not_count(wrong):
    env, chosen, s = wrong("GCC/CapCut-AddFaceStickerExport")
    other = next(k for k in ("face", "star", "flower") if k != chosen["sticker_kind"])
    project = s.open_file("~/Videos/first.mlt")
    track = settle([Hotkey(("ctrl", "i")), Wait(1.0)])
    sticker = s.open_file(f"~/Pictures/{chosen['place']}/{chosen['pack']}/{other}.png")
    append = settle([s.click(250, 610), Wait(0.5), KeyPress("a"), Wait(1.5)])
    assert wrong_end(env, [project, track, sticker, append, s.export("other.mp4")]) == 0.0


def test_a_transition_onto_a_three_second_clip(display):
    """Seed 11 asks for a transition between the first two clips, the second 3 s long: a
    drag of a quarter of it, held near its start, left no transition (a fifth of the seeds
    failed so)."""
    env = gym.make("GCC/CapCut-AddTransitionExport", display=display)
    try:
        run = fairness.run_policy(env, agents.make_policy("scripted", env), seed=11)
    finally:
        env.close()
    assert (run.chosen["pair_index"], run.chosen["lengths"].split()[1]) == ("1", "3")
    assert run.success
