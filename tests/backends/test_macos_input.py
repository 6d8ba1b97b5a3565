"""macOS input translation: virtual keycodes, Quartz event types and fields (run on any platform)."""

import sys
from types import SimpleNamespace

import pytest

from gcc_envs.backends.desktop import inputfields as fields
from gcc_envs.backends.desktop import keymaps as km
from gcc_envs.backends.desktop import macos
from gcc_envs.core.events import KEY_NAMES
from gcc_envs.errors import InvalidActionError, MissingExtraError


@pytest.mark.parametrize("key", sorted(KEY_NAMES - km.MAC_MISSING))
def test_every_key_a_mac_has_maps_to_a_virtual_keycode(key):
    assert 0 <= km.mac_stroke(key).keycode < 0x80


@pytest.mark.parametrize("key", sorted(km.MAC_MISSING))
def test_keys_a_mac_lacks_are_refused_with_a_clear_message(key):
    with pytest.raises(InvalidActionError, match="not on a Mac keyboard"):
        km.mac_stroke(key)


def test_ansi_keycodes_match_the_hardware_table():
    assert km.mac_stroke("a").keycode == 0x00 and km.mac_stroke("w").keycode == 0x0D
    assert km.mac_stroke("enter").keycode == 0x24 and km.mac_stroke("esc").keycode == 0x35
    assert km.mac_stroke("up").keycode == 0x7E and km.mac_stroke("f1").keycode == 0x7A
    assert km.mac_stroke("backspace").keycode == 0x33 and km.mac_stroke("delete").keycode == 0x75
    assert km.mac_stroke("win") == km.mac_stroke("command") == km.MacStroke(0x37, False)


def test_letters_and_digits_have_distinct_keycodes():
    codes = [km.mac_stroke(c).keycode for c in "abcdefghijklmnopqrstuvwxyz0123456789"]
    assert len(set(codes)) == len(codes)


def test_shifted_characters_hold_shift_and_modifiers_set_event_flags():
    assert km.mac_stroke("A") == km.MacStroke(0x00, True)
    assert km.mac_stroke("?") == km.MacStroke(km.mac_stroke("/").keycode, True)
    assert km.mac_flags({0x38}) == 0x20000 and km.mac_flags({0x37, 0x3B}) == 0x140000


def test_moves_while_a_button_is_held_are_drags():
    assert fields.mac_move_event(set()) == (fields.MAC_MOUSE_MOVED, 0)
    assert fields.mac_move_event({"left"}) == (6, 0)
    assert fields.mac_button_event("right", True) == (3, 1)
    assert fields.mac_button_event("middle", False) == (26, 2)


def test_a_relative_move_keeps_the_cursor_on_the_display():
    assert fields.mac_rel_target((100.0, 100.0), 30, -20, (0, 0, 1440, 900)) == (130.0, 80.0)
    assert fields.mac_rel_target((1430.0, 5.0), 500, -50, (0, 0, 1440, 900)) == (1439, 0)


class Quartz:
    """Records the Quartz calls the desktop makes (pyobjc is not available here)."""

    kCGHIDEventTap = 0
    kCGScrollEventUnitLine = 1

    def __init__(self):
        self.posted = []
        self.pointer = SimpleNamespace(x=100.0, y=200.0)

    def CGEventCreateKeyboardEvent(self, source, code, down):  # noqa: N802 - Quartz names
        return {"kind": "key", "code": code, "down": down}

    def CGEventSetFlags(self, event, flags):  # noqa: N802
        event["flags"] = flags

    def CGEventCreateMouseEvent(self, source, kind, pos, button):  # noqa: N802
        return {"kind": kind, "pos": tuple(pos), "button": button}

    def CGEventSetIntegerValueField(self, event, field, value):  # noqa: N802
        event[field] = value

    def CGEventCreateScrollWheelEvent(self, source, unit, count, w1, w2):  # noqa: N802
        return {"kind": "scroll", "wheels": (w1, w2)}

    def CGEventCreate(self, source):  # noqa: N802
        return "now"

    def CGEventGetLocation(self, event):  # noqa: N802
        return self.pointer

    def CGMainDisplayID(self):  # noqa: N802
        return 1

    def CGDisplayBounds(self, display):  # noqa: N802
        return SimpleNamespace(
            origin=SimpleNamespace(x=0, y=0), size=SimpleNamespace(width=1440, height=900)
        )

    def CGEventPost(self, tap, event):  # noqa: N802
        self.posted.append(event)


def test_the_desktop_posts_shift_flags_relative_deltas_and_drags():
    q = Quartz()
    desk = macos.MacDesktop(quartz=q)
    desk.key(desk.shift_keycode, True)
    desk.key(km.mac_stroke("a").keycode, True)
    assert q.posted[-1]["flags"] == 0x20000  # typed while Shift is held: a capital A
    desk.key(desk.shift_keycode, False)
    desk.key(km.mac_stroke("a").keycode, False)
    assert q.posted[-1]["flags"] == 0
    desk.move_by(15, -4)
    moved = q.posted[-1]
    assert moved["pos"] == (115.0, 196.0)
    assert (moved[fields.MAC_FIELD_DELTA_X], moved[fields.MAC_FIELD_DELTA_Y]) == (15, -4)
    desk.button(1, True)
    desk.move(300, 300)
    assert q.posted[-1]["kind"] == 6  # left-dragged
    desk.button(1, False)
    desk.button(4, True)
    desk.button(4, False)
    assert q.posted[-1] == {"kind": "scroll", "wheels": (1, 0)}


@pytest.mark.skipif(sys.platform == "darwin", reason="checks the missing-pyobjc message")
def test_without_pyobjc_the_error_names_the_package():
    with pytest.raises(MissingExtraError, match="pyobjc-framework-Quartz"):
        macos.MacDesktop()
