"""The Meitu checkers on end states GIMP itself writes (Script-Fu in batch mode, no display):
each right end state passes, each plausible wrong one (the task done to a look-alike among
them) fails, untouched inputs fail."""

from __future__ import annotations

import shutil
import subprocess
from types import SimpleNamespace

import numpy as np
import pytest

from gcc_envs.apps.episode import EpisodeDesktop
from gcc_envs.apps.meitu import checkers
from gcc_envs.apps.meitu.setup import pictures
from gcc_envs.apps.meitu.xcf import read_xcf

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(240),
    pytest.mark.skipif(shutil.which("gimp") is None, reason="Debian package gimp missing"),
]
# Right and wrong end states, made by GIMP from the episode's own inputs: (file, script).
SCRIPT = r"""
(define (load f) (car (gimp-file-load RUN-NONINTERACTIVE f f)))
(define (flat img) (car (gimp-image-flatten img)))
(define (save img f) (let ((d (car (gimp-image-merge-visible-layers img CLIP-TO-IMAGE))))
  (gimp-file-save RUN-NONINTERACTIVE img d f f)))
(define (layer img f x y) (let ((l (car (gimp-file-load-layer RUN-NONINTERACTIVE img f))))
  (gimp-image-insert-layer img l 0 -1) (gimp-layer-set-offsets l x y)))
(define P "{P}/") (define O "{O}/")
(let* ((img (load (string-append P "A_picture.jpg"))) (d (car (gimp-image-get-active-drawable img))))
  (plug-in-gauss RUN-NONINTERACTIVE img d 12 12 0) (gimp-drawable-desaturate d DESATURATE-LUMINANCE)
  (save img (string-append O "filter_right.jpg")))
(let* ((img (load (string-append P "A_picture.jpg"))))
  (save img (string-append O "filter_wrong.jpg")))
(let* ((img (load (string-append P "B_picture.jpg"))) (d (car (gimp-image-get-active-drawable img))))
  (gimp-drawable-invert d FALSE) (save img (string-append O "filter_other.jpg")))
(define (cut inverse out)
  (let* ((img (load (string-append P "A_picture.jpg"))) (d (car (gimp-image-get-active-drawable img))))
    (gimp-layer-add-alpha d) (gimp-context-set-sample-threshold-int 30)
    (gimp-image-select-contiguous-color img CHANNEL-OP-REPLACE d 2 2)
    (if inverse (gimp-selection-invert img))
    (gimp-drawable-edit-clear d) (gimp-selection-none img)
    (file-png-save-defaults RUN-NONINTERACTIVE img d (string-append O out) out)))
(cut #f "cut_right.png") (cut #t "cut_wrong.png")
(define (stick pic kind out)
  (let* ((img (load (string-append P pic))))
    (layer img (string-append P "Stickers/" kind ".png") 40 50) (save img (string-append O out))))
(stick "A_picture.jpg" "flower" "sticker_right.jpg") (stick "A_picture.jpg" "heart" "sticker_wrong.jpg")
(stick "B_picture.jpg" "flower" "sticker_other.jpg")
(define (col third dx out)
  (let* ((img (load (string-append P "photo1.jpg"))))
    (gimp-image-resize img 1440 360 0 0)
    (layer img (string-append P "photo2.jpg") dx 0) (layer img (string-append P third) (* 2 dx) 0)
    (gimp-xcf-save RUN-NONINTERACTIVE img (car (gimp-image-get-active-drawable img)) (string-append O out) out)))
(col "photo3.jpg" 480 "collage_right.xcf") (col "photo3.jpg" 40 "collage_wrong.xcf")
(col "photo4.jpg" 480 "collage_other.xcf")
(define (frame shape out)
  (let* ((img (load (string-append P "A_picture.jpg"))) (d (car (gimp-image-get-active-drawable img))))
    (if (= shape 0) (gimp-image-select-ellipse img CHANNEL-OP-REPLACE 70 10 340 340)
                    (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 70 10 340 340))
    (gimp-selection-invert img) (gimp-context-set-foreground '(20 20 20))
    (gimp-drawable-edit-fill d FILL-FOREGROUND) (gimp-selection-none img) (save img (string-append O out))))
(frame 0 "frame_right.jpg") (frame 1 "frame_wrong.jpg")
(gimp-quit 0)
"""
# (right, wrong, ...): a wrong one may be the task done to a look-alike (B_picture.jpg for
# A_picture.jpg, a collage with photo4 for photo3).
CASES = {
    "filtered": ("filter_right.jpg", "filter_wrong.jpg", "filter_other.jpg"),
    "cutout": ("cut_right.png", "cut_wrong.png"),
    "sticker_added": ("sticker_right.jpg", "sticker_wrong.jpg", "sticker_other.jpg"),
    "collage": ("collage_right.xcf", "collage_wrong.xcf", "collage_other.xcf"),
    "circle_frame": ("frame_right.jpg", "frame_wrong.jpg"),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    session = EpisodeDesktop(SimpleNamespace(display=":0"), np.random.default_rng(11))
    pictures(session)
    out = tmp_path_factory.mktemp("gimp-out")
    script = SCRIPT.replace("{P}", str(session.home / "Pictures")).replace("{O}", str(out))
    r = subprocess.run(["gimp", "-i", "--no-fonts", "-b", script], env=session.env,
                       capture_output=True, timeout=200)  # fmt: skip
    assert (out / "frame_wrong.jpg").is_file(), r.stderr.decode()[-2000:]
    yield session, out
    session.close()


@pytest.mark.parametrize("checker", sorted(CASES))
def test_gimps_right_end_state_passes_and_its_wrong_one_fails(made, checker):
    session, out = made
    fn = getattr(checkers, checker)
    assert fn(session.probe()) == 0.0, "the untouched inputs passed"
    right, *wrongs = CASES[checker]
    for name, want in [*((w, 0.0) for w in wrongs), (right, 1.0)]:
        dest = session.home / "Pictures" / name
        shutil.copy(out / name, dest)
        try:
            assert fn(session.probe()) == want, f"{checker} on {name}"
        finally:
            dest.unlink()


def test_the_xcf_reader_gives_gimps_layers_offsets_and_pixels(made):
    session, out = made
    xcf = read_xcf((out / "collage_right.xcf").read_bytes())
    assert (xcf.width, xcf.height) == (1440, 360)
    assert sorted((la.x, la.y) for la in xcf.layers) == [(0, 0), (480, 0), (960, 0)]
    photo2 = checkers.original(session.probe(), "photo2.jpg")
    layer = next(la for la in xcf.layers if la.x == 480)
    assert abs(layer.pixels[..., :3].astype(int) - photo2).mean() < 3
