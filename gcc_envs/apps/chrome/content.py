"""The local web the Chrome twin serves: seeded site content as plain data (``site.json``).

:func:`make_site` draws one episode's web from a seed: the search engine's corpus (the
article the first task looks for among look-alike decoys — titles that share all but one word
of the phrase asked for — and code-hosting profiles for the fourth task, the user's among
look-alike handles, each linking four repositories), the microblog's timeline, encyclopedia
pages for the closed-tab task. Which article, user, repository and page are the task's (its
table ``choose``s them per seed); the defaults are the paper's. The server (:mod:`.sites`)
renders it; the checkers read what the server recorded.
"""

from __future__ import annotations

from typing import Any

import numpy as np

TARGET_ARXIV = "2403.03186"
TARGET_TITLE = (
    "Towards General Computer Control: A Multimodal Agent for Red Dead Redemption II as a "
    "Case Study"
)
TARGET_USER = "tellarin"
ME = {"name": "Cradle Tester", "handle": "cradle_tester"}
_DECOY_TITLES = (
    "Towards General Game Control with Large Language Models",
    "General Computer Use Agents: A Survey",
    "Towards Generalist Web Agents through Reinforcement Learning",
    "Computer Control from Pixels: Benchmarks and Baselines",
    "A Multimodal Agent for Open-World Games",
    "Towards Universal Control of Desktop Applications",
    "General Control of Computers by Vision-Language Models",
)
_AUTHORS = (
    "W. Tan", "W. Zhang", "X. Xu", "H. Xia", "Z. Ding", "B. Li", "B. Zhou", "J. Yue",
    "J. Jiang", "Y. Li", "R. An", "M. Qin", "C. Zong", "L. Zheng", "Y. Wu", "X. Chai",
    "Y. Bi", "T. Xie", "P. Gu", "X. Li", "C. Zhang", "L. Tian", "C. Wang", "X. Wang",
    "B. F. Karlsson", "B. An", "S. Yan", "Z. Lu",
)  # fmt: skip
TARGET_NAME = "Börje F. Karlsson"
#: Look-alike handles of a user ``u``: what a careless search result click lands on.
_DECOY_USERS = ("{u}-dev", "{u}a", "{u}-bot", "s{u}", "{u}2")
#: Repositories a code-hosting user may have (the task may name one; each profile lists four).
REPOS = (
    "notes", "dotfiles", "agent-lab", "paper-code", "benchmarks", "website", "datasets", "slides",
    "toolkit", "experiments", "scripts",
)  # fmt: skip
#: Words a look-alike title puts in place of one word of the phrase asked for.
_SWAPS = ("Universal", "Game", "Robot", "Open", "Visual", "Language", "Web", "Agent", "Learning")
TOPICS = {
    "Lighthouse": "A lighthouse is a tower that emits light to serve as a navigational aid.",
    "Glacier": "A glacier is a persistent body of dense ice that moves under its own weight.",
    "Volcano": "A volcano is a rupture in the crust through which lava and gases escape.",
    "Coral reef": "A coral reef is an underwater ecosystem built by colonies of corals.",
    "Sundial": "A sundial tells the time of day from the shadow cast by the sun.",
    "Harbour": "A harbour is a sheltered body of water where ships can be docked.",
    "Windmill": "A windmill converts the energy of wind into rotational energy.",
    "Aqueduct": "An aqueduct is a watercourse constructed to carry water.",
    "Telescope": "A telescope magnifies distant objects by collecting light.",
    "Rainforest": "A rainforest is a forest with high and continuous rainfall.",
    "Compass": "A compass shows the cardinal directions used for navigation.",
    "Honeybee": "A honeybee is a social insect that makes and stores honey.",
    "Canal": "A canal is an artificial waterway for boats or for irrigation.",
    "Geyser": "A geyser is a spring that intermittently throws out hot water and steam.",
    "Observatory": "An observatory is a place used for observing celestial events.",
    "Suspension bridge": "A suspension bridge hangs its deck below cables on vertical suspenders.",
    "Tide": "Tides are the rise and fall of sea levels caused by the Moon and the Sun.",
    "Desert": "A desert is a landscape where little precipitation occurs.",
    "Printing press": "A printing press applies pressure to transfer ink onto paper.",
    "Penguin": "Penguins are flightless seabirds living almost only in the southern hemisphere.",
    "Waterfall": "A waterfall is a point in a river where water flows over a vertical drop.",
    "Castle": "A castle is a fortified structure built during the Middle Ages.",
    "Hot air balloon": "A hot air balloon is lifted by heated air held in an envelope.",
    "Origami": "Origami is the art of folding paper into shapes.",
    "Typewriter": "A typewriter writes characters on paper by pressing keys.",
    "Archipelago": "An archipelago is a chain, cluster or group of islands.",
    "Steam engine": "A steam engine does mechanical work using steam as its working fluid.",
    "Mangrove": "A mangrove is a shrub or tree that grows in coastal saline water.",
    "Avalanche": "An avalanche is a rapid flow of snow down a slope.",
    "Lantern": "A lantern is a portable source of lighting with a protective enclosure.",
}
_POSTS = (
    "Shipping a new release today, wish us luck.", "Coffee first, code later.",
    "Reading about multimodal agents this afternoon.", "The sunset over the bay was unreal.",
    "Anyone else still debugging on a Friday?", "Our lab's paper got accepted!",
    "Rainy day, perfect for long reads.", "Trying a new route for my morning run.",
)  # fmt: skip


