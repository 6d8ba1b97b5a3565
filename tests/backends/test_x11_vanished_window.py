"""X errors on windows that vanish or change while read: a missing window, never a hang.

python-xlib maps BadValue (a property that shrank between two reads) to RandR's
``BadRRModeError``, whose parsing fails and leaves the connection waiting forever; the
backend's connection repairs that mapping and reads each property in one request.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytestmark = [
    pytest.mark.desktop,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed"),
]


@pytest.fixture(scope="module")
def vdisplay() -> Iterator[Any]:
    from gcc_envs.backends.desktop.display import VirtualDisplay

    d = VirtualDisplay((320, 240))
    yield d
    d.close()


@pytest.fixture
def x11(vdisplay: Any) -> Iterator[Any]:
    """A connection of its own per test (a broken one must not break the next test)."""
    from gcc_envs.backends.desktop.x11 import X11

    x = X11(vdisplay.name)
    yield x
    x.close()


def _window(x11: Any, title: bytes) -> Any:
    from Xlib import X

    win = x11.root.create_window(0, 0, 10, 10, 0, X.CopyFromParent)
    win.change_property(x11.atom("WM_NAME"), x11.atom("STRING"), 8, title)
    win.change_property(x11.atom("WM_CLASS"), x11.atom("STRING"), 8, b"inst\0Klass\0")
    x11.d.sync()
    return win


def _within(fn: Callable[[], Any], timeout_s: float = 5.0) -> Any:
    """``fn()``'s value; fails the test (instead of hanging it) when it does not return."""
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    t.start()
    t.join(timeout_s)
    assert out, f"the X connection hung for {timeout_s} s"
    return out[0]


def test_a_bad_value_is_an_x_error_and_the_connection_still_answers(x11: Any) -> None:
    from Xlib import X, error

    win = _window(x11, b"short")
    with pytest.raises(error.BadValue):  # an offset past the property's end, as after a shrink
        win.get_property(x11.atom("WM_NAME"), X.AnyPropertyType, 100, 10)
    assert _within(lambda: x11.title(win)) == "short"


def test_a_vanished_window_reads_as_missing(x11: Any) -> None:
    win = _window(x11, b"going away")
    assert x11.title(win) == "going away" and x11.wm_class(win) == ("inst", "Klass")
    win.destroy()
    x11.d.sync()
    assert _within(lambda: (x11.title(win), x11.pid(win), x11.wm_class(win))) == ("", None, ())
    assert _within(lambda: x11.is_focused(win)) is False


def test_a_long_title_reads_whole_in_one_request(x11: Any) -> None:
    title = "a title longer than python-xlib's first read of forty bytes " * 4
    win = _window(x11, title.encode())
    assert x11.title(win) == title
    win.destroy()
