"""Dealer's Life 2's skill library: the Cradle paper's atomic skills, each finding its button.

Every skill is a closed-loop program: it looks at the current frame, finds its button there
by the button's colour (:mod:`gcc_envs.games.dealers_life2.vision`; never the simulator's
state) and clicks it, or types the price into the box. A skill whose button is not on the
screen clicks nothing (the next frame shows why). The paper's eight skills come first; three
more open the pages the paper's player reaches by clicking (stock, traits, item), and
``counter_offer(price)`` answers the customer's offer with a price in dollars.

Every price is one the agent names: no curated skill reads a number off the screen for it
(what the customer asks, what an item is worth, what the shop paid), so haggling well needs
the agent to read the screen. :func:`counter_share` does read the customer's offer and names a
share of it; it is an assistive skill, off by default (``gym.make(...,
assist_reading=True)`` adds it), for agents that are not being tested on reading.

Buttons are found at any frame size (tested down to 72x128); ``counter_share`` reads a number
and needs frames about 540 px tall or more.
"""

from __future__ import annotations

from collections.abc import Generator

import numpy as np

from gcc_envs.core.events import TAP_S, Click, Event, KeyPress, TypeText, Wait
from gcc_envs.core.skills import SkillLibrary
from gcc_envs.errors import CodeActionError
from gcc_envs.games.dealers_life2 import vision
from gcc_envs.games.dealers_life2.sim import layout as L
from gcc_envs.games.dealers_life2.sim.layout import C, Rect

#: Highest price the box takes (six digits, as the simulator's ``max_digits``).
MAX_PRICE = 999_999
#: Seconds a skill waits after its click or its Enter for the game to answer (the real game
#: animates the customer); with the click this makes a skill last 1 s, so a 2 fps video of
#: the step has a first and a last frame for self-reflection.
SETTLE_S = 1.0 - TAP_S / 2  # a click holds the button TAP_S / 2
#: Where the customer's offer is written on the haggle screen, and its font size.
OFFER_TEXT = (Rect.px(870, 300, 1230, 380), 1.6)

ProgramGen = Generator[Event, "np.ndarray | None", None]


def _look() -> Generator[Event, np.ndarray | None, np.ndarray]:
    frame = yield Wait(0.0)
    if frame is None:
        raise CodeActionError("Dealer's Life 2 skills need frames: run them through env.step")
    return frame


def _click(color: tuple[int, int, int], *places: Rect) -> ProgramGen:
    """Click the button of ``color`` found near any of its ``places`` (screens differ)."""
    frame = yield from _look()
    for expect in places:
        at = vision.find_button(frame, color, expect)
        if at is not None:
            yield Click(*at)
            yield Wait(SETTLE_S)
            return


def open_shop() -> ProgramGen:
    """Click OPEN SHOP on the morning newspaper to start the day's trading."""
    yield from _click(C.OPEN, L.OPEN_BTN)


def give_price(price: int) -> ProgramGen:
    """Type `price` (a whole number of dollars) into the price box of the haggle screen and press Enter."""
    if not 0 <= price <= MAX_PRICE:
        raise CodeActionError(
            f"give_price(): price must be a whole number of dollars from 0 to {MAX_PRICE:,}, "
            f"got {price}"
        )
    return _type_price(price)


def _type_price(price: int) -> ProgramGen:
    frame = yield from _look()
    if vision.find_button(frame, C.ACCEPT, L.ACCEPT_BTN) is None:
        return  # not on the haggle screen (or a page or dialog covers it)
    yield from _type_price_on(frame, price)


def process_dialog() -> ProgramGen:
    """Click the first option of the customer's dialog (or OK on a dialog box) to go on."""
    frame = yield from _look()
    at = vision.find_button(frame, C.OK, L.OK_BTN) or vision.first_option(frame)
    if at is not None:
        yield Click(*at)
        yield Wait(SETTLE_S)


