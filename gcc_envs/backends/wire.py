"""The ``serve-desktop`` wire format, shared by the server and :class:`RemoteBackend`.

Requests carry JSON; a frame travels as bytes with its shape in headers. Input crosses the
wire only as primitive event dicts (:meth:`Event.to_dict`), rebuilt and validated with
:func:`event_from_dict` — never as code.

>>> frame = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
>>> data, headers = encode_frame(frame, "zlib")
>>> np.array_equal(decode_frame(data, headers), frame)
True
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping

import cv2
import numpy as np

from gcc_envs.core import events as ev
from gcc_envs.errors import BackendError, GCCError, InvalidActionError
from gcc_envs.httpd import parse_json

#: Event types a backend executes (DESIGN §3); the only ones the server accepts.
PRIMITIVE_TYPES = ("KeyDown", "KeyUp", "MoveTo", "MoveBy", "MouseDown", "MouseUp", "Scroll")
#: Most events one request may carry.
MAX_EVENTS = 1000
#: Frame encodings: ``raw`` RGB bytes, ``zlib`` (level 1) of those, or ``png``.
FRAME_FORMATS = ("raw", "zlib", "png")
SHAPE_HEADER = "X-Frame-Shape"
FORMAT_HEADER = "X-Frame-Format"


class ForbiddenError(GCCError):
    """The server was not started to allow this request (HTTP 403)."""


class NotFoundError(GCCError):
    """The request names something that does not exist (HTTP 404)."""


def status_of(error: BaseException) -> int:
    """The HTTP status the server answers ``error`` with (500 for anything unexpected)."""
    if isinstance(error, InvalidActionError):
        return 400
    if isinstance(error, ForbiddenError):
        return 403
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, GCCError):
        return 409
    return 500


def parse_events(body: bytes) -> list[ev.Event]:
    """Primitive events from a JSON list of event dicts, each validated; refuse anything else.

    >>> parse_events(b'[{"type": "KeyDown", "key": "w"}]')
    [KeyDown(key='w')]
    >>> parse_events(b'["pyautogui.press(\\'w\\')"]')
    Traceback (most recent call last):
    ...
    gcc_envs.errors.InvalidActionError: event 0: not an event dict: "pyautogui.press('w')"
    """
    items = parse_json(body)
    if not isinstance(items, list):
        raise InvalidActionError("the body must be a JSON list of event objects")
    if len(items) > MAX_EVENTS:
        raise InvalidActionError(f"at most {MAX_EVENTS} events per request, got {len(items)}")
    out = []
    for i, item in enumerate(items):
        try:
            event = ev.event_from_dict(item)
        except InvalidActionError as e:
            raise InvalidActionError(f"event {i}: {e}") from None
        if type(event).__name__ not in PRIMITIVE_TYPES:
            raise InvalidActionError(
                f"event {i}: {type(event).__name__} is not a primitive event; send only "
                f"{', '.join(PRIMITIVE_TYPES)} (expand others with gcc_envs.core.expand)"
            )
        out.append(event)
    return out


def encode_frame(frame: np.ndarray, fmt: str) -> tuple[bytes, dict[str, str]]:
    """An H×W×3 uint8 RGB frame as bytes in ``fmt``, with the headers that describe it."""
    if fmt not in FRAME_FORMATS:
        raise InvalidActionError(f"frame format must be one of {FRAME_FORMATS}, got {fmt!r}")
    frame = np.ascontiguousarray(frame, dtype=np.uint8)
    if fmt == "raw":
        data = frame.tobytes()
    elif fmt == "zlib":
        data = zlib.compress(frame.data, 1)
    else:
        bgr = cv2.cvtColor(frame, cv2.COLOR_RGB2BGR)
        ok, buf = cv2.imencode(".png", bgr, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        if not ok:
            raise BackendError("PNG encoding of the frame failed")
        data = buf.tobytes()
    h, w, c = frame.shape
    return data, {SHAPE_HEADER: f"{h} {w} {c}", FORMAT_HEADER: fmt}


def decode_frame(data: bytes, headers: Mapping[str, str]) -> np.ndarray:
    """The fresh RGB array :func:`encode_frame` encoded; :class:`BackendError` if it does not fit."""
    fmt = headers.get(FORMAT_HEADER)
    try:
        shape = tuple(int(v) for v in headers.get(SHAPE_HEADER, "").split())
    except ValueError:
        shape = ()
    if len(shape) != 3 or fmt not in FRAME_FORMATS:
        raise BackendError(f"the server sent a frame without a valid shape/format: {headers!r}")
    if fmt == "png":
        bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if bgr is None or bgr.shape != shape:
            raise BackendError(f"the server's PNG frame does not decode to shape {shape}")
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    raw = zlib.decompress(data) if fmt == "zlib" else data
    if len(raw) != shape[0] * shape[1] * shape[2]:
        raise BackendError(f"the server's frame has {len(raw)} bytes, not a {shape} array")
    return np.frombuffer(raw, np.uint8).reshape(shape).copy()
