"""The Meitu scenes a task names by their subject ("the photo of the red boat"): the scripted
solution tells each scene's subject from its pixels, and the look-alikes in a folder share the
subject's colour or its kind, so that neither alone finds the photo. Pure functions: no GIMP."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from agents.scripted.meitu import subject_of
from gcc_envs.apps.meitu.pictures import COLOURS, SUBJECTS, scene
from gcc_envs.apps.meitu.setup import SCENES, pictures
from gcc_envs.apps.software.reading import ANSWER


def as_saved(rgb: np.ndarray) -> np.ndarray:
    """``rgb`` after a round trip through JPEG (as the scenes are handed out)."""
    ok, data = cv2.imencode(".jpg", rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)[..., ::-1]


@pytest.mark.parametrize("colour", sorted(COLOURS))
@pytest.mark.parametrize("subject", SUBJECTS)
def test_the_script_tells_each_scenes_colour_and_kind(colour, subject):
    for seed in range(3):
        img = as_saved(scene(np.random.default_rng(seed), colour, subject))
        assert subject_of(img) == (colour, subject), seed


def test_a_folders_scenes_are_the_subject_and_look_alikes_of_its_colour_and_its_kind(tmp_path):
    for seed in range(2):
        session = SimpleNamespace(rng=np.random.default_rng(seed), home=tmp_path / str(seed),
                                  vars={}, files={})  # fmt: skip
        pictures(session, "scene", folder="Trip", colour="blue", subject="house")
        seen = {}
        for name in SCENES:
            img = cv2.imread(str(session.home / "Pictures" / "Trip" / name))[..., ::-1]
            seen[name] = subject_of(np.ascontiguousarray(img))
        assert seen[session.vars["picture"]] == ("blue", "house")
        others = [v for k, v in seen.items() if k != session.vars["picture"]]
        assert ("blue", "house") not in others
        assert any(c == "blue" for c, _ in others) and any(k == "house" for _, k in others)
        assert (session.home / ANSWER).is_file()
