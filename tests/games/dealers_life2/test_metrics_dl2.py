"""The nine financial metrics of seed 000 §D.6 against ledgers computed by hand."""

from __future__ import annotations

import pytest

from gcc_envs.games.dealers_life2.metrics import NINE, Talk, Trip, financial, headline
from gcc_envs.games.dealers_life2.sim.state import Item, Outcome, Sale, ShopState
from gcc_envs.games.dealers_life2.tasks import shop_metrics

# Three traded items (B, S, V):  A (100, 160, 150)  B (200, 180, 240)  C (50, 100, 60)
# and m = 2 untraded ones.
#   ΣB = 350, ΣS = 440, ΣV = 450, Σ(S-B) = 90
#   return rates: 0.6, -0.1, 1.0
LEDGER = [Trip(100, 160, 150), Trip(200, 180, 240), Trip(50, 100, 60)]
BY_HAND = {
    "TR": 3 / 5,
    "GPM": 90 / 440,
    "ROI": 90 / 350,
    "VD": (440 - 450) / 450,
    "BPVR": 350 / 450,
    "SPVR": 440 / 450,
    "APR": (0.6 - 0.1 + 1.0) / 3,
    "MRR": 1.0,
    "mRR": -0.1,
}


def test_each_of_the_nine_formulas_matches_the_hand_computed_ledger():
    got = financial(LEDGER, m=2)
    assert set(got) == set(NINE)
    for k, v in BY_HAND.items():
        assert got[k] == pytest.approx(v), k


def test_one_trade_gives_its_own_return_rate_as_apr_mrr_and_mrr():
    got = financial([Trip(80, 100, 90)], m=0)
    assert got["TR"] == 1.0
    assert got["APR"] == got["MRR"] == got["mRR"] == pytest.approx(0.25)
    assert got["GPM"] == pytest.approx(0.2) and got["VD"] == pytest.approx(10 / 90)


def test_no_trade_gives_zeros_not_nan():
    got = financial([], m=4)
    assert all(v == 0.0 for v in got.values())


def test_headline_figures_and_normalised_profit_by_hand():
    talks = [
        # bought: opened at 200, reserve 100, paid 125 -> won 75 of 100
        Talk(True, True, 2, 125, 200, 100, buys=False),
        # sold: they bid 50, would pay up to 150, sold at 150 -> all the room
        Talk(True, True, 3, 150, 50, 150, buys=True),
        # talked, no deal
        Talk(False, True, 1, None, 300, 200, buys=False),
        # sent away at the greeting
        Talk(False, False, 0, None, 90, 60, buys=False),
    ]
    got = headline(talks, profit=250, start_worth=1000)
    assert got["deal_share"] == pytest.approx(2 / 4)
    assert got["deal_rate"] == pytest.approx(2 / 3)
    assert got["mean_rounds"] == pytest.approx((2 + 3 + 1) / 3)
    assert got["total_profit_pct"] == pytest.approx(25.0)
    assert got["normalized_profit"] == pytest.approx((0.75 + 1.0) / 2)


def test_shop_metrics_count_m_as_failed_items_never_sold():
    s = ShopState(day=2, days=7, cash=900, reputation=50, stock=[])
    s.start_worth = s.start_value = 1000
    s.sales = [Sale(1, 1, "a", 100, 160, 150, True), Sale(2, 2, "b", 200, 180, 240, True)]
    s.outcomes = [
        Outcome(1, 10, "buyer", 1, False, True, 2, None, 80, 140),  # failed, later sold: not m
        Outcome(1, 11, "seller", 3, False, True, 1, None, 90, 50),  # failed, never sold: m
        Outcome(2, 12, "seller", 4, False, False, 0, None, 70, 40),  # sent away: m
        Outcome(2, 13, "buyer", 2, True, True, 2, 180, 120, 200),
    ]
    got = shop_metrics(s)
    assert got["n_traded"] == 2 and got["m_untraded"] == 2
    assert got["TR"] == pytest.approx(0.5)
    assert got["ROI"] == pytest.approx(40 / 300)
    assert got["deal_share"] == pytest.approx(1 / 4)
    assert got["profit"] == -100 and got["total_profit_pct"] == pytest.approx(-10.0)


def test_profit_counts_stock_at_true_worth_and_the_books_figure_sits_beside_it():
    s = ShopState(day=1, days=1, cash=2000, reputation=50, stock=[])
    s.start_worth = s.start_value = 2000
    # overpaying: $900 for an item worth $300 (books: shelf at $900, no loss shows)
    s.cash -= 900
    s.stock.append(Item(1, "k", "Vase", "art", "Common", "Good", True, 300, 300, None, paid=900))
    got = shop_metrics(s)
    assert got["profit_at_cost"] == 0 and got["total_profit_pct_at_cost"] == 0
    assert got["profit"] == -600 and got["total_profit_pct"] == pytest.approx(-30.0)
    assert got["worth"] == 1400 and got["worth_at_cost"] == 2000
