"""``HeldInput``: which keys and mouse buttons are down now, kept from the events that pass.

One tracker for every place that must know what is held — the env (``info["held_keys"]``,
the ``state`` mode's diff), the backends (what to let go of on an error or at close), replay
(what a recorded step left held) and the play window — so they cannot disagree. Each press
remembers when it happened (a backend's clock), for the shortest-tap rule.

>>> from gcc_envs.core.events import KeyDown, KeyUp, MouseDown
>>> held = HeldInput()
>>> held.apply(KeyDown("w")), held.apply(KeyDown("w")), held.apply(MouseDown("left"))
(True, False, True)
>>> held.keys, held.buttons
(('w',), ('left',))
>>> held.releases()
[KeyUp(key='w'), MouseUp(button='left')]
>>> held.apply(KeyUp("w")), held.keys
(True, ())
"""

from __future__ import annotations

from collections.abc import KeysView

from gcc_envs.core import events as ev


class HeldInput:
    """Keys and buttons held down, each with the time it was pressed."""

    __slots__ = ("_buttons", "_keys")

    def __init__(self) -> None:
        self._keys: dict[str, float] = {}
        self._buttons: dict[str, float] = {}

    @property
    def keys(self) -> tuple[str, ...]:
        """Held keys, sorted."""
        return tuple(sorted(self._keys))

    @property
    def buttons(self) -> tuple[str, ...]:
        """Held mouse buttons, sorted."""
        return tuple(sorted(self._buttons))

    @property
    def key_names(self) -> KeysView[str]:
        """Held keys as a live, unsorted view (``in`` is one lookup)."""
        return self._keys.keys()

    def key_held(self, key: str) -> bool:
        return key in self._keys

    def button_held(self, button: str) -> bool:
        return button in self._buttons

    def __bool__(self) -> bool:
        return bool(self._keys or self._buttons)

    def apply(self, event: ev.Event, t: float = 0.0) -> bool:
        """Note a primitive event (pressed at time ``t``); True when it changes what is held.

        A press of what is already held, or a release of what is not, changes nothing (and a
        backend should not send it on). Other events are ignored.
        """
        cls = type(event)
        if cls is ev.KeyDown:
            return _down(self._keys, event.key, t)  # type: ignore[attr-defined]
        if cls is ev.KeyUp:
            return self._keys.pop(event.key, None) is not None  # type: ignore[attr-defined]
        if cls is ev.MouseDown:
            return _down(self._buttons, event.button, t)  # type: ignore[attr-defined]
        if cls is ev.MouseUp:
            return self._buttons.pop(event.button, None) is not None  # type: ignore[attr-defined]
        return False

    def pressed_at(self, event: ev.Event) -> float | None:
        """When the key or button that ``event`` releases was pressed (None if it is not held)."""
        if isinstance(event, ev.KeyUp):
            return self._keys.get(event.key)
        if isinstance(event, ev.MouseUp):
            return self._buttons.get(event.button)
        return None

    def releases(self) -> list[ev.Event]:
        """The events that let go of everything held (keys first, then buttons, sorted)."""
        return [*(ev.KeyUp(k) for k in self.keys), *(ev.MouseUp(b) for b in self.buttons)]

    def clear(self) -> None:
        self._keys.clear()
        self._buttons.clear()


def _down(held: dict[str, float], name: str, t: float) -> bool:
    if name in held:
        return False
    held[name] = t
    return True
