"""X11 through python-xlib: windows (EWMH), focus, geometry and XTEST input.

Key names are :mod:`gcc_envs.core.events` names; a key the layout cannot type raises
:class:`InvalidActionError` naming it. Coordinates given here are screen pixels.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from gcc_envs.errors import BackendError, InvalidActionError, MissingExtraError

try:
    from Xlib import XK, X, display, error, protocol
    from Xlib.ext import xtest
except ImportError as e:  # pragma: no cover - the desktop extra is missing
    raise MissingExtraError("python-xlib", "desktop") from e

#: events.py names → X keysym names.
_NAMED = {
    "enter": "Return",
    "esc": "Escape",
    "tab": "Tab",
    "space": "space",
    "backspace": "BackSpace",
    "delete": "Delete",
    "insert": "Insert",
    "home": "Home",
    "end": "End",
    "pageup": "Prior",
    "pagedown": "Next",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
    "shift": "Shift_L",
    "shiftleft": "Shift_L",
    "shiftright": "Shift_R",
    "ctrl": "Control_L",
    "ctrlleft": "Control_L",
    "ctrlright": "Control_R",
    "alt": "Alt_L",
    "altleft": "Alt_L",
    "altright": "Alt_R",
    "win": "Super_L",
    "winleft": "Super_L",
    "winright": "Super_R",
    "command": "Super_L",
    "option": "Alt_L",
    "capslock": "Caps_Lock",
    "numlock": "Num_Lock",
    "scrolllock": "Scroll_Lock",
    "printscreen": "Print",
    "pause": "Pause",
    "menu": "Menu",
    "volumeup": "XF86AudioRaiseVolume",
    "volumedown": "XF86AudioLowerVolume",
    "volumemute": "XF86AudioMute",
    **{f"f{i}": f"F{i}" for i in range(1, 25)},
    **{f"num{i}": f"KP_{i}" for i in range(10)},
}
#: Largest relative motion one XTEST request carries (a signed 16-bit field).
MAX_MOTION = 32767
#: Buttons by name; scroll is buttons 4 (up) 5 (down) 6 (left) 7 (right).
BUTTONS = {"left": 1, "middle": 2, "right": 3}
#: The most 32-bit units one property read asks for (titles and client lists are far shorter).
MAX_PROPERTY_LONGS = 1 << 16


def repair_error_classes(d: Any) -> None:
    """Map every X error code of the connection ``d`` to an :class:`Xlib.error.XError` class.

    python-xlib registers RandR's errors at their bare codes (BadRRCrtc at 1, BadRRMode at 2:
    the core BadRequest and BadValue) and as plain exceptions without XError's fields. A
    BadValue — a window's property shrinking between two reads — is then parsed as
    ``BadRRModeError``, the parser fails on its missing ``sequence_number``, and the
    connection waits forever on the next reply. Core codes get their core classes back; any
    other class that is not an XError becomes XError.
    """
    table = d.display.error_classes
    for code, cls in list(table.items()):
        core = error.xerror_class.get(code)
        if core is not None:
            table[code] = core
        elif not (isinstance(cls, type) and issubclass(cls, error.XError)):
            table[code] = error.XError


@dataclass(frozen=True)
class Stroke:
    """How to type one key name: its keycode and whether Shift must be held."""

    keycode: int
    shift: bool


@dataclass(frozen=True)
class Geometry:
    """A window's client area in root (screen) coordinates."""

    x: int
    y: int
    width: int
    height: int


