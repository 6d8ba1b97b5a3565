"""OSWorld's image metrics (GIMP tasks and others): similarity, size, brightness, position.

Each metric takes what a file getter gave (a :class:`~.filedata.FileData`: the file's bytes
and name; ``None`` when the file is missing, which scores 0) and decodes it with Pillow.
Semantics follow OSWorld's ``gimp.py``/``vlc.py``/``slides.py`` metrics of the same names:

* *structure similar*: both images at least 7×7 px, the same size, and their mean SSIM over
  RGB (7×7 uniform window, data range 255, sample covariance: scikit-image's defaults) at
  least 0.9 (0.65 for contrast, 0.99 for a mirror);
* *brightness*: the mean of Pillow's ``L`` conversion; *contrast*: the standard deviation of
  every sample; *saturation*: the mean of the ``S`` band of Pillow's ``HSV`` conversion.

:func:`ssim` is written here on numpy/OpenCV (box filters), equal to scikit-image's
``structural_similarity`` with those defaults (checked to 1e-12), so scikit-image is not needed.

>>> a = np.tile(np.arange(16, dtype=np.uint8) * 16, (16, 1))
>>> round(ssim(a, a), 6), round(ssim(a, 255 - a), 3)
(1.0, -0.741)
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageChops

from gcc_envs.errors import GCCError
from gcc_envs.osworld.filedata import file_bytes
from gcc_envs.sandbox.isolated import run_isolated

Rule = Mapping[str, Any]
#: scikit-image's default SSIM window (a square of this many pixels a side).
SSIM_WINDOW = 7


def _score(ok: bool) -> float:
    return 1.0 if ok else 0.0


def open_image(value: Any) -> Image.Image | None:
    """The image a getter's value holds (None for None); Pillow raises on what is no image."""
    data = file_bytes(value)
    if data is None:
        return None
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _ssim_2d(x: np.ndarray, y: np.ndarray, data_range: float, win: int) -> float:
    def mean(a: np.ndarray) -> np.ndarray:
        return cv2.boxFilter(
            a, cv2.CV_64F, (win, win), normalize=True, borderType=cv2.BORDER_REFLECT
        )

    ux, uy = mean(x), mean(y)
    cov = win * win / (win * win - 1.0)  # sample covariance
    vx = cov * (mean(x * x) - ux * ux)
    vy = cov * (mean(y * y) - uy * uy)
    vxy = cov * (mean(x * y) - ux * uy)
    c1, c2 = (0.01 * data_range) ** 2, (0.03 * data_range) ** 2
    s = ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
    pad = (win - 1) // 2  # windows that reach past the border are left out
    return float(s[pad : s.shape[0] - pad, pad : s.shape[1] - pad].mean())


def ssim(a: np.ndarray, b: np.ndarray, win: int = SSIM_WINDOW) -> float:
    """Mean structural similarity of two uint8 images (H×W or H×W×C, channels averaged)."""
    if a.shape != b.shape:
        raise ValueError(f"ssim: shapes differ: {a.shape} and {b.shape}")
    if min(a.shape[:2]) < win:
        raise ValueError(f"ssim: an image of {a.shape[:2]} is smaller than the {win}-px window")
    x, y = a.astype(np.float64), b.astype(np.float64)
    if x.ndim == 2:
        return _ssim_2d(x, y, 255.0, win)
    return float(np.mean([_ssim_2d(x[..., c], y[..., c], 255.0, win) for c in range(x.shape[2])]))


def structure_same(img1: Image.Image, img2: Image.Image, threshold: float = 0.9) -> bool:
    """OSWorld's SSIM check: both at least 7×7, the same size, RGB SSIM ≥ ``threshold``."""
    if min(*img1.size, *img2.size) < SSIM_WINDOW or img1.size != img2.size:
        return False
    a, b = np.asarray(img1.convert("RGB")), np.asarray(img2.convert("RGB"))
    return ssim(a, b) >= threshold


def _has_alpha(img: Image.Image) -> bool:
    return img.mode in ("RGBA", "LA") or "transparency" in img.info


def _alpha_bbox(img: Image.Image) -> tuple[int, int, int, int] | None:
    return img.convert("RGBA").getchannel("A").getbbox()


def brightness(img: Image.Image) -> float:
    """The mean of the image's grey levels (Pillow's ``L``)."""
    return float(np.asarray(img.convert("L"), dtype=np.float64).mean())


# ---- similarity ----------------------------------------------------------------------------


