"""The Dealer's Life 2 environments' class and card."""

from __future__ import annotations

from typing import Any

from gcc_envs.core.backend import Backend
from gcc_envs.games.dealers_life2 import GAME
from gcc_envs.games.game_env import GameEnv


class DealersLife2Env(GameEnv):
    """A pawn shop for a week, haggling from the screen with the mouse and the price box.

    ## Description
    A point-and-click shop simulator rebuilt after Dealer's Life 2 as the Cradle paper plays
    it: each morning a newspaper names the day's hot and slow categories and has the OPEN
    SHOP button; then 5-10 customers come one by one — sellers, buyers (who want an item on
    the shelf) and pawners (a loan against an item, repaid with 25 % interest within 3 days,
    or the item is the shop's). A customer speaks in a box with numbered options; the item's
    description page shows its name, category, rarity, condition, an estimate range (missing
    for some rare items) and notes, where a counterfeit may give itself away; the haggle
    screen has the customer's offer with the check mark (accept) and the cross (reject), and
    the ``$`` price box bottom right (digits, backspace, Enter). Deals end in a "Deal!" or
    "Sold!" dialog with OK; mistakes (no price, $0, more money than the bank holds) in a
    "Warning". Pages for the customer's traits and the stock, the day's stats at closing, the
    bank balance top right.

    Customers have a hidden reservation price (the item's apparent value x a draw from their
    trait: desperate, greedy, collector, clueless, ordinary; buyers pay more for the hot
    category and with a good reputation), patience (counter-offers before a final offer) and
    mood (an insulting offer, over 30 % past the reservation, costs 30 x touchiness; at 0
    they walk out). They concede a seeded, trait-dependent share of the gap to their
    reservation each round. A seller's opening ask is 0.4-2.2 times what the item is worth
    (1.13 on average), a buyer's opening bid 0.5-1.0 times (0.71): taking every first offer
    loses money. 10 % of fakeable items are fakes worth 8 % of the genuine; a sold fake is
    found out with chance 0.6 the next morning and costs 15 reputation. Rent is $40 a day.
    All numbers are tunables in ``games/dealers_life2/data/*.toml``.

    The seed varies the week: the shelf on day 1, the news, how many customers come and who
    (role, trait, temper, looks, name), every item (kind, rarity, condition, fake or not,
    estimate, notes) and every hidden number (reservation, opening offer, concession rate,
    patience, mood).

    | id | task | success | steps |
    |---|---|---|---|
    | ``GCC/DealersLife2-Week`` | 7 days | the week finished with $1,000 profit at true worth | 1000 |
    | ``GCC/DealersLife2-Day`` | 1 day | the day finished with $50 profit at true worth | 150 |

    **Profit at true worth**: cash + unsold stock at each item's true market value (a fake's
    is 8 % of the genuine's) + loans out at what was lent, against the same at the start. The
    paper's books value the shelf at what was paid, which hides overpaying (buying at any
    price leaves the books' worth unchanged: offering three times the ask passed a Day with
    +$70 while cash fell $1,235); that figure is reported beside it, never decides. The bars
    were picked by measurement (``benchmarks/blind/dealers_life2.py``'s blind policies:
    accept everything, fixed dollar counter-offers once or twice per customer, random prices,
    overpaying): on seeds 1000-1099 each blind policy makes $50 on at most 3 of 100 Days and
    ends every Week of seeds 1000-1029 below $0; the privileged trader makes $50 on 98 of 100
    Days and $2,890 or more on 95 % of Weeks.

    ## Action Space
    ``action_mode="state"`` (default): ``Dict(keys=MultiBinary(13), buttons=MultiBinary(3),
    mouse=Box(-1, 1, (2,)), scroll=Discrete(3, start=-1))`` held for ``step_seconds``; keys
    ``0-9 backspace enter esc``; ``mouse`` moves the pointer by up to 200 px (absolute
    pointer: the left button clicks where it is). ``action_mode="event"``: one computer_13
    operation per step. Every env also takes code text: the paper's skills ``open_shop()``,
    ``give_price(price)``, ``process_dialog()``, ``close_description_page()``,
    ``accept_deal()``, ``reject_deal()``, ``finish_buy()``, ``finish_sell()``, and
    ``show_stock()``, ``show_traits()``, ``show_item()``, ``counter_offer(price)``, one per
    step (``max_skill_calls=1``); each finds its button on the frame. Prices are dollars the
    agent names: no curated skill reads a number off the screen for it. The assistive
    ``counter_share(fraction)`` (a share of the customer's offer, read off the frame) is off
    by default (``assist_reading=True``). ``UseSkillGrid``'s grid offers
    ``counter_offer`` at $20-$3,200 and the buttons.

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``, rendered at ``obs_size=(H, W)`` (default 720x1280).
    Prices, estimates and the bank are text: a person (and the frame-only trader) reads them
    at 720x1280, and down to about 540 px tall; at 180x320 digits are 3-4 px tall and
    cannot be read. Evaluation uses 720x1280 (``GAME.eval_kwargs``, which
    ``benchmarks/reference_policies.py`` applies over its ``--obs``).

    ## Rewards
    The profit at true worth made in the step (change of cash + shelf at true value + loans
    out) / $100, plus 1 on success. ``info["progress"]`` = 0.5 x days finished / days + 0.5 x min(deals closed,
    5 a day) / (5 x days).

    ## Starting State
    Day 1's newspaper, $2,500 in the bank, 5-7 items on the shelf (bought at 60-85 % of
    their value), reputation 50.

    ## Episode End
    Terminated when the last day's stats page comes up (success with the task's profit at
    true worth, else a failure naming the profit and the bar), or on ``DONE``/``FAIL``.
    Truncated at the step limit. ``info["metrics"]`` has, every step, the paper's nine
    metrics ``TR GPM ROI VD BPVR SPVR APR MRR mRR`` (n and m as in
    ``gcc_envs.games.dealers_life2.metrics``), ``deal_share``, ``mean_rounds``,
    ``total_profit_pct``, ``deal_rate`` (100 % for a policy that accepts everything: read it
    with the profit), ``normalized_profit`` and counts. ``profit``, ``worth`` and
    ``total_profit_pct`` are at true worth; the paper's shelf-at-cost figures are
    ``profit_at_cost``, ``worth_at_cost`` and ``total_profit_pct_at_cost`` (the in-game
    stats page shows these, as the real game's books do).

    ## Arguments
    ``task`` (``"week"``/``"day"``), ``backend`` (``"sim"``; a real game needs
    ``backend="desktop"`` and an explicit ``judge``), ``obs_size``, ``action_mode``,
    ``time_mode``, ``fps``, ``step_seconds``, ``think_time``, ``render_mode``, ``shaping``,
    ``assist_reading`` (default False: adds the assistive ``counter_share``).

    ## Version History
    * v0 (unversioned ids): first release.
    * v1 (issue 26): profit, reward and success at true worth (shelf-at-cost
      figures kept as ``*_at_cost``); success needs $50 (Day) / $1,000 (Week) of it;
      ``counter_offer(price)`` in dollars (it read a share of the offer off the screen; that
      is now the assistive ``counter_share``, off by default); sellers open higher (ask 1.13 x
      worth on average, 0.4-2.2; was 0.89, 0.2-1.6), so accepting every first offer
      loses; evaluation at 720x1280.
    """

    game_spec = GAME

    def __init__(
        self, backend: Backend, task: str | None = None, *, assist_reading: bool = False, **kw: Any
    ) -> None:
        super().__init__(backend, task, **kw)
        #: True when the assistive ``counter_share`` skill (it reads the offer) is offered.
        self.assist_reading = bool(assist_reading)
        if self.assist_reading:
            from gcc_envs.games.dealers_life2.skills import ASSISTED

            self.skills = ASSISTED
