"""CradlePolicy over HTTP against the loopback server: a full Shopping run, hostile replies."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import agents
import gcc_envs  # noqa: F401  (registers the ids)
from agents.cradle import CradleConfig, CradlePolicy, LLMConfig
from agents.cradle.image_tokens import png_size
from agents.cradle.testing.stardew_expert import shopping_replies
from gcc_envs.games.stardew.skills import SKILLS
from wrappers import ChunkVideo

KEY = "GCC_TEST_OPENAI_KEY"
PLAN_ONLY = CradleConfig(modules=("action_planning",), max_reasks=1)


def make_env() -> gym.Env:
    return ChunkVideo(gym.make("GCC/Stardew-Shopping", obs_size=(360, 640)), max_frames=8)


def make_policy(env, server, config=None, **llm) -> CradlePolicy:
    cfg = LLMConfig(timeout_s=2.0, backoff_s=0.01, **llm)
    return CradlePolicy(env, base_url=server.base_url, api_key_env=KEY, llm=cfg, config=config)


def events(info) -> list[dict]:
    return [{k: v for k, v in e.items() if k != "t"} for e in info["events"]]


def test_scripted_replies_complete_shopping_and_the_env_receives_exactly_their_skills(server):
    env, shadow = make_env(), gym.make("GCC/Stardew-Shopping", obs_size=(360, 640))
    chosen: list[list[str]] = []
    server.default = shopping_replies(env, chosen)
    policy = agents.make_policy("cradle", env, base_url=server.base_url, api_key_env=KEY)
    obs, info = env.reset(seed=0)
    shadow.reset(seed=0)
    policy.reset(info)
    done, steps = False, 0
    while not done:
        code = policy.act(obs, info)
        assert policy.last_info["reason"] is None
        assert code == "\n".join(chosen[-1]) == "\n".join(policy.last_info["calls"])
        obs, _, terminated, truncated, info = env.step(code)
        assert info["last_action_error"] is None and info["events"]
        assert events(info) == events(shadow.step(code)[-1])  # what the replies chose, only
        if len(chosen[-1]) == 1 and chosen[-1][0].startswith("move_"):
            call = chosen[-1][0]
            name, dur = call.split("(duration=")
            want = SKILLS[name].program(duration=float(dur[:-1])).events
            assert events(info) == [{"type": "KeyPress", "key": e.key, "hold_s": e.hold_s}
                                    for e in want]  # fmt: skip
        steps += 1
        done = terminated or truncated
    assert info["success"] and steps < 40
    assert {c.split("(")[0] for cs in chosen for c in cs} >= {"go_through_door", "buy_item"}
    usage = policy.last_info["episode_usage"]
    assert usage["calls"] == len(server.chat_requests()) == 4 * steps - 1  # no reflection at 1
    assert usage["prompt_tokens"] > 0 and usage["cost_usd"] > 0
    policy.close()


HOSTILE = {
    "prose": ("I would walk to the store, it is to the east.", "no action"),
    "import": ("Action:\n```python\nimport os\nos.system('echo hi')\n```", "import"),
    "unknown skill": ("Action:\n```python\nteleport_to_store()\n```", "unknown skill"),
    "pyautogui": ("Action:\n```python\npyautogui.press('c')\n```", "only skill calls"),
    "10 MB": ("Action:\n```python\n" + "move_up(duration=1)\n" * 500_000, "longer than"),
    "empty": ({"text": None}, "empty"),
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_reply_is_reasked_then_ends_as_a_no_op_step(server, kind):
    reply, why = HOSTILE[kind]
    server.script(reply, reply)
    env = make_env()
    policy = make_policy(env, server, PLAN_ONLY)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    code = policy.act(obs, info)
    assert code == "" and policy.last_info["asks"] == 2 == len(server.chat_requests())
    assert "malformed reply" in policy.last_info["reason"] and why in policy.last_info["reason"]
    info = env.step(code)[-1]
    assert info["events"] == [] and info["last_action_error"] is None


def test_a_reasked_reply_that_is_good_the_second_time_runs(server):
    server.script("no code here", "Action:\n```python\nmove_up(duration=0.5)\n```")
    env = make_env()
    policy = make_policy(env, server, PLAN_ONLY)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    assert policy.act(obs, info) == "move_up(duration=0.5)"
    assert policy.last_info["asks"] == 2 and policy.last_info["reason"] is None
    assert "refused" in server.chat_requests()[1].body["messages"][-1]["content"]


@pytest.mark.parametrize(
    ("items", "retries", "why"),
    [([{"status": 500}] * 9, 2, "InternalServerError after 3 tries"),
     ([{"delay": 1.0, "text": "late"}] * 3, 1, "APITimeoutError after 2 tries")],
)  # fmt: skip
def test_http_failures_are_retried_a_bounded_number_of_times_then_a_no_op(
    server, items, retries, why
):
    server.script(*items)
    env = make_env()
    kw = {"max_retries": retries} | ({"timeout_s": 0.2} if "Timeout" in why else {})
    policy = CradlePolicy(env, base_url=server.base_url, api_key_env=KEY,
                          llm=LLMConfig(backoff_s=0.01, **kw), config=PLAN_ONLY)  # fmt: skip
    obs, info = env.reset(seed=0)
    policy.reset(info)
    assert policy.act(obs, info) == ""
    assert why in policy.last_info["reason"] and len(server.chat_requests()) == retries + 1


def test_only_the_first_max_calls_skill_calls_run(server):
    server.script("Action:\n```python\nselect_tool(key=2)\nuse_tool()\nmove_up(duration=1)\n```")
    env = make_env()
    policy = make_policy(env, server, PLAN_ONLY)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    assert policy.act(obs, info) == "select_tool(key=2)\nuse_tool()"
    assert policy.last_info["dropped"] == 1


def test_each_request_carries_the_images_and_detail_its_module_asks_for(server):
    server.script(
        "Description: farm", "Task: shop\nHorizon: long\nSummary: s",
        "Action:\n```python\nmove_down(duration=5)\n```",
        "Description: farm", "Success: yes\nCause: none\nContinue: no",
        "Task: shop\nHorizon: short\nSummary: s2", "Action:\n```python\nmove_up(duration=1)\n```",
    )  # fmt: skip
    env = make_env()
    config = CradleConfig(reflect_frames=4)
    policy = make_policy(env, server, config)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    for _ in range(2):
        obs, *_, info = env.step(policy.act(obs, info))
    got = [(r.first_line.split("]")[0][1:], r.n_images, r.details) for r in server.chat_requests()]
    assert got == [
        ("information_gathering", 1, ["high"]), ("task_inference", 1, ["low"]),
        ("action_planning", 1, ["high"]),
        ("information_gathering", 1, ["high"]), ("self_reflection", 4, ["low"] * 4),
        ("task_inference", 1, ["low"]), ("action_planning", 1, ["high"]),
    ]  # fmt: skip
    sizes = {r.first_line.split("]")[0][1:]: r.text_chars for r in server.chat_requests()}
    assert sizes["self_reflection"] < sizes["action_planning"] < 4000
    assert policy.tasks.current == "shop" and policy.episodic.summary == "s2"
    by_module = policy.last_info["usage_by_module"]
    assert set(by_module) == {"information_gathering", "self_reflection", "task_inference",
                              "action_planning"}  # fmt: skip


def test_skill_curation_adds_valid_skills_as_data_and_refuses_the_rest(server):
    learned = [
        {"name": "act_above", "doc": "Step up and act.", "params": [["d", "float", 0.25]],
         "body": "move_up(duration=$d)\ndo_action()"},
        {"name": "snoop", "doc": "Read a file.", "params": [], "body": "open('x')"},
    ]  # fmt: skip
    server.script(
        "```json\n" + json.dumps(learned) + "\n```",
        "Action:\n```python\nact_above(d=0.5)\n```",
    )
    env = make_env()
    config = CradleConfig(modules=("skill_curation", "action_planning"))
    policy = make_policy(env, server, config)
    obs, info = env.reset(seed=0)
    policy.reset(info)
    code = policy.act(obs, info)
    assert code == "move_up(duration=0.5)\ndo_action()"
    assert policy.last_info["learned"] == ["act_above"]
    assert "open" in policy.last_info["refused_skills"][0]
    assert "act_above(d: float = 0.25)" in server.chat_requests()[1].body["messages"][0][
        "content"][0]["text"]  # fmt: skip
    info = env.step(code)[-1]
    assert [e["type"] for e in info["events"]] == ["KeyPress", "KeyPress", "Wait"]


def test_fused_mode_completes_shopping_with_one_request_per_step(server):
    env = make_env()
    chosen: list[list[str]] = []
    server.default = shopping_replies(env, chosen)
    policy = make_policy(env, server, CradleConfig(fused=True))
    obs, info = env.reset(seed=0)
    policy.reset(info)
    done, steps = False, 0
    while not done:
        code = policy.act(obs, info)
        assert code == "\n".join(chosen[-1]) and set(policy.last_info["usage_by_module"]) == {
            "fused"
        }
        obs, _, terminated, truncated, info = env.step(code)
        steps += 1
        done = terminated or truncated
    assert info["success"]
    requests = server.chat_requests()
    assert len(requests) == steps and requests[0].details == ["high"]
    sheets = [r for r in requests[1:] if r.n_images == 2]
    for r in requests[1:]:  # the chunk's earlier frames as ONE low-detail sheet, then the screen
        assert r.details == ["low"] * (r.n_images - 1) + ["high"] and 1 <= r.n_images <= 2
    assert sheets and all(max(png_size(r.urls[0])) <= 512 for r in sheets)
