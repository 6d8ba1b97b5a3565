"""The ``office`` stand-in model's slides skill: which tool it writes or calls, per task."""

from __future__ import annotations

import json

from agents.friday.fake_office import _actor, _curriculum

HELD_OUT = "Task: Make ~/review.pptx whose first slide's title is Quarterly Review.\n"


def test_curriculum_proposes_the_slides_practice_for_a_slides_objective() -> None:
    slides = json.loads(_curriculum("Objective: slides with python-pptx"))["tasks"][0]
    sheets = json.loads(_curriculum("Objective: spreadsheets with openpyxl"))["tasks"][0]
    assert "~/practice.pptx" in slides["instruction"] and slides["expect"] == "Hello"
    assert "~/practice.xlsx" in sheets["instruction"]


def test_actor_writes_write_title_on_the_slides_practice() -> None:
    reply = _actor("Task: Create ~/practice.pptx whose first slide's title is Hello.\n")
    assert "def write_title(" in reply
    assert reply.endswith("Invocation: write_title('~/practice.pptx', 'Hello')")


def test_actor_without_the_tool_writes_plain_text_named_pptx() -> None:
    reply = _actor(HELD_OUT)
    assert "def write_title(" not in reply
    assert reply.endswith("Invocation: write_text('~/review.pptx', 'Quarterly Review')")


def test_actor_calls_the_retrieved_tool_on_a_held_out_slides_task() -> None:
    reply = _actor(HELD_OUT + "Tools:\n- write_title: Save a new presentation\n")
    assert "```python" not in reply
    assert reply.endswith("Invocation: write_title('~/review.pptx', 'Quarterly Review')")
