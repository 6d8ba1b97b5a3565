"""The shop's state: items, customers, the ledger and what the screen shows.

Everything here is plain data (dataclasses, lists), changed only by :mod:`.shop` and
:mod:`.game`; the renderer and the tasks only read it. ``version`` goes up on every change, so
a frame rendered for one version is the frame of that version.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Screens under any page or dialog.
SCREENS = ("news", "customer", "haggle", "stats")
#: Pages opened over a screen (each closed by its close button).
PAGES = ("item", "traits", "stock")
#: Customer roles: a seller or pawner sells to the shop, a buyer buys from it, a redeemer pays
#: back a pawn loan.
ROLES = ("seller", "buyer", "pawner", "redeem")


@dataclass
class Item:
    """One physical item (in a customer's hands or on the shelf)."""

    uid: int
    kind: str
    name: str
    category: str
    rarity: str
    condition: str
    genuine: bool
    #: What it would be worth if genuine: value x rarity x condition ($).
    apparent: int
    #: Its true market value V ($): ``apparent`` for a genuine item, far less for a fake.
    value: int
    #: The appraisal range shown on the item page, or None ("no estimate").
    estimate: tuple[int, int] | None
    #: Remarks on the item page; a fake's tell (if it shows) is ``tell``.
    notes: tuple[str, ...] = ()
    tell: str | None = None
    #: What the shop paid (B), once it owns or holds the item.
    paid: int | None = None
    #: Day it came into the shop (0: before the week).
    day_in: int = 0


@dataclass
class Customer:
    """One customer at the counter, with the hidden numbers that drive the haggle."""

    uid: int
    name: str
    role: str
    trait: str
    temper: str
    item: Item
    #: Hidden reservation price: the least a seller/pawner takes, the most a buyer pays ($).
    reserve: float
    #: The customer's current offer: their ask (seller/pawner) or bid (buyer) ($).
    offer: int
    #: Their opening offer ($).
    opening: int
    #: Share of the gap to the reservation given up per round.
    concede: float
    #: Counter-offers left before a final offer.
    patience: int
    #: 0..100; at 0 the customer walks out.
    mood: float
    touchiness: float
    #: (skin, hair, shirt, hair style, glasses) palette indices of the drawn character.
    look: tuple[int, int, int, int, int]
    #: What the customer says now.
    said: str
    #: Offers so far: ("you", price) and ("them", price), oldest first.
    history: list[tuple[str, int]] = field(default_factory=list)
    #: Prices the player gave.
    rounds: int = 0
    #: True after the customer named a final offer.
    final: bool = False
    #: Mood at arrival (the meter's scale).
    mood0: float = 100.0
    #: True once the player chose to talk price (the item page was opened).
    haggled: bool = False
    #: For a redeemer: what they owe; for a pawner: the day they will come back (0: never).
    owed: int = 0
    returns_on: int = 0

    @property
    def buys(self) -> bool:
        """True when the customer buys from the shop (the player names the higher price)."""
        return self.role == "buyer"


@dataclass
class Pawn:
    """A loan the shop made against an item it holds."""

    item: Item
    customer: Customer
    loan: int
    owed: int
    due: int
    #: Day the pawner comes back to pay (0: they never do).
    returns_on: int


@dataclass
class Sale:
    """A closed round trip: item bought (or lent on) for B and sold (or repaid) for S."""

    day: int
    uid: int
    name: str
    bought: int
    sold: int
    value: int
    genuine: bool


@dataclass
class Outcome:
    """How one potential deal (one customer with an item to trade) ended."""

    day: int
    customer: int
    role: str
    item: int
    closed: bool
    haggled: bool
    rounds: int
    price: int | None
    opening: int
    reserve: float


@dataclass
class Dialog:
    """A modal box over the screen: "Deal!", "Sold!", "Warning", with one OK button."""

    title: str
    lines: tuple[str, ...]
    #: "deal" | "sold" | "warning" | "repaid"
    kind: str


@dataclass
class DayLog:
    day: int
    customers: int = 0
    deals: int = 0
    bought: int = 0
    spent: int = 0
    sold: int = 0
    earned: int = 0
    lent: int = 0
    repaid: int = 0
    rent: int = 0
    cash_start: int = 0
    cash_end: int = 0
    worth_start: int = 0
    worth_end: int = 0
    notices: list[str] = field(default_factory=list)
    #: True once the day's stats page came up.
    closed: bool = False


@dataclass
class ShopState:
    """The whole game: day, money, shelf, customers, ledger and the screen."""

    day: int
    days: int
    cash: int
    reputation: int
    stock: list[Item]
    screen: str = "news"
    page: str | None = None
    dialog: Dialog | None = None
    customer: Customer | None = None
    queue: list[str] = field(default_factory=list)
    pawns: list[Pawn] = field(default_factory=list)
    price_text: str = ""
    #: (headline, second line, hot category, cold category) of today's newspaper.
    news: tuple[str, str, str, str] = ("", "", "", "")
    #: Morning notices (a fake found out, a pawn forfeited) shown on the newspaper.
    notices: list[str] = field(default_factory=list)
    #: A one-line note about the last customer who left, shown over the next screen.
    toast: str = ""
    sales: list[Sale] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    days_log: list[DayLog] = field(default_factory=list)
    start_worth: int = 0
    #: ``true_worth`` when the week began.
    start_value: int = 0
    #: Customers served today, and how many come today (redeemers included).
    served: int = 0
    today: int = 0
    #: Fakes sold, waiting to be found out at closing.
    fakes_out: list[Item] = field(default_factory=list)
    over: bool = False
    pointer: tuple[float, float] = (0.5, 0.5)
    next_uid: int = 1
    version: int = 0
    #: Like ``version``, but typing in the price box does not count (the rest of the screen
    #: and the ledger stay the same).
    base_version: int = 0

    def touch(self, typing: bool = False) -> None:
        self.version += 1
        if not typing:
            self.base_version += 1

    @property
    def stock_cost(self) -> int:
        return sum(int(i.paid or 0) for i in self.stock)

    @property
    def loans(self) -> int:
        return sum(p.loan for p in self.pawns)

    @property
    def worth(self) -> int:
        """Cash + shelf at cost + loans out (buying is neutral; selling realises profit)."""
        return self.cash + self.stock_cost + self.loans

    @property
    def profit(self) -> int:
        """Profit in the shop's books (shelf at cost): the paper's figure, and the stats page's."""
        return self.worth - self.start_worth

    @property
    def stock_value(self) -> int:
        return sum(i.value for i in self.stock)

    @property
    def true_worth(self) -> int:
        """Cash + shelf at the items' true value + loans out at what was lent (the interest
        counts once paid; a forfeited pawn's item joins the shelf at its value): buying
        above an item's value (or a fake) loses money at once, selling under it too."""
        return self.cash + self.stock_value + self.loans

    @property
    def true_profit(self) -> int:
        """Profit at true worth (what success and the reward count)."""
        return self.true_worth - self.start_value

    @property
    def days_closed(self) -> int:
        return sum(d.closed for d in self.days_log)

    @property
    def deals_closed(self) -> int:
        return sum(o.closed for o in self.outcomes)
