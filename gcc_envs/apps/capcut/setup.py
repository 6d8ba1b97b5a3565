"""The CapCut twin's setup steps: the seed's test media and projects, and Shotcut.

``capcut_media``: what the task needs under ``~/Videos`` — ``A_cradle.mp4`` (a clip in a
seeded colour whose frames spell their numbers) and ``~/Music/music.wav``; for the project
tasks two clips and ``~/Videos/first.mlt`` / ``second.mlt`` (listed in Shotcut's recent
projects); stickers in ``~/Pictures/Stickers``; for the goal task ``ball.mp4`` where the
ball enters the goal at a seeded second. ``shotcut``: Shotcut with a fresh settings file
(no upgrade check), software OpenGL.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from typing import Any

import cv2

from gcc_envs.apps.capcut.media import FPS, STICKERS, ball_video, coded_video, music, sticker
from gcc_envs.apps.capcut.project import shotcut_project
from gcc_envs.apps.software.desktop import folders, launch
from gcc_envs.apps.software.reading import write_answer
from gcc_envs.errors import GCCError

SETTINGS = """[General]
checkUpgradeAutomatic=false
askUpgradeAutomatic=false
recent={recent}
[Player]
realtime=false
"""


def capcut_media(session: Any, task: str) -> None:
    """The task's inputs (``task``: ``music``, ``transition``, ``trim``, ``sticker``, ``goal``)."""
    folders(session)
    rng, home = session.rng, session.home
    videos = home / "Videos"
    colour = tuple(int(c) for c in rng.integers(40, 200, 3))
    inputs: list[str] = []
    answer: dict[str, Any] = {}
    if task in ("music", "trim"):
        seconds = 6.0 if task == "music" else 8.0
        coded_video(videos / "A_cradle.mp4", seconds, colour)
        inputs.append("Videos/A_cradle.mp4")
        answer["source_s"] = seconds
        if task == "music":
            music(home / "Music" / "music.wav", 8.0)
    elif task in ("transition", "sticker"):
        a, b = (200, 40, 40), (40, 60, 200)
        if rng.integers(2):
            a, b = b, a
        coded_video(videos / "clip1.mp4", 4.0, a, "1: ")
        coded_video(videos / "clip2.mp4", 4.0, b, "2: ")
        clips = [(videos / "clip1.mp4", 4 * FPS), (videos / "clip2.mp4", 4 * FPS)]
        (videos / "first.mlt").write_text(shotcut_project(clips))
        (videos / "second.mlt").write_text(shotcut_project(clips[::-1]))
        inputs += ["Videos/clip1.mp4", "Videos/clip2.mp4"]
        answer.update(source_s=8.0, colour_a=list(a), colour_b=list(b),
                      projects=[str(videos / "first.mlt"), str(videos / "second.mlt")])  # fmt: skip
        for kind in STICKERS:
            path = home / "Pictures" / "Stickers" / f"{kind}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(path), cv2.cvtColor(sticker(kind), cv2.COLOR_RGBA2BGRA))
    elif task == "goal":
        goal = round(float(rng.uniform(2.5, 5.5)) * FPS) / FPS
        ball_video(videos / "ball.mp4", 8.0, goal)
        inputs.append("Videos/ball.mp4")
        answer.update(source_s=8.0, goal_s=goal)
    else:
        raise GCCError(f"capcut_media: unknown task {task!r}")
    write_answer(home, inputs=inputs, **answer)


def shotcut(session: Any, open: str | None = None, timeout_s: float = 60.0) -> None:
    """Shotcut on a fresh settings file, opening ``open`` (under the home) if given."""
    import json

    from gcc_envs.apps.software.reading import ANSWER

    exe = shutil.which("shotcut")
    if exe is None:
        raise GCCError("Shotcut is not installed (Debian package: shotcut)")
    projects = json.loads((session.home / ANSWER).read_text()).get("projects", [])
    conf = session.home / ".config" / "Meltytech" / "Shotcut.conf"
    conf.parent.mkdir(parents=True, exist_ok=True)
    conf.write_text(SETTINGS.format(recent=", ".join(projects)))
    argv = ["env", "LIBGL_ALWAYS_SOFTWARE=1", exe, "--noupgrade"]
    if open:
        argv.append(str(session.home / open))
    launch(session, argv, r" - Shotcut$", timeout_s)


def setup_steps() -> Mapping[str, Callable[..., None]]:
    """The CapCut suite's own setup step kinds."""
    return {"capcut_media": capcut_media, "shotcut": shotcut}
