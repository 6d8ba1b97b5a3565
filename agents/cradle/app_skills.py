"""Skills for desktop applications (GCC/Desktop, OSWorld-style tasks), lowered to pyautogui.

An app env has no skill library of its own: it takes pyautogui code. Cradle still acts through
skills there — the paper's ``click_at``, ``type_text``, ``press_key``, ``hotkey`` … and
``click_on_label(label_id)`` over Set-of-Mark boxes — and :func:`lower` turns each call into the
pyautogui lines of its events, which the env parses with its own whitelist. ``click_on_label``
resolves a label to the centre of that mark on the screen the agent saw
(:class:`agents.cradle.visual.VisualPrompter`).
"""

from __future__ import annotations

from collections.abc import Callable

from gcc_envs.core import events as ev
from gcc_envs.core.skills import Skill, SkillCall, SkillLibrary
from gcc_envs.errors import CodeActionError, GCCError


def app_skills(mark_centre: Callable[[int], tuple[int, int]]) -> SkillLibrary:
    """The app skill library; ``mark_centre(label_id)`` gives a mark's (x, y)."""

    def click_on_label(label_id: int) -> list[ev.Event]:
        """Click the centre of the numbered box `label_id` drawn on the screen."""
        try:
            x, y = mark_centre(label_id)
        except GCCError as e:
            raise CodeActionError(str(e)) from None
        return [ev.Click(x, y)]

    def click_at(x: int, y: int) -> list[ev.Event]:
        """Left-click at screen pixel (`x`, `y`)."""
        return [ev.Click(x, y)]

    def double_click_at(x: int, y: int) -> list[ev.Event]:
        """Double-click at screen pixel (`x`, `y`) (open a file or an icon)."""
        return [ev.Click(x, y, "left", 2)]

    def right_click_at(x: int, y: int) -> list[ev.Event]:
        """Right-click at screen pixel (`x`, `y`) (context menu)."""
        return [ev.Click(x, y, "right")]

    def type_text(text: str) -> list[ev.Event]:
        """Type `text` at the keyboard focus."""
        return [ev.TypeText(text, 0.01)]

    def press_key(key: str) -> list[ev.Event]:
        """Press and release one key, e.g. 'enter', 'esc', 'tab', 'down'."""
        return [ev.KeyPress(key, 0.05)]

    def hotkey(keys: str) -> list[ev.Event]:
        """Press a key combination written with '+', e.g. 'ctrl+c', 'ctrl+shift+t'."""
        parts = tuple(k.strip() for k in keys.split("+") if k.strip())
        if not parts:
            raise CodeActionError(f"hotkey(keys={keys!r}) names no key")
        return [ev.Hotkey(parts)]

    def scroll(clicks: int) -> list[ev.Event]:
        """Scroll the wheel by `clicks` (positive up, negative down) where the pointer is."""
        return [ev.Scroll(clicks)]

    def wait(seconds: float = 1.0) -> list[ev.Event]:
        """Wait `seconds` for the application to respond."""
        return [ev.Wait(seconds)]

    def task_done() -> list[ev.Event]:
        """Declare the task finished (OSWorld DONE); the episode ends."""
        return [ev.Done()]

    def task_infeasible() -> list[ev.Event]:
        """Declare the task impossible to do (OSWorld FAIL); the episode ends."""
        return [ev.Fail()]

    fns = (click_on_label, click_at, double_click_at, right_click_at, type_text, press_key,
           hotkey, scroll, wait, task_done, task_infeasible)  # fmt: skip
    return SkillLibrary(Skill.from_function(f) for f in fns)


def lower(call: SkillCall, skills: SkillLibrary) -> str:
    """The pyautogui code of one app-skill call (its events, one line each)."""
    program = skills.program(call)
    return "\n".join(e.to_pyautogui() for e in program.events)
