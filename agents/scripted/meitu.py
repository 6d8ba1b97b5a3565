"""Scripted solutions of the Meitu twins (GIMP 2.10, single-window mode): its Open dialogs
(Ctrl+O, Ctrl+Alt+O as layers; Alt+Home goes to the home folder, Ctrl+L takes a path), its
Search Actions (``/``), shortcuts and dialogs, and clicks on the picture, which each finds on
the frame (the one large region of the canvas that is not GIMP's grey), as a person would.

Each reads what varies from the instruction (which picture, which sticker, which photos) and
acts through events only; clicks in pixels of the twin's 1280x800 screen, scaled to the frames
shown.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from pathlib import PurePosixPath
from typing import Any

import numpy as np

from gcc_envs.apps.software.scripting import Plan, PlanScript, box_of, near, settle, until
from gcc_envs.core.events import DragTo, Event, Hotkey, KeyPress, MoveTo, TypeText, Wait
from gcc_envs.core.program import Program

CANVAS_AT = (200, 680)  # a point of the grey canvas around the picture (clicking it: keys go in)
CANVAS = (24, 114, 1256, 740)  # x0, y0, x1, y1: the canvas under the rulers, above the status
TAB = (10, 54, 54, 88)  # x0, y0, x1, y1: the first image tab's thumbnail (none while empty)
Box = tuple[int, int, int, int]  # x, y, w, h in the 1280x800 screen
PICTURE = re.compile(r"Pictures/([\w.-]+\.(?:jpg|png))")


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

    def path_dialog(self, keys: tuple[str, ...], path: str) -> list[Event]:
        """A file dialog opened by ``keys``, at the home folder (Alt+Home), given ``path`` under
        it in its location entry: ``/`` shows the entry if GTK hides it (it keeps it shown once
        shown), then Ctrl+A selects what the entry holds for the path to replace."""
        return [Hotkey(keys), Wait(1.5), Hotkey(("alt", "home")), Wait(0.5), KeyPress("/"),
                Wait(0.5), Hotkey(("ctrl", "a")), TypeText(path, 0.02), Wait(0.5),
                KeyPress("enter")]  # fmt: skip

    def open_picture(self, path: str) -> Program:
        """File > Open of ``path`` (under the home), until the picture shows."""
        return until(self.path_dialog(("ctrl", "o"), path), self.shown, timeout_s=15.0, then_s=0.8)

    def open_and_find(self, name: str) -> Generator[Any, np.ndarray | None, Box | None]:
        """Open ``Pictures/<name>``; where the picture shows on the screen (None if nowhere)."""
        frame = yield self.open_picture(f"Pictures/{name}")
        return self.box(frame)

    def open_layer(self, path: str) -> Program:
        """File > Open as Layers of ``path`` (under the home)."""
        return settle([*self.path_dialog(("ctrl", "alt", "o"), path), Wait(1.0)], quiet_s=0.8)

    def focus(self) -> list[Event]:
        return [self.click(*CANVAS_AT), Wait(0.3)]

    def action(self, name: str) -> list[Event]:
        """Search Actions (``/``): run the action called ``name``."""
        return [KeyPress("/"), Wait(1.0), TypeText(name, 0.02), Wait(0.8), KeyPress("enter"),
                Wait(1.0)]  # fmt: skip

    def export(self, name: str) -> Program:
        """File > Export As under ``name`` (next to the picture), then the format's Export."""
        return settle([Hotkey(("ctrl", "shift", "e")), Wait(1.5), Hotkey(("ctrl", "a")),
                       TypeText(name, 0.02), KeyPress("enter"), Wait(1.5), KeyPress("enter"),
                       Wait(2.0)], quiet_s=1.0)  # fmt: skip


def _picture(instruction: str) -> str:
    m = PICTURE.search(instruction)
    return m.group(1) if m else "A_picture.jpg"


class ApplyFilterScript(MeituScript):
    """Open the picture, Colors > Value Invert, export a copy."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        name = _picture(instruction)
        yield self.open_picture(f"Pictures/{name}")
        yield settle([*self.focus(), *self.action("Value Invert")])
        yield self.export(f"{PurePosixPath(name).stem}_filtered.jpg")


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
    """Open the picture, the sticker the instruction names as a layer, export."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        name = _picture(instruction)
        kind = re.search(r"Add an? (\w+) sticker", instruction)
        yield self.open_picture(f"Pictures/{name}")
        yield self.open_layer(f"Pictures/Stickers/{kind.group(1) if kind else 'flower'}.png")
        yield self.export(f"{PurePosixPath(name).stem}_sticker.jpg")


class MakeCollageScript(MeituScript):
    """Open the first photo, widen the canvas to three photos (Image > Canvas Size), open the
    other two as layers (each lands in the middle), move the last one right (Layer
    Attributes' offset), save the project."""

    def plan(self, instruction: str, frame: np.ndarray) -> Plan:
        photos = re.findall(r"(photo\d+\.jpg)", instruction)[:3]
        if len(photos) < 3:
            return
        box = yield from self.open_and_find(photos[0])
        w = box[2] if box is not None else 480
        yield settle([*self.focus(), *self.action("Canvas Size"), Wait(0.5),
                      self.click(125, 455, 3), TypeText(str(3 * w), 0.02), KeyPress("tab"),
                      Wait(0.3), self.click(432, 772), Wait(1.0)])  # fmt: skip
        yield self.open_layer(f"Pictures/{photos[1]}")
        yield self.open_layer(f"Pictures/{photos[2]}")
        yield settle([*self.action("Edit Layer Attributes"), Wait(0.5), self.click(345, 606, 3),
                      TypeText(str(2 * w), 0.02), KeyPress("tab"), Wait(0.3),
                      self.click(689, 768), Wait(1.0)])  # fmt: skip
        yield settle([Hotkey(("ctrl", "s")), Wait(1.5), Hotkey(("ctrl", "a")),
                      TypeText("collage.xcf", 0.02), KeyPress("enter"), Wait(2.0)], quiet_s=1.0)  # fmt: skip


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
