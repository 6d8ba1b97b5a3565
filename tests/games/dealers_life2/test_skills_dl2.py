"""The paper's skills find their buttons on the frame; bad arguments are refused clearly."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from dl2_helpers import to_haggle

import gcc_envs  # noqa: F401  (registers the ids)
from gcc_envs.games.dealers_life2 import vision
from gcc_envs.games.dealers_life2.skills import SKILL_GRID, SKILLS
from wrappers import UseSkillGrid, UseSkills

SIZES = [(720, 1280), (360, 640), (72, 128)]


def make(size=(720, 1280), task="Day"):
    return UseSkills(gym.make(f"GCC/DealersLife2-{task}", obs_size=size))


def state(env):
    return env.unwrapped.backend.sim.state


def test_the_library_has_the_papers_eight_skills_and_one_call_per_step():
    paper = {"open_shop", "give_price", "process_dialog", "close_description_page",
             "accept_deal", "reject_deal", "finish_buy", "finish_sell"}  # fmt: skip
    assert paper <= set(SKILLS)
    env = make()
    assert env.max_calls == 1
    env.reset(seed=0)
    assert "at most 1" in env.step("open_shop()\nprocess_dialog()")[-1]["last_action_error"]


@pytest.mark.parametrize("size", SIZES)
def test_a_deal_runs_through_the_skills_at_any_size(size):
    env = make(size)
    env.reset(seed=4)
    s = env.unwrapped.backend.sim.state
    env.step("open_shop()")
    assert s.screen == "customer"
    env.step("process_dialog()")
    assert s.screen == "haggle" and s.page == "item"
    env.step("close_description_page()")
    assert s.page is None
    c = s.customer
    env.step("accept_deal()")
    assert s.dialog is not None and s.dialog.kind in ("deal", "sold")
    env.step("finish_sell()" if c.buys else "finish_buy()")
    assert s.dialog is None and s.customer is not c


@pytest.mark.parametrize("size", SIZES[:2])
def test_give_price_types_into_the_box_and_the_customer_answers(size):
    env = make(size)
    env.reset(seed=6)
    sim = env.unwrapped.backend.sim
    to_haggle(sim, "seller")
    c = sim.state.customer
    price = max(1, int(c.reserve * 0.9))
    info = env.step(f"give_price(price={price})")[-1]
    assert info["last_action_error"] is None
    assert ("you", price) in c.history and c.rounds == 1


def test_reject_deal_sends_the_customer_away_and_traits_and_stock_pages_open():
    env = make()
    env.reset(seed=6)
    s = state(env)
    to_haggle(env.unwrapped.backend.sim)
    env.step("show_traits()")
    assert s.page == "traits"
    env.step("close_description_page()")
    env.step("show_item()")
    assert s.page == "item"
    env.step("close_description_page()")
    c = s.customer
    env.step("reject_deal()")
    assert s.customer is not c and s.outcomes[-1].closed is False
    env.step("show_stock()")
    assert s.page == "stock"
    env.step("show_stock()")
    assert s.page is None


@pytest.mark.parametrize("code", ["give_price(price=-5)", "give_price(price=10000000)",
                                  "give_price(price=12.5)", "give_price(price='100')",
                                  "counter_offer(price=0)", "give_price()"])  # fmt: skip
def test_bad_prices_are_refused_with_a_clear_error_and_type_nothing(code):
    env = make()
    env.reset(seed=6)
    sim = env.unwrapped.backend.sim
    to_haggle(sim, "seller")
    s = sim.state
    cash, v = s.cash, s.version
    _, _, term, trunc, info = env.step(code)
    err = info["last_action_error"]
    assert isinstance(err, str) and any(w in err for w in ("price", "fraction", "range"))
    assert info["events"] == [] and s.version == v and s.cash == cash and not (term or trunc)


def test_a_skill_whose_button_is_not_on_screen_clicks_nothing():
    env = make()
    env.reset(seed=0)
    s = state(env)
    v = s.version
    for code in ("accept_deal()", "reject_deal()", "finish_buy()", "give_price(price=50)",
                 "close_description_page()", "counter_offer(price=50)"):  # fmt: skip
        info = env.step(code)[-1]
        assert info["last_action_error"] is None
        assert [e["type"] for e in info["events"]] == ["Wait"]
    assert s.version == v and s.screen == "news"


def test_the_skills_read_the_frame_not_the_state():
    env = make()
    obs, _ = env.reset(seed=0)
    # an all-black frame has no buttons: open_shop clicks nothing there
    prog = SKILLS["open_shop"].program()
    gen = prog.start()
    assert type(next(gen)).__name__ == "Wait"
    with pytest.raises(StopIteration):
        gen.send(np.zeros_like(obs))
    gen = SKILLS["open_shop"].program().start()
    next(gen)
    click = gen.send(obs)
    assert type(click).__name__ == "Click"
    assert vision.screen_kind(obs) == "news"


def test_the_skill_grid_offers_fixed_dollar_prices():
    env = UseSkillGrid(gym.make("GCC/DealersLife2-Day"))
    assert env.action_space.n == sum(max(1, len(p.get("price", ()))) for p in SKILL_GRID.values())
    env.reset(seed=6)
    sim = env.unwrapped.backend.sim
    to_haggle(sim, "seller")
    c = sim.state.customer
    env.step(env.codes.index("counter_offer(price=100)"))
    assert c.history[1] == ("you", 100)


@pytest.mark.parametrize("role", ["seller", "buyer"])
def test_counter_offer_gives_the_dollars_named_whatever_the_offer(role):
    env = make((90, 160))
    env.reset(seed=6)
    sim = env.unwrapped.backend.sim
    to_haggle(sim, role)
    c = sim.state.customer
    price = c.offer + 7 if c.buys else max(1, c.offer - 7)
    assert env.step(f"counter_offer(price={price})")[-1]["last_action_error"] is None
    assert c.history[1] == ("you", price)


def test_no_curated_skill_reads_the_offer_the_assistive_one_is_off_by_default():
    assert "counter_share" not in SKILLS
    plain = make((90, 160))
    plain.reset(seed=6)
    err = plain.step("counter_share(fraction=0.8)")[-1]["last_action_error"]
    assert "counter_share" in err
    env = UseSkills(gym.make("GCC/DealersLife2-Day", assist_reading=True))
    env.reset(seed=6)
    sim = env.unwrapped.backend.sim
    to_haggle(sim, "seller")
    c = sim.state.customer
    ask = c.offer
    env.step("counter_share(fraction=0.8)")
    assert c.history[1] == ("you", round(ask * 0.8))


def test_the_screen_reader_reads_offer_estimate_paid_and_bank_at_720p():
    from agents.scripted.dealers_life2_screen import BANK, ESTIMATE, OFFER, PAID, read

    env = make()
    env.reset(seed=3)
    s = state(env)
    sim = env.unwrapped.backend.sim
    to_haggle(sim, "buyer")
    f = sim.render(720, 1280)
    c = s.customer
    assert vision.role(f) == "buyer" and read(f, OFFER) == [c.offer]
    assert read(f, PAID) == [c.item.paid] and read(f, BANK) == [s.cash]
    if c.item.estimate is not None:
        assert read(f, ESTIMATE) == list(c.item.estimate)
    assert abs(vision.mood(f) - c.mood) < 2