def close_description_page() -> ProgramGen:
    """Close the page on top: item description, daily stats, stock or the customer's traits."""
    yield from _click(C.CLOSE, L.CLOSE_BTN)


def accept_deal() -> ProgramGen:
    """Click the check mark: accept the customer's current offer."""
    yield from _click(C.ACCEPT, L.ACCEPT_BTN)


def reject_deal() -> ProgramGen:
    """Click the cross: refuse the deal; the customer leaves."""
    yield from _click(C.REJECT, L.REJECT_BTN)


def finish_buy() -> ProgramGen:
    """Click OK on the "Deal!" dialog to finish buying (OK of any dialog box)."""
    yield from _click(C.OK, L.OK_BTN)


def finish_sell() -> ProgramGen:
    """Click OK on the "Sold!" dialog to finish selling (OK of any dialog box)."""
    yield from _click(C.OK, L.OK_BTN)


def show_stock() -> ProgramGen:
    """Click the Stock button at the top: open the shelf page, or go back from it."""
    yield from _click(C.STOCK, L.STOCK_BTN)


def show_traits() -> ProgramGen:
    """Click Traits: open the page of the customer's traits, mood and patience."""
    yield from _click(C.TRAITS, L.TRAITS_BTN, L.H_TRAITS_BTN)


def show_item() -> ProgramGen:
    """Click Item details on the haggle screen: open the item's description page again."""
    yield from _click(C.ITEM, L.ITEM_BTN)


def counter_offer(price: int) -> ProgramGen:
    """Answer the customer's offer with your own `price` (whole dollars): type it into the price box and press Enter."""
    if not 0 < price <= MAX_PRICE:
        raise CodeActionError(
            f"counter_offer(): price must be a whole number of dollars from 1 to {MAX_PRICE:,}, "
            f"got {price}"
        )
    return _type_price(price)


def counter_share(fraction: float) -> ProgramGen:
    """Assistive, off by default: give `fraction` (0.05-5) times the customer's offer, read off the haggle screen for you."""
    if not 0.05 <= fraction <= 5.0:
        raise CodeActionError(f"counter_share(): fraction must lie in [0.05, 5], got {fraction}")
    return _counter(fraction)


def _counter(fraction: float) -> ProgramGen:
    frame = yield from _look()
    rect, size = OFFER_TEXT
    amounts = vision.parse_money(vision.read_text_line(frame, rect, size, True))
    if not amounts:
        return
    yield from _type_price_on(frame, max(1, min(MAX_PRICE, round(amounts[0] * fraction))))


def _type_price_on(frame: np.ndarray, price: int) -> ProgramGen:
    box = vision.find_button(frame, C.PRICE, L.PRICE_BOX)
    if box is None:
        return
    yield Click(*box)
    yield TypeText(str(price))
    yield KeyPress("enter")
    yield Wait(SETTLE_S)


PAPER = (
    open_shop,
    give_price,
    process_dialog,
    close_description_page,
    accept_deal,
    reject_deal,
    finish_buy,
    finish_sell,
)
EXTRA = (show_stock, show_traits, show_item, counter_offer)
SKILLS = SkillLibrary.from_functions(*PAPER, *EXTRA)
#: The curated skills plus the assistive reader (``assist_reading=True``).
ASSISTED = SKILLS.with_skills(SkillLibrary.from_functions(counter_share).values())

#: Prices in dollars (what items cost spans $5 to a few $1,000), then the buttons
#: (``wrappers.UseSkillGrid``).
SKILL_GRID: dict[str, dict[str, tuple[int, ...]]] = {
    "counter_offer": {"price": (20, 50, 100, 200, 400, 800, 1600, 3200)},
    "accept_deal": {},
    "reject_deal": {},
    "process_dialog": {},
    "close_description_page": {},
    "open_shop": {},
    "finish_buy": {},
    "finish_sell": {},
}


def make_skills(profile: object = None, real: bool = False) -> SkillLibrary:
    """The library (the same on a real screen: buttons are found on the frame)."""
    del profile, real
    return SKILLS
