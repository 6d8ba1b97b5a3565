import numpy as np
import pytest

from gcc_envs.core import events as ev
from gcc_envs.core.held import HeldInput
from gcc_envs.core.spaces import OPS, EventActions, StateActions
from gcc_envs.errors import InvalidActionError

KEYS = ("w", "a", "s", "d", "c")


def test_state_mode_diffs_held_keys_into_downs_and_ups():
    mode = StateActions(KEYS, max_mouse_px=100, step_seconds=0.25)
    act = mode.noop()
    act["keys"][0] = 1  # w
    held = HeldInput()
    held.apply(ev.KeyDown("a"))
    out = mode.to_events(act, held)
    assert out == [ev.KeyDown("w"), ev.KeyUp("a"), ev.Wait(0.25)]


def test_state_mode_scales_mouse_and_scrolls():
    mode = StateActions(KEYS, max_mouse_px=100, step_seconds=0.1)
    act = mode.noop()
    act["mouse"] = np.array([0.5, -1.0], np.float32)
    act["scroll"] = -1
    act["buttons"][1] = 1
    out = mode.to_events(act, HeldInput())
    assert out == [ev.MouseDown("right"), ev.MoveBy(50, -100), ev.Scroll(dy=-1), ev.Wait(0.1)]


def test_state_mode_samples_are_all_valid():
    mode = StateActions(KEYS, 100, 0.25)
    mode.space.seed(0)
    for _ in range(200):
        events = mode.to_events(mode.space.sample(), HeldInput())
        assert isinstance(events[-1], ev.Wait)


@pytest.mark.parametrize(
    "patch",
    [
        {"keys": [2, 0, 0, 0, 0]},
        {"keys": [1, 0]},
        {"mouse": [3.0, 0.0]},
        {"scroll": 4},
        {"mouse": [np.nan, 0]},
    ],
)
def test_state_mode_refuses_actions_outside_the_space(patch):
    mode = StateActions(KEYS, 100, 0.25)
    act = {**mode.noop(), **patch}
    with pytest.raises(InvalidActionError):
        mode.to_events(act, HeldInput())


@pytest.mark.parametrize(
    "patch",
    [
        {"keys": np.array([1, 0, 1, 0, 0], np.int8)},
        {"keys": np.array([True, False, True, False, False])},
        {"keys": [1, 0, 1, 0, 0]},
        {"keys": np.array([1.0, 0, 1, 0, 0])},
        {"keys": np.array([2, 0, 0, 0, 0], np.int8)},
        {"buttons": np.array([0, 1, 1], np.uint8)},
        {"mouse": np.array([0.3, -0.7], np.float16)},
        {"mouse": np.array([0.3, -0.7], np.float32)},
        {"mouse": (0.3, -0.7)},
        {"mouse": np.array([1.0001, 0.0])},
        {"mouse": np.array([np.inf, 0.0])},
        {"scroll": np.int64(1)},
        {"scroll": 1.0},
        {"scroll": True},
        {"scroll": 0.5},
    ],
)
def test_state_mode_reads_any_form_as_the_numpy_checks_do(patch):
    """The fast path for sampled arrays gives the events (or the refusal) the checks give."""
    mode = StateActions(KEYS, 100, 0.25)
    act = {**mode.noop(), **patch}
    try:
        got = mode.to_events(act, HeldInput())
    except InvalidActionError:
        got = "refused"
    keys = np.asarray(act["keys"], dtype=np.int64)
    buttons = np.asarray(act["buttons"], dtype=np.int64)
    mouse = np.asarray(act["mouse"], dtype=np.float64)
    scroll = act["scroll"]
    if (
        np.any((keys != 0) & (keys != 1))
        or np.any((buttons != 0) & (buttons != 1))
        or not np.all(np.isfinite(mouse))
        or np.any(np.abs(mouse) > 1)
        or int(scroll) != scroll
    ):
        want = "refused"
    else:
        want = [ev.KeyDown(k) for k, on in zip(KEYS, keys) if on]
        want += [ev.MouseDown(b) for b, on in zip(ev.BUTTONS, buttons) if on]
        dx, dy = (round(float(m) * 100) for m in mouse)
        want += [ev.MoveBy(dx, dy)] if dx or dy else []
        want += [ev.Scroll(dy=int(scroll))] if scroll else []
        want.append(ev.Wait(0.25))
    assert got == want
    if got != "refused":  # the same fields in the same order and types as a checked event
        assert [e.to_dict() for e in got] == [e.to_dict() for e in want]
        assert [type(v) for e in got for v in e.to_dict().values()] == [
            type(v) for e in want for v in e.to_dict().values()
        ]


def _event_action(mode, op, **kw):
    act = {"op": OPS.index(op)}
    act.update(kw)
    return act


def test_event_mode_maps_each_op_to_one_event_and_one_pyautogui_line():
    mode = EventActions(KEYS, size=(200, 100), max_mouse_px=50)
    mode.space.seed(1)
    seen = set()
    for _ in range(500):
        a = mode.space.sample()
        try:
            e = mode.to_event(a)
        except InvalidActionError as err:
            assert "SCROLL" in str(err) or "characters" in str(err)
            continue
        seen.add(OPS[a["op"]])
        assert isinstance(e, ev.Event)
        assert "\n" not in e.to_pyautogui()
    assert seen == set(OPS)


def test_event_mode_xy_is_a_fraction_of_the_frame():
    mode = EventActions(KEYS, size=(200, 100), max_mouse_px=50)
    e = mode.to_event(_event_action(mode, "CLICK", xy=np.array([0.5, 1.0]), button=0, clicks=1))
    assert e == ev.Click(100, 99)


def test_event_mode_hotkey_uses_mods():
    mode = EventActions(KEYS, size=(200, 100), max_mouse_px=50)
    e = mode.to_event(
        _event_action(mode, "HOTKEY", mods=np.array([1, 0, 0]), key=mode.keys.index("c"))
    )
    assert e == ev.Hotkey(("ctrl", "c"))


def test_event_mode_refuses_unknown_ops():
    mode = EventActions(KEYS, size=(200, 100), max_mouse_px=50)
    with pytest.raises(InvalidActionError):
        mode.to_event({"op": 99})
    with pytest.raises(InvalidActionError):
        mode.to_event({"op": "RM_RF"})


@pytest.mark.parametrize("drop, add", [("mouse", None), ("scroll", None), (None, "mosue")])
def test_state_mode_refuses_a_dict_with_a_missing_or_unknown_entry(drop, add):
    mode = StateActions(KEYS, 100, 0.25)
    act = {k: v for k, v in mode.noop().items() if k != drop} | ({add: 0} if add else {})
    with pytest.raises(
        InvalidActionError, match=f"{'missing' if drop else 'unknown'}.*{drop or add}"
    ):
        mode.to_events(act, HeldInput())


def test_event_mode_refuses_an_unknown_entry_and_takes_partial_dicts():
    mode = EventActions(KEYS, (64, 48), 100)
    assert isinstance(mode.to_event({"op": "CLICK", "xy": (0.5, 0.5)}), ev.Click)
    with pytest.raises(InvalidActionError, match="unknown.*'xyz'"):
        mode.to_event({"op": "CLICK", "xyz": (0.5, 0.5)})
