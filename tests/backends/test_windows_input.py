"""Windows input translation: scan codes, SendInput records, coordinates (run on any platform)."""

import ctypes
import sys

import pytest

from gcc_envs.backends.desktop import inputfields as fields
from gcc_envs.backends.desktop import keymaps as km
from gcc_envs.backends.desktop import windows as win
from gcc_envs.core.events import KEY_NAMES
from gcc_envs.errors import BackendError, InvalidActionError


@pytest.mark.parametrize("key", sorted(KEY_NAMES))
def test_every_event_key_name_has_a_windows_scan_code(key):
    stroke = km.win_stroke(key)
    assert (0 < stroke.scan < 0x80) or (stroke.scan == 0 and stroke.vk)


def test_the_scan_codes_games_poll_are_the_set_1_codes():
    assert km.win_stroke("w").scan == 0x11
    assert [km.win_stroke(k).scan for k in "asd"] == [0x1E, 0x1F, 0x20]
    assert km.win_stroke("esc").scan == 0x01 and km.win_stroke("space").scan == 0x39
    assert km.win_stroke("1").scan == 0x02 and km.win_stroke("0").scan == 0x0B
    assert km.win_stroke("f1").scan == 0x3B and km.win_stroke("f12").scan == 0x58


def test_shifted_characters_are_their_base_key_with_shift():
    assert km.win_stroke("W") == km.win_stroke("w").__class__(0x11, False, True)
    assert km.win_stroke("!").scan == km.win_stroke("1").scan and km.win_stroke("!").shift
    assert km.win_stroke(":").scan == km.win_stroke(";").scan


@pytest.mark.parametrize(
    "key", ["up", "down", "left", "right", "insert", "delete", "home", "end", "pageup", "pagedown",
            "ctrlright", "altright", "win", "printscreen"],
)  # fmt: skip
def test_keys_sent_with_an_e0_prefix_carry_the_extended_flag(key):
    stroke = km.win_stroke(key)
    assert stroke.extended and stroke.keycode >> 8 == 0xE0
    assert fields.win_key_fields(stroke.keycode, True).flags & fields.KEYEVENTF_EXTENDEDKEY


def test_main_block_keys_do_not_carry_the_extended_flag():
    for key in ("w", "enter", "ctrl", "alt", "shift", "num8"):
        assert not km.win_stroke(key).extended


def test_an_unknown_key_is_refused_with_its_name():
    with pytest.raises(InvalidActionError, match="nosuchkey"):
        km.win_stroke("nosuchkey")


def test_a_key_record_uses_the_scan_code_not_the_virtual_key():
    down = win.key_input(km.win_stroke("w").keycode, True)
    assert down.type == fields.INPUT_KEYBOARD
    assert (down.u.ki.wVk, down.u.ki.wScan, down.u.ki.dwFlags) == (
        0,
        0x11,
        fields.KEYEVENTF_SCANCODE,
    )
    up = win.key_input(km.win_stroke("up").keycode, False)
    assert up.u.ki.wScan == 0x48
    assert (
        up.u.ki.dwFlags
        == fields.KEYEVENTF_SCANCODE | fields.KEYEVENTF_EXTENDEDKEY | fields.KEYEVENTF_KEYUP
    )


def test_pause_goes_as_its_virtual_key():
    record = fields.win_key_fields(km.win_stroke("pause").keycode, True)
    assert record == fields.KeyFields(km.VK_PAUSE, 0, 0)


@pytest.mark.skipif(ctypes.sizeof(ctypes.c_void_p) != 8, reason="layout checked for 64-bit")
def test_the_input_record_has_the_64_bit_windows_layout():
    assert ctypes.sizeof(win.INPUT) == 40
    assert ctypes.sizeof(win.MOUSEINPUT) == 32 and ctypes.sizeof(win.KEYBDINPUT) == 24
    assert win.INPUT.u.offset == 8


