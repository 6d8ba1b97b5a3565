"""``FlattenHybridAction``: either action mode as one ``MultiDiscrete`` (Stable-Baselines3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from gcc_envs.core.events import Event
from gcc_envs.core.program import Program
from gcc_envs.core.spaces import OPS
from gcc_envs.errors import GCCError, InvalidActionError
from wrappers._refuse import refused


def mu_law_bins(n: int, mu: float) -> np.ndarray:
    """``n`` bin centres in ``[-1, 1]``, dense near 0: ``sign(u) * ((1 + mu)**|u| - 1) / mu``.

    ``u`` runs over a uniform grid ``linspace(-1, 1, n)``; the centres are symmetric, include
    -1, 0 (``n`` odd) and 1, and are closest together around 0, so small mouse moves get fine
    resolution and large ones coarse (VPT's camera quantisation: 11 bins, ``mu = 10``).

    >>> mu_law_bins(5, 10.0).round(3).tolist()
    [-1.0, -0.232, 0.0, 0.232, 1.0]
    """
    u = np.linspace(-1.0, 1.0, n)
    return np.sign(u) * ((1.0 + mu) ** np.abs(u) - 1.0) / mu


@dataclass(frozen=True)
class Part:
    """One field of the Dict action and its run of ``dims`` MultiDiscrete entries."""

    key: str
    kind: str  # "binary" | "discrete" | "bins" | "text"
    dims: int
    n: int
    start: int = 0
    values: np.ndarray | None = None  # bin values of a Box field
    shape: tuple[int, ...] = ()


class FlattenHybridAction(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """Act with one ``MultiDiscrete`` vector instead of the env's ``Dict`` action (for SB3).

    Each field of the ``Dict`` becomes one or more entries of the vector, in the Dict's key order
    (``layout`` lists them):

    * ``MultiBinary(k)`` (``keys``, ``buttons``, ``mods``): ``k`` entries of 2 (up/down);
    * ``Discrete(n, start)`` (``scroll``, ``op``, ``button``, ``clicks``, ``key``): one entry of
      ``n``, value ``start + i``;
    * a symmetric ``Box(-a, a)`` (state ``mouse``, event ``dxy``): ``mouse_bins`` mu-law bins per
      element, ``a * sign(u) * ((1 + mu)**|u| - 1) / mu`` over ``u = linspace(-1, 1, mouse_bins)``
      (:func:`mu_law_bins`) — fine near 0, coarse at the edges; keep ``mouse_bins`` odd so "no
      move" is a bin;
    * ``xy`` (``Box(0, 1)``, event mode): ``xy_bins`` uniform cells per axis, at the cell centres
      ``(i + 0.5) / xy_bins``;
    * any other ``Box`` (``duration``): ``duration_bins`` uniform values from low to high,
      ends included;
    * ``Text`` (event ``text``): an index into ``texts`` (default ``("",)``: the agent cannot
      type free text; pass the strings it may type, e.g. ``("yes", "no")``).

    So state mode is ``keys ×2, buttons ×2, mouse x/y ×mouse_bins, scroll ×3``, and event mode
    ``op, xy ×xy_bins, dxy ×mouse_bins, button, clicks, key, mods ×2, scroll, text, duration``.
    :meth:`action` maps a vector to the Dict; :meth:`flatten` maps a Dict back to the vector
    (nearest bin), so ``flatten(action(v)) == v``. Code text, events and Programs are passed
    down unchanged; a vector of the wrong shape or out of range runs nothing and is reported in
    ``info["last_action_error"]``.

    Example:
        >>> import gymnasium as gym
        >>> import gcc_envs
        >>> from wrappers import FlattenHybridAction
        >>> env = FlattenHybridAction(gym.make("GCC/Stardew-FarmClearup", obs_size=(84, 84)))
        >>> env.action_space.nvec.tolist()[-5:]  # keys ..., mouse x, mouse y, scroll
        [2, 2, 11, 11, 3]
        >>> act = env.action(env.action_space.sample())
        >>> act in env.env.action_space
        True

    Args:
        env: a GCC env in ``state`` or ``event`` action mode (any env with a ``Dict`` action of
            these field types).
        mouse_bins: bins per element of a symmetric Box (odd, >= 3).
        mu: mu-law compression (> 0): larger means finer near 0.
        xy_bins: cells per axis of ``xy`` (>= 1).
        duration_bins: values of other Boxes such as ``duration`` (>= 2).
        texts: the strings the ``text`` field may take (event mode).
    """

    def __init__(
        self,
        env: gym.Env,
        mouse_bins: int = 11,
        mu: float = 10.0,
        xy_bins: int = 32,
        duration_bins: int = 5,
        texts: Sequence[str] = ("",),
    ) -> None:
        gym.utils.RecordConstructorArgs.__init__(
            self,
            mouse_bins=mouse_bins,
            mu=mu,
            xy_bins=xy_bins,
            duration_bins=duration_bins,
            texts=texts,
        )
        gym.ActionWrapper.__init__(self, env)
        if not isinstance(env.action_space, spaces.Dict):
            raise GCCError(f"FlattenHybridAction needs a Dict action space, got {env.action_space}")
        if not (isinstance(mouse_bins, int) and mouse_bins >= 3 and mouse_bins % 2 == 1):
            raise GCCError(f"mouse_bins must be an odd int >= 3 (0 is a bin), got {mouse_bins!r}")
        if not (isinstance(mu, (int, float)) and mu > 0 and np.isfinite(mu)):
            raise GCCError(f"mu must be a positive number, got {mu!r}")
        if not (isinstance(xy_bins, int) and xy_bins >= 1):
            raise GCCError(f"xy_bins must be an int >= 1, got {xy_bins!r}")
        if not (isinstance(duration_bins, int) and duration_bins >= 2):
            raise GCCError(f"duration_bins must be an int >= 2, got {duration_bins!r}")
        if isinstance(texts, str) or not texts or not all(isinstance(t, str) for t in texts):
            raise GCCError(f"texts must be a non-empty sequence of strings, got {texts!r}")
        self.mouse_bins, self.mu = mouse_bins, float(mu)
        self.xy_bins, self.duration_bins = xy_bins, duration_bins
        self.texts = tuple(texts)
        self.parts = tuple(self._part(k, s) for k, s in env.action_space.spaces.items())
        nvec = [p.n for p in self.parts for _ in range(p.dims)]
        self.action_space = spaces.MultiDiscrete(np.array(nvec, np.int64))
        #: ``(field, entries)`` per Dict field, in vector order.
        self.layout = tuple((p.key, p.dims) for p in self.parts)

    # ---------------------------------------------------------------- layout
    def _part(self, key: str, space: spaces.Space) -> Part:
        if isinstance(space, spaces.MultiBinary):
            return Part(key, "binary", int(np.prod(space.shape)), 2, shape=tuple(space.shape))
        if isinstance(space, spaces.Discrete):
            return Part(key, "discrete", 1, int(space.n), start=int(space.start))
        if isinstance(space, spaces.Box):
            lo, hi = float(np.min(space.low)), float(np.max(space.high))
            if not (np.all(space.low == lo) and np.all(space.high == hi) and np.isfinite(lo + hi)):
                raise GCCError(f"{key}: Box bounds must be finite and the same for every element")
            if lo == -hi:
                values = hi * mu_law_bins(self.mouse_bins, self.mu)
            elif key == "xy":
                values = lo + (hi - lo) * (np.arange(self.xy_bins) + 0.5) / self.xy_bins
            else:
                values = np.linspace(lo, hi, self.duration_bins)
            values = np.clip(values, lo, hi).astype(space.dtype)
            dims = int(np.prod(space.shape))
            return Part(key, "bins", dims, len(values), values=values, shape=tuple(space.shape))
        if isinstance(space, spaces.Text):
            bad = [t for t in self.texts if not space.contains(t)]
            if bad:
                raise GCCError(f"text {bad[0]!r} is not in the env's text space {space}")
            return Part(key, "text", 1, len(self.texts))
        raise GCCError(f"FlattenHybridAction cannot flatten field {key!r} of type {space}")

    # ---------------------------------------------------------------- conversions
    def action(self, action: Any) -> Any:
        """The Dict action of a MultiDiscrete vector (code, events, Programs pass unchanged)."""
        if isinstance(action, (str, Program, Event, Mapping)) or (
            isinstance(action, (list, tuple)) and action and isinstance(action[0], Event)
        ):
            return action
        try:
            return self.unflatten(action)
        except InvalidActionError as e:
            return refused(str(e))

    def unflatten(self, vector: Any) -> dict[str, Any]:
        """The Dict action of a MultiDiscrete vector; raise :class:`InvalidActionError`."""
        nvec = self.action_space.nvec
        try:
            raw = np.asarray(vector)
            a = raw.astype(np.int64)
        except (TypeError, ValueError):
            raise InvalidActionError(f"not a MultiDiscrete vector: {vector!r}") from None
        if a.shape != nvec.shape or not np.array_equal(a, raw) or np.any((a < 0) | (a >= nvec)):
            raise InvalidActionError(
                f"action must be {len(nvec)} ints with 0 <= a[i] < {nvec.tolist()}, got {vector!r}"
            )
        out: dict[str, Any] = {}
        i = 0
        for p in self.parts:
            seg = a[i : i + p.dims]
            i += p.dims
            if p.kind == "binary":
                out[p.key] = seg.astype(np.int8).reshape(p.shape)
            elif p.kind == "discrete":
                out[p.key] = p.start + int(seg[0])
            elif p.kind == "bins":
                assert p.values is not None
                out[p.key] = p.values[seg].reshape(p.shape)
            else:
                out[p.key] = self.texts[int(seg[0])]
        return out

    def flatten(self, action: Mapping[str, Any]) -> np.ndarray:
        """The MultiDiscrete vector of a Dict action (nearest bin; missing fields at rest).

        Event ops may be given by name (``"CLICK"``). Raise :class:`InvalidActionError` for a
        text that is not in ``texts`` or a field that is not a number.
        """
        out: list[int] = []
        for p in self.parts:
            try:
                out += self._flat(p, action.get(p.key))
            except InvalidActionError:
                raise
            except (TypeError, ValueError, IndexError):
                raise InvalidActionError(
                    f"{p.key}: cannot read {action.get(p.key)!r} as {p.dims} number(s)"
                ) from None
        return np.array(out, np.int64)

    def _flat(self, p: Part, v: Any) -> list[int]:
        if p.kind == "text":
            text = self.texts[0] if v is None else v
            if text not in self.texts:
                raise InvalidActionError(f"text {text!r} is not one of texts={self.texts}")
            return [self.texts.index(text)]
        if p.kind == "discrete":
            if p.key == "op" and isinstance(v, str) and v in OPS:
                v = OPS.index(v)  # the env takes event ops by name too
            rest = 0 if p.start <= 0 < p.start + p.n else p.start
            value = rest if v is None else int(np.asarray(v).reshape(()))
            return [int(np.clip(value - p.start, 0, p.n - 1))]
        x = np.zeros(p.dims) if v is None else np.asarray(v, np.float64).reshape(p.dims)
        if p.kind == "binary":
            return (x != 0).astype(int).tolist()
        assert p.values is not None
        return np.abs(x[:, None] - p.values.astype(np.float64)[None, :]).argmin(axis=1).tolist()
