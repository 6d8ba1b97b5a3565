"""Test doubles for the core's own tests: a fake simulator, a recording backend, a manual
clock. They let the env, clock, spaces, programs and errors be tested without any game."""

from gcc_envs.testing.fake_backend import ManualClock, RecordingBackend
from gcc_envs.testing.fake_sim import FAKE_KEYS, FakeSim, FakeState

__all__ = ["FAKE_KEYS", "FakeSim", "FakeState", "ManualClock", "RecordingBackend"]
