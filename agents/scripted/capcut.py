"""Scripted solutions of the CapCut twins (Shotcut): its shortcuts (Ctrl+O open, ``k`` pause,
``i``/``o`` in and out points, ``a`` append, Ctrl+U / Ctrl+I new audio / video track), its
player's time field and its Export panel.

Each reads what varies from the instruction (the file names, the seconds to keep, the
sticker) and finds on the frame what moves: where the two clips meet on the timeline (the
clips' colours), where the ball is in the player and so when it reaches the goal (two looks
at the picture, the ball rolls at a constant speed). Events only; clicks in pixels of the
twin's 1280x800 screen, scaled to the frames shown. Files are typed as ``~/...`` paths
(Shotcut's file dialogs expand the home).
"""

from __future__ import annotations

import re

import cv2
import numpy as np

from agents.scripted.meitu import calm, still
from gcc_envs.apps.software.scripting import Plan, PlanScript, settle
from gcc_envs.core.events import DragTo, Event, Hotkey, KeyPress, MoveTo, TypeText, Wait
from gcc_envs.core.program import Program

FPS = 25  # the twin's media (a person reads it off the player's time field)
PLAYER = (780, 270)  # the player's picture: gives it the keyboard
TIME_FIELD = (692, 426)  # the player's position field
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
           "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}  # fmt: skip
#: The stickers as the instructions name them, and their files' names.
STICKER_WORDS = {"face": "face", "star": "star", "flower": "flower", "diamond": "diamond"}
#: The Jobs panel's first row (x0, y0, x1, y1): the export's name and percentage.
JOB_ROW = (1030, 170, 1272, 190)
#: The timeline's video track V1 (y) once a project is open, and the x span it may use.
TRACK_Y = 620
TRACK_X = (200, 1270)


class CapCutScript(PlanScript):
    """Shotcut's moves, in the twin's 1280x800 screen pixels scaled to the frames shown."""

    def seek(self, seconds: float) -> list[Event]:
        """The player to ``seconds`` (typed into its time field as hh:mm:ss:ff)."""
        s, f = int(seconds), round((seconds - int(seconds)) * FPS)
        return [self.click(*TIME_FIELD, 3), Wait(0.3), Hotkey(("ctrl", "a")),
                TypeText(f"00:00:{s:02d}:{f:02d}", 0.03), KeyPress("enter"), Wait(0.8),
                self.click(*PLAYER)]  # fmt: skip

    def open_file(self, path: str) -> Program:
        """Ctrl+O; once the file dialog is up, the path; once it has closed, the player paused
        (it starts playing what it opens); one step, ended when the screen is still."""

        def run():
            shown = yield Wait(0.05)
            yield Hotkey(("ctrl", "o"))
            yield from calm(shown, limit_s=20.0)  # the file dialog has come up
            yield Hotkey(("ctrl", "a"))
            yield TypeText(path, 0.02)
            dialog = yield KeyPress("enter")
            # the dialog has closed (the screen differs), then what it opened has loaded (the
            # screen keeps still, or only the player's picture moves: at most a few seconds)
            yield from calm(dialog, limit_s=20.0, quiet_s=self.LOADED_QUIET_S)
            yield self.click(*PLAYER)
            yield KeyPress("k")
            yield from still(0.8, 8.0)

        return Program(run)

    #: After the file dialog has closed, how long the screen keeps still once Shotcut has
    #: loaded what it opened.
    LOADED_QUIET_S = 1.0

    def export(self, name: str) -> Program:
        """The Export panel, Export File, the file's name; then wait for the job to end: the
        Jobs panel's row (its percentage) has not changed for a few seconds."""
        name_it = [Hotkey(("ctrl", "a")), TypeText(name, 0.03), KeyPress("enter"), Wait(3.0)]

        def row(frame: np.ndarray | None) -> np.ndarray | None:
            if frame is None:
                return None
            x0, y0, x1, y1 = JOB_ROW
            return self.at_screen(frame)[y0:y1, x0:x1].astype(np.int16)

        def run():
            yield self.click(1077, 114)
            yield Wait(1.5)
            before = yield Wait(0.05)
            yield self.click(306, 434)
            yield from calm(before, limit_s=20.0)  # the file dialog has come up
            for e in name_it:
                _ = yield e
            last, quiet, waited = None, 0.0, 0.0
            while waited < 120.0 and quiet < self.JOB_QUIET_S:
                now = row((yield Wait(0.5)))
                waited += 0.5
                same = last is not None and now is not None and np.abs(now - last).max() < 40
                quiet = quiet + 0.5 if same else 0.0
                last = now

        return Program(run)

    #: The job's row has ended when it has not changed for this long (its percentage moves
    #: every second or so while it runs, even on a loaded machine).
    JOB_QUIET_S = 6.0


