"""``gcc-gym play`` runs the shop in a (headless) pygame window, and ``--record`` saves it."""

from __future__ import annotations

import pytest

from gcc_envs.games.dealers_life2.sim import layout as L

pytest.importorskip("pygame")


@pytest.fixture
def pg(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    yield pygame
    pygame.display.quit()


def test_a_person_opens_the_shop_and_greets_a_customer_and_it_is_recorded(pg, tmp_path):
    from agents.play import Player
    from gcc_envs.datasets import load

    out = tmp_path / "demo"
    W, H = 640, 360
    with Player("GCC/DealersLife2-Week", record=out, seed=2, window_size=(W, H),
                env_kwargs={"obs_size": (H, W)}) as p:  # fmt: skip
        x, y = (round(v) for v in (L.OPEN_BTN.centre[0] * W, L.OPEN_BTN.centre[1] * H))
        E = pg.event.Event
        pg.event.post(E(pg.MOUSEBUTTONDOWN, pos=(x, y), button=1))
        pg.event.post(E(pg.MOUSEBUTTONUP, pos=(x, y), button=1))
        p.run(max_steps=3)
        s = p.env.unwrapped.backend.sim.state
        assert s.screen == "customer"
        pg.event.post(E(pg.KEYDOWN, key=pg.K_1))
        pg.event.post(E(pg.KEYUP, key=pg.K_1))
        p.run(max_steps=3)
        assert s.screen == "haggle" and s.page == "item"
    (ep,) = load(out)
    assert ep.meta["policy"] == "human" and len(ep) == 6
    kinds = [e["type"] for st in ep.steps for e in st["events"]]
    assert "MouseDown" in kinds and "KeyDown" in kinds
    assert ep.frames[0].shape == (H, W, 3)


def test_cli_play_runs_the_week_headless_with_record(pg, tmp_path, capsys):
    from agents.cli import main

    out = tmp_path / "rec"
    assert main(["play", "GCC/DealersLife2-Week", "--max-seconds", "1", "--record", str(out),
                 "--obs-size", "180", "320"]) == 0  # fmt: skip
    assert "played" in capsys.readouterr().out
    assert any(out.rglob("meta.json"))
