"""The Meitu twin's setup steps: the seed's pictures and stickers, and GIMP on a fresh profile.

``pictures``: writes ``~/Pictures/A_picture.jpg``, ``B_picture.jpg`` and ``C_picture.jpg``
(each a person on a plain background, or each a landscape: the task's ``choose`` step names
which one it is about, the others are look-alikes), five photos for the collage, the stickers
in ``~/Pictures/Stickers``, and keeps pristine copies and each person's mask under the answer
folder for the checkers. ``gimp``: GIMP 2.10 in single-window mode without tips or fonts,
empty (the agent opens the picture the instruction names) or opening the given picture.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gcc_envs.apps.meitu.pictures import STICKERS, person_picture, photo, sticker
from gcc_envs.apps.software.desktop import folders, launch, screen_size
from gcc_envs.apps.software.reading import write_answer
from gcc_envs.errors import GCCError

KEEP = ".cache/gcc-task"  # next to the answer key: pristine inputs and the person's mask
GIMPRC = """(show-tips no)
(restore-session no)
(save-session-info no)
(save-device-status no)
(default-image-zoom 1.0)
"""
SESSIONRC = """(session-info "toplevel"
    (factory-entry "gimp-single-image-window")
    (position 0 0)
    (size {W} {H})
    (open-on-exit))
(single-window-mode yes)
"""


def _write(path: Any, rgb: np.ndarray, quality: int = 95) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    bgr = (
        cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
        if rgb.shape[2] == 3
        else cv2.cvtColor(rgb, cv2.COLOR_RGBA2BGRA)
    )
    if not cv2.imwrite(str(path), bgr, [cv2.IMWRITE_JPEG_QUALITY, quality]):
        raise GCCError(f"could not write {path}")


#: The pictures a task may name (the paper's is the first); the collage's photos.
NAMES = ("A_picture.jpg", "B_picture.jpg", "C_picture.jpg")
PHOTOS = tuple(f"photo{i}.jpg" for i in range(1, 6))


def mask_name(name: str) -> str:
    """The file (under :data:`KEEP`) of the person's mask in picture ``name``."""
    return f"mask_{Path(name).stem}.png"


def pictures(session: Any, picture: str = "person") -> None:
    """The episode's pictures (``picture``: ``"person"`` or ``"photo"`` for :data:`NAMES`)."""
    if picture not in ("person", "photo"):
        raise GCCError(f"pictures: picture must be 'person' or 'photo', got {picture!r}")
    folders(session)
    rng = session.rng
    pics, keep = session.home / "Pictures", session.home / KEEP
    keep.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        if picture == "person":
            img, mask = person_picture(rng)
            _write(keep / mask_name(name), np.repeat(mask[..., None], 3, 2))
        else:
            img = photo(rng)
        _write(pics / name, img)
        shutil.copy(pics / name, keep / name)
    for name in PHOTOS:
        _write(pics / name, photo(rng))
        shutil.copy(pics / name, keep / name)
    for kind in STICKERS:
        _write(pics / "Stickers" / f"{kind}.png", sticker(kind))
    for name in NAMES:
        session.files[name] = pics / name
    write_answer(session.home, picture=picture)


def gimp(session: Any, open: str | None = None, timeout_s: float = 60.0):
    """GIMP on a fresh profile, opening ``open`` (under the home) if given, else empty."""
    exe = shutil.which("gimp")
    if exe is None:
        raise GCCError("GIMP is not installed (Debian package: gimp)")
    conf = session.home / ".config" / "GIMP" / "2.10"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "gimprc").write_text(GIMPRC)
    W, H = screen_size(session)
    (conf / "sessionrc").write_text(SESSIONRC.format(W=W, H=H - 30))
    argv = [exe, "--no-splash", "--no-fonts", "--no-shm"]
    if open:
        argv.append(str(session.home / open))
    title = rf"\[{Path(open).stem}\].* GIMP$" if open else r"^GNU Image Manipulation Program$"
    launch(session, argv, title, timeout_s)


def setup_steps() -> Mapping[str, Callable[..., None]]:
    """The Meitu suite's own setup step kinds."""
    return {"pictures": pictures, "gimp": gimp}
