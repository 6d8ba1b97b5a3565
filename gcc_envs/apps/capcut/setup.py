"""The CapCut twin's setup steps: the seed's test media and projects, and Shotcut.

``capcut_media``: what the task needs under ``~/Videos`` — a clip (``A_cradle.mp4`` or the
task's chosen name) in a seeded colour whose frames spell their numbers, and the tune
(``~/Music/music.wav`` or the chosen name); for the project tasks two or three clips of the
chosen lengths (4 s each by default) in seeded colours and order, and the projects (the
chosen name, or ``first.mlt``, and ``second.mlt``, the clips reversed; listed in Shotcut's
recent projects); stickers in ``~/Pictures/<pack>``; for the goal task ``ball.mp4`` (30 s)
where the ball enters the goal at the chosen (or a seeded) second. ``shotcut``: Shotcut with a fresh
settings file (no upgrade check), software OpenGL.
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


def capcut_media(
    session: Any,
    task: str,
    video: str = "A_cradle.mp4",
    music_file: str = "music.wav",
    clips: str = "2",
    pair: str = "1",
    goal_s: str | None = None,
    goal_frac: str = "0",
    project: str = "first.mlt",
    lengths: str | None = None,
    pack: str = "Stickers",
) -> None:
    """The task's inputs (``task``: ``music``, ``transition``, ``trim``, ``sticker``, ``goal``);
    ``video`` and ``music_file``: the file names; ``clips``: how many clips (2 or 3) the
    projects hold, ``pair``: which clip and the next the transition goes between; ``goal_s``:
    the second the ball enters the goal (plus ``goal_frac``; else drawn from the seed);
    ``project``: the project file's name, ``lengths``: the clips' seconds (``"3 5 4"``),
    ``pack``: the stickers' folder under ``~/Pictures`` (``"Downloads/Emoji"``)."""
    named = [("project", project), *(("pack", p) for p in pack.split("/"))]
    for what, name in [*named, *(("music_file", p) for p in music_file.split("/"))]:
        if not name or "/" in name or name.startswith("."):
            raise GCCError(f"capcut_media: {what} must be a plain name, got {name!r}")
    folders(session)
    rng, home = session.rng, session.home
    videos = home / "Videos"
    colour = tuple(int(c) for c in rng.integers(40, 200, 3))
    inputs: list[str] = []
    answer: dict[str, Any] = {}
    if task in ("music", "trim"):
        seconds = 6.0 if task == "music" else 14.0
        coded_video(videos / video, seconds, colour)
        inputs.append(f"Videos/{video}")
        answer["source_s"] = seconds
        if task == "music":
            (home / "Music" / music_file).parent.mkdir(parents=True, exist_ok=True)
            music(home / "Music" / music_file, 8.0)
    elif task in ("transition", "sticker"):
        n, k = int(clips), int(pair)
        if not (2 <= n <= 3 and 1 <= k < n):
            raise GCCError(f"capcut_media: {n} clips have no pair {k}")
        palette = [(200, 40, 40), (40, 60, 200), (40, 170, 60)][:n]
        if n == 2 and rng.integers(2):
            palette.reverse()
        elif n == 3:
            palette = [palette[int(i)] for i in rng.permutation(3)]
        secs = [float(x) for x in lengths.split()] if lengths else [4.0] * n
        if len(secs) != n or not all(1.0 <= x <= 8.0 for x in secs):
            raise GCCError(f"capcut_media: lengths {lengths!r} must be {n} seconds of 1..8")
        names = [f"clip{i + 1}.mp4" for i in range(n)]
        for i, (name, colour, sec) in enumerate(zip(names, palette, secs, strict=True)):
            coded_video(videos / name, sec, colour, f"{i + 1}: ")
        parts = [(videos / name, round(sec * FPS)) for name, sec in zip(names, secs, strict=True)]
        mine = "first.mlt" if project == "second.mlt" else project
        (videos / mine).write_text(shotcut_project(parts))
        (videos / "second.mlt").write_text(shotcut_project(parts[::-1]))
        inputs += [f"Videos/{name}" for name in names]
        # the pair asked for (the clips k and k + 1) is what the transition checker blends
        answer.update(source_s=sum(secs), colour_a=list(palette[k - 1]),
                      colour_b=list(palette[k]),
                      projects=[str(videos / mine), str(videos / "second.mlt")])  # fmt: skip
        for kind in STICKERS:
            path = home / "Pictures" / pack / f"{kind}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(path), cv2.cvtColor(sticker(kind), cv2.COLOR_RGBA2BGRA))
    elif task == "goal":
        drawn = float(goal_s) + float(goal_frac) if goal_s is not None else rng.uniform(2, 28)
        goal = round(float(drawn) * FPS) / FPS
        ball_video(videos / "ball.mp4", 30.0, goal)
        inputs.append("Videos/ball.mp4")
        answer.update(source_s=30.0, goal_s=goal)
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