class ImportAddMusicExportScript(CapCutScript):
    """Open the video, append it; a new audio track, open the tune, drag it there; export."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        video = re.search(r"import (\S+\.mp4)", instruction)
        tune = re.search(r"music (\S+\.wav)", instruction)
        v = video.group(1) if video else "Videos/A_cradle.mp4"
        m = tune.group(1) if tune else "Music/music.wav"
        yield settle([Wait(1.0)])
        yield self.open_file(f"~/{v}")
        yield settle([KeyPress("a"), Wait(1.0)])
        yield settle([Hotkey(("ctrl", "u")), Wait(1.0)])
        yield self.open_file(f"~/{m}")
        # the tune from the player down onto the audio track, at the start
        yield settle([MoveTo(*self.at(*PLAYER)), DragTo(*self.at(150, 692), "left", 1.5),
                      Wait(1.0)])  # fmt: skip
        yield self.export("with-music.mp4")


def _seconds(word: str) -> float:
    """Seconds written as a number ("5.5") or a word ("five")."""
    try:
        return float(word)
    except ValueError:
        return float(NUMBERS.get(word, 0))


class TrimFirstAndLastScript(CapCutScript):
    """Pause, the out point at the later second, the in point at the earlier one, export."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        m = re.search(r"after ([\w.]+) seconds? and then before ([\w.]+) seconds?", instruction)
        end, start = (_seconds(w) for w in m.groups()) if m else (5.0, 1.0)
        yield settle([Wait(1.0), self.click(*PLAYER), Wait(0.3), KeyPress("k"), Wait(0.5)])
        yield settle([*self.seek(end), KeyPress("o"), Wait(0.5)])
        yield settle([*self.seek(start), KeyPress("i"), Wait(0.5)])
        yield self.export("trimmed.mp4")


class AddFaceStickerExportScript(CapCutScript):
    """Open the project, a new video track above, open the sticker named in the instruction
    (from the folder it names), append it there, export."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        what = re.search(r"sticker of ([^(]+)\(Pictures/([^)\s]+)\)", instruction)  # its folder
        words, pack = (what.group(1), what.group(2)) if what else ("face", "Stickers")
        kind = next((f for w, f in STICKER_WORDS.items() if w in words), "face")
        yield settle([Wait(1.0)])
        yield self.open_file("~/Videos/first.mlt")
        yield settle([Hotkey(("ctrl", "i")), Wait(1.0)])
        yield self.open_file(f"~/Pictures/{pack}/{kind}.png")
        yield settle([self.click(250, 610), Wait(0.5), KeyPress("a"), Wait(1.5)])
        yield self.export("sticker.mp4")


def clip_edges(frame: np.ndarray, y: int = TRACK_Y, x_span: tuple[int, int] = TRACK_X) -> list[int]:
    """The x of each clip's right end on the timeline row ``y`` (where the colour along the
    row jumps: the dark line between two clips, the track's end), left to right."""
    x0, x1 = x_span
    row = frame[y - 3 : y + 4, x0:x1].astype(np.int16).mean(axis=0)
    jump = np.abs(np.diff(row, axis=0)).sum(axis=1)
    xs = [x0 + int(x) + 1 for x in np.flatnonzero(jump > 60)]
    merged: list[int] = []
    for x in xs:  # a dividing line is two jumps a pixel or two apart
        if merged and x - merged[-1] <= 4:
            continue
        merged.append(x)
    return merged


ORDINALS = {"first": 1, "second": 2, "third": 3}


