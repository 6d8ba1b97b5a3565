"""The Meitu twin's setup steps: the seed's pictures and stickers, and GIMP on a fresh profile.

``pictures``: writes the candidates into ``~/Pictures/<folder>`` — ten persons on plain
backgrounds (:data:`PERSONS`), ten landscapes (:data:`LANDSCAPES`; the task's ``choose`` step
names which one it is about, the others are look-alikes) or four scenes ``IMG_1.jpg`` ..
``IMG_4.jpg`` (:data:`SCENES`), one of them showing the subject the instruction describes,
at a seeded place among them (the value ``picture`` says which), the others look-alikes
sharing its colour or its kind — six photos for the collage, the stickers in
``~/Pictures/Stickers``, and keeps pristine copies and each person's mask under the answer
folder for the checkers (the answer key names the folder and the candidates). ``gimp``: GIMP 2.10 in single-window mode without tips or fonts,
empty (the agent opens the picture the instruction names) or opening the given picture.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from gcc_envs.apps.meitu.pictures import (
    COLOURS,
    STICKERS,
    SUBJECTS,
    person_picture,
    photo,
    scene,
    sticker,
)
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
    jpeg = str(path).lower().endswith((".jpg", ".jpeg"))  # PNG writers warn at a JPEG option
    if not cv2.imwrite(str(path), bgr, [cv2.IMWRITE_JPEG_QUALITY, quality] if jpeg else []):
        raise GCCError(f"could not write {path}")


#: The pictures a task may name by file (the paper's is the first), of persons, of landscapes;
#: the scenes a task names by their subject; the collage's photos.
PERSONS = ("A_picture.jpg", "B_picture.jpg", "portrait.jpg", "selfie.jpg", "profile.jpg",
           "headshot.jpg", "me.jpg", "friend.jpg", "passport.jpg", "avatar.jpg")  # fmt: skip
LANDSCAPES = ("A_picture.jpg", "B_picture.jpg", "lake.jpg", "hills.jpg", "sunset.jpg",
              "view.jpg", "valley.jpg", "meadow.jpg", "coast.jpg", "dawn.jpg")  # fmt: skip
SCENES = tuple(f"IMG_{i}.jpg" for i in range(1, 5))
PHOTOS = tuple(f"photo{i}.jpg" for i in range(1, 7))


def mask_name(name: str) -> str:
    """The file (under :data:`KEEP`) of the person's mask in picture ``name``."""
    return f"mask_{Path(name).stem}.png"


def _subjects(rng: np.random.Generator, colour: str, subject: str) -> list[tuple[str, str]]:
    """The scenes' subjects: ``(colour, subject)`` first, then one of its colour, one of its
    kind and one of neither (look-alikes a glance at one feature confuses)."""
    colours = [c for c in COLOURS if c != colour]
    kinds = [k for k in SUBJECTS if k != subject]
    other_c, other_k = colours[int(rng.integers(len(colours)))], kinds[int(rng.integers(2))]
    third_c = [c for c in colours if c != other_c][int(rng.integers(len(colours) - 1))]
    third_k = kinds[int(rng.integers(2))]
    return [(colour, subject), (colour, other_k), (other_c, subject), (third_c, third_k)]


def pictures(
    session: Any,
    picture: str = "person",
    folder: str = "",
    colour: str = "red",
    subject: str = "boat",
) -> None:
    """The episode's pictures (``picture``: ``"person"``, ``"photo"`` or ``"scene"``) in
    ``~/Pictures/<folder>`` (``""``: in ``~/Pictures``); a scene task's subject is the
    ``colour`` ``subject``, and the value ``picture`` names the scene that shows it."""
    if picture not in ("person", "photo", "scene"):
        raise GCCError(f"pictures: picture must be 'person', 'photo' or 'scene', got {picture!r}")
    if "/" in folder or folder.startswith("."):
        raise GCCError(f"pictures: folder must be a plain name, got {folder!r}")
    if picture == "scene" and (colour not in COLOURS or subject not in SUBJECTS):
        raise GCCError(f"pictures: no {colour!r} {subject!r}; colours {sorted(COLOURS)}, "
                       f"subjects {SUBJECTS}")  # fmt: skip
    folders(session)
    rng = session.rng
    pics, keep = (
        session.home / "Pictures" / folder if folder else session.home / "Pictures",
        session.home / KEEP,
    )
    keep.mkdir(parents=True, exist_ok=True)
    names = {"person": PERSONS, "photo": LANDSCAPES, "scene": SCENES}[picture]
    if picture == "scene":
        subjects = _subjects(rng, colour, subject)
        order = rng.permutation(len(SCENES))  # scene i shows subjects[order[i]]
        session.vars["picture"] = SCENES[int(np.argmin(order))]
    for i, name in enumerate(names):
        if picture == "person":
            img, mask = person_picture(rng)
            _write(keep / mask_name(name), np.repeat(mask[..., None], 3, 2))
        elif picture == "photo":
            img = photo(rng)
        else:
            img = scene(rng, *subjects[int(order[i])])
        _write(pics / name, img)
        shutil.copy(pics / name, keep / name)
    for name in PHOTOS:
        _write(pics / name, photo(rng))
        shutil.copy(pics / name, keep / name)
    for kind in STICKERS:
        _write(session.home / "Pictures" / "Stickers" / f"{kind}.png", sticker(kind))
    for name in names:
        session.files[name] = pics / name
    write_answer(session.home, picture=picture, folder=folder, candidates=list(names))


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
