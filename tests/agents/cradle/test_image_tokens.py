"""OpenAI's published image-token formula and the contact sheet that cuts reflection images."""

from __future__ import annotations

import numpy as np
import pytest

from agents.cradle.contact_sheet import contact_sheet, grid_shape
from agents.cradle.fused import reflection_images
from agents.cradle.image_tokens import high_detail_size, image_tokens, png_size
from agents.cradle.llm import image_url
from gcc_envs.errors import GCCError


@pytest.mark.parametrize(
    ("size", "detail", "tokens"),
    [((4096, 4096), "low", 85), ((1024, 1024), "high", 765), ((2048, 4096), "high", 1105),
     ((1920, 1080), "high", 1105), ((512, 512), "high", 765), ((768, 768), "auto", 765),
     ((4096, 1024), "high", 2125)],
)  # fmt: skip
def test_image_tokens_follow_the_published_formula(size, detail, tokens):
    assert image_tokens(*size, detail) == tokens


def test_high_detail_fits_2048_then_scales_the_shortest_side_to_768():
    assert high_detail_size(2048, 4096) == (768, 1536)
    assert high_detail_size(1280, 720) == (1365, 768)


@pytest.mark.parametrize(("size", "detail"), [((0, 10), "low"), ((10, 10), "medium")])
def test_bad_sizes_and_details_are_refused(size, detail):
    with pytest.raises(GCCError):
        image_tokens(*size, detail)


def test_png_size_reads_the_size_of_an_encoded_frame():
    assert png_size(image_url(np.zeros((90, 160, 3), np.uint8))) == (160, 90)
    with pytest.raises(GCCError, match="PNG"):
        png_size("data:image/jpeg;base64,AAAA")


def test_a_contact_sheet_fits_a_low_detail_image_and_keeps_the_frames_in_order():
    frames = [np.full((720, 1280, 3), 30 * i, np.uint8) for i in range(8)]
    sheet = contact_sheet(frames)
    assert max(sheet.shape[:2]) <= 512 and grid_shape(8, 1280, 720) == (2, 4)
    cw, ch = sheet.shape[1] // 2, sheet.shape[0] // 4
    centres = [sheet[r * ch + ch // 2, c * cw + cw // 2, 0] for r in range(4) for c in range(2)]
    assert list(centres) == [30 * i for i in range(8)]


def test_reflection_images_leave_out_the_current_screen_and_cost_one_low_image():
    frames = [np.full((72, 128, 3), i, np.uint8) for i in range(12)]
    (sheet,) = reflection_images(frames, 8)
    assert image_tokens(sheet.shape[1], sheet.shape[0], "low") == 85
    assert len(reflection_images(frames, 8, sheet=False)) == 8
    assert reflection_images(frames[:1], 8) == []
    with pytest.raises(GCCError):
        contact_sheet([frames[0], np.zeros((10, 10, 3), np.uint8)])