def _authors(rng: np.random.Generator, n: int) -> str:
    picks = rng.choice(len(_AUTHORS), size=n, replace=False)
    return ", ".join(_AUTHORS[i] for i in picks)


def look_alikes(title: str, phrase: str, rng: np.random.Generator, n: int = 2) -> list[str]:
    """``n`` titles like ``title`` with one word of ``phrase`` swapped (so none contains it)."""
    words = phrase.split()
    out: list[str] = []
    for k in rng.permutation(len(words))[:n]:
        swap = next(w for w in rng.permutation(_SWAPS) if w.lower() != words[k].lower())
        fake = " ".join(str(swap) if i == k else w for i, w in enumerate(words))
        out.append(title.replace(phrase, fake, 1))
    return out


def make_site(
    seed: int,
    paper: tuple[str, str, str] = (TARGET_ARXIV, TARGET_TITLE, "Towards General Computer Control"),
    user: tuple[str, str] = (TARGET_USER, TARGET_NAME),
    topic: str = "",
    repo: str = "",
) -> dict[str, Any]:
    """The episode's web: JSON-ready data (the same arguments give the same site).

    ``paper`` is the article searched for (arXiv id, title, the phrase of the title the task
    names), ``user`` the code-hosting user (handle, name), ``topic`` an encyclopedia page
    the web must have (any title; the others are drawn from :data:`TOPICS`), ``repo`` a repository
    the user must have (one of :data:`REPOS`; every user's others are drawn).
    """
    if repo and repo not in REPOS:
        raise ValueError(f"unknown repository {repo!r}; known: {sorted(REPOS)}")
    rng = np.random.default_rng(seed)
    arxiv, title, phrase = paper
    if phrase not in title:
        raise ValueError(f"the phrase {phrase!r} is not in the title {title!r}")
    decoys = [t for t in _DECOY_TITLES if phrase.lower() not in t.lower()]
    decoys = [decoys[i] for i in rng.choice(len(decoys), size=2, replace=False)]
    decoys += look_alikes(title, phrase, rng)
    papers = {arxiv: {"title": title, "authors": _authors(rng, 8)}}
    for fake in decoys:
        pid = f"24{int(rng.integers(1, 13)):02d}.{int(rng.integers(10000, 99999)):05d}"
        papers[pid] = {"title": fake, "authors": _authors(rng, 4)}
    results = [
        {"title": p["title"], "url": f"https://arxiv.org/abs/{pid}", "snippet": p["authors"]}
        for pid, p in papers.items()
    ]
    handle, name = user
    users = {handle: {"name": name, "bio": "Researcher. Games, agents, AI."}}
    for u in rng.choice(_DECOY_USERS, size=3, replace=False):
        fake = str(u).format(u=handle)
        users[fake] = {"name": fake.replace("-", " ").title(), "bio": "Just here for code."}
    for u, info in users.items():
        drawn = [str(r) for r in rng.choice([r for r in REPOS if r != repo], 4, replace=False)]
        info["repos"] = sorted([repo, *drawn[:3]] if u == handle and repo else drawn)
    for u in users:
        results.append({
            "title": f"{u} ({users[u]['name']}) · GitHub", "url": f"https://github.com/{u}",
            "snippet": users[u]["bio"],
        })  # fmt: skip
    results.append({
        "title": f"{handle} - Twitter profile", "url": f"https://twitter.com/{handle}",
        "snippet": f"Posts by {handle}.",
    })  # fmt: skip
    order = rng.permutation(len(results))
    others = sorted(set(TOPICS) - {topic})
    topics = [str(t) for t in rng.choice(others, size=5, replace=False)]
    if topic:  # the task's page takes a drawn one's place
        topics[int(rng.integers(len(topics)))] = topic
    wiki = {
        t.replace(" ", "_"): TOPICS.get(t, f"{t}: an article of the encyclopedia.") for t in topics
    }
    posts = [
        {"author": str(rng.choice(["Ada Byte", "Lin Chen", "Sam Okoro", "Mia Rossi"])),
         "text": str(_POSTS[i])}
        for i in rng.choice(len(_POSTS), size=4, replace=False)
    ]  # fmt: skip
    return {
        "seed": int(seed),
        "target": {"arxiv": arxiv, "title": papers[arxiv]["title"], "user": handle, "repo": repo},
        "papers": papers,
        "results": [results[i] for i in order],
        "users": users,
        "me": ME,
        "posts": posts,
        "wiki": wiki,
    }
