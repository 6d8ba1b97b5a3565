"""Task-file commands as argument lists for the episode's sandbox, where real bash runs them.

OSWorld's task files give a command as a list (run as it is), or as a string that a shell
runs (``"shell": true``) or that is split into words (``shlex``). Nothing here interprets a
command: :func:`argv` only says what the sandbox is asked to run, and a ``launch`` string's
leading ``NAME=value`` words become the program's environment.

>>> argv("ls -l ~ | wc -l", shell=True)
['bash', '-c', 'ls -l ~ | wc -l']
>>> argv("gsettings get org.gnome.desktop.interface gtk-theme", shell=False)[:2]
['gsettings', 'get']
>>> launch_words("LANG=C gimp --no-splash")
({'LANG': 'C'}, ['gimp', '--no-splash'])
"""

from __future__ import annotations

import re
import shlex
from typing import Any

from gcc_envs.errors import GCCError

#: Longest a task file's command may run.
COMMAND_TIMEOUT_S = 30.0
_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


class CommandError(GCCError):
    """A task file's command that cannot be run as given (the message says why)."""


def argv(command: Any, shell: Any = False) -> list[str]:
    """The argument list that runs ``command`` (see the module docstring)."""
    if isinstance(command, str):
        if not command.strip():
            raise CommandError("an empty command")
        if shell in (True, "true", "True", 1):
            return ["bash", "-c", command]
        return _split(command)
    if (
        isinstance(command, (list, tuple))
        and command
        and all(isinstance(a, (str, int, float)) and not isinstance(a, bool) for a in command)
    ):
        return [str(a) for a in command]
    raise CommandError(f"a command is a string or a list of strings, got {command!r:.100}")


def launch_words(command: Any) -> tuple[dict[str, str], list[str]]:
    """``(env, argv)`` of a ``launch`` step's command (leading ``NAME=value`` words: env)."""
    words = _split(command) if isinstance(command, str) else argv(command)
    env = {}
    while words and _ASSIGN.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if not words:
        raise CommandError(f"launch names no program: {command!r:.100}")
    return env, words


def _split(text: str) -> list[str]:
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise CommandError(f"cannot split {text!r:.80} into words: {e}") from None
    if not words:
        raise CommandError("an empty command")
    return words
