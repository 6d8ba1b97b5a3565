"""The serve-desktop wire format: frames survive every encoding, only primitive events pass."""

import numpy as np
import pytest

from gcc_envs.backends import wire
from gcc_envs.core import events as ev
from gcc_envs.errors import BackendError, InvalidActionError


@pytest.mark.parametrize("fmt", wire.FRAME_FORMATS)
def test_a_frame_survives_each_encoding_bit_for_bit(fmt):
    frame = np.random.default_rng(0).integers(0, 256, (72, 128, 3), dtype=np.uint8)
    data, headers = wire.encode_frame(frame, fmt)
    out = wire.decode_frame(data, headers)
    assert np.array_equal(out, frame) and out.flags.writeable


def test_a_frame_with_a_wrong_shape_header_is_refused():
    data, headers = wire.encode_frame(np.zeros((4, 4, 3), np.uint8), "raw")
    with pytest.raises(BackendError, match="bytes"):
        wire.decode_frame(data, {**headers, wire.SHAPE_HEADER: "5 4 3"})
    with pytest.raises(BackendError, match="shape"):
        wire.decode_frame(data, {})


def test_every_primitive_event_round_trips_through_the_wire():
    sent = [
        ev.KeyDown("w"),
        ev.KeyUp("w"),
        ev.MoveTo(3, 4),
        ev.MoveBy(-5, 7),
        ev.MouseDown("right"),
        ev.MouseUp("right"),
        ev.Scroll(dy=-2, x=1, y=2),
    ]
    body = str([e.to_dict() for e in sent]).replace("'", '"').replace("None", "null").encode()
    assert wire.parse_events(body) == sent


@pytest.mark.parametrize(
    "body, message",
    [
        (b"\"pyautogui.press('a')\"", "JSON list"),
        (b"__import__('os')", "not JSON"),
        (b'[{"type": "TypeText", "text": "rm -rf /"}]', "not a primitive"),
        (b'[{"type": "Wait", "seconds": 1}]', "not a primitive"),
        (b'[{"type": "KeyDown", "key": "w", "exec": "x"}]', "no field"),
        (b'[{"type": "MoveTo", "x": "1e999", "y": 0}]', "pixel number"),
        (b'[{"type": "KeyDown"}]', "bad KeyDown"),
    ],
)
def test_anything_but_valid_primitive_events_is_refused_with_a_message(body, message):
    with pytest.raises(InvalidActionError, match=message):
        wire.parse_events(body)


def test_too_many_events_in_one_request_are_refused():
    body = b"[" + b",".join([b'{"type": "KeyUp", "key": "a"}'] * (wire.MAX_EVENTS + 1)) + b"]"
    with pytest.raises(InvalidActionError, match="at most"):
        wire.parse_events(body)


def test_server_errors_map_to_http_statuses():
    from gcc_envs.errors import GCCError

    assert wire.status_of(InvalidActionError("x")) == 400
    assert wire.status_of(wire.ForbiddenError("x")) == 403
    assert wire.status_of(wire.NotFoundError("x")) == 404
    assert wire.status_of(BackendError("x")) == 409
    assert wire.status_of(GCCError("x")) == 409
    assert wire.status_of(RuntimeError("x")) == 500
