"""Scripted solutions of the Meitu twins (GIMP 2.10, single-window mode): its Open dialogs
(Ctrl+O, Ctrl+Alt+O as layers; Alt+Home goes to the home folder, Ctrl+L takes a path), its
Search Actions (``/``), shortcuts and dialogs, and clicks on the picture, which each finds on
the frame (the one large region of the canvas that is not GIMP's grey), as a person would.

Each reads what varies from the instruction (which picture, which sticker, which photos) and
acts through events only; clicks in pixels of the twin's 1280x800 screen, scaled to the frames
shown. Where the instruction names the photo by what it shows ("the photo of the red boat"),
the script opens the folder's photos one by one and looks at each (:func:`subject_of`).
"""

from __future__ import annotations

import re
from collections.abc import Generator
from pathlib import PurePosixPath
from typing import Any

import cv2
import numpy as np

from gcc_envs.apps.software.scripting import (
    Plan,
    PlanScript,
    box_of,
    changed,
    near,
    settle,
)
from gcc_envs.core.events import DragTo, Event, Hotkey, KeyPress, MoveTo, TypeText, Wait
from gcc_envs.core.program import Program

CANVAS_AT = (200, 680)  # a point of the grey canvas around the picture (clicking it: keys go in)
CANVAS = (24, 114, 1256, 740)  # x0, y0, x1, y1: the canvas under the rulers, above the status
TAB = (10, 54, 54, 88)  # x0, y0, x1, y1: the first image tab's thumbnail (none while empty)
Box = tuple[int, int, int, int]  # x, y, w, h in the 1280x800 screen
PICTURE = re.compile(r"Pictures/([\w./-]+\.(?:jpg|png))")
SUBJECT = re.compile(r"photo of the (\w+) (\w+) \(?in Pictures/([\w-]+)")
#: What a person calls each colour (RGB), and the kinds of thing a photo may show.
COLOURS = {"red": (220, 40, 40), "blue": (40, 80, 220), "yellow": (240, 200, 40),
           "purple": (140, 55, 190)}  # fmt: skip
#: The photos a folder holds, in the order the script looks at them.
SCENES = tuple(f"IMG_{i}.jpg" for i in range(1, 5))


def subject_of(picture: np.ndarray) -> tuple[str, str] | None:
    """``(colour, kind)`` of the one bright thing on a muted photo (RGB): the largest blob of
    a named colour; a boat is wide and low, a house square, a balloon round."""
    best = None
    for name, rgb in COLOURS.items():
        mask = cv2.morphologyEx(near(picture, rgb, tol=45).astype(np.uint8), cv2.MORPH_OPEN,
                                np.ones((3, 3), np.uint8))  # fmt: skip
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
        if n < 2:
            continue
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[k, cv2.CC_STAT_AREA] >= 300 and (best is None or stats[k, 4] > best[1][4]):
            best = (name, stats[k])
    if best is None:
        return None
    name, (_, _, w, h, area) = best
    kind = "boat" if w > 1.8 * h else "house" if area > 0.9 * w * h else "balloon"
    return name, kind


def picture_box(frame: np.ndarray) -> Box | None:
    """``(x, y, w, h)`` of the picture GIMP shows on a 1280x800 frame: the largest region of
    the canvas unlike the canvas's grey (None while it shows none)."""
    x0, y0, x1, y1 = CANVAS
    grey = tuple(int(v) for v in frame[CANVAS_AT[1], CANVAS_AT[0]])
    mask = ~near(frame[y0:y1, x0:x1], grey, tol=6)
    box = box_of(mask, min_area=4000)
    return None if box is None else (box[0] + x0, box[1] + y0, box[2], box[3])


