"""MM-Navigator's screen-wise partial action matching, on GCC event logs.

Yan et al. (MM-Navigator, 2023), after Rawles et al. (AITW): a predicted action is correct
when its action type and gesture match the reference's: a click counts when it lands within
14 % of the screen diagonal of the reference point, or inside the same detected box; a scroll
when it goes the same direction (up, down, left, right). The episode's score is the fraction
of correct steps; the dataset's score is the mean over episodes.

Here a step's action is the list of input events it sent (``info["events"]``). ``Wait`` events
carry no gesture and are dropped (an all-``Wait`` step is a no-op that matches another no-op);
the remaining events must pair up one to one, in order, each pair with:

* the same event type (``Click`` ≠ ``MoveTo``, ``KeyPress`` ≠ ``KeyDown``);
* points (``Click``, ``MoveTo``, ``DragTo``, ``Scroll`` at a point): within 14 % of the
  diagonal, or in the same box when ``boxes`` are given; ``Click``/``DragTo``/``Mouse*`` also
  need the same button (and ``Click`` the same count); relative moves compare their vectors;
* ``Scroll``: the same direction; keys: the same key (hold time ignored), ``Hotkey``: the same
  set of keys; ``TypeText``: the same text.

>>> ref = [{"t": 0.0, "type": "Click", "x": 100, "y": 100, "button": "left", "count": 1}]
>>> near = [{"type": "Click", "x": 150, "y": 120, "button": "left", "count": 1}]
>>> match(ref, near, frame_size=(720, 1280))       # 54 px < 14 % of 1468 px
True
>>> match(ref, [{"type": "Click", "x": 400, "y": 100, "button": "left", "count": 1}], (720, 1280))
False
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gcc_envs.core import events as ev
from gcc_envs.core.program import Program
from gcc_envs.datasets.encoding import events_of
from gcc_envs.errors import DataError

#: Largest click distance that still matches, as a fraction of the frame diagonal.
CLICK_TOLERANCE = 0.14

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels
EventsLike = Sequence[ev.Event | Mapping[str, Any]] | Program


def _events(action: EventsLike) -> list[ev.Event]:
    if isinstance(action, Program):
        action = list(action.events)
    out = [a if isinstance(a, ev.Event) else events_of([a])[0] for a in action]
    return [e for e in out if not isinstance(e, ev.Wait)]


def _box_of(x: float, y: float, boxes: Sequence[Box]) -> int | None:
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        if x0 <= x <= x1 and y0 <= y <= y1:
            return i
    return None


def _near(
    a: tuple[float, float], b: tuple[float, float], diag: float, boxes: Sequence[Box]
) -> bool:
    if math.dist(a, b) <= CLICK_TOLERANCE * diag:
        return True
    if boxes:
        box = _box_of(*a, boxes)
        return box is not None and box == _box_of(*b, boxes)
    return False


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _same(r: ev.Event, p: ev.Event, diag: float, boxes: Sequence[Box]) -> bool:
    if type(r) is not type(p):
        return False
    if isinstance(r, ev.Click):
        assert isinstance(p, ev.Click)
        same = r.button == p.button and r.count == p.count
        return same and _near((r.x, r.y), (p.x, p.y), diag, boxes)
    if isinstance(r, (ev.MoveTo, ev.DragTo)):
        if isinstance(r, ev.DragTo) and r.button != p.button:  # type: ignore[attr-defined]
            return False
        return _near((r.x, r.y), (p.x, p.y), diag, boxes)  # type: ignore[attr-defined]
    if isinstance(r, ev.MoveBy):
        assert isinstance(p, ev.MoveBy)
        return math.dist((r.dx, r.dy), (p.dx, p.dy)) <= CLICK_TOLERANCE * diag
    if isinstance(r, ev.Scroll):
        assert isinstance(p, ev.Scroll)
        return (_sign(r.dy), _sign(r.dx)) == (_sign(p.dy), _sign(p.dx))
    if isinstance(r, (ev.KeyPress, ev.KeyDown, ev.KeyUp)):
        return r.key == p.key  # type: ignore[attr-defined]
    if isinstance(r, ev.Hotkey):
        return set(r.keys) == set(p.keys)  # type: ignore[attr-defined]
    if isinstance(r, ev.TypeText):
        return r.text == p.text  # type: ignore[attr-defined]
    if isinstance(r, (ev.MouseDown, ev.MouseUp)):
        return r.button == p.button  # type: ignore[attr-defined]
    return True  # Done, Fail: the type is the whole action


def match(
    ref_events: EventsLike,
    pred_events: EventsLike,
    frame_size: tuple[int, int],
    boxes: Sequence[Box] | None = None,
) -> bool:
    """Whether a predicted step matches the reference step (see the module docstring).

    Events are :class:`~gcc_envs.Event` objects or their dicts (a ``"t"`` key is ignored);
    ``frame_size`` is ``(height, width)`` of the frame; ``boxes`` are ``(x0, y0, x1, y1)``
    marked regions (Set-of-Mark) on that frame.
    """
    refs, preds = _events(ref_events), _events(pred_events)
    if len(refs) != len(preds):
        return False
    diag = math.hypot(*frame_size)
    return all(_same(r, p, diag, boxes or ()) for r, p in zip(refs, preds))


def episode_score(
    ref_steps: Sequence[EventsLike],
    pred_steps: Sequence[EventsLike],
    frame_size: tuple[int, int],
    boxes: Sequence[Sequence[Box] | None] | None = None,
) -> float:
    """Fraction of reference steps whose prediction matches (missing predictions are wrong)."""
    if not ref_steps:
        return 1.0 if not pred_steps else 0.0
    hits = 0
    for i, ref in enumerate(ref_steps):
        if i < len(pred_steps):
            hits += match(ref, pred_steps[i], frame_size, boxes[i] if boxes else None)
    return hits / len(ref_steps)


def partial_action_matching(
    reference_episodes: Iterable[Any],
    predicted_actions: Sequence[Sequence[EventsLike]],
    boxes: Sequence[Sequence[Sequence[Box] | None]] | None = None,
) -> float:
    """Mean over episodes of :func:`episode_score`.

    ``reference_episodes`` are :class:`~gcc_envs.datasets.Episode` objects (their event logs
    and frame sizes are used); ``predicted_actions[e][s]`` is the predicted event list of
    step ``s`` of episode ``e``; ``boxes[e][s]`` optional marked boxes of that step's frame.
    """
    scores = []
    for e, ep in enumerate(reference_episodes):
        preds = predicted_actions[e] if e < len(predicted_actions) else []
        size = tuple(ep.meta["frames"]["shape"][:2])
        scores.append(episode_score(ep.events, preds, size, boxes[e] if boxes else None))
    if not scores:
        raise DataError("no reference episodes to score against")
    return sum(scores) / len(scores)
