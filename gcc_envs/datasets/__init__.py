"""Trajectory datasets (DESIGN §8): record, load, replay, export to Minari, score offline.

A dataset is a folder of episode folders, each written incrementally by
:class:`wrappers.RecordTrajectory` (or :class:`DatasetWriter` directly)::

    episode-000000-seed-7/
        meta.json        env id + make kwargs, seed (or generator state), policy, versions,
                         format version; "complete" and "result" once the episode ends
        frames.zst       the observations, reset first, one zstd-compressed record each,
                         appended and flushed per step (``frame_stream``; the default), or
        frames/          000000.png (reset observation), 000001.png (after step 0), ...
                         lossless PNG, each written under a temporary name then renamed
                         (``DatasetWriter(frames="png")``, and every dataset before format 3)
        steps.parquet    one row per step (see ``table``): action as given, the input events
                         actually sent with their game times, reward, terminated, truncated,
                         chosen info fields; written when the episode ends
        steps.jsonl      the same rows while the episode runs, flushed per step; removed once
                         steps.parquet exists; read instead of it for an episode cut short

Why a zstd stream over PNG files: see ``frame_stream``; why PNG over FFV1 video: ``frames``.
Why JSON lines before Parquet: Parquet writes its footer at close, so an appended-to Parquet
file is unreadable until then; JSON lines can be flushed per step and a torn last line is easy
to drop. Who writes, and what a crash can cost: see ``writer`` (a writer process by default).
``pyarrow`` (the ``dataset`` extra) is needed to write and read steps tables and frame
streams; ``minari`` only for :func:`export_minari`.
"""

from __future__ import annotations

from gcc_envs.datasets.matching import episode_score, match, partial_action_matching
from gcc_envs.datasets.minari_export import export_minari
from gcc_envs.datasets.reader import Episode, episode_folders, load
from gcc_envs.datasets.replay import iter_replay, make_env, replay
from gcc_envs.datasets.writer import DatasetWriter

__all__ = [
    "DatasetWriter",
    "Episode",
    "episode_folders",
    "episode_score",
    "export_minari",
    "iter_replay",
    "load",
    "make_env",
    "match",
    "partial_action_matching",
    "replay",
]