class AddTransitionExportScript(CapCutScript):
    """Open the project the instruction names, find where the two clips named meet on the
    timeline, drag the later one (held by its middle) a quarter of its length onto the
    earlier (Shotcut makes a crossfade of the overlap), export."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        m = re.search(r"between the (\w+) and the (\w+) videos", instruction)
        k = ORDINALS.get(m.group(1), 1) if m else 1
        named = re.search(r"project (Videos/\S+\.mlt)", instruction)
        project = named.group(1) if named else "Videos/first.mlt"
        yield settle([Wait(1.0)])
        frame = yield self.open_file(f"~/{project}")
        W, H = self.size
        big = frame if frame is None or (W, H) == (1280, 800) else cv2.resize(frame, (1280, 800))
        ends = clip_edges(big) if big is not None else []
        if len(ends) < k + 1:  # the clip's end and the next clip's
            return
        meet, width = ends[k - 1], ends[k] - ends[k - 1]
        # held by its middle (near an end, a drag trims the clip instead of moving it)
        grab = self.at(meet + width // 2, TRACK_Y)
        drop = self.at(meet + width // 2 - width // 3, TRACK_Y)  # a third of it to the left
        yield settle([MoveTo(*grab), DragTo(*drop, "left", 1.5), Wait(1.5)])
        yield self.export("transition.mp4")


#: The goal video's grass, and what counts as white (the ball, the goal's posts).
GRASS_RGB = (40, 140, 60)


def ball_and_goal(frame: np.ndarray) -> tuple[float, float] | None:
    """``(ball x, goal line x)`` in the player's picture of the goal video: the ball is the
    small round white blob on the grass, the goal the tall white outline (the middle of its
    left post is the line); None when either is not found."""
    grass = (np.abs(frame.astype(np.int16) - GRASS_RGB) <= 25).all(axis=2)
    ys, xs = np.nonzero(grass)
    if len(xs) < 500:
        return None
    x0, x1, y0, y1 = xs.min(), xs.max(), ys.min(), ys.max()
    white = (frame[y0 : y1 + 1, x0 : x1 + 1] >= 228).all(axis=2).astype(np.uint8)
    n, _, stats, centroids = cv2.connectedComponentsWithStats(white, connectivity=8)
    blobs = [(stats[k], centroids[k]) for k in range(1, n) if stats[k][cv2.CC_STAT_AREA] >= 12]
    if len(blobs) < 2:
        return None
    goal = max(blobs, key=lambda b: b[0][cv2.CC_STAT_HEIGHT])
    ball = min((b for b in blobs if b is not goal),
               key=lambda b: abs(b[0][cv2.CC_STAT_WIDTH] - b[0][cv2.CC_STAT_HEIGHT]))  # fmt: skip
    post = goal[0][cv2.CC_STAT_HEIGHT] * 2 / 104  # the 4 px post of a 104 px tall outline
    return float(x0 + ball[1][0]), float(x0 + goal[0][cv2.CC_STAT_LEFT] + post)


class CutAtGoalScript(CapCutScript):
    """Pause; look at the ball half a second and a second and a half in (it rolls at a
    constant speed), then again closer and closer to where it should reach the goal line, to
    tell when it does; the out point there; export."""

    LOOKS = (0.5, 1.5)
    #: Stop looking once the ball is this many seconds from the line (then extrapolate).
    NEAR_S = 0.8

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        yield settle([Wait(1.0), self.click(*PLAYER), Wait(0.3), KeyPress("k"), Wait(0.5)])
        seen: list[tuple[float, float]] = []
        line = 0.0
        for t in self.LOOKS:
            frame = yield settle(self.seek(t), quiet_s=0.6)
            found = ball_and_goal(frame) if frame is not None else None
            if found is None:
                return
            seen.append((t, found[0]))
            line = found[1]
        for _ in range(5):  # each look closer: the speed from a longer run, the rest shorter
            (ta, xa), (tb, xb) = seen[0], seen[-1]
            if xb <= xa:
                return
            left = (line - xb) * (tb - ta) / (xb - xa)
            if left <= self.NEAR_S:
                break
            t = round((tb + 0.7 * left) * FPS) / FPS
            frame = yield settle(self.seek(t), quiet_s=0.6)
            found = ball_and_goal(frame) if frame is not None else None
            if found is None or found[0] >= line:
                break
            seen.append((t, found[0]))
        (ta, xa), (tb, xb) = seen[0], seen[-1]
        goal_s = tb + (line - xb) * (tb - ta) / (xb - xa)
        goal_s = round(goal_s * FPS) / FPS
        yield settle([*self.seek(goal_s), KeyPress("o"), Wait(0.5)])
        yield self.export("goal.mp4")
