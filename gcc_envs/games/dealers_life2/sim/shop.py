"""The shop's rules: the day's flow from the newspaper to closing, deals and the ledger.

The screen follows the real game's flow: newspaper (open the shop) → a customer walks in and
speaks (numbered options) → the item's description page → the haggle screen (type a price in
the box bottom right and press Enter, or accept the customer's offer with the check mark, or
send them away with the cross) → "Deal!" or "Sold!" with OK → the next customer → at closing
the day's stats page → the next morning's newspaper. Mistakes of input (no price, $0, more
than the bank holds) get a "Warning" dialog and change no money.
"""

from __future__ import annotations

import numpy as np

from gcc_envs.games.dealers_life2.sim import economy as eco_draw
from gcc_envs.games.dealers_life2.sim.data import GameData
from gcc_envs.games.dealers_life2.sim.haggle import Haggler, Reply, respond
from gcc_envs.games.dealers_life2.sim.state import (
    Customer,
    DayLog,
    Dialog,
    Outcome,
    Pawn,
    Sale,
    ShopState,
)


def new_week(data: GameData, rng: np.random.Generator, days: int) -> ShopState:
    eco = data.economy
    s = ShopState(day=1, days=days, cash=eco.start_cash, reputation=eco.start_reputation, stock=[])
    s.stock = eco_draw.start_stock(s, data, rng)
    s.start_worth, s.start_value = s.worth, s.true_worth
    morning(s, data, rng)
    return s