def compare_images(result: Any, expected: Any, **options: Any) -> float:
    """SSIM of the two images in grey, both resized (Lanczos) to the smaller size.

    ``reference_base_result`` (the score of the unchanged state): the score is rescaled to
    ``(s - base) / (1 - base)``, and is 0 unless ``s ≥ base + 0.01``. Without it, the SSIM.
    "Smaller" compares ``(width, height)`` as tuples (width first), as OSWorld does.
    """
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    size = min(img1.size, img2.size)
    g1 = img1.convert("L").resize(size, Image.Resampling.LANCZOS)
    g2 = img2.convert("L").resize(size, Image.Resampling.LANCZOS)
    value = ssim(np.asarray(g1), np.asarray(g2))
    base = options.get("reference_base_result")
    if base is None:
        return value
    return (value - base) / (1 - base) if value >= base + 0.01 else 0.0


def check_structure_sim(result: Any, expected: Any) -> float:
    """The images have the same size and a similar structure (SSIM ≥ 0.9)."""
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    return _score(img1.size == img2.size and structure_same(img1, img2))


def check_structure_sim_resized(result: Any, expected: Any) -> float:
    """The result, cut to its opaque part and resized to the expected size, is similar."""
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    if _has_alpha(img1):
        box = _alpha_bbox(img1)
        if box is None:
            return 0.0  # wholly transparent
        img1 = img1.convert("RGBA").crop(box).convert("RGB")
    return _score(structure_same(img1.resize(img2.size), img2.convert("RGB")))


def check_file_exists_and_structure_sim(result: Any, expected: Any) -> float:
    """The exported file exists and is similar to the expected image (SSIM ≥ 0.9)."""
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    return _score(structure_same(img1, img2))


def check_image_mirror(result: Any, expected: Any) -> float:
    """The result is the expected image flipped left to right (SSIM ≥ 0.99)."""
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    return _score(structure_same(img1.transpose(Image.Transpose.FLIP_LEFT_RIGHT), img2, 0.99))


def compare_image_list(result: Any, expected: Any) -> float:
    """Every image equals its expected one pixel for pixel (after matching size and mode)."""
    if not isinstance(expected, (list, tuple)):
        result, expected = [result], [expected]
    for pred, gold in zip(result, expected):
        img1, img2 = open_image(pred), open_image(gold)
        if img1 is None or img2 is None:
            return 0.0
        if img1.size != img2.size:
            img1 = img1.resize(img2.size, Image.Resampling.LANCZOS)
        if img1.mode != img2.mode:
            img1 = img1.convert(img2.mode)
        if ImageChops.difference(img1, img2).getbbox():
            return 0.0
    return 1.0


# ---- adjustments: brightness, contrast, saturation -----------------------------------------


def _normalized(img: Image.Image, target: float = 128.0) -> Image.Image:
    factor = target / brightness(img)
    return img.point(lambda v: min(255, max(0, int(v * factor))))


def check_brightness_decrease_and_structure_sim(
    result: Any, expected: Any, threshold: float = 0.03
) -> float:
    """The result is darker than the expected image, and both, brought to a mean grey of 128,
    differ by a mean squared error (RGB, 0..1) under ``threshold``."""
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    darker = brightness(img2) > brightness(img1)
    n1, n2 = _normalized(img1), _normalized(img2)
    if n1.size != n2.size:
        n1 = n1.resize(n2.size, Image.Resampling.LANCZOS)
    a = np.asarray(n1.convert("RGB"), dtype=np.float32) / 255
    b = np.asarray(n2.convert("RGB"), dtype=np.float32) / 255
    return _score(darker and float(np.mean((a - b) ** 2)) < threshold)


def check_contrast_increase_and_structure_sim(result: Any, expected: Any) -> float:
    """The result has more contrast (standard deviation of its samples) and SSIM ≥ 0.65."""
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    higher = np.std(np.asarray(img1, dtype=np.float32)) > np.std(np.asarray(img2, np.float32))
    return _score(bool(higher) and structure_same(img1, img2, 0.65))


def check_saturation_increase_and_structure_sim(result: Any, expected: Any) -> float:
    """The result is more saturated (mean HSV ``S``) and its hue and value bands are similar
    to the expected image's (SSIM ≥ 0.9 each)."""
    img1, img2 = open_image(result), open_image(expected)
    if img1 is None or img2 is None:
        return 0.0
    h1, s1, v1 = img1.convert("HSV").split()
    h2, s2, v2 = img2.convert("HSV").split()
    more = np.asarray(s1, np.float64).mean() > np.asarray(s2, np.float64).mean()
    return _score(bool(more) and structure_same(h1, h2) and structure_same(v1, v2))


# ---- size and position ---------------------------------------------------------------------


def check_image_size(result: Any, rule: Rule) -> float:
    """The image's ``width``/``height`` are the rule's (those it gives); with
    ``ignore_transparent``, the size of its opaque part."""
    img = open_image(result)
    if img is None:
        return 0.0
    width, height = img.size
    if rule.get("ignore_transparent", False) and _has_alpha(img):
        box = _alpha_bbox(img)
        width, height = (box[2] - box[0], box[3] - box[1]) if box else (0, 0)
    return _score(rule.get("width") in (None, width) and rule.get("height") in (None, height))


