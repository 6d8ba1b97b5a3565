"""The programs task files start, mapped to what runs here (table: ``data/apps.toml``).

``google-chrome`` becomes Chromium with a throwaway profile in the episode's home (at
``~/.config/google-chrome``, where OSWorld's getters look) and a free debugging port instead of
the task's fixed 1337; ``code`` becomes ``code-server`` shown in a Chromium app window, with
its user folder at ``~/.config/Code`` as VS Code's; the others are their Debian programs.

>>> app = find_app("google-chrome")
>>> app.key, app.program, app.matches_window("Google Chrome")
('chrome', 'chromium', True)
>>> app.argv(["google-chrome", "--remote-debugging-port=1337"], home="/h", port=9)[-1]
'--window-size=1920,1080'
>>> app.argv(["google-chrome"], home="/h", accessibility=True)[-1]
'--force-renderer-accessibility'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from gcc_envs.core.toml_data import tomllib
from gcc_envs.errors import DataError
from gcc_envs.games.toml_data import Entry
from gcc_envs.osworld.taskfile import OSWORLD_HOME

_FILE = "gcc_envs/osworld/data/apps.toml"
#: The placeholder of a window titled by the folder it shows.
FOLDER = "{folder}"


@dataclass(frozen=True)
class App:
    """One program: how task files name it and how it runs here."""

    key: str
    aliases: tuple[str, ...]
    program: str
    args: tuple[str, ...]
    window: str
    names: tuple[str, ...]
    package: str
    drop: tuple[str, ...] = ()
    server: tuple[str, ...] = ()
    #: Files a fresh home gets (path under the home → text): no first-run dialogs.
    seed: tuple[tuple[str, str], ...] = ()
    #: Environment the program gets on top of the episode's.
    env: tuple[tuple[str, str], ...] = ()
    #: Arguments added when the episode's accessibility tree is on.
    a11y_args: tuple[str, ...] = ()

    def matches_window(self, name: str) -> bool:
        """Whether a task's window name (``activate_window``) means this program (a window
        titled by the folder it shows is known by its ``names`` alone)."""
        if FOLDER in self.window:
            return name in self.names
        return name in self.names or re.search(self.window, name) is not None

    def window_for(self, task_argv: list[str], home: str = OSWORLD_HOME) -> str:
        """The pattern the window a launch of ``task_argv`` opens is titled by: ``window``,
        with ``{folder}`` the name of the last folder the command names (the home, or none:
        ``Home``), as the file manager titles its window.

        >>> find_app("nautilus").window_for(["nautilus", "/home/user/Documents/Papers/"])
        '^Papers$'
        >>> find_app("nautilus").window_for(["nautilus", "--new-window"])
        '^Home$'
        """
        if FOLDER not in self.window:
            return self.window
        paths = [a.rstrip("/") for a in task_argv[1:] if not a.startswith("-")]
        name = "Home"
        if paths and paths[-1] not in ("", "~", home, OSWORLD_HOME):
            name = paths[-1].rsplit("/", 1)[-1]
        return self.window.replace(FOLDER, re.escape(name))

    def argv(
        self, task_argv: list[str], *, home: str, port: int = 0, profile: str = "", url: str = "",
        size: tuple[int, int] = (1920, 1080), accessibility: bool = False,
    ) -> list[str]:  # fmt: skip
        """The command line that runs for the task's ``task_argv`` (``accessibility``: with
        the arguments that make the program expose its whole accessibility tree)."""
        fill = {"home": home, "port": str(port), "profile": profile, "url": url,
                "width": str(size[0]), "height": str(size[1])}  # fmt: skip
        extra = [a for a in task_argv[1:] if not any(a.startswith(d) for d in self.drop)]
        own = [*self.args, *(self.a11y_args if accessibility else ())]
        return [self.program, *(a.format(**fill) for a in own), *extra]

    def server_argv(self, *, home: str, port: int) -> list[str]:
        return [a.format(home=home, port=port) for a in self.server]

    @property
    def needs_port(self) -> bool:
        return any("{port}" in a for a in (*self.args, *self.server))


@lru_cache(maxsize=1)
def apps() -> tuple[App, ...]:
    """The table, parsed once (validated: a :class:`DataError` names the entry)."""
    text = (resources.files("gcc_envs.osworld") / "data" / "apps.toml").read_text("utf-8")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{_FILE}: {e}") from e
    out = []
    for key, table in raw.items():
        e = Entry(_FILE, key, table)
        window = e.get("window", str)
        try:
            re.compile(window.replace(FOLDER, "x"))
        except re.error as err:
            e.fail(f"window is not a regular expression: {err}")
        out.append(
            App(
                key=key,
                aliases=tuple(e.get("aliases", list)),
                program=e.get("program", str),
                args=tuple(e.get("args", list)),
                window=window,
                names=tuple(e.get("names", list)),
                package=e.get("package", str),
                drop=tuple(e.get("drop", list, [])),
                server=tuple(e.get("server", list, [])),
                seed=tuple(sorted(e.get("seed", dict, {}).items())),
                env=tuple(sorted((k, str(v)) for k, v in e.get("env", dict, {}).items())),
                a11y_args=tuple(e.get("a11y_args", list, [])),
            )
        )
    return tuple(out)


def find_app(command: str) -> App | None:
    """The app a command name (or a path to it) means, or None."""
    name = command.rsplit("/", 1)[-1]
    return next((a for a in apps() if name in a.aliases or name == a.key), None)


def app_for_window(name: str) -> App | None:
    """The app a task's window name means, or None."""
    return next((a for a in apps() if a.matches_window(name)), None)


def app_key(name: str) -> str:
    """The key of the app ``pkill NAME`` means (``chrome`` for ``chrome``, ``chromium``...)."""
    app = find_app(name)
    if app is not None:
        return app.key
    return next((a.key for a in apps() if a.program == name or name in a.program), name)
