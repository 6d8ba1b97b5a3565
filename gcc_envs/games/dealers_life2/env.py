"""The Dealer's Life 2 environments' class and card."""

from __future__ import annotations

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
    reservation each round. 10 % of fakeable items are fakes worth 8 % of the genuine; a
    sold fake is found out with chance 0.6 the next morning and costs 15 reputation. Rent is
    $40 a day. All numbers are tunables in ``games/dealers_life2/data/*.toml``.

    The seed varies the week: the shelf on day 1, the news, how many customers come and who
    (role, trait, temper, looks, name), every item (kind, rarity, condition, fake or not,
    estimate, notes) and every hidden number (reservation, opening offer, concession rate,
    patience, mood).

    | id | task | success | steps |
    |---|---|---|---|
    | ``GCC/DealersLife2-Week`` | 7 days | the week finished with a profit | 1000 |
    | ``GCC/DealersLife2-Day`` | 1 day | the day finished with a profit | 150 |

    ## Action Space
    ``action_mode="state"`` (default): ``Dict(keys=MultiBinary(13), buttons=MultiBinary(3),
    mouse=Box(-1, 1, (2,)), scroll=Discrete(3, start=-1))`` held for ``step_seconds``; keys
    ``0-9 backspace enter esc``; ``mouse`` moves the pointer by up to 200 px (absolute
    pointer: the left button clicks where it is). ``action_mode="event"``: one computer_13
    operation per step. Every env also takes code text: the paper's skills ``open_shop()``,
    ``give_price(price)``, ``process_dialog()``, ``close_description_page()``,
    ``accept_deal()``, ``reject_deal()``, ``finish_buy()``, ``finish_sell()``, and
    ``show_stock()``, ``show_traits()``, ``show_item()``, ``counter_offer(fraction)``, one per
    step (``max_skill_calls=1``); each finds its button on the frame.

    ## Observation Space
    ``Box(0, 255, (H, W, 3), uint8)``, rendered at ``obs_size=(H, W)`` (default 720x1280).

    ## Rewards
    The profit made in the step (change of cash + shelf at cost + loans out) / $100, plus 1
    on success. ``info["progress"]`` = 0.5 x days finished / days + 0.5 x min(deals closed,
    5 a day) / (5 x days).

    ## Starting State
    Day 1's newspaper, $2,500 in the bank, 5-7 items on the shelf (bought at 60-85 % of
    their value), reputation 50.

    ## Episode End
    Terminated when the last day's stats page comes up (success with a profit, else failure
    "the shop closed its last day without a profit"), or on ``DONE``/``FAIL``. Truncated at the step limit.
    ``info["metrics"]`` has, every step, the paper's nine metrics ``TR GPM ROI VD BPVR SPVR
    APR MRR mRR`` (n and m as in ``gcc_envs.games.dealers_life2.metrics``), ``deal_share``,
    ``mean_rounds``, ``total_profit_pct``, ``deal_rate``, ``normalized_profit`` and counts.

    ## Arguments
    ``task`` (``"week"``/``"day"``), ``backend`` (``"sim"``; a real game needs
    ``backend="desktop"`` and an explicit ``judge``), ``obs_size``, ``action_mode``,
    ``time_mode``, ``fps``, ``step_seconds``, ``think_time``, ``render_mode``, ``shaping``.

    ## Version History
    * v0 (unversioned ids): first release.
    """

    game_spec = GAME