def check_image_file_size(result: Any, rule: Rule) -> float:
    """The file is smaller than ``max_size`` bytes."""
    data = file_bytes(result)
    return _score(data is not None and len(data) < rule["max_size"])


def check_triangle_position(result: Any) -> float:
    """The shape drawn in the image's second most common colour has its centroid within 5 %
    of the image's size from its centre (the most common colour is the background)."""
    img = open_image(result)
    if img is None:
        return 0.0
    pixels = np.asarray(img)
    if pixels.ndim != 3:
        raise ValueError("check_triangle_position needs a colour image")
    colours, inverse, counts = np.unique(
        pixels.reshape(-1, pixels.shape[2]), axis=0, return_inverse=True, return_counts=True
    )
    if len(colours) < 2:
        return 0.0
    shape = np.argsort(counts)[-2]
    ys, xs = np.nonzero(inverse.reshape(pixels.shape[:2]) == shape)
    centroid = np.array([ys.mean(), xs.mean()])
    size = np.array(pixels.shape[:2], dtype=np.float64)
    return _score(bool(np.all(np.abs(centroid - size / 2) < 0.05 * size)))


def check_textbox_on_leftside(result: Any) -> float:
    """The leftmost dark pixel (grey < 128) lies in the left 5 % of the image."""
    img = open_image(result)
    if img is None:
        return 0.0
    dark = np.asarray(img.convert("L")) < 128
    cols = np.nonzero(dark.any(axis=0))[0]
    leftmost = int(cols[0]) if len(cols) else img.width
    return _score(leftmost < img.width * 0.05)


def check_image_stretch_and_center(result: Any, expected: Any) -> float:
    """On the first slide, the original's first picture now fills the slide and is centred
    (each within half an inch); ``expected`` is the original presentation."""
    from pptx import Presentation
    from pptx.util import Inches

    data1, data2 = file_bytes(result), file_bytes(expected)
    if data1 is None or data2 is None:
        return 0.0
    original, modified = Presentation(io.BytesIO(data2)), Presentation(io.BytesIO(data1))
    picture = 13  # MSO_SHAPE_TYPE.PICTURE

    def pictures(pres: Any) -> Sequence[Any]:
        return [s for s in pres.slides[0].shapes if s.shape_type == picture]

    blob = pictures(original)[0].image.blob
    found = [s for s in pictures(modified) if s.image.blob == blob]
    if not found:
        return 0.0
    img, tol = found[-1], Inches(0.5)
    width, height = original.slide_width, original.slide_height
    return _score(
        abs(img.width - width) <= tol and abs(img.height - height) <= tol
        and abs(img.left - (width - img.width) / 2) <= tol
        and abs(img.top - (height - img.height) / 2) <= tol
    )  # fmt: skip


def ocr_text(data: bytes) -> str:
    """The English text Tesseract reads in an image, its words joined by single spaces
    (Tesseract runs in a throwaway sandbox: the image is the agent's)."""
    if shutil.which("tesseract") is None:
        raise GCCError("compare_image_text needs tesseract (apt-get install tesseract-ocr)")
    code, out, err = run_isolated(["tesseract", "stdin", "stdout", "-l", "eng"], data, 60.0)
    if code:
        raise GCCError(f"tesseract: {err.decode('utf-8', 'replace').strip()[-200:]}")
    return " ".join(out.decode("utf-8", "replace").split())


def compare_image_text(result: Any, rule: Rule) -> float:
    """The rule's ``text`` (``type`` ``text``) appears in the text read in the image.

    OSWorld reads it with EasyOCR (a neural model on PyTorch); this uses Tesseract (Debian
    ``tesseract-ocr``), which may read some texts differently.
    """
    if rule["type"] != "text":
        raise ValueError(f"compare_image_text: rule type {rule['type']!r} is not supported")
    data = file_bytes(result)
    return _score(data is not None and str(rule["text"]) in ocr_text(data))


IMAGE_METRICS = {
    "compare_images": compare_images, "check_structure_sim": check_structure_sim,
    "check_structure_sim_resized": check_structure_sim_resized,
    "check_file_exists_and_structure_sim": check_file_exists_and_structure_sim,
    "check_image_mirror": check_image_mirror, "compare_image_list": compare_image_list,
    "check_brightness_decrease_and_structure_sim": check_brightness_decrease_and_structure_sim,
    "check_contrast_increase_and_structure_sim": check_contrast_increase_and_structure_sim,
    "check_saturation_increase_and_structure_sim": check_saturation_increase_and_structure_sim,
    "check_image_size": check_image_size, "check_image_file_size": check_image_file_size,
    "check_triangle_position": check_triangle_position,
    "check_textbox_on_leftside": check_textbox_on_leftside,
    "check_image_stretch_and_center": check_image_stretch_and_center,
    "compare_image_text": compare_image_text,
}  # fmt: skip
