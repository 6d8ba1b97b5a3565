import json

import pytest

from gcc_envs.core import events as ev

pytest.importorskip("pygame")

SMALL = {"obs_size": (72, 128)}


@pytest.fixture
def pg(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    yield pygame
    pygame.display.quit()


def _player(tmp_path, **kw):
    from agents.play import Player

    kw.setdefault("env_kwargs", SMALL)
    return Player("GCC/Stardew-Shopping", state_file=tmp_path / "state.json", **kw)


def _state(tmp_path):
    return json.loads((tmp_path / "state.json").read_text())


def test_handle_maps_keys_motion_and_clicks_in_frame_pixels(pg, tmp_path):
    with _player(tmp_path, window_size=(256, 144)) as p:  # window twice the 128x72 frame
        E = pg.event.Event
        assert p.handle([E(pg.KEYDOWN, key=pg.K_w)]) == [ev.KeyDown("w")]
        assert p.handle([E(pg.KEYDOWN, key=pg.K_w)]) == []  # already held: no repeat
        assert p.handle([E(pg.KEYUP, key=pg.K_w)]) == [ev.KeyUp("w")]
        assert p.handle([E(pg.KEYDOWN, key=pg.K_ESCAPE), E(pg.KEYUP, key=pg.K_ESCAPE)]) == [
            ev.KeyDown("esc"),
            ev.Wait(ev.TAP_S),
            ev.KeyUp("esc"),
        ]
        assert p.handle([E(pg.KEYDOWN, key=pg.K_RETURN)]) == [ev.KeyDown("enter")]
        assert p.handle([E(pg.KEYDOWN, key=pg.K_F13)]) == []  # unknown: ignored
        assert p.handle([E(pg.MOUSEMOTION, pos=(100, 40), rel=(0, 0), buttons=(0, 0, 0))]) == [
            ev.MoveTo(50, 20)
        ]
        down = p.handle([E(pg.MOUSEBUTTONDOWN, pos=(200, 100), button=1)])
        assert down == [ev.MoveTo(100, 50), ev.MouseDown("left")]
        assert p.handle([E(pg.MOUSEBUTTONUP, pos=(200, 100), button=1)]) == [ev.MouseUp("left")]
        assert p.handle([E(pg.MOUSEBUTTONDOWN, pos=(200, 100), button=3)]) == [
            ev.MouseDown("right")
        ]
        assert p.handle([E(pg.MOUSEWHEEL, x=0, y=-2)]) == [ev.Scroll(dy=-2, x=100, y=50)]
        assert p.handle([E(pg.MOUSEMOTION, pos=(999, -5), rel=(0, 0), buttons=(0, 0, 0))]) == [
            ev.MoveTo(127, 0)  # clamped to the frame
        ]
        # focus lost: everything held comes up
        assert p.handle([E(pg.WINDOWFOCUSLOST)]) == [ev.KeyUp("enter"), ev.MouseUp("right")]
        assert not p.quit
        p.handle([E(pg.QUIT)])
        assert p.quit


def test_holding_s_walks_the_farmer_down_and_state_file_follows(pg, tmp_path):
    with _player(tmp_path) as p:
        before = _state(tmp_path)
        assert before["location"] == "farm" and before["steps"] == 0
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_s))
        assert p.run(max_steps=15) == 15
        held = _state(tmp_path)
        assert held["held_keys"] == ["s"] and held["steps"] == 15
        assert held["player"]["y"] > before["player"]["y"] + 1
        assert held["player"]["x"] == before["player"]["x"]
        assert held["player"]["facing"] == "down"
        pg.event.post(pg.event.Event(pg.KEYUP, key=pg.K_s))
        p.run(max_steps=2)
        y = _state(tmp_path)["player"]["y"]
        p.run(max_steps=5)
        assert _state(tmp_path)["player"]["y"] == y  # released: stands still
        assert {"money", "day", "minutes"} <= set(_state(tmp_path))


def test_record_writes_a_human_dataset_with_the_events(pg, tmp_path):
    from gcc_envs.datasets import load

    out = tmp_path / "demo"
    with _player(tmp_path, record=out, seed=4) as p:
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_d))
        pg.event.post(pg.event.Event(pg.MOUSEMOTION, pos=(10, 20), rel=(0, 0), buttons=(0, 0, 0)))
        p.run(max_steps=4)
        pg.event.post(pg.event.Event(pg.KEYUP, key=pg.K_d))
        p.run(max_steps=1)
    (ep,) = load(out)
    assert ep.meta["policy"] == "human" and ep.seed == 4 and len(ep) == 5
    sent = [[{k: v for k, v in e.items() if k != "t"} for e in s["events"]] for s in ep.steps]
    assert sent[0] == [
        {"type": "KeyDown", "key": "d"},
        {"type": "MoveTo", "x": 10, "y": 20, "duration_s": 0.0},
    ]
    assert sent[1:4] == [[], [], []]
    assert sent[4] == [{"type": "KeyUp", "key": "d"}]
    assert ep.frames[0].shape == (72, 128, 3)


def test_cli_play_runs_headless_for_max_seconds(pg, tmp_path, capsys):
    from agents.cli import main

    state = tmp_path / "s.json"
    code = main(["play", "GCC/Stardew-Shopping", "--max-seconds", "1", "--state-file", str(state)])
    assert code == 0
    data = json.loads(state.read_text())
    assert data["env_id"] == "GCC/Stardew-Shopping" and data["steps"] > 5
    assert data["location"] == "farm"
    assert "played" in capsys.readouterr().out


def test_missing_pygame_names_the_extra(monkeypatch):
    import sys

    from agents import play
    from gcc_envs.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "pygame", None)
    with pytest.raises(MissingExtraError, match=r"pip install -e '\.\[play\]'"):
        play.Player("GCC/Stardew-Shopping")


def test_an_ended_episode_resets_with_the_next_seed(pg, tmp_path):
    with _player(tmp_path, seed=7) as p:
        real_step = p.env.step

        def ending_step(action):
            obs, r, _, trunc, info = real_step(action)
            return obs, r, True, trunc, info

        p.env.step = ending_step
        p.run(max_steps=1)
        p.env.step = real_step
        assert (p.seed, p.episodes) == (8, 1)
        p.run(max_steps=1)
        assert _state(tmp_path)["seed"] == 8 and _state(tmp_path)["episode"] == 1


def test_gymnasium_player_drives_the_skill_grid_with_its_noop_and_keys(pg):
    """``gymnasium.utils.play.play`` as it is: keys from the wrapper, its default noop=0."""
    import gymnasium as gym
    from gymnasium.utils.play import play

    import gcc_envs  # noqa: F401
    from wrappers import UseSkillGrid

    env = gym.make("GCC/Stardew-FarmClearup", render_mode="rgb_array", **SMALL)
    env = UseSkillGrid(env, noop=True)
    keys = env.get_wrapper_attr("get_keys_to_action")()
    assert env.codes[0] == "" and keys[("1",)] == 1 and env.codes[keys[("a",)]] == env.codes[11]
    assert sorted(keys.values()) == list(range(1, env.action_space.n))
    seen = []

    def stop_after_three(prev, obs, action, reward, term, trunc, info):
        seen.append((action, info["last_action_error"], info["events"]))
        if len(seen) == 3:
            pg.event.post(pg.event.Event(pg.QUIT))

    play(env, fps=1000, callback=stop_after_three)
    assert seen == [(0, None, [])] * 3  # nothing pressed: the no-op, a step with no input
