"""The one exception family of gcc-gym.

Every error the package raises on purpose is a :class:`GCCError`; the subclasses say which
layer refused and the message says what happened and what to do about it.
"""

from __future__ import annotations


class GCCError(Exception):
    """Base class of every error raised by gcc-gym on purpose."""


class InvalidActionError(GCCError, ValueError):
    """An action, event or program that cannot be carried out (bad key, bad coordinates, ...).

    Inside ``GCCEnv.step`` it is caught and reported in ``info["last_action_error"]``.
    """


class CodeActionError(InvalidActionError):
    """Code text (pyautogui calls, skill calls, WAIT/FAIL/DONE) that the safe parser refused."""


class DataError(GCCError, ValueError):
    """A data file (map, item table, task table, skill JSON) that does not validate."""


class BackendError(GCCError, RuntimeError):
    """The backend could not capture, send input or pause (window gone, display missing, ...)."""


class MissingExtraError(GCCError, ImportError):
    """An optional dependency is missing; the message names the pip extra that brings it."""

    def __init__(self, module: str, extra: str) -> None:
        hint = ""
        if extra == "sb3":  # a plain pip install would pull torch's multi-GB CUDA build
            hint = (
                " (torch first: CPU: pip install torch --index-url "
                "https://download.pytorch.org/whl/cpu; GPU: pip install torch)"
            )
        super().__init__(
            f"{module!r} is not installed; install the {extra!r} extra: pip install -e "
            f"'.[{extra}]' in the gcc-gym checkout, as the README does (from a package: pip "
            f"install 'gcc-gym[{extra}]'){hint}"
        )
        self.module = module
        self.extra = extra
