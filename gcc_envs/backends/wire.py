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

import json
import re
import zlib
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from gcc_envs.core import events as ev
from gcc_envs.errors import BackendError, GCCError, InvalidActionError

#: Event types a backend executes (DESIGN §3); the only ones the server accepts.
PRIMITIVE_TYPES = ("KeyDown", "KeyUp", "MoveTo", "MoveBy", "MouseDown", "MouseUp", "Scroll")
#: Largest request body the server reads, in bytes.
MAX_BODY = 1 << 20
#: Most events one request may carry.
MAX_EVENTS = 1000
#: Deepest nesting of lists and objects a request body may have (events need 2).
MAX_JSON_DEPTH = 32
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


#: A JSON string; an unterminated one runs to the end (always matches: linear time).
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.S)
_OPEN, _CLOSE = np.zeros(256, np.int8), np.zeros(256, np.int8)
_OPEN[[ord("["), ord("{")]] = 1
_CLOSE[[ord("]"), ord("}")]] = 1


def json_depth(body: bytes) -> int:
    """How deep lists and objects nest in ``body`` (brackets inside strings do not count).

    >>> json_depth(b'[{"type": "KeyDown", "key": "["}]')
    2
    """
    codes = np.frombuffer(_STRING.sub(b'""', body), np.uint8)
    if not codes.size:
        return 0
    steps = _OPEN[codes].astype(np.int32) - _CLOSE[codes]
    return int(np.cumsum(steps).max(initial=0))


def parse_json(body: bytes) -> Any:
    """The JSON value of a request body (empty → ``{}``), or :class:`InvalidActionError`.

    >>> parse_json(b"[" * 1000 + b"]" * 1000)
    Traceback (most recent call last):
    ...
    gcc_envs.errors.InvalidActionError: the request body nests deeper than 32 levels
    """
    if not body:
        return {}
    if json_depth(body) > MAX_JSON_DEPTH:  # json.loads would recurse into a RecursionError
        raise InvalidActionError(f"the request body nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InvalidActionError(f"the request body is not JSON: {e}") from None
    except ValueError as e:  # e.g. an integer of more digits than Python converts
        raise InvalidActionError(f"the request body holds a bad value: {str(e)[:100]}") from None
    except RecursionError:
        raise InvalidActionError("the request body nests too deep") from None


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
