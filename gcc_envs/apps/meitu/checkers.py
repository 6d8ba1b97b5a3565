"""Checkers of the Meitu twin (GIMP): saved pictures against the inputs, by pixel statistics.

Outputs are the image files a person would save: any picture in ``~/Pictures``, the task's
folder under it, ``~/Desktop``, ``~/Documents`` or the home (an overwritten input included;
the untouched inputs and the stickers folder not). Each checker passes when one output shows the task done to the picture
the task names (``picture``): an output made from one of its look-alikes does not count.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator

import cv2
import numpy as np

from gcc_envs.apps.meitu.pictures import STICKERS, sticker
from gcc_envs.apps.meitu.setup import KEEP, PHOTOS, mask_name
from gcc_envs.apps.meitu.xcf import read_xcf
from gcc_envs.apps.software.reading import answer, files_in
from gcc_envs.core.probe import DesktopProbe
from gcc_envs.errors import DataError

FOLDERS = ("Pictures", "Desktop", "Documents", ".")
IMAGE_EXT = (".jpg", ".jpeg", ".png", ".webp", ".tif", ".tiff", ".bmp")


def decode(data: bytes) -> np.ndarray | None:
    """RGB or RGBA uint8 of an image file's bytes (None when it is not an image)."""
    if not data:  # a file being written
        return None
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 and img.ndim != 2:
        return None
    if img.dtype != np.uint8:
        img = (img / 257).astype(np.uint8)
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2RGB)
    code = cv2.COLOR_BGRA2RGBA if img.shape[2] == 4 else cv2.COLOR_BGR2RGB
    return cv2.cvtColor(img, code)


def original(probe: DesktopProbe, name: str = "A_picture.jpg") -> np.ndarray:
    img = decode(probe.read_file(f"{KEEP}/{name}"))
    if img is None:
        raise DataError(f"the pristine {name} is not readable")
    return img


def candidates(probe: DesktopProbe) -> list[str]:
    """The pictures the task may name (the answer key's), the one it names among them."""
    return list(answer(probe).get("candidates", ()))


def folders(probe: DesktopProbe) -> tuple[str, ...]:
    """Where outputs may be: :data:`FOLDERS` and the task's folder under ``~/Pictures``."""
    mine = answer(probe).get("folder", "")
    return (f"Pictures/{mine}", *FOLDERS) if mine else FOLDERS


def outputs(probe: DesktopProbe, ext: tuple[str, ...] = IMAGE_EXT) -> Iterator[np.ndarray]:
    """Each saved picture (decoded), except inputs left exactly as they were handed out."""
    pristine = {n: probe.read_file(f"{KEEP}/{n}") for n in files_in(probe, KEEP)}
    for folder in folders(probe):
        for name in files_in(probe, folder):
            if not name.lower().endswith(ext):
                continue
            data = probe.read_file(f"{folder}/{name}")
            if folder.startswith("Pictures") and pristine.get(name) == data:
                continue
            img = decode(data)
            if img is not None:
                yield img


def _likeliest(probe: DesktopProbe, out: np.ndarray) -> str | None:
    """Which of the task's pictures (:func:`candidates`) ``out`` (RGB) shows most of: the one
    the largest share of its pixels match (within 30 levels), of those of its size (None when
    none is)."""
    best, name = -1.0, None
    for n in candidates(probe):
        src = original(probe, n)
        if src.shape == out.shape:
            share = float((np.abs(out.astype(np.int16) - src).max(2) <= 30).mean())
            best, name = (share, n) if share > best else (best, name)
    return name


def _rgb(img: np.ndarray) -> np.ndarray:
    if img.shape[2] == 3:
        return img
    a = img[..., 3:4].astype(np.float32) / 255.0  # flatten over white, as a viewer shows it
    return (img[..., :3] * a + 255 * (1 - a)).astype(np.uint8)


def edges(img: np.ndarray, sigma: float = 3.0) -> np.ndarray:
    """The picture's edge strength per pixel (each channel's gradient after a blur, summed),
    flat: what a filter keeps of a picture while it changes its colours."""
    out = np.zeros(img.shape[:2], np.float32)
    for c in range(3):
        g = cv2.GaussianBlur(img[..., c].astype(np.float32), (0, 0), sigma)
        out += np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    return out.ravel()


def filtered(
    probe: DesktopProbe, picture: str = "A_picture.jpg", min_changed: float = 0.5,
    min_r: float = 0.5,
) -> float:  # fmt: skip
    """A copy of ``picture`` changed all over yet still showing it (a filter, not a fill): its
    edges follow the picture's (correlation at least ``min_r``) more closely than any
    look-alike's."""
    src = original(probe, picture)
    e0 = edges(src)
    others = [edges(o) for o in (original(probe, n) for n in candidates(probe) if n != picture)
              if o.shape == src.shape]  # fmt: skip
    for img in outputs(probe):
        if img.shape[:2] != src.shape[:2]:
            continue
        out = _rgb(img)
        changed = (np.abs(out.astype(np.int16) - src).max(2) > 12).mean()
        if changed < min_changed or out.std() < 3.0:
            continue
        e1 = edges(out)
        r = float(np.corrcoef(e0, e1)[0, 1])
        if r >= min_r and all(r > float(np.corrcoef(e, e1)[0, 1]) for e in others):
            return 1.0
    return 0.0


