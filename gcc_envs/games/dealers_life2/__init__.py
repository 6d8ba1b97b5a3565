"""Dealer's Life 2: the real game's live profile (``live.py``); a simulator may follow.

Importing this package does nothing.
"""
