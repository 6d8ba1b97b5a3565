"""The desktop backend's cached window geometry follows a moved or resized window at once."""

import shutil
import time

import numpy as np
import pytest

pytestmark = [
    pytest.mark.desktop,
    *(
        pytest.mark.skipif(shutil.which(p) is None, reason=f"{p} is not installed")
        for p in ("Xvfb", "openbox", "xterm")
    ),
]


def until(condition, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_a_moved_and_resized_window_is_captured_where_it_is_now():
    from gcc_envs.backends.desktop.backend import GEOMETRY_AGE_S, DesktopBackend

    launch = ["xterm", "-geometry", "40x10+30+30", "-title", "gcc-geometry", "-e", "/bin/sh"]
    b = DesktopBackend((120, 160), launch=launch, pause="none", screen_size=(800, 600))
    try:
        b.reset(np.random.default_rng(0), None)
        x0, y0, w0, h0 = b._region()
        assert b._region() == (x0, y0, w0, h0)  # from the cache now
        b.window.configure(x=300, y=200, width=w0 + 40, height=h0 + 20)
        b.x.d.sync()
        t0 = time.monotonic()

        def current() -> bool:  # the cached answer is the server's fresh one, and it moved
            g = b.x.geometry(b.window)  # no max_age: asks the server
            return b._region() == (g.x, g.y, g.width, g.height) and (g.x, g.y) != (x0, y0)

        assert until(current, 2.0)
        assert time.monotonic() - t0 < GEOMETRY_AGE_S  # the event, not the cache's age
        assert b._region()[2:] != (w0, h0)  # resized too
        assert b.capture().shape == (120, 160, 3)
    finally:
        b.close()
