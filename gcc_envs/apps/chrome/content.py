"""The local web the Chrome twin serves: seeded site content as plain data (``site.json``).

:func:`make_site` draws one episode's web from a seed: the search engine's corpus (the
article the first task looks for among look-alike decoys, code-hosting profiles for the fourth
task), the microblog's timeline, encyclopedia pages for the closed-tab task. The server
(:mod:`.sites`) renders it; the checkers read what the server recorded.
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
_DECOY_USERS = ("tellarin-dev", "tellarina", "tel-larin", "tellarin-bot", "stellarin")
_TOPICS = {
    "Lighthouse": "A lighthouse is a tower that emits light to serve as a navigational aid.",
    "Glacier": "A glacier is a persistent body of dense ice that moves under its own weight.",
    "Volcano": "A volcano is a rupture in the crust through which lava and gases escape.",
    "Coral reef": "A coral reef is an underwater ecosystem built by colonies of corals.",
    "Sundial": "A sundial tells the time of day from the shadow cast by the sun.",
    "Harbour": "A harbour is a sheltered body of water where ships can be docked.",
    "Windmill": "A windmill converts the energy of wind into rotational energy.",
    "Aqueduct": "An aqueduct is a watercourse constructed to carry water.",
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


def make_site(seed: int) -> dict[str, Any]:
    """The episode's web: JSON-ready data (the same seed gives the same site)."""
    rng = np.random.default_rng(seed)
    decoys = [_DECOY_TITLES[i] for i in rng.choice(len(_DECOY_TITLES), size=4, replace=False)]
    papers = {TARGET_ARXIV: {"title": TARGET_TITLE, "authors": _authors(rng, 8)}}
    for title in decoys:
        pid = f"24{int(rng.integers(1, 13)):02d}.{int(rng.integers(10000, 99999)):05d}"
        papers[pid] = {"title": title, "authors": _authors(rng, 4)}
    results = [
        {"title": p["title"], "url": f"https://arxiv.org/abs/{pid}", "snippet": p["authors"]}
        for pid, p in papers.items()
    ]
    users = {TARGET_USER: {"name": "Börje F. Karlsson", "bio": "Researcher. Games, agents, AI."}}
    for u in rng.choice(_DECOY_USERS, size=3, replace=False):
        users[str(u)] = {"name": str(u).replace("-", " ").title(), "bio": "Just here for code."}
    for u in users:
        results.append({
            "title": f"{u} ({users[u]['name']}) · GitHub", "url": f"https://github.com/{u}",
            "snippet": users[u]["bio"],
        })  # fmt: skip
    results.append({
        "title": "tellarin - Twitter profile", "url": "https://twitter.com/tellarin",
        "snippet": "Posts by tellarin.",
    })  # fmt: skip
    order = rng.permutation(len(results))
    topics = [str(t) for t in rng.choice(sorted(_TOPICS), size=5, replace=False)]
    wiki = {t.replace(" ", "_"): _TOPICS[t] for t in topics}
    posts = [
        {"author": str(rng.choice(["Ada Byte", "Lin Chen", "Sam Okoro", "Mia Rossi"])),
         "text": str(_POSTS[i])}
        for i in rng.choice(len(_POSTS), size=4, replace=False)
    ]  # fmt: skip
    return {
        "seed": int(seed),
        "papers": papers,
        "results": [results[i] for i in order],
        "users": users,
        "me": ME,
        "posts": posts,
        "wiki": wiki,
    }
