"""Visual prompts: OverlayGrid, AddSideBands, DrawPointer and MarkRegions draw on fresh frames."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from spec_helpers import sim_ids

import gcc_envs
from gcc_envs.errors import GCCError
from wrappers import AddSideBands, ChunkVideo, DrawPointer, MarkRegions, OverlayGrid
from wrappers.add_side_bands import BLUE, YELLOW, band_width, draw_side_bands
from wrappers.draw_pointer import draw_pointer
from wrappers.mark_regions import detect_regions, draw_marks
from wrappers.overlay_grid import GRID_COLOUR, draw_grid, grid_lines

IDS = sim_ids()
SIZE = (72, 128)
HD = (720, 1280)
WRAPPERS = [OverlayGrid, AddSideBands, DrawPointer, MarkRegions]


def checked(env):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # check_env warns that a wrapper is not the raw env
        check_env(env, skip_render_check=True)


def move_to(x, y):
    return gcc_envs.Program([gcc_envs.MoveTo(x, y)])


def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area = lambda r: (r[2] - r[0]) * (r[3] - r[1])  # noqa: E731
    return inter / (area(a) + area(b) - inter)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_wrapped_env_keeps_its_space_and_passes_check_env(env_id, wrapper):
    base = gym.make(env_id, obs_size=SIZE)
    env = wrapper(base)
    assert env.observation_space == base.observation_space
    checked(env)
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space and obs.dtype == np.uint8 and obs.shape == (*SIZE, 3)
    obs, *_ = env.step(env.action_space.sample())
    assert obs in env.observation_space


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_observations_are_fresh_arrays_that_differ_from_the_frame(env_id, wrapper):
    # big enough that the region detector finds something to mark on every start screen
    size = (144, 256)
    raw, _ = gym.make(env_id, obs_size=size).reset(seed=0)
    env = wrapper(gym.make(env_id, obs_size=size))
    a, _ = env.reset(seed=0)
    b, _ = env.reset(seed=0)
    assert a is not b and not np.shares_memory(a, b)
    assert np.array_equal(a, b) and not np.array_equal(a, raw)


@pytest.mark.parametrize("draw", [draw_grid, draw_side_bands, lambda f: draw_pointer(f, (5, 5))])
@pytest.mark.parametrize("shape", [(1, 1, 3), (7, 3, 3), (72, 128, 3), (720, 1280, 3)])
def test_drawing_never_changes_the_input_and_works_at_any_size(draw, shape):
    frame = np.random.default_rng(0).integers(0, 256, shape, np.uint8)
    before = frame.copy()
    out = draw(frame)
    assert np.array_equal(frame, before)
    assert out.shape == shape and out.dtype == np.uint8 and not np.shares_memory(out, frame)


def test_draw_marks_never_changes_the_input():
    frame = np.zeros((120, 200, 3), np.uint8)
    frame[20:60, 30:120] = (200, 180, 90)  # a panel with two buttons on it
    frame[30:50, 40:70] = (40, 40, 40)
    frame[30:50, 80:110] = (40, 40, 40)
    before = frame.copy()
    out = draw_marks(frame, detect_regions(frame))
    assert np.array_equal(frame, before) and not np.array_equal(out, frame)


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("rows,cols", [(3, 5), (2, 2)])
def test_grid_lines_lie_at_the_expected_rows_and_columns(env_id, rows, cols):
    env = OverlayGrid(gym.make(env_id, obs_size=HD), rows=rows, cols=cols)
    obs, _ = env.reset(seed=0)
    h, w = HD
    xs, ys = grid_lines(w, cols), grid_lines(h, rows)
    assert len(xs) == cols - 1 and len(ys) == rows - 1
    for x in xs:
        assert (obs[:, x] == GRID_COLOUR).all(axis=1).mean() > 0.9
    for y in ys:
        assert (obs[y] == GRID_COLOUR).all(axis=1).mean() > 0.9
    # between the lines the frame is left alone
    raw, _ = gym.make(env_id, obs_size=HD).reset(seed=0)
    assert np.array_equal(
        obs[h // 2 + 40 : h // 2 + 80, 300:500], raw[h // 2 + 40 : h // 2 + 80, 300:500]
    )


def test_grid_labels_are_drawn_only_when_asked():
    frame = np.zeros((*HD, 3), np.uint8)
    bare, labelled = draw_grid(frame, labels=False), draw_grid(frame)
    assert np.array_equal(bare[:30, 260:330], np.zeros((30, 70, 3)))  # right of line x=256
    assert labelled[:30, 260:330].any()
    assert labelled[244:270, :60].any() and not bare[244:270, :60].any()  # below line y=240


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("width_frac", [0.04, 0.1])
def test_side_bands_are_blue_left_and_yellow_right(env_id, width_frac):
    env = AddSideBands(gym.make(env_id, obs_size=HD), width_frac=width_frac)
    raw, _ = gym.make(env_id, obs_size=HD).reset(seed=0)
    obs, _ = env.reset(seed=0)
    b = band_width(HD[1], width_frac)
    assert b == round(HD[1] * width_frac)
    assert (obs[:, :b] == BLUE).all() and (obs[:, -b:] == YELLOW).all()
    assert np.array_equal(obs[:, b:-b], raw[:, b:-b])


def test_bands_and_grid_draw_on_every_frame_of_a_chunk_and_not_on_padding():
    env = AddSideBands(OverlayGrid(ChunkVideo(gym.make(IDS[0], obs_size=SIZE), max_frames=8)))
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    obs, *_ = env.step(gcc_envs.Program([gcc_envs.Wait(2.0)]))
    assert obs["count"] > 1
    n = int(obs["count"])
    assert (obs["frames"][:n, :, 0] == BLUE).all() and (obs["frames"][:n, :, -1] == YELLOW).all()
    assert not obs["frames"][n:].any()
    listed = AddSideBands(ChunkVideo(gym.make(IDS[0], obs_size=SIZE), as_list=True))
    frames, _ = listed.reset(seed=0)
    assert frames in listed.observation_space and (frames[0][:, 0] == BLUE).all()


@pytest.mark.parametrize("env_id", IDS)
def test_the_pointer_is_drawn_where_info_says_it_is(env_id):
    env = DrawPointer(gym.make(env_id, obs_size=HD))
    raw_env = gym.make(env_id, obs_size=HD)
    raw_env.reset(seed=0)
    env.reset(seed=0)
    for x, y in [(100, 200), (900, 500)]:
        obs, *_, info = env.step(move_to(x, y))
        raw, *_ = raw_env.step(move_to(x, y))
        assert tuple(info["pointer"]) == (x, y)
        changed = np.argwhere((obs != raw).any(axis=2))
        assert len(changed) > 50
        assert changed[:, 1].min() >= x - 2 and changed[:, 0].min() >= y - 2
        assert changed[:, 1].max() <= x + 30 and changed[:, 0].max() <= y + 30
        assert (obs[y + 8, x + 2] == 255).all()  # white arrow body just below the tip


def test_draw_pointer_accepts_a_pointer_outside_the_frame():
    frame = np.zeros((72, 128, 3), np.uint8)
    assert not draw_pointer(frame, (500, 500)).any()
    assert draw_pointer(frame, (-3, -3)).any()


def test_mark_regions_finds_the_rectangles_of_a_synthetic_frame():
    frame = np.full((*HD, 3), 200, np.uint8)
    rects = [(100, 100, 400, 160), (100, 200, 400, 260), (600, 300, 700, 400), (900, 50, 1200, 650)]
    for x0, y0, x1, y1 in rects:
        frame[y0:y1, x0:x1] = (40, 90, 160)
    marks = detect_regions(frame)
    boxes = [(m.x, m.y, m.x + m.w, m.y + m.h) for m in marks]
    for r in rects:
        assert max(iou(r, b) for b in boxes) > 0.9, r
    assert len(marks) == len(rects)  # inner/outer edges of one rectangle are one mark


@pytest.mark.parametrize("env_id", IDS)
@pytest.mark.parametrize("max_marks", [40, 5])
def test_marks_lie_inside_the_frame_with_unique_ids(env_id, max_marks):
    env = MarkRegions(gym.make(env_id, obs_size=HD), max_marks=max_marks)
    obs, info = env.reset(seed=0)
    for _ in range(2):
        marks = info["marks"]
        assert 0 < len(marks) <= max_marks
        assert len({m["id"] for m in marks}) == len(marks)
        for m in marks:
            assert set(m) == {"id", "x", "y", "w", "h", "cx", "cy"}
            assert 0 <= m["x"] and m["x"] + m["w"] <= HD[1] and 0 <= m["y"]
            assert m["y"] + m["h"] <= HD[0]
            assert m["x"] <= m["cx"] < m["x"] + m["w"] and m["y"] <= m["cy"] < m["y"] + m["h"]
        obs, *_, info = env.step(move_to(300, 300))


def test_program_for_clicks_the_centre_of_a_mark():
    env = MarkRegions(gym.make(IDS[0], obs_size=HD))
    _, info = env.reset(seed=0)
    m = info["marks"][-1]
    program = env.program_for(m["id"])
    assert isinstance(program, gcc_envs.Program)
    assert program.events == (gcc_envs.Click(m["cx"], m["cy"]),)
    _, *_, info = env.step(program)
    assert tuple(info["pointer"]) == (m["cx"], m["cy"])
    with pytest.raises(GCCError, match="no mark"):
        env.program_for(10_000)


def test_frame_wrappers_refuse_chunks_and_bad_arguments():
    chunked = ChunkVideo(gym.make(IDS[0], obs_size=SIZE))
    for wrapper in (DrawPointer, MarkRegions):
        with pytest.raises(GCCError, match="below ChunkVideo"):
            wrapper(chunked)
    base = gym.make(IDS[0], obs_size=SIZE)
    bad = [
        lambda: OverlayGrid(base, rows=0),
        lambda: OverlayGrid(base, cols=True),
        lambda: AddSideBands(base, width_frac=0),
        lambda: AddSideBands(base, width_frac=0.7),
        lambda: DrawPointer(base, size=-1),
        lambda: MarkRegions(base, max_marks=0),
        lambda: MarkRegions(base, min_area=0.9, max_area=0.5),
    ]
    for make in bad:
        with pytest.raises(GCCError):
            make()