def test_absolute_moves_are_normalised_over_the_virtual_screen():
    cx, cy = fields.normalize_absolute(960, 540, (0, 0, 1920, 1080))
    assert abs(cx - 32768) < 40 and abs(cy - 32768) < 40
    assert fields.normalize_absolute(0, 0, (0, 0, 1920, 1080)) == (0, 0)
    assert fields.normalize_absolute(1919, 1079, (0, 0, 1920, 1080)) == (65535, 65535)
    assert fields.normalize_absolute(-1920, 0, (-1920, 0, 3840, 1080)) == (0, 0)  # a left monitor
    assert fields.normalize_absolute(99_999, -5, (0, 0, 1920, 1080)) == (65535, 0)  # clamped
    f = fields.win_move_fields(960, 540, (0, 0, 1920, 1080))
    assert (
        f.flags
        == fields.MOUSEEVENTF_MOVE | fields.MOUSEEVENTF_ABSOLUTE | fields.MOUSEEVENTF_VIRTUALDESK
    )


def test_relative_moves_are_not_absolute_so_raw_input_games_turn():
    f = fields.win_move_rel_fields(-25, 7)
    assert (f.dx, f.dy) == (-25, 7) and f.flags == fields.MOUSEEVENTF_MOVE
    record = win.mouse_input(f)
    assert record.type == fields.INPUT_MOUSE and (record.u.mi.dx, record.u.mi.dy) == (-25, 7)


def test_buttons_and_wheel_map_to_their_flags():
    assert win.button_inputs(1, True)[0].u.mi.dwFlags == 0x0002
    assert win.button_inputs(3, False)[0].u.mi.dwFlags == 0x0010
    up, down = win.button_inputs(4, True)[0].u.mi, win.button_inputs(5, True)[0].u.mi
    assert up.dwFlags == fields.MOUSEEVENTF_WHEEL and up.mouseData == 120
    assert ctypes.c_int32(down.mouseData).value == -120  # a signed wheel delta in a DWORD
    assert win.button_inputs(7, True)[0].u.mi.dwFlags == fields.MOUSEEVENTF_HWHEEL
    assert win.button_inputs(4, False) == []  # the wheel clicks on press only
    with pytest.raises(InvalidActionError):
        win.button_inputs(9, True)


def test_frame_pixels_map_into_the_window_and_logical_rects_scale_to_physical():
    assert fields.scale_rect((100, 50, 640, 360), 1.5) == (150, 75, 960, 540)
    window = fields.scale_rect((100, 50, 640, 360), 2.0)
    assert fields.frame_to_screen(0, 0, (640, 360), window) == (201, 101)
    assert fields.frame_to_screen(639, 359, (640, 360), window) == (200 + 1279, 100 + 719)
    assert fields.frame_to_screen(-5, 10_000, (640, 360), window) == (200, 100 + 719)
    with pytest.raises(InvalidActionError):
        fields.scale_rect((0, 0, 1, 1), 0)


class User32:
    """Records what would reach user32.dll."""

    def __init__(self):
        self.sent = []

    def SendInput(self, n, array, size):  # noqa: N802 - the Win32 name
        assert size == ctypes.sizeof(win.INPUT)
        self.sent.extend(array[i] for i in range(n))
        return n

    def GetSystemMetrics(self, index):  # noqa: N802
        return {76: 0, 77: 0, 78: 1920, 79: 1080}[index]


def test_the_desktop_sends_one_record_per_primitive():
    user32 = User32()
    desk = win.WindowsDesktop(user32=user32)
    desk.key(desk.stroke("W").keycode, True)
    desk.move(960, 540)
    desk.move_by(10, -3)
    desk.button(1, True)
    kinds = [r.type for r in user32.sent]
    assert kinds == [
        fields.INPUT_KEYBOARD,
        fields.INPUT_MOUSE,
        fields.INPUT_MOUSE,
        fields.INPUT_MOUSE,
    ]
    assert user32.sent[1].u.mi.dwFlags & fields.MOUSEEVENTF_ABSOLUTE
    assert not user32.sent[2].u.mi.dwFlags & fields.MOUSEEVENTF_ABSOLUTE
    assert desk.shift_keycode == 0x2A


def test_blocked_input_is_reported():
    class Blocked(User32):
        def SendInput(self, n, array, size):  # noqa: N802
            return 0

    with pytest.raises(BackendError, match="UIPI"):
        win.WindowsDesktop(user32=Blocked()).key(0x11, True)


@pytest.mark.skipif(sys.platform == "win32", reason="checks the non-Windows refusal")
def test_off_windows_the_desktop_says_it_runs_on_windows_only():
    with pytest.raises(BackendError, match="Windows only"):
        win.WindowsDesktop()
