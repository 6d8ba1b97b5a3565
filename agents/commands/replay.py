"""``gcc-gym replay``: re-run a recorded lockstep episode, check its frames, render an MP4."""

from __future__ import annotations

import argparse
from typing import Any

from gcc_envs.errors import GCCError


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="re-run a recorded lockstep episode; check it, render MP4")
    p.set_defaults(handler=run)
    p.add_argument("dir", help="an episode folder (episode-NNNNNN-seed-S)")
    p.add_argument("--out", help="write the replayed frames to this MP4")
    p.add_argument("--fps", type=float, default=4.0, help="video frames per second (1 per step)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from gcc_envs.datasets import Episode, episode_folders
    from gcc_envs.datasets.video import replay_to_video

    folders = episode_folders(args.dir)
    if len(folders) != 1:
        raise GCCError(
            f"{args.dir} holds {len(folders)} episodes; give one episode folder, e.g. {folders[0]}"
        )
    ep = Episode(folders[0])
    first_diff = replay_to_video(ep, args.out, fps=args.fps, progress=not args.quiet)
    verdict = "identical to the recording"
    if first_diff is not None:
        verdict = f"DIFFERENT from the recording from frame {first_diff} on"
    print(f"replayed {ep.path.name}: {len(ep)} steps, frames {verdict}")
    if args.out:
        print(f"video: {args.out}")
    return 0 if first_diff is None else 1