def picture_open(frame: np.ndarray) -> bool:
    """Whether GIMP shows an image (its tab's thumbnail is there) on a 1280x800 frame."""
    x0, y0, x1, y1 = TAB
    bar = tuple(int(v) for v in frame[(y0 + y1) // 2, 150])  # the tab bar beside the tabs
    return float((~near(frame[y0:y1, x0:x1], bar, tol=10)).mean()) > 0.5


class MeituScript(PlanScript):
    """GIMP's moves, in the twin's 1280x800 screen pixels scaled to the frames shown."""

    def box(self, frame: np.ndarray | None) -> Box | None:
        return None if frame is None else picture_box(self.at_screen(frame))

    def shown(self, frame: np.ndarray) -> bool:
        small = self.at_screen(frame)
        return picture_open(small) and picture_box(small) is not None

    def dialog(self, keys: tuple[str, ...], then: list[Event]) -> Generator[Any, Any, Any]:
        """Press ``keys``; once the dialog they open has come up (the screen changed, then
        stayed still for half a second: a loaded machine may take seconds), send ``then``."""
        before = yield Wait(0.05)
        yield Hotkey(keys)
        yield from calm(before, limit_s=15.0)
        frame = None
        for e in then:
            frame = yield e
        return frame

    def path_dialog(self, keys: tuple[str, ...], path: str) -> Generator[Any, Any, Any]:
        """A file dialog opened by ``keys``, at the home folder (Alt+Home), given ``path`` under
        it in its location entry: ``/`` shows the entry if GTK hides it (it keeps it shown once
        shown), then Ctrl+A selects what the entry holds for the path to replace."""
        return (yield from self.dialog(keys, [
            Hotkey(("alt", "home")), Wait(0.5), KeyPress("/"), Wait(0.5), Hotkey(("ctrl", "a")),
            TypeText(path, 0.02), Wait(0.5), KeyPress("enter")]))  # fmt: skip

    def open_picture(self, path: str) -> Program:
        """File > Open of ``path`` (under the home), until the picture shows."""

        def run() -> Generator[Any, Any, None]:
            frame = yield from self.path_dialog(("ctrl", "o"), path)
            waited = 0.0
            while waited < 15.0 and (frame is None or not self.shown(frame)):
                frame = yield Wait(0.25)
                waited += 0.25
            yield from still(0.8, 8.0)

        return Program(run)

    def open_and_find(self, name: str) -> Generator[Any, np.ndarray | None, Box | None]:
        """Open ``Pictures/<name>``; where the picture shows on the screen (None if nowhere)."""
        frame = yield self.open_picture(f"Pictures/{name}")
        return self.box(frame)

    def open_next(self, path: str, before: np.ndarray | None) -> Program:
        """File > Open of ``path`` while another picture may show (``before``: what it shows):
        until the canvas has shown a photo with a subject, unlike ``before``, on a still screen
        for 0.8 s (GIMP may take a while to show what it opened)."""

        def other(frame: np.ndarray) -> bool:
            crop = self.picture(frame)
            if crop is None or subject_of(crop) is None:
                return False
            return before is None or before.shape != crop.shape or changed(before, crop, 4.0)

        def run() -> Generator[Any, np.ndarray | None, None]:
            last, still, waited = None, 0.0, 0.0
            yield from self.path_dialog(("ctrl", "o"), path)
            while waited < 20.0 and still < 0.8:
                frame = yield Wait(0.2)
                waited += 0.2
                calm = last is not None and frame is not None and not changed(last, frame)
                still = still + 0.2 if calm and other(frame) else 0.0
                last = frame

        return Program(run)

    def picture(self, frame: np.ndarray | None) -> np.ndarray | None:
        """The picture GIMP shows on ``frame`` (screen pixels), or None."""
        box = self.box(frame)
        if frame is None or box is None:
            return None
        x, y, w, h = box
        return self.at_screen(frame)[y : y + h, x : x + w]

    def find_photo(self, instruction: str) -> Generator[Any, np.ndarray | None, bool]:
        """Open the folder's photos one by one until one shows the subject the instruction
        names ("the photo of the red boat in Pictures/Trip"); whether one did (it is the
        picture shown)."""
        m = SUBJECT.search(instruction)
        if m is None:
            return False
        want, folder = (m.group(1), m.group(2)), m.group(3)
        seen = None
        for name in SCENES:
            frame = yield self.open_next(f"Pictures/{folder}/{name}", seen)
            seen = self.picture(frame)
            if seen is not None and subject_of(seen) == want:
                return True
        return False

    def open_layer(self, path: str) -> Program:
        """File > Open as Layers of ``path`` (under the home), until the dialog has gone (the
        canvas shows what it showed before) and the screen is still."""

        def run() -> Generator[Any, Any, None]:
            box = self.box((yield Wait(0.05)))
            yield from self.path_dialog(("ctrl", "alt", "o"), path)
            yield from self.back_to(box)

        return Program(run)

    def back_to(self, box: Box | None, limit_s: float = 20.0) -> Generator[Any, Any, Any]:
        """Wait (inside a program) until the canvas shows the picture where ``box`` was (no
        dialog over it), then until the screen is still; the last frame."""
        frame, waited = None, 0.0
        while waited < limit_s:
            frame = yield Wait(0.25)
            waited += 0.25
            now = self.box(frame)
            if box is None or now is not None and max(abs(a - b) for a, b in zip(now, box)) <= 4:
                break
        return (yield from still(0.8, 10.0))

    def action_dialog(self, name: str, then: list[Event], focus: bool = False) -> Program:
        """Search Actions for ``name`` (a dialog; ``focus``: first click the canvas, for GIMP
        to take the keys); once it has come up, ``then``; then until the screen is still."""

        def run() -> Generator[Any, Any, None]:
            before = yield Wait(0.05)
            for e in self.focus() if focus else []:
                before = yield e
            for e in self.action(name):
                _ = yield e
            yield from calm(before, limit_s=15.0)
            for e in then:
                _ = yield e
            yield from still(0.8, 10.0)

        return Program(run)

    def canvas_width(self, width: int) -> Program:
        """Image > Canvas Size: the width ``width`` (the chain unlinked keeps the height)."""
        return self.action_dialog("Canvas Size", [
            self.click(125, 455, 3), TypeText(str(width), 0.02), KeyPress("tab"), Wait(0.3),
            self.click(432, 772), Wait(1.0)], focus=True)  # fmt: skip

    def layer_x(self, x: int) -> Program:
        """Layer Attributes of the active layer: its x offset ``x``."""
        return self.action_dialog("Edit Layer Attributes", [
            self.click(345, 606, 3), TypeText(str(x), 0.02), KeyPress("tab"), Wait(0.3),
            self.click(689, 768), Wait(1.0)])  # fmt: skip

    def save(self, name: str) -> Program:
        """File > Save As (a new project) under ``name``, until the dialog has gone."""

        def run() -> Generator[Any, Any, None]:
            box = self.box((yield Wait(0.05)))
            yield from self.dialog(("ctrl", "s"), [
                Hotkey(("ctrl", "a")), TypeText(name, 0.02), KeyPress("enter")])  # fmt: skip
            yield from self.back_to(box)

        return Program(run)

    def focus(self) -> list[Event]:
        return [self.click(*CANVAS_AT), Wait(0.3)]

    def action(self, name: str) -> list[Event]:
        """Search Actions (``/``): run the action called ``name``."""
        return [KeyPress("/"), Wait(1.0), TypeText(name, 0.02), Wait(0.8), KeyPress("enter"),
                Wait(1.0)]  # fmt: skip

    def export(self, name: str) -> Program:
        """File > Export As under ``name`` (next to the picture); once the format's dialog has
        come up and the screen is still, its Export (Enter), again while a dialog still covers
        the canvas (a slow machine: the first Enter came before the dialog)."""

        def dialog(frame: np.ndarray | None) -> bool:
            box = self.box(frame)
            return box is not None and box[2] > 500  # wider than any picture here

        def run() -> Generator[Any, np.ndarray | None, None]:
            frame = yield from self.dialog(("ctrl", "shift", "e"), [
                Hotkey(("ctrl", "a")), TypeText(name, 0.02), KeyPress("enter")])  # fmt: skip
            yield from calm(frame, limit_s=10.0)
            yield KeyPress("enter")
            frame = yield from still(1.0, 15.0)
            for _ in range(2):
                if not dialog(frame):
                    return
                yield KeyPress("enter")
                frame = yield from still(1.0, 15.0)

        return Program(run)


def still(quiet_s: float, limit_s: float) -> Generator[Any, Any, Any]:
    """Wait (inside a program) until the screen has not changed for ``quiet_s`` (at most
    ``limit_s``); the last frame."""
    frame, last, calm_s, waited = None, None, 0.0, 0.0
    while waited < limit_s and calm_s < quiet_s:
        frame = yield Wait(0.2)
        waited += 0.2
        same = last is not None and frame is not None and not changed(last, frame)
        calm_s = calm_s + 0.2 if same else 0.0
        last = frame
    return frame


def calm(
    before: np.ndarray | None, limit_s: float = 10.0, quiet_s: float = 0.5
) -> Generator[Any, Any, Any]:
    """Wait (inside a program) until the screen differs from ``before``, then until it has not
    changed for ``quiet_s`` (at most ``limit_s`` in all); the last frame."""
    frame, waited = None, 0.0
    while waited < limit_s and (frame is None or before is None or not changed(before, frame)):
        frame = yield Wait(0.2)
        waited += 0.2
    return (yield from still(quiet_s, max(1.0, limit_s - waited)))


def _picture(instruction: str) -> str:
    m = PICTURE.search(instruction)
    return m.group(1) if m else "A_picture.jpg"


class ApplyFilterScript(MeituScript):
    """Find the photo the instruction describes, Colors > Value Invert, export a copy."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        if not (yield from self.find_photo(instruction)):
            return
        yield settle([*self.focus(), *self.action("Value Invert")])
        yield self.export("filtered.jpg")


class CutoutPersonScript(MeituScript):
    """Open the picture; fuzzy-select the plain background at its corner, add an alpha
    channel, clear the selection, export a PNG."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        name = _picture(instruction)
        box = yield from self.open_and_find(name)
        if box is None:
            return
        x, y = box[0] + 6, box[1] + 6
        yield settle([*self.focus(), KeyPress("u"), Wait(0.3), self.click(x, y), Wait(1.0),
                      *self.action("Add Alpha Channel")])  # fmt: skip
        yield settle([KeyPress("delete"), Wait(0.5), Hotkey(("ctrl", "shift", "a"))])
        yield self.export(f"{PurePosixPath(name).stem}_cutout.png")


class AddFlowerStickerScript(MeituScript):
    """Find the photo the instruction describes, open the sticker it names as a layer,
    export."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        kind = re.search(r"Add an? (\w+) sticker", instruction)
        if not (yield from self.find_photo(instruction)):
            return
        yield self.open_layer(f"Pictures/Stickers/{kind.group(1) if kind else 'flower'}.png")
        yield self.export("with_sticker.jpg")


class MakeCollageScript(MeituScript):
    """Open the first photo, widen the canvas to three photos (Image > Canvas Size), open the
    other two as layers (each lands in the middle), move the last one right (Layer
    Attributes' offset), save the project."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        found = re.findall(r"(photo\d+\.jpg)", instruction)[:3]
        folder = re.search(r"in Pictures/([\w-]+)", instruction)
        if len(found) < 3:
            return
        photos = [f"{folder.group(1)}/{p}" if folder else p for p in found]
        box = yield from self.open_and_find(photos[0])
        w = box[2] if box is not None else 480
        yield self.canvas_width(3 * w)
        yield self.open_layer(f"Pictures/{photos[1]}")
        yield self.open_layer(f"Pictures/{photos[2]}")
        yield self.layer_x(2 * w)
        yield self.save("collage.xcf")


class CircleFrameScript(MeituScript):
    """Open the picture; an ellipse selection of the largest circle inside it, inverted,
    filled with the foreground colour (Ctrl+,), selection none, export."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        name = _picture(instruction)
        box = yield from self.open_and_find(name)
        if box is None:
            return
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        r = min(box[2], box[3]) / 2 - 10
        yield settle([*self.focus(), KeyPress("e"), Wait(0.3), MoveTo(*self.at(cx - r, cy - r)),
                      DragTo(*self.at(cx + r, cy + r), "left", 1.0), Wait(0.5)])  # fmt: skip
        yield settle([Hotkey(("ctrl", "i")), Wait(0.3), Hotkey(("ctrl", ",")), Wait(0.5),
                      Hotkey(("ctrl", "shift", "a")), Wait(0.3)])  # fmt: skip
        yield self.export(f"{PurePosixPath(name).stem}_frame.jpg")
