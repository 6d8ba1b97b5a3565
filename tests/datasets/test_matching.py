"""MM-Navigator's screen-wise partial action matching on event logs."""

import pytest
from dataset_helpers import record

from gcc_envs import Click, Done, DragTo, Hotkey, KeyPress, MoveTo, Scroll, TypeText, Wait
from gcc_envs.datasets import episode_score, load, match, partial_action_matching
from gcc_envs.datasets.encoding import events_of
from gcc_envs.errors import DataError

FRAME = (720, 1280)  # diagonal 1468.6 px: clicks within 205.6 px match


def click(x, y, **kw):
    return [Click(x, y, **kw)]


@pytest.mark.parametrize(
    ("pred", "ok"),
    [
        (click(300, 300), True),
        (click(300 + 205, 300), True),
        (click(300 + 206, 300), False),
        (click(300, 300, button="right"), False),
        (click(300, 300, count=2), False),
        ([MoveTo(300, 300)], False),
        ([], False),
    ],
)
def test_clicks_match_within_14_percent_of_the_diagonal_with_the_same_button(pred, ok):
    assert match(click(300, 300), pred, FRAME) is ok


def test_clicks_in_the_same_marked_box_match_even_when_far_apart():
    boxes = [(0, 0, 640, 720), (640, 0, 1280, 720)]
    assert match(click(10, 10), click(630, 700), FRAME, boxes)
    assert not match(click(630, 10), click(650, 10 + 300), FRAME, boxes)
    assert match(click(630, 10), click(650, 10), FRAME, boxes)  # near, across a box edge


@pytest.mark.parametrize(
    ("ref", "pred", "ok"),
    [
        (Scroll(dy=3), Scroll(dy=1, x=5, y=5), True),
        (Scroll(dy=3), Scroll(dy=-3), False),
        (Scroll(dx=-2), Scroll(dx=-9), True),
        (Scroll(dx=-2), Scroll(dy=-2), False),
        (TypeText("hello"), TypeText("hello", interval_s=0.2), True),
        (TypeText("hello"), TypeText("hallo"), False),
        (KeyPress("w", 2.0), KeyPress("w", 0.1), True),
        (KeyPress("w"), KeyPress("s"), False),
        (Hotkey(("ctrl", "c")), Hotkey(("c", "ctrl")), True),
        (Hotkey(("ctrl", "c")), Hotkey(("ctrl", "v")), False),
        (DragTo(100, 100), DragTo(120, 90), True),
        (Done(), Done(), True),
    ],
)
def test_scroll_direction_text_keys_and_gestures(ref, pred, ok):
    assert match([ref], [pred], FRAME) is ok


def test_waits_carry_no_gesture_and_timestamps_are_ignored():
    ref = [{"t": 1.5, "type": "KeyDown", "key": "w"}, {"t": 1.5, "type": "Wait", "seconds": 0.25}]
    assert match(ref, [{"type": "KeyDown", "key": "w"}], FRAME)
    assert match([Wait(1.0)], [], FRAME)
    assert not match([Wait(1.0)], click(1, 1), FRAME)


def test_episode_score_is_the_fraction_of_matching_steps():
    ref = [click(10, 10), [KeyPress("e")], [TypeText("x")], [Done()]]
    pred = [click(12, 12), [KeyPress("q")], [TypeText("x")]]  # last step missing
    assert episode_score(ref, pred, FRAME) == 0.5


def test_a_dataset_scores_one_against_its_own_actions_and_less_against_random(tmp_path):
    record(tmp_path, [1, 2], env_id="GCC/Stardew-Shopping", action_mode="event", steps=15)
    episodes = list(load(tmp_path))
    own = [[events_of(step) for step in ep.events] for ep in episodes]
    assert partial_action_matching(episodes, own) == 1.0
    swapped = [own[1], own[0]]  # each episode scored against another random episode
    score = partial_action_matching(episodes, swapped)
    assert 0.0 <= score < 0.5
    with pytest.raises(DataError):
        partial_action_matching([], [])
