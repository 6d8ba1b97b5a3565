"""The CapCut checkers on exports MLT itself renders (``melt``, the engine under Shotcut):
each right end state passes, each plausible wrong one fails, untouched inputs fail."""

from __future__ import annotations

import shutil
import subprocess
from types import SimpleNamespace

import numpy as np
import pytest

from gcc_envs.apps.capcut import checkers
from gcc_envs.apps.capcut.media import FPS
from gcc_envs.apps.capcut.setup import capcut_media
from gcc_envs.apps.episode import EpisodeDesktop
from gcc_envs.apps.software.reading import ANSWER

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.skipif(shutil.which("melt") is None, reason="Debian package melt missing"),
    pytest.mark.skipif(shutil.which("ffprobe") is None, reason="Debian package ffmpeg missing"),
]
V, M, S = "Videos", "Music", "Pictures/Stickers"


def cases(goal_frames: int) -> dict[str, tuple[str, dict, list[str], list[str]]]:
    """task -> (checker, its args, melt args of the right export, of the wrong one)."""
    return {
        "music": ("with_music", {}, [f"{V}/A_cradle.mp4", "-audio-track", f"{M}/music.wav",
                                      "out=149"], [f"{V}/A_cradle.mp4"]),
        "transition": ("with_transition", {}, [f"{V}/clip1.mp4", f"{V}/clip2.mp4", "-mix", "25",
                                               "-mixer", "luma"], [f"{V}/first.mlt"]),
        "trim": ("trimmed", {"start_s": 1.0, "end_s": 5.0},
                 [f"{V}/A_cradle.mp4", "in=25", "out=125"], [f"{V}/A_cradle.mp4", "out=125"]),
        "sticker": ("with_sticker", {"kind": "face"},
                    [f"{V}/first.mlt", "-filter", f"watermark:{S}/face.png",
                     "composite.geometry=20/60:80x80"],
                    [f"{V}/first.mlt", "-filter", f"watermark:{S}/star.png",
                     "composite.geometry=20/60:80x80"]),
        "goal": ("cut_at_goal", {}, [f"{V}/ball.mp4", f"out={goal_frames}"],
                 [f"{V}/ball.mp4", f"out={goal_frames + 40}"]),
    }  # fmt: skip


def melt(session: EpisodeDesktop, args: list[str], out: str) -> None:
    argv = ["melt", "-silent", *args, "-consumer", f"avformat:{out}", "vcodec=libx264",
            "acodec=aac", "real_time=0"]  # fmt: skip
    env = {**session.env, "QT_QPA_PLATFORM": "offscreen"}  # the image producer needs no display
    r = subprocess.run(argv, cwd=session.home, env=env, capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode()[-800:]


@pytest.mark.parametrize("task", ["music", "transition", "trim", "sticker", "goal"])
def test_melts_right_export_passes_and_its_wrong_one_fails(task, tmp_path):
    session = EpisodeDesktop(SimpleNamespace(display=":0"), np.random.default_rng(5))
    try:
        capcut_media(session, task)
        import json

        goal = json.loads((session.home / ANSWER).read_text()).get("goal_s", 0)
        name, args, right, wrong = cases(round(goal * FPS))[task]
        fn = getattr(checkers, name)
        assert fn(session.probe(), **args) == 0.0, "the inputs alone passed"
        melt(session, wrong, str(tmp_path / "wrong.mp4"))
        melt(session, right, str(tmp_path / "right.mp4"))
        for file, want in (("wrong.mp4", 0.0), ("right.mp4", 1.0)):
            dest = session.home / "Videos" / f"export-{file}"
            shutil.copy(tmp_path / file, dest)
            try:
                assert fn(session.probe(), **args) == want, f"{name} on the {file} export"
            finally:
                dest.unlink()
    finally:
        session.close()