class X11:
    """One connection to an X display."""

    def __init__(self, name: str) -> None:
        try:
            self.d = display.Display(name)
        except Exception as e:  # Xlib raises several unrelated types here
            raise BackendError(f"cannot open X display {name!r}: {e}") from e
        repair_error_classes(self.d)
        self.name = name
        self.root = self.d.screen().root
        self.screen_size = (self.d.screen().width_in_pixels, self.d.screen().height_in_pixels)
        self._shift = self.d.keysym_to_keycode(XK.string_to_keysym("Shift_L"))
        self._sink: Any = None
        self._geometries: dict[int, tuple[Geometry, float]] = {}  # window id -> (geometry, when)
        self._watched: set[int] = set()

    def atom(self, name: str) -> int:
        return self.d.intern_atom(name)

    def _prop(self, win: Any, name: str) -> Any:
        """A window property's value, or None when it is unset or the window is gone.

        One request reads it whole: ``get_full_property``'s two reads race a program that
        changes the property in between (a shorter title: BadValue, a removed one: None).
        """
        try:
            p = win.get_property(self.atom(name), X.AnyPropertyType, 0, MAX_PROPERTY_LONGS)
        except error.XError:  # BadWindow and the like: the window vanished while read
            return None
        return None if p is None else p.value

    # ------------------------------------------------------------------ windows
    def clients(self) -> list[Any]:
        ids = self._prop(self.root, "_NET_CLIENT_LIST")
        return [self.d.create_resource_object("window", int(i)) for i in (ids or [])]

    def title(self, win: Any) -> str:
        v = self._prop(win, "_NET_WM_NAME") or self._prop(win, "WM_NAME") or b""
        return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)

    def pid(self, win: Any) -> int | None:
        v = self._prop(win, "_NET_WM_PID")
        return int(v[0]) if v is not None and len(v) else None

    def client_pid(self, wid: int) -> int | None:
        """The PID of the X client that created window ``wid`` (X-Resource), if local."""
        try:
            from Xlib.ext import res

            reply = self.d.res_query_client_ids(
                [{"client": int(wid), "mask": res.LocalClientPIDMask}]
            )
        except Exception:  # noqa: BLE001 - no X-Resource extension, or the window is gone
            return None
        for item in reply.ids:
            if item.value:
                return int(item.value[0])
        return None

    def wm_pid(self) -> int | None:
        """The window manager's PID (the client behind ``_NET_SUPPORTING_WM_CHECK``)."""
        check = self._prop(self.root, "_NET_SUPPORTING_WM_CHECK")
        if check is None or not len(check):
            return None
        win = self.d.create_resource_object("window", int(check[0]))
        return self.client_pid(int(check[0])) or self.pid(win)

    def wm_class(self, win: Any) -> tuple[str, ...]:
        """``WM_CLASS``'s instance and class names; () when unset or the window is gone."""
        v = self._prop(win, "WM_CLASS")
        if not isinstance(v, bytes):
            return ()
        parts = v.decode("latin-1").split("\0")
        return tuple(parts[:2]) if len(parts) >= 2 else ()

    def find(
        self, title: str | None = None, pid: int | None = None, wm_class: str | None = None
    ) -> Any | None:
        """The first managed window matching every criterion given (title is a regex)."""
        pattern = re.compile(title) if title is not None else None
        for win in self.clients():
            if pattern is not None and not pattern.search(self.title(win)):
                continue
            if pid is not None and self.pid(win) != pid:
                continue
            if wm_class is not None and wm_class not in self.wm_class(win):
                continue
            return win
        return None

    def wait_window(self, timeout_s: float = 10.0, **criteria: Any) -> Any:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            win = self.find(**criteria)
            if win is not None:
                return win
            time.sleep(0.05)
        raise BackendError(f"no window matching {criteria} appeared within {timeout_s:.0f} s")

    def geometry(self, win: Any, max_age_s: float = 0.0) -> Geometry:
        """The window's client area on the screen (two round trips to the server).

        With ``max_age_s`` the answer may come from a cache no older than that, which any
        structure event of the window or of its frame (move, resize, unmap, destroy, ...)
        empties at once: a step's capture then costs no round trip for the geometry.
        """
        if max_age_s > 0:
            self._drain_events()
            hit = self._geometries.get(win.id)
            if hit is not None and time.monotonic() - hit[1] < max_age_s:
                return hit[0]
            self._watch(win)
        try:
            g = win.get_geometry()
            t = self.root.translate_coords(win, 0, 0)
        except error.XError as e:
            raise BackendError(f"the target window is gone: {e}") from e
        geometry = Geometry(int(t.x), int(t.y), int(g.width), int(g.height))
        if max_age_s > 0:
            self._geometries[win.id] = (geometry, time.monotonic())
        return geometry

    def _watch(self, win: Any) -> None:
        """Ask for the structure events of ``win`` and of its top-level frame (once)."""
        if win.id in self._watched:
            return
        self._watched.add(win.id)
        try:
            node = win
            while True:
                node.change_attributes(event_mask=X.StructureNotifyMask)
                parent = node.query_tree().parent
                if parent is None or parent.id == self.root.id:
                    break
                node = parent
        except error.XError:
            pass  # gone: the next query says so

    def _drain_events(self) -> None:
        """Read the queued events without waiting; any of them empties the geometry cache."""
        try:
            while self.d.pending_events():
                self.d.next_event()
                self._geometries.clear()
        except error.XError:
            self._geometries.clear()

    # ------------------------------------------------------------------ focus
    def active(self) -> int | None:
        v = self._prop(self.root, "_NET_ACTIVE_WINDOW")
        return int(v[0]) if v is not None and len(v) else None

    def is_focused(self, win: Any) -> bool:
        """Whether keyboard input goes to ``win`` now: it is viewable and the X input focus is
        ``win`` or a window inside it (the window manager's ``_NET_ACTIVE_WINDOW`` can lag)."""
        try:
            if win.get_attributes().map_state != X.IsViewable:
                return False
            focus = self.d.get_input_focus().focus
        except error.XError:
            return False
        fid = getattr(focus, "id", None)
        if fid == win.id:
            return True
        if not isinstance(fid, int) or fid in (0, 1, self.root.id):  # None / PointerRoot
            return False
        return self._inside(fid, win.id)

    def _inside(self, wid: int, ancestor: int) -> bool:
        """Whether window ``wid`` is ``ancestor`` or lies inside it."""
        try:
            w = self.d.create_resource_object("window", wid)
            for _ in range(16):
                if w.id == ancestor:
                    return True
                parent = w.query_tree().parent
                if not parent or parent.id in (0, self.root.id):
                    return False
                w = parent
        except error.XError:
            return False
        return False

    def focus(self, win: Any, timeout_s: float = 1.0) -> bool:
        """Ask the window manager to activate ``win``; fall back to XSetInputFocus."""
        mask = X.SubstructureRedirectMask | X.SubstructureNotifyMask
        msg = protocol.event.ClientMessage(
            window=win,
            client_type=self.atom("_NET_ACTIVE_WINDOW"),
            data=(32, [2, X.CurrentTime, 0, 0, 0]),
        )
        try:
            self.root.send_event(msg, event_mask=mask)
            self.d.sync()
            if self._wait_focus(win, timeout_s / 2):
                return True
            win.configure(stack_mode=X.Above)
            win.set_input_focus(X.RevertToParent, X.CurrentTime)
            self.d.sync()
        except error.XError:
            return False
        return self._wait_focus(win, timeout_s / 2)

    def focus_away(self, win: Any = None, timeout_s: float = 1.0) -> bool:
        """Give the keyboard focus to a 1×1 off-screen window of ours (the ``focus`` pause).

        Focusing the root does not work: the window manager falls back to the last window.
        With ``win``, wait (up to ``timeout_s``) until the window manager no longer reports
        ``win`` as focused — it updates ``_NET_ACTIVE_WINDOW`` asynchronously. Returns whether
        that happened.
        """
        if self._sink is None:
            self._sink = self.root.create_window(
                -10, -10, 1, 1, 0, X.CopyFromParent, override_redirect=True
            )
            self._sink.map()
        deadline = time.monotonic() + timeout_s
        stable_since: float | None = None
        while True:
            # The window manager may hand focus back (a window that just mapped, a late
            # activation request), so the focus must stay away for a settle time.
            if win is None or self.is_focused(win):
                self._sink.set_input_focus(X.RevertToPointerRoot, X.CurrentTime)
                self.d.sync()
                stable_since = None
                if win is None:
                    return True
            elif stable_since is None:
                stable_since = time.monotonic()
            elif time.monotonic() - stable_since >= 0.05:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)

    def _wait_focus(self, win: Any, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while True:
            if self.is_focused(win):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)

    # ------------------------------------------------------------------ input (XTEST)
    def stroke(self, key: str) -> Stroke:
        """The keycode and Shift state that type ``key`` on the current layout."""
        if len(key) == 1:
            keysym = XK.string_to_keysym(key) or (ord(key) if " " <= key <= "~" else 0)
        else:
            keysym = XK.string_to_keysym(_NAMED.get(key, key))
        keycode = self.d.keysym_to_keycode(keysym) if keysym else 0
        if not keycode:
            raise InvalidActionError(f"key {key!r} cannot be typed on this keyboard layout")
        if self.d.keycode_to_keysym(keycode, 0) == keysym:
            return Stroke(keycode, False)
        if self.d.keycode_to_keysym(keycode, 1) == keysym:
            return Stroke(keycode, True)
        # only on a third level (AltGr) or a group this layout does not select
        raise InvalidActionError(f"key {key!r} needs more than Shift on this keyboard layout")

    def key(self, keycode: int, down: bool) -> None:
        xtest.fake_input(self.d, X.KeyPress if down else X.KeyRelease, keycode)
        self.d.sync()

    @property
    def shift_keycode(self) -> int:
        return self._shift

    def move(self, x: int, y: int) -> None:
        xtest.fake_input(self.d, X.MotionNotify, x=int(x), y=int(y))
        self.d.sync()

    def move_by(self, dx: int, dy: int) -> None:
        """Relative pointer motion (a camera mouse); the server does not clamp games' deltas.

        XTEST carries a motion as 16-bit numbers: a larger one is sent in equal pieces.
        """
        dx, dy = int(dx), int(dy)
        n = max(1, -(-max(abs(dx), abs(dy)) // MAX_MOTION))
        sent_x = sent_y = 0
        for i in range(1, n + 1):
            tx, ty = dx * i // n, dy * i // n
            xtest.fake_input(self.d, X.MotionNotify, detail=True, x=tx - sent_x, y=ty - sent_y)
            sent_x, sent_y = tx, ty
        self.d.sync()

    def pointer(self) -> tuple[int, int]:
        """The pointer's screen position (XQueryPointer)."""
        p = self.root.query_pointer()
        return int(p.root_x), int(p.root_y)

    def button(self, number: int, down: bool) -> None:
        xtest.fake_input(self.d, X.ButtonPress if down else X.ButtonRelease, number)
        self.d.sync()

    def pressed_buttons(self) -> list[int]:
        """Mouse buttons 1–5 the server holds down now (XQueryPointer's mask)."""
        mask = int(self.root.query_pointer().mask)
        return [n for n in range(1, 6) if mask & (X.Button1Mask << (n - 1))]

    def ask_close(self, win: Any) -> None:
        """Ask the window manager to close ``win``, as its title bar's close button does
        (``_NET_CLOSE_WINDOW``: the program may save its state, or ask first)."""
        msg = protocol.event.ClientMessage(
            window=win, client_type=self.atom("_NET_CLOSE_WINDOW"), data=(32, [X.CurrentTime, 2, 0, 0, 0])
        )  # fmt: skip
        try:
            self.root.send_event(
                msg, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask
            )
            self.d.sync()
        except error.XError:  # gone meanwhile: closed all the same
            pass

    def pressed_keycodes(self) -> set[int]:
        """Keycodes the server holds down now (XQueryKeymap)."""
        keymap = self.d.query_keymap()
        return {i * 8 + b for i, byte in enumerate(keymap) for b in range(8) if byte >> b & 1}

    def close(self) -> None:
        try:
            self.d.close()
        except Exception:  # noqa: BLE001 - closing a dead connection is fine
            pass
