"""Image tokens by OpenAI's published formula for its vision models (GPT-4o family).

For endpoints that report no image tokens (many local OpenAI-compatible servers), the cost of
an image is estimated as OpenAI documents it: ``detail="low"`` is a flat 85 tokens; ``"high"``
first fits the image inside 2048×2048 (keeping its aspect ratio), then scales it so that its
shortest side is 768 px, and costs 85 + 170 per 512-px tile that covers the result.
``"auto"`` is counted as ``"high"`` (the worst case).

>>> image_tokens(1280, 720, "low")
85
>>> image_tokens(1024, 1024, "high")  # 768×768: 4 tiles
765
>>> image_tokens(1920, 1080, "high")  # 1365×768: 3×2 tiles
1105
"""

from __future__ import annotations

import base64
import math
import struct

from gcc_envs.errors import GCCError

LOW_TOKENS = 85
BASE_TOKENS = 85
TILE_TOKENS = 170
TILE_PX = 512
MAX_SIDE = 2048
SHORT_SIDE = 768


def high_detail_size(width: int, height: int) -> tuple[int, int]:
    """The size a high-detail image is processed at: fit in 2048², shortest side 768."""
    if width <= 0 or height <= 0:
        raise GCCError(f"an image needs a positive size, got {width}×{height}")
    w, h = float(width), float(height)
    if max(w, h) > MAX_SIDE:
        s = MAX_SIDE / max(w, h)
        w, h = w * s, h * s
    s = SHORT_SIDE / min(w, h)
    return int(w * s), int(h * s)


def image_tokens(width: int, height: int, detail: str = "high") -> int:
    """Prompt tokens one image costs at ``detail`` ("low", "high" or "auto")."""
    if detail == "low":
        if width <= 0 or height <= 0:
            raise GCCError(f"an image needs a positive size, got {width}×{height}")
        return LOW_TOKENS
    if detail not in ("high", "auto"):
        raise GCCError(f"detail must be 'low', 'high' or 'auto', got {detail!r}")
    w, h = high_detail_size(width, height)
    return BASE_TOKENS + TILE_TOKENS * math.ceil(w / TILE_PX) * math.ceil(h / TILE_PX)


def png_size(data_url: str) -> tuple[int, int]:
    """(width, height) of a base64 PNG data URL, read from its IHDR chunk."""
    head, _, b64 = data_url.partition(",")
    if not head.startswith("data:image/png"):
        raise GCCError(f"not a PNG data URL: {data_url[:40]!r}")
    raw = base64.b64decode(b64[:44])  # signature (8) + chunk header (8) + width, height (8)
    if raw[:8] != b"\x89PNG\r\n\x1a\n" or raw[12:16] != b"IHDR":
        raise GCCError("the data URL does not hold a PNG")
    w, h = struct.unpack(">II", raw[16:24])
    return int(w), int(h)
