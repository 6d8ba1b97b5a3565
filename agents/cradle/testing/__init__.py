"""Test doubles for the Cradle agent: a loopback OpenAI-compatible server and scripted replies.

Used by the tests and by ``benchmarks/perf_cradle.py``; nothing here talks to a real provider.
"""

from agents.cradle.testing.fake_openai import FakeOpenAI, Recorded

__all__ = ["FakeOpenAI", "Recorded"]
