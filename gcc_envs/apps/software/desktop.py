"""What the software twins' setup steps need beyond the seam's session: the person-like
folders, the screen's size, waiting for a window without making it the only target (the
twins capture the whole screen, dialogs included), and a port check for tests."""

from __future__ import annotations

import socket
import time
from typing import Any

from gcc_envs.errors import BackendError

#: The folders a desktop user has in the home (downloads, exports and dialogs land there).
FOLDERS = ("Desktop", "Downloads", "Documents", "Pictures", "Videos", "Music")


def folders(session: Any) -> None:
    for name in FOLDERS:
        (session.home / name).mkdir(parents=True, exist_ok=True)


def screen_size(session: Any) -> tuple[int, int]:
    """(W, H) of the episode's screen."""
    b = session.backend
    x = getattr(b, "x", None)
    return tuple(x.screen_size) if x is not None else tuple(b.screen_size)  # type: ignore[return-value]


def wait_window(session: Any, title: str, timeout_s: float = 20.0) -> Any:
    """The first window whose title matches ``title``, focused (the env keeps the whole
    screen as its target, so the program's dialogs are seen and reachable too)."""
    win = session.backend.wait_window(title, timeout_s)
    session.backend.x.focus(win)
    return win


def window_titles(session: Any) -> list[str]:
    return list(session.backend.window_titles())


def press(session: Any, key: str) -> None:
    """Tap ``key`` on the display (setup only: dismiss a program's start-up notice)."""
    x = session.backend.x
    stroke = x.stroke(key)
    x.key(stroke.keycode, True)
    time.sleep(0.03)
    x.key(stroke.keycode, False)


def launch(session: Any, argv: list[str], title: str, timeout_s: float = 30.0) -> int:
    """Start ``argv`` and wait for its window (``BackendError`` naming the program if none)."""
    pid = session.launch(argv)
    try:
        wait_window(session, title, timeout_s)
    except BackendError as e:
        raise BackendError(f"{argv[0]} showed no window matching {title!r}: {e}") from e
    return pid


def port_open(port: int, host: str = "127.0.0.1", session: Any = None) -> bool:
    """Whether something listens on ``host:port`` — on the episode's own loopback (inside its
    sandbox) when ``session`` is given, else on this machine's."""

    def test() -> bool:
        with socket.socket() as s:
            s.settimeout(0.2)
            return s.connect_ex((host, port)) == 0

    return bool(session.in_network(test)) if session is not None else test()
