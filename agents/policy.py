"""The ``Policy`` protocol every agent implements (DESIGN §6)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    """Acts on observations; ``act`` may return a space member, a Program or code text."""

    name: str

    def reset(self, info: dict[str, Any]) -> None: ...
    def act(self, obs: np.ndarray, info: dict[str, Any]) -> Any: ...
    def close(self) -> None: ...
