"""Learned skills as JSON data (validated, never run) and prompt templates checked at load."""

from __future__ import annotations

import json

import pytest

from agents.cradle.memory import EpisodicMemory, Interaction, LearnedSkill, ProceduralMemory
from agents.cradle.parse import parse_action
from agents.cradle.prompts import load_prompt, load_prompts
from gcc_envs.errors import CodeActionError, DataError
from gcc_envs.games.stardew.skills import SKILLS

HITCH = LearnedSkill(
    "step_and_act", "Step up, then act on what is there.",
    (("duration", "float", 0.25),), "move_up(duration=$duration)\ndo_action()",
)  # fmt: skip


def test_a_learned_skill_survives_a_json_round_trip_and_expands_to_base_calls(tmp_path):
    mem = ProceduralMemory(SKILLS)
    mem.add(HITCH)
    mem.save(tmp_path / "skills.json")
    back = ProceduralMemory(SKILLS)
    back.load(tmp_path / "skills.json")
    assert back.learned == {"step_and_act": HITCH}
    assert "step_and_act(duration: float = 0.25)" in back.describe()
    action = parse_action("Action: step_and_act(duration=1)", back.library, 2)
    assert back.code(action.calls) == "move_up(duration=1.0)\ndo_action()"


@pytest.mark.parametrize(
    "body", ["open('x')", "import os", "__import__('os').system('x')", "move_up(duration=$nope)"]
)
def test_a_learned_skill_outside_the_whitelist_is_rejected(body):
    with pytest.raises(CodeActionError):
        ProceduralMemory(SKILLS).add(LearnedSkill("bad", "doc", (), body))


def test_a_tampered_skill_file_is_refused_at_load(tmp_path):
    path = tmp_path / "skills.json"
    path.write_text(json.dumps({"skills": [{**HITCH.to_json(), "body": "open('x')"}]}))
    with pytest.raises(DataError, match="refused"):
        ProceduralMemory(SKILLS).load(path)


def test_a_learned_skill_may_not_shadow_a_base_skill():
    with pytest.raises(CodeActionError, match="taken"):
        ProceduralMemory(SKILLS).add(LearnedSkill("use_tool", "doc", (), "do_action()"))


def test_episodic_memory_keeps_the_last_five_interactions():
    mem = EpisodicMemory()
    for i in range(8):
        mem.add(Interaction(i, "t", f"a{i}"))
    assert [i.step for i in mem.recent] == [3, 4, 5, 6, 7]


def test_every_stardew_template_loads():
    assert set(load_prompts("stardew")) == {
        "information_gathering", "self_reflection", "task_inference", "action_planning",
        "skill_curation", "fused",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("text", "why"),
    [("$subtask $weather", "unknown field"), ("no fields", "missing field"), ("$ bad", "invalid")],
)
def test_a_template_with_wrong_fields_is_refused_at_load(tmp_path, text, why):
    path = tmp_path / "information_gathering.txt"
    path.write_text(text)
    with pytest.raises(DataError, match=why):
        load_prompt(path, "information_gathering")


def test_a_game_without_templates_is_refused():
    with pytest.raises(DataError, match="no prompt templates"):
        load_prompts("no_such_game")


@pytest.mark.parametrize(
    ("code", "calls", "end"),
    [("use_tool()\nDONE", ["use_tool()"], "DONE"), ("DONE", [], "DONE"), ("FAIL", [], "FAIL")],
)
def test_an_action_may_end_with_done_or_fail_as_useskills_takes_it(code, calls, end):
    action = parse_action(f"Action:\n```python\n{code}\n```", SKILLS, 2)
    assert [c.to_code() for c in action.calls] == calls and action.end == end
    assert action.code == code


@pytest.mark.parametrize("code", ["DONE\nuse_tool()", "WAIT", "DONE\nDONE"])
def test_done_anywhere_but_last_is_refused(code):
    with pytest.raises(CodeActionError):
        parse_action(f"Action:\n```python\n{code}\n```", SKILLS, 2)
