"""Open-loop replay over many seed pairs: how often another seed's input wins a game task.

Run: ``python benchmarks/replay_pairs.py --task mission1:hitch_horse [--sources 1-20]
[--targets 2000-2999] [--obs 180x320] [--jobs 2]``. Each source seed's privileged scripted run
(through ``UseSkills``, under the game's evaluation profile, as ``reference_policies.py`` plays
it) is recorded as input events, then replayed step by step, open loop, on every target seed
(but itself). ``reference_policies.py``'s replay column replays seed 0 alone on ten seeds; this
is the rate behind it, over sources x targets pairs, with the winning pairs listed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference_policies as rp  # noqa: E402


def _wins(source: int, task: str, targets: Sequence[int], obs: tuple[int, int]) -> list[int]:
    """The targets that ``source``'s recorded input wins; raises if the source itself fails."""
    t = _target(task)
    ep = rp.scripted(t, obs, source, privileged=True)
    if ep is None or not ep.success:
        raise SystemExit(f"the scripted policy failed source seed {source}: nothing to replay")
    return [g for g in targets if g != source and rp.replay(t, obs, g, ep.events).success]


def _target(task: str) -> rp.Target:
    found = [t for t in rp.targets() if t.task == task]
    if not found:
        raise SystemExit(f"no game task {task!r}; known: {sorted(t.task for t in rp.targets())}")
    return found[0]


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--task", required=True, help="a task key, e.g. mission1:hitch_horse")
    p.add_argument("--sources", default="1-20", help="seeds whose input is replayed")
    p.add_argument("--targets", default="2000-2999", help="seeds it is replayed on")
    p.add_argument("--obs", default="180x320", help="observation HxW")
    p.add_argument("--jobs", type=int, default=1, help="sources played in parallel processes")
    args = p.parse_args(argv)
    h, _, w = args.obs.partition("x")
    obs = (int(h), int(w))
    sources, targets = rp._seeds(args.sources), rp._seeds(args.targets)
    _target(args.task)  # a wrong key fails here, before any process starts
    start = time.perf_counter()
    play = partial(_wins, task=args.task, targets=targets, obs=obs)
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        won = dict(zip(sources, pool.map(play, sources), strict=True))
    pairs = sum(len(targets) - (s in targets) for s in sources)
    wins = sum(len(g) for g in won.values())
    print(
        f"{args.task}: replay won {wins}/{pairs} pairs ({1000 * wins / max(pairs, 1):.2f} per "
        f"1,000); sources {args.sources}, targets {args.targets}, obs {args.obs}, "
        f"{time.perf_counter() - start:.0f} s"
    )
    for s, gs in won.items():
        if gs:
            print(f"  source {s}: {gs}")


if __name__ == "__main__":
    main()
