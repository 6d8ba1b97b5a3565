"""``Episode``: one OSWorld task's desktop — its session bus, programs and commands.

It sits on an :class:`~gcc_envs.apps.episode.EpisodeDesktop` (the episode's sandbox: its own
user, home, processes and loopback; the display; the programs it stops at the end) and adds
what OSWorld's tasks assume:

* a D-Bus session bus of its own (``dbus-daemon``), so ``gsettings`` reaches a real dconf
  database in the home, and GTK programs find a bus without spawning stray ones;
* the programs: task commands are mapped through :mod:`.apps` (``google-chrome`` →
  Chromium with a throwaway profile and a free debugging port), started, waited for by window
  title, and stopped on ``pkill`` (the episode's own programs only);
* commands: task files' commands run in real bash inside the sandbox, with the episode's
  environment and a deadline (:meth:`Episode.run`).
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gcc_envs.core.events import Event
from gcc_envs.core.probe import RunResult
from gcc_envs.errors import GCCError
from gcc_envs.osworld.apps import App, app_key, apps, find_app
from gcc_envs.osworld.cache import DownloadCache
from gcc_envs.osworld.commands import CommandError
from gcc_envs.sandbox.groups import terminate

log = logging.getLogger(__name__)

#: The folders of a fresh OSWorld home.
HOME_FOLDERS = ("Desktop", "Documents", "Downloads", "Music", "Pictures", "Videos",
                ".config", ".local/share", ".cache")  # fmt: skip


#: ``launch`` commands the runner handles itself instead of starting them: OSWorld's port
#: forwarder (Chrome's debugging port is reached directly here) and the commands that stop a
#: program.
FORWARDER, STOPPERS = "socat", ("pkill", "killall")
RUNNER_LAUNCHES = (FORWARDER, *STOPPERS)
#: ``at-spi-bus-launcher`` (Debian ``at-spi2-core``); D-Bus starts it for ``org.a11y.Bus``.
ATSPI_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
#: What programs get when the accessibility tree is on: the AT-SPI bridge of GTK 3, and of
#: GTK 2 (GIMP 2.10), which loads it as a module. Qt (VLC) and Chromium turn theirs on when
#: the AT-SPI bus says it is enabled.
ACCESSIBILITY_ENV = {"NO_AT_BRIDGE": "0", "GTK_MODULES": "gail:atk-bridge"}


def screen_placeholders(size: tuple[int, int]) -> dict[str, str]:
    """The ``{SCREEN_WIDTH}``-style placeholders of OSWorld's task files."""
    w, h = size
    return {"{SCREEN_WIDTH}": str(w), "{SCREEN_HEIGHT}": str(h),
            "{SCREEN_WIDTH_HALF}": str(w // 2), "{SCREEN_HEIGHT_HALF}": str(h // 2),
            "{CLIENT_PASSWORD}": "password"}  # fmt: skip


def fill_placeholders(value: Any, table: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        for k, v in table.items():
            value = value.replace(k, v)
        return value
    if isinstance(value, Mapping):
        return {k: fill_placeholders(v, table) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(fill_placeholders(v, table) for v in value)
    return value


class Episode:
    """The desktop of one task episode (see the module docstring)."""

    def __init__(
        self,
        session: Any,
        probe: Any,
        send: Callable[[Sequence[Event]], None],
        *,
        screen_size: tuple[int, int] = (1920, 1080),
        window_timeout_s: float = 60.0,
        accessibility: bool = False,
    ) -> None:
        self.session = session
        #: Whether programs expose their AT-SPI accessibility tree (the episode's AT-SPI bus
        #: runs, toolkits' bridges on); off, ``NO_AT_BRIDGE=1`` as on a desktop without it.
        self.accessibility = accessibility
        self.screen_size = screen_size
        self.probe = probe
        self.send = send
        self.window_timeout_s = window_timeout_s
        self.home = Path(session.home)
        #: Environment added to the session's for every program of the episode.
        self.env: dict[str, str] = {}
        #: Programs started, by app key: their pids.
        self.running: dict[str, list[int]] = {}
        #: Chromium's DevTools port (``google-chrome``), once started.
        self.cdp_port: int | None = None
        #: What postconfig steps saved (``"stdout": NAME``), by name.
        self.cache: dict[str, str] = {}
        #: Where ``download`` steps fetch files (None: ``DownloadCache.from_env()``).
        self.downloads: DownloadCache | None = None
        #: What happened that a person should know (mapped commands, ignored variables).
        self.notes: list[str] = []
        self._ports: dict[str, int] = {}

    # ---------------------------------------------------------------- setup of the desktop
    def prepare(self) -> None:
        """Make the home an OSWorld home, give it to the user, start the session bus."""
        for folder in HOME_FOLDERS:
            (self.home / folder).mkdir(parents=True, exist_ok=True)
        for app in apps():
            for relative, text in app.seed:
                path = self.home / relative  # the program table's own paths
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, "utf-8")
        runtime = self.home / ".run"
        runtime.mkdir(mode=0o700, exist_ok=True)
        self.env.update({"XDG_RUNTIME_DIR": str(runtime), "XDG_CURRENT_DESKTOP": "GNOME",
                         "LANG": "C.UTF-8"})  # fmt: skip
        self.env.update(ACCESSIBILITY_ENV if self.accessibility else {"NO_AT_BRIDGE": "1"})
        self.give_home()
        self._start_bus(runtime / "bus")
        if self.accessibility:
            self._start_accessibility_bus()

    def start_sound(self) -> None:
        """A PulseAudio server of the episode's own, on a null sink (what ``pactl`` talks to
        on OSWorld's Ubuntu); a note, not an error, where PulseAudio is missing."""
        if shutil.which("pulseaudio") is None:
            self.notes.append("pulseaudio is missing (Debian: pulseaudio): no sound server")
            return
        self.session.launch(self.argv(["pulseaudio", "--daemonize=no", "--exit-idle-time=-1",
                                       "-n", "--load=module-null-sink",
                                       "--load=module-native-protocol-unix"]))  # fmt: skip
        socket = Path(self.env["XDG_RUNTIME_DIR"]) / "pulse" / "native"
        deadline = time.monotonic() + 10.0
        while not socket.exists():
            if time.monotonic() > deadline:
                raise GCCError("the episode's PulseAudio server did not start within 10 s")
            time.sleep(0.02)

    def _start_bus(self, socket: Path) -> None:
        if shutil.which("dbus-daemon") is None:
            self.notes.append("dbus-daemon is missing: gsettings has no dconf database")
            return
        address = f"unix:path={socket}"
        self.session.launch(self.argv(["dbus-daemon", "--session", "--nofork", "--nopidfile",
                                       f"--address={address}"]))  # fmt: skip
        deadline = time.monotonic() + 10.0
        while not socket.exists():
            if time.monotonic() > deadline:
                raise GCCError("the episode's D-Bus session bus did not start within 10 s")
            time.sleep(0.01)
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address

    def _start_accessibility_bus(self) -> None:
        """Start the AT-SPI bus (``at-spi-bus-launcher``, which starts the accessibility bus
        daemon and ``at-spi2-registryd``) on the session bus, marked enabled, and put its
        address into the episode's environment: programs and the tree reader then never
        follow a stale ``AT_SPI_BUS`` property that an earlier episode left on the display."""
        if "DBUS_SESSION_BUS_ADDRESS" not in self.env:
            return  # _start_bus noted why
        if shutil.which("dbus-send") is None or not Path(ATSPI_LAUNCHER).exists():
            self.notes.append("at-spi2-core or dbus-send is missing: no accessibility tree")
            return
        bus = ["dbus-send", "--session", "--print-reply=literal", "--dest=org.a11y.Bus",
               "/org/a11y/bus"]  # fmt: skip
        result = self.run([*bus, "org.a11y.Bus.GetAddress"], timeout_s=10.0)
        address = result.stdout.strip()
        if result.returncode or not address.startswith("unix:"):
            raise GCCError(f"the episode's AT-SPI bus did not start: {result.stderr.strip()}")
        self.env["AT_SPI_BUS_ADDRESS"] = address
        # toolkits that ask (Qt, Chromium) turn their bridge on only when the bus says so
        self.run([*bus, "org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status",
                  "string:IsEnabled", "variant:boolean:true"], timeout_s=10.0)  # fmt: skip

    def give_home(self) -> None:
        """Hand what this process wrote into the home to the episode's user."""
        self.session.give_home()

    def inside(self, path: str) -> Path:
        """``path`` (relative to the home, or absolute) inside the home, or an error."""
        return Path(self.session.inside(path))

    def argv(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> list[str]:
        """``argv`` as the episode runs it: its environment added."""
        extra = {**self.env, **(env or {})}
        return ["env", *(f"{k}={v}" for k, v in extra.items()), *argv] if extra else list(argv)

    def run(self, argv: Sequence[str], timeout_s: float) -> RunResult:
        """Run a command to its end inside the sandbox, with the episode's environment."""
        return self.session.run(self.argv(argv), timeout_s=timeout_s)

    def run_program(self, argv: Sequence[str], timeout_s: float) -> bool:
        """Run a program to its end as programs run (no address-space cap: a browser reserves
        far more than a command may), stopping it at the deadline; whether it ended itself."""
        pid = self.session.launch(self.argv(argv))
        deadline = time.monotonic() + timeout_s
        while _alive(pid):
            if time.monotonic() > deadline:
                terminate(pid, 5.0)
                return False
            time.sleep(0.05)
        return True

    # ---------------------------------------------------------------- programs
    def launch(self, task_argv: Sequence[str], env: Mapping[str, str] | None = None) -> None:
        """Start what a task's ``launch`` names (mapped) and wait for its window."""
        task_argv = list(task_argv)
        if not task_argv:
            raise CommandError("launch needs a command")
        name = task_argv[0].rsplit("/", 1)[-1]
        if name == FORWARDER:  # OSWorld forwards Chrome's port out of its VM; not needed here
            self.notes.append("socat not needed: the debugging port is reached directly")
            return
        if name in STOPPERS:
            self.stop(task_argv[-1])
            return
        app = find_app(name)
        if app is None:
            raise CommandError(f"launch {name!r}: not a program this runner knows (see apps.toml)")
        if shutil.which(app.program) is None:
            raise GCCError(f"{app.program} is not installed (package {app.package})")
        port = self._port(app)
        url = ""
        if app.server:
            url = self._start_server(app, port)
            paths = [a for a in task_argv[1:] if not a.startswith("-")]
            if paths:  # `code PATH...`: the page opens them (it ignores a command line)
                url = self._code_url(port, paths)
                task_argv = [task_argv[0], *(a for a in task_argv[1:] if a.startswith("-"))]
        profile = str(self.home / ".cache" / f"{app.key}-window")
        argv = app.argv(task_argv, home=str(self.home), port=port, profile=profile, url=url,
                        size=self.screen_size, accessibility=self.accessibility)  # fmt: skip
        if app.key == "chrome":
            self.cdp_port = port
        pid = self.session.launch(self.argv(argv, {**dict(app.env), **(env or {})}))
        self.running.setdefault(app.key, []).append(pid)
        self.notes.append(f"{task_argv[0]} runs as {argv[0]}")
        self.wait_window(app, app.window_for(task_argv, str(self.home)))

    def _code_url(self, port: int, paths: Sequence[str]) -> str:
        """code-server's page for ``code PATH...``: the last folder named is the workspace
        (else the home), each file is opened in an editor (the page's ``payload``)."""
        folder, files = self.home, []
        for path in paths:
            inside = self.inside(path)
            if inside.is_dir():
                folder = inside
            else:
                files.append(["openFile", f"vscode-remote://127.0.0.1:{port}{inside}"])
        url = f"http://127.0.0.1:{port}/?folder={quote(str(folder))}"
        return url + ("&payload=" + quote(json.dumps(files)) if files else "")

    def _port(self, app: App) -> int:
        if not app.needs_port:
            return 0
        if app.key not in self._ports:
            self._ports[app.key] = self.session.free_port()
        return self._ports[app.key]

    def _start_server(self, app: App, port: int) -> str:
        key = f"{app.key}:server"
        if key not in self.running:
            if shutil.which(app.server[0]) is None:
                raise GCCError(f"{app.server[0]} is not installed ({app.package})")
            pid = self.session.start_server(
                self.argv(app.server_argv(home=str(self.home), port=port)), port=port,
                ready_timeout_s=self.window_timeout_s,
            )  # fmt: skip
            self.running[key] = [pid]
        return f"http://127.0.0.1:{port}/?folder={self.home}"

    def wait_window(self, app: App, pattern: str | None = None) -> None:
        pattern = app.window if pattern is None else pattern
        if not self.wait_title(pattern, self.window_timeout_s):
            raise GCCError(
                f"no {app.key} window ({pattern!r}) within {self.window_timeout_s:.0f} s"
            )

    def wait_title(self, pattern: str, timeout_s: float, *, present: bool = True) -> bool:
        """Wait until a window's title matches ``pattern`` (a regular expression), or with
        ``present=False`` until none does; False at the timeout."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout_s
        while True:
            # a window gone is seen twice (a list read while windows close comes back empty)
            if self._seen(rx) == present and (present or not self._seen(rx)):
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)

    def _seen(self, rx: re.Pattern[str]) -> bool:
        return any(rx.search(t) for t in self._titles())

    def _titles(self) -> list[str]:
        """The windows' titles; a window that closes while they are read is a retry, not an
        error (python-xlib then misreports its BadWindow, as a RandR error, when mss loaded
        RandR on the connection)."""
        try:
            return list(self.probe.window_titles())
        except (AttributeError, GCCError) as e:
            log.debug("window list changed while read (%s); reading again", e)
            return []
        except Exception as e:  # Xlib.error.XError: the same race, reported properly
            if type(e).__module__.startswith("Xlib"):
                log.debug("window list changed while read (%s); reading again", e)
                return []
            raise

    def settle(self, quiet_s: float = 0.6, timeout_s: float = 15.0) -> bool:
        """Wait until the screen stops changing (programs painted); False at the timeout."""
        import numpy as np

        deadline = time.monotonic() + timeout_s
        last = None
        still_since = None
        while time.monotonic() < deadline:
            frame = np.asarray(self.probe.screenshot())[::8, ::8].astype(np.int16)
            now = time.monotonic()
            if last is not None and frame.shape == last.shape and np.abs(frame - last).mean() < 0.3:
                still_since = still_since or now
                if now - still_since >= quiet_s:
                    return True
            else:
                still_since = None
            last = frame
            time.sleep(0.15)
        return False

    def wait_exit(self, key: str, timeout_s: float) -> bool:
        """Wait until this episode's programs of app ``key`` have exited; False at the timeout."""
        deadline = time.monotonic() + timeout_s
        while any(_alive(pid) for pid in self.running.get(key, [])):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
        return True

    def stop(self, name: str, timeout_s: float = 10.0) -> None:
        """``pkill NAME``: stop this episode's programs of that app (never anyone else's)."""
        key = app_key(name)
        pids = self.running.pop(key, [])
        for pid in pids:
            terminate(pid, timeout_s)
        self.notes.append(f"pkill {name}: stopped {len(pids)} {key} program(s) of this episode")

    def alive(self, key: str) -> bool:
        """Whether one of this episode's programs of app ``key`` is still running."""
        return any(_alive(pid) for pid in self.running.get(key, []))

    def focus(self, window_name: str) -> None:
        """``activate_window``: focus the window the task names (mapped to this desktop's)."""
        from gcc_envs.osworld.apps import app_for_window

        app = app_for_window(window_name)
        pattern = app.window if app is not None else re.escape(window_name)
        self.session.focus(pattern)
        backend = getattr(self.session, "backend", None)
        if backend is not None and hasattr(backend, "retarget"):
            backend.retarget(None)  # focused, but OSWorld's agent still sees the whole screen


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def event_sender(backend: Any) -> Callable[[Sequence[Event]], None]:
    """Send events to ``backend`` (frame pixels), sleeping through their waits; keys released."""
    from gcc_envs.core.expand import PointerTracker, expand

    W, H = backend.size

    def send(events: Sequence[Event]) -> None:
        pointer = PointerTracker(W // 2, H // 2)
        try:
            for event in events:
                for p in expand(event, pointer):
                    if isinstance(p, float):
                        time.sleep(p)
                    else:
                        backend.send(p)
        finally:
            backend.release_all()

    return send
