"""What several ``gcc-gym`` commands share: the help formatter, argument types, warnings and
the card text shown in a terminal."""

from __future__ import annotations

import argparse
import re
import sys

_RST_ROLE = re.compile(r":[a-z]+:`~?(?:[\w.]*\.)?([^`]+)`")
_PLACEHOLDER = re.compile(r"\$\{?(\w+)\}?")


class DefaultsFormatter(argparse.HelpFormatter):
    """Help that names each option's default, unless there is none or the text says it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if default is None or default is False or default == argparse.SUPPRESS or "default" in text:
            return text
        if action.option_strings or action.nargs in (argparse.OPTIONAL, argparse.ZERO_OR_MORE):
            return f"{text} (default: %(default)s)"
        return text


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1.

    >>> positive_int("3")
    3
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def say(message: str) -> None:
    """A warning printed at once, above a progress bar if one is drawn."""
    from tqdm import tqdm

    tqdm.write(f"gcc-gym: warning: {message}", file=sys.stderr)


def warn_token_in_argv(token: str | None) -> None:
    """A token given with --token is in the command line, which ps shows every user."""
    if token:
        print(
            "gcc-gym: warning: --token is visible to every user of this machine in ps; "
            "prefer --token-file PATH or GCC_REMOTE_TOKEN",
            file=sys.stderr,
        )


def plain(text: str) -> str:
    """Card or instruction text for a terminal: no RST markup, placeholders shown as <name>.

    >>> plain("Type '$phrase' at ${url}/x with :class:`~gcc.core.Env` or ``live=True``.")
    "Type '<phrase>' at <url>/x with Env or live=True."
    """
    text = _RST_ROLE.sub(r"\1", text).replace("``", "")
    return " ".join(_PLACEHOLDER.sub(r"<\1>", text).split())