def morning(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    """The day's newspaper, customers and returning pawners."""
    s.news = eco_draw.news(data, rng)
    back = [f"redeem:{i}" for i, p in enumerate(s.pawns) if p.returns_on == s.day]
    s.queue = back + eco_draw.day_roles(s, data, rng)
    s.today, s.served = len(s.queue), 0
    s.days_log.append(DayLog(s.day, cash_start=s.cash, worth_start=s.worth))
    s.days_log[-1].notices = list(s.notices)
    s.screen, s.page, s.dialog, s.customer, s.toast = "news", None, None, None, ""
    s.touch()


def open_shop(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    if s.screen == "news" and s.page is None and not s.over:
        s.notices = []
        next_customer(s, data, rng)


def next_customer(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    s.customer, s.price_text, s.page, s.dialog = None, "", None, None
    while s.queue:
        role = s.queue.pop(0)
        s.served += 1
        if role.startswith("redeem:"):
            c = _redeemer(s, data, rng, int(role.partition(":")[2]))
        else:
            c = eco_draw.customer(s, data, rng, role)
        if c is not None:
            s.customer, s.screen = c, "customer"
            s.touch()
            return
    close_day(s, data, rng)


def _redeemer(s: ShopState, data: GameData, rng: np.random.Generator, i: int) -> Customer | None:
    if i >= len(s.pawns):
        return None
    p = s.pawns[i]
    c = p.customer
    c.role, c.owed, c.history, c.final = "redeem", p.owed, [], False
    lines = data.lines["redeem"]
    c.said = lines[int(rng.integers(len(lines)))].format(item=p.item.name, owed=f"{p.owed:,}")
    return c


def options(s: ShopState) -> tuple[str, ...]:
    """The numbered answers of the customer screen."""
    c = s.customer
    if s.screen != "customer" or c is None:
        return ()
    if c.role == "redeem":
        return (f"Here is your {c.item.name}.",)
    if c.role == "buyer":
        return ("Let's talk price.", "Sorry, it's not for sale.")
    if c.role == "pawner":
        return ("Let me look at it.", "I don't lend on that.")
    return ("Let me take a look.", "Not interested, sorry.")


def choose(s: ShopState, data: GameData, rng: np.random.Generator, n: int) -> None:
    """Answer option ``n`` (1-based) on the customer screen."""
    c = s.customer
    if c is None or not 1 <= n <= len(options(s)):
        return
    if c.role == "redeem":
        _redeem(s, data)
    elif n == 1:
        c.haggled = True
        s.screen, s.page = "haggle", "item"
        c.said = f"I'll pay ${c.offer:,} for it." if c.buys else f"I want ${c.offer:,} for it."
        c.history.append(("them", c.offer))
        s.touch()
    else:
        _leave(s, data, rng, False, "Too bad. Goodbye.")


def _redeem(s: ShopState, data: GameData) -> None:
    c = s.customer
    assert c is not None
    p = next(p for p in s.pawns if p.customer is c)
    s.pawns.remove(p)
    s.cash += p.owed
    log = s.days_log[-1]
    log.repaid += p.owed
    s.sales.append(Sale(s.day, p.item.uid, p.item.name, p.loan, p.owed, p.item.value, True))
    s.dialog = Dialog(
        "Loan repaid!",
        (f"{c.name} paid back ${p.owed:,}", f"for the {p.item.name}.",
         f"Interest earned: +${p.owed - p.loan:,}"),
        "repaid",
    )  # fmt: skip
    s.touch()


def _outcome(s: ShopState, c: Customer, closed: bool, price: int | None) -> None:
    s.outcomes.append(
        Outcome(s.day, c.uid, c.role, c.item.uid, closed, c.haggled, c.rounds, price,
                c.opening, c.reserve)
    )  # fmt: skip


def _leave(s: ShopState, data: GameData, rng: np.random.Generator, angry: bool, line: str) -> None:
    c = s.customer
    assert c is not None
    _outcome(s, c, False, None)
    s.toast = f'{c.name} left{" angry" if angry else ""}: "{line}"'
    next_customer(s, data, rng)


def _haggler(c: Customer) -> Haggler:
    return Haggler(c.reserve, c.offer, c.concede, c.patience, c.mood, c.touchiness, c.buys, c.final)


def reply_to(c: Customer, price: int, data: GameData) -> Reply:
    """The customer's answer to ``price`` (no state changes)."""
    e = data.economy
    return respond(
        _haggler(c), price, insult=e.insult, insult_mood=e.insult_mood,
        round_mood=e.round_mood, final_mood=e.final_mood,
    )  # fmt: skip


def _warn(s: ShopState, *lines: str) -> None:
    s.dialog = Dialog("Warning", lines, "warning")
    s.price_text = ""
    s.touch()


def type_digit(s: ShopState, data: GameData, ch: str) -> None:
    if haggling(s) and len(s.price_text) < data.economy.max_digits:
        if ch == "0" and not s.price_text:
            s.price_text = "0"
        elif s.price_text == "0":
            s.price_text = ch
        else:
            s.price_text += ch
        s.touch(typing=True)


def backspace(s: ShopState) -> None:
    if haggling(s) and s.price_text:
        s.price_text = s.price_text[:-1]
        s.touch(typing=True)


def haggling(s: ShopState) -> bool:
    return s.screen == "haggle" and s.page is None and s.dialog is None and s.customer is not None


def submit(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    """Enter on the haggle screen: offer the price in the box."""
    if not haggling(s):
        return
    c = s.customer
    assert c is not None
    if not s.price_text:
        _warn(s, "Type a price in the box first,", "then press Enter.")
        return
    price = int(s.price_text)
    if price <= 0:
        _warn(s, "The price must be more than $0.")
        return
    if not c.buys and price > s.cash:
        _warn(s, f"You cannot offer ${price:,}:", f"you have only ${s.cash:,} in the bank.")
        return
    s.price_text = ""
    c.rounds += 1
    c.history.append(("you", price))
    r = reply_to(c, price, data)
    c.mood, c.patience, c.offer, c.final = (
        r.after.mood,
        r.after.patience,
        r.after.offer,
        r.after.final,
    )
    lines = data.lines
    if r.kind == "accept":
        _deal(s, data, price)
        return
    if r.kind == "leave":
        key = "leave_angry" if r.angry else "leave"
        say = lines["insulted"][0] + " " if r.insulted else ""
        _leave(s, data, rng, r.angry, say + _line(rng, lines[key]))
        return
    c.history.append(("them", r.price))
    if r.kind == "final":
        c.said = _line(rng, lines["final"]).format(price=f"{r.price:,}")
    else:
        c.said = _line(rng, lines["counter_buy" if c.buys else "counter_sell"]).format(
            price=f"{r.price:,}"
        )
    if r.insulted:
        c.said = _line(rng, lines["insulted"]) + " " + c.said
    s.touch()


def _line(rng: np.random.Generator, options: tuple[str, ...]) -> str:
    return options[int(rng.integers(len(options)))]


def accept(s: ShopState, data: GameData) -> None:
    """The check mark: take the customer's current offer."""
    if not haggling(s):
        return
    c = s.customer
    assert c is not None
    if not c.buys and c.offer > s.cash:
        _warn(s, f"You cannot pay ${c.offer:,}:", f"you have only ${s.cash:,} in the bank.")
        return
    c.rounds += 1
    _deal(s, data, c.offer)


def reject(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    """The cross: no deal; the customer leaves."""
    if haggling(s):
        _leave(s, data, rng, False, _line(rng, data.lines["leave"]))


def _deal(s: ShopState, data: GameData, price: int) -> None:
    c = s.customer
    assert c is not None
    it, log, e = c.item, s.days_log[-1], data.economy
    _outcome(s, c, True, price)
    s.reputation = min(100, s.reputation + e.fair_deal)
    log.deals += 1
    if c.role == "buyer":
        s.stock = [i for i in s.stock if i.uid != it.uid]
        s.cash += price
        log.sold += 1
        log.earned += price
        s.sales.append(Sale(s.day, it.uid, it.name, int(it.paid or 0), price, it.value, it.genuine))
        if not it.genuine:
            s.fakes_out.append(it)
        gain = price - int(it.paid or 0)
        s.dialog = Dialog(
            "Sold!",
            (f"You sold the {it.name}", f"to {c.name} for ${price:,}.",
             f"You paid ${int(it.paid or 0):,}: {'+' if gain >= 0 else '-'}${abs(gain):,}"),
            "sold",
        )  # fmt: skip
    elif c.role == "pawner":
        it.paid, it.day_in = price, s.day
        s.cash -= price
        log.lent += price
        owed = int(round(price * (1 + e.pawn_interest)))
        s.pawns.append(Pawn(it, c, price, owed, s.day + e.pawn_days, c.returns_on))
        s.dialog = Dialog(
            "Deal!",
            (f"You lent ${price:,} to {c.name}", f"on the {it.name}.",
             f"They owe ${owed:,} by day {s.day + e.pawn_days}."),
            "deal",
        )  # fmt: skip
    else:
        it.paid, it.day_in = price, s.day
        s.cash -= price
        s.stock.append(it)
        log.bought += 1
        log.spent += price
        s.dialog = Dialog(
            "Deal!", (f"You bought the {it.name}", f"from {c.name} for ${price:,}."), "deal"
        )
    c.said = _line_fixed(data.lines["accept"], c.uid)
    s.touch()


def _line_fixed(options: tuple[str, ...], k: int) -> str:
    return options[k % len(options)]


def ok(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    """OK on a dialog: a warning goes back to the haggle; a deal calls the next customer."""
    d = s.dialog
    if d is None:
        return
    s.dialog = None
    if d.kind == "warning":
        s.touch()
        return
    next_customer(s, data, rng)


def close_page(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    """The close button of a page (item, traits, stock) or of the day's stats."""
    if s.dialog is not None:
        return
    if s.page is not None:
        s.page = None
        s.touch()
    elif s.screen == "stats" and not s.over:
        s.day += 1
        morning(s, data, rng)


def open_page(s: ShopState, page: str) -> None:
    if s.dialog is not None or s.screen == "stats":
        return
    if page == "stock":
        s.page = None if s.page == "stock" else "stock"
    elif page in ("item", "traits") and s.customer is not None and s.screen != "news":
        s.page = page
    else:
        return
    s.touch()


def close_day(s: ShopState, data: GameData, rng: np.random.Generator) -> None:
    """Closing: rent, overdue pawns forfeited, sold fakes perhaps found out; the stats page."""
    e, log = data.economy, s.days_log[-1]
    s.cash -= e.rent
    log.rent = e.rent
    log.customers = s.served
    notices: list[str] = []
    for p in list(s.pawns):
        if p.returns_on == 0 and p.due <= s.day:
            s.pawns.remove(p)
            s.stock.append(p.item)
            notices.append(f"{p.customer.name} never came back: the {p.item.name} is yours.")
    for it in s.fakes_out:
        if rng.random() < e.fake_discover:
            s.reputation = max(0, s.reputation - e.fake_discovered)
            notices.append(f"The {it.name} you sold was a FAKE! Reputation -{e.fake_discovered}.")
    s.fakes_out = []
    s.notices = notices
    log.cash_end, log.worth_end, log.closed = s.cash, s.worth, True
    s.screen, s.page, s.dialog, s.customer = "stats", None, None, None
    s.over = s.day >= s.days
    s.touch()