def cutout(probe: DesktopProbe, picture: str = "A_picture.jpg", min_iou: float = 0.9) -> float:
    """A picture with transparency whose opaque part is the person of ``picture`` (alpha vs
    the mask, IoU; its colours the picture's)."""
    mask = original(probe, mask_name(picture))[..., 0] > 127
    src = original(probe, picture)
    for img in outputs(probe):
        if img.shape[:2] != mask.shape or img.shape[2] != 4:
            continue
        opaque = img[..., 3] > 127
        iou = (opaque & mask).sum() / max(1, (opaque | mask).sum())
        if iou < min_iou:
            continue
        if float(np.abs(img[..., :3][opaque].astype(np.int16) - src[opaque]).mean()) < 12.0:
            return 1.0
    return 0.0


def _sticker_rms(img: np.ndarray, kind: str) -> float:
    """Least RMS error (0-255) of ``kind`` pasted anywhere on ``img`` at a few scales."""
    best = np.inf
    src = sticker(kind)
    for scale in (1.0, 0.75, 0.5, 1.5, 2.0):
        t = cv2.resize(src, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if t.shape[0] > img.shape[0] or t.shape[1] > img.shape[1]:
            continue
        m = np.repeat((t[..., 3:] > 200).astype(np.float32), 3, 2)
        res = cv2.matchTemplate(img.astype(np.float32), t[..., :3].astype(np.float32),
                                cv2.TM_SQDIFF, mask=m)  # fmt: skip
        best = min(best, float(np.sqrt(max(res.min(), 0) / m.sum())))
    return best


def sticker_added(
    probe: DesktopProbe, kind: str = "flower", picture: str = "A_picture.jpg", max_rms: float = 28.0
) -> float:
    """``picture`` with the ``kind`` sticker on it (and not merely another sticker)."""
    src = original(probe, picture)
    for img in outputs(probe):
        if img.shape[:2] != src.shape[:2]:
            continue
        out = _rgb(img)
        if _likeliest(probe, out) != picture:
            continue
        rms = {k: _sticker_rms(out, k) for k in STICKERS}
        if rms[kind] <= max_rms and rms[kind] == min(rms.values()):
            return 1.0
    return 0.0


def _shows(layer: np.ndarray, photo: np.ndarray) -> bool:
    if layer.shape[2] < 3:
        return False
    rgb = cv2.resize(layer[..., :3], (photo.shape[1], photo.shape[0]), interpolation=cv2.INTER_AREA)
    return float(np.abs(rgb.astype(np.int16) - photo).mean()) < 12.0


def collage(
    probe: DesktopProbe,
    photos: tuple[str, ...] | list[str] = ("photo1.jpg", "photo2.jpg", "photo3.jpg"),
    max_overlap: float = 0.1,
) -> float:
    """A GIMP project (``.xcf``) whose canvas shows the ``photos`` side by side, and no other
    of the suite's photos: one visible layer per photo, overlapping at most ``max_overlap`` of
    the smaller, mostly on the canvas."""
    every = {n: original(probe, n) for n in PHOTOS}
    want = set(photos)
    for folder in folders(probe):
        for name in files_in(probe, folder):
            if not name.lower().endswith(".xcf"):
                continue
            try:
                xcf = read_xcf(probe.read_file(f"{folder}/{name}"))
            except (DataError, ValueError, IndexError, KeyError, struct.error, zlib.error):
                continue
            if _is_collage(xcf, every, want, max_overlap):
                return 1.0
    return 0.0


def _is_collage(xcf, every: dict[str, np.ndarray], want: set[str], max_overlap: float) -> bool:
    boxes, shown = [], set()
    for layer in xcf.layers:
        if not layer.visible:
            continue
        which = [n for n, p in every.items() if _shows(layer.pixels, p)]
        if not which:
            continue
        if which[0] not in want:
            return False  # another photo than those asked for
        if which[0] in shown:
            continue
        x0, y0 = max(layer.x, 0), max(layer.y, 0)
        x1, y1 = min(layer.x + layer.width, xcf.width), min(layer.y + layer.height, xcf.height)
        if (x1 - x0) * (y1 - y0) < 0.8 * layer.width * layer.height:
            continue  # mostly off the canvas
        shown.add(which[0])
        boxes.append((layer.x, layer.y, layer.x + layer.width, layer.y + layer.height))
    if shown != want:
        return False
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            w = min(a[2], b[2]) - max(a[0], b[0])
            h = min(a[3], b[3]) - max(a[1], b[1])
            small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
            if w > 0 and h > 0 and w * h > max_overlap * small:
                return False
    return True


def circle_frame(
    probe: DesktopProbe, picture: str = "A_picture.jpg", min_iou: float = 0.93
) -> float:
    """``picture`` kept inside a circle and covered (or cleared) outside it: the unchanged part
    is one disc (IoU with the disc of the same area and centre), the frame a real border."""
    src = original(probe, picture)
    for img in outputs(probe):
        if img.shape[:2] != src.shape[:2]:
            continue
        out = _rgb(img)
        if _likeliest(probe, out) != picture:
            continue
        kept = (np.abs(out.astype(np.int16) - src).max(2) <= 30).astype(np.uint8)
        if img.shape[2] == 4:
            kept &= (img[..., 3] > 127).astype(np.uint8)
        kept = cv2.morphologyEx(kept, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(kept)
        if n < 2:
            continue
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        area = stats[k, cv2.CC_STAT_AREA]
        if not 0.1 <= area / kept.size <= 0.9:
            continue
        disc = np.zeros_like(kept)
        cx, cy = centroids[k]
        cv2.circle(disc, (round(cx), round(cy)), round(np.sqrt(area / np.pi)), 1, -1)
        part = labels == k
        iou = (part & (disc > 0)).sum() / max(1, (part | (disc > 0)).sum())
        if iou >= min_iou:
            return 1.0
    return 0.0
