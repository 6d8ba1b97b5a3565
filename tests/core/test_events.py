import math

import pytest

from gcc_envs.core import events as ev
from gcc_envs.core.expand import PointerTracker, expand
from gcc_envs.errors import InvalidActionError

SAMPLES = [
    ev.KeyDown("w"),
    ev.KeyUp("shift"),
    ev.KeyPress("c"),
    ev.KeyPress("w", 1.5),
    ev.Hotkey(("ctrl", "c")),
    ev.TypeText("hello, world!", 0.02),
    ev.MoveTo(10, 20),
    ev.MoveTo(10, 20, 0.3),
    ev.MoveBy(-5, 7, 0.1),
    ev.MouseDown("right"),
    ev.MouseUp(),
    ev.Click(3, 4, "middle", 2),
    ev.DragTo(50, 60, "left", 0.5),
    ev.Scroll(dy=-3),
    ev.Scroll(dx=2, x=5, y=6),
    ev.Wait(0.25),
    ev.Done(),
    ev.Fail(),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_dict_form_round_trips(event):
    assert ev.event_from_dict(event.to_dict()) == event


def test_key_aliases_fold_to_canonical_names():
    assert ev.KeyDown("Escape").key == "esc"
    assert ev.KeyDown("RETURN").key == "enter"
    assert ev.Hotkey(["Control", "v"]).keys == ("ctrl", "v")


@pytest.mark.parametrize(
    "make",
    [
        lambda: ev.KeyDown("nosuchkey"),
        lambda: ev.KeyPress("w", -1),
        lambda: ev.KeyPress("w", math.inf),
        lambda: ev.KeyPress("w", 1e9),
        lambda: ev.TypeText("caf\u00e9"),
        lambda: ev.MoveTo(math.nan, 0),
        lambda: ev.Click(1, 2, "thumb"),
        lambda: ev.Click(1, 2, count=7),
        lambda: ev.Scroll(dy=0),
        lambda: ev.Scroll(dy=1, x=3),
        lambda: ev.Wait(-0.5),
        lambda: ev.Hotkey(()),
    ],
)
def test_bad_events_are_refused_where_they_are_made(make):
    with pytest.raises(InvalidActionError):
        make()


def test_bad_event_dicts_are_refused():
    with pytest.raises(InvalidActionError):
        ev.event_from_dict({"type": "Exec", "code": "x"})
    with pytest.raises(InvalidActionError):
        ev.event_from_dict({"type": "KeyDown", "key": "w", "evil": 1})


def test_taps_are_held_long_enough_for_games_to_see_them():
    assert ev.KeyPress("w", 0.0).hold_s >= 0.03
    assert ev.TypeText("ab", 0.0).interval_s >= 0.01


def test_expand_keypress_holds_then_releases():
    assert list(expand(ev.KeyPress("w", 0.5), PointerTracker())) == [
        ev.KeyDown("w"),
        0.5,
        ev.KeyUp("w"),
    ]


def test_expand_hotkey_releases_in_reverse_order():
    prims = [
        p
        for p in expand(ev.Hotkey(("ctrl", "shift", "t")), PointerTracker())
        if not isinstance(p, float)
    ]
    assert prims == [
        ev.KeyDown("ctrl"),
        ev.KeyDown("shift"),
        ev.KeyDown("t"),
        ev.KeyUp("t"),
        ev.KeyUp("shift"),
        ev.KeyUp("ctrl"),
    ]


def test_expand_move_by_is_relative_to_the_tracked_pointer():
    ptr = PointerTracker(100, 100)
    prims = list(expand(ev.MoveBy(10, -20, 0.2), ptr))
    moves = [p for p in prims if isinstance(p, ev.MoveTo)]
    assert moves[-1] == ev.MoveTo(110, 80)
    assert (ptr.x, ptr.y) == (110, 80)
    assert sum(p for p in prims if isinstance(p, float)) == pytest.approx(0.2)


def test_expand_camera_move_stays_relative_and_sums_exactly():
    ptr = PointerTracker(0, 0)
    prims = list(expand(ev.MoveBy(1000, -7, 0.2), ptr, relative=True))
    moves = [p for p in prims if isinstance(p, ev.MoveBy)]
    assert len(moves) > 1  # a glide, not a jump
    assert sum(m.dx for m in moves) == 1000 and sum(m.dy for m in moves) == -7
    assert sum(p for p in prims if isinstance(p, float)) == pytest.approx(0.2)
    assert (ptr.x, ptr.y) == (0, 0)  # no pointer position to clamp against the window edge


def test_expand_double_click_presses_twice_at_the_point():
    prims = list(expand(ev.Click(5, 6, count=2), PointerTracker()))
    assert prims[0] == ev.MoveTo(5, 6)
    assert [p for p in prims if isinstance(p, ev.MouseDown)] == [ev.MouseDown()] * 2
    assert [p for p in prims if isinstance(p, ev.MouseUp)] == [ev.MouseUp()] * 2


def test_every_key_pressed_by_type_text_is_released():
    held = set()
    for p in expand(ev.TypeText("Hi there\n"), PointerTracker()):
        if isinstance(p, ev.KeyDown):
            held.add(p.key)
        elif isinstance(p, ev.KeyUp):
            held.discard(p.key)
    assert held == set()


def test_stamped_entries_are_fresh_dicts_and_leave_the_event_as_it_was():
    import pickle

    tick, hot = ev.Wait(0.25), ev.Hotkey(("ctrl", "c"))
    first, second = ev.stamped(tick, 1.0), ev.stamped(tick, 2.0)
    first["seconds"] = 99.0  # an info's entry edited by a caller
    assert second == {"t": 2.0, "type": "Wait", "seconds": 0.25}
    assert ev.stamped(tick, 3.0)["seconds"] == 0.25
    assert tick.to_dict() == {"type": "Wait", "seconds": 0.25} and tick == ev.Wait(0.25)
    assert repr(tick) == "Wait(seconds=0.25)" and hash(tick) == hash(ev.Wait(0.25))
    assert pickle.loads(pickle.dumps(tick)).to_dict() == tick.to_dict()
    ev.stamped(hot, 0.0)["keys"].append("x")  # lists are never shared between entries
    assert ev.stamped(hot, 0.0)["keys"] == ["ctrl", "c"]


def test_prechecked_events_equal_checked_ones_field_for_field():
    cases = [
        (ev.prechecked(ev.MoveTo, x=3, y=4, duration_s=0.0), ev.MoveTo(3, 4)),
        (ev.prechecked(ev.MoveBy, dx=-5, dy=0, duration_s=0.0), ev.MoveBy(-5, 0)),
        (ev.prechecked(ev.KeyDown, key="enter"), ev.KeyDown("Return")),
        (ev.prechecked(ev.MouseUp, button="right"), ev.MouseUp("right")),
    ]
    for fast, checked in cases:
        assert fast == checked and repr(fast) == repr(checked)
        assert list(fast.to_dict().items()) == list(checked.to_dict().items())
