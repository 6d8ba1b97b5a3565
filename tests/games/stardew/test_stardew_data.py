"""Loading and validating the Stardew TOML data."""

from __future__ import annotations

import shutil

import pytest

from gcc_envs.errors import DataError
from gcc_envs.games.stardew.sim import load_data
from gcc_envs.games.stardew.sim.data import DATA_DIR


@pytest.fixture
def data_copy(tmp_path):
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    return d


def test_the_shipped_data_loads(data):
    assert {"farm", "farmhouse", "bus_stop", "town", "store"} <= set(data.maps)
    assert data.maps["farm"].width == 40 and data.maps["farm"].height == 30
    assert data.items["parsnip_seeds"].price == 20 and data.crops["parsnip"].days == 4
    assert data.shop_stock[0] == "parsnip_seeds"
    assert {"default", "farm_clearup", "cultivation", "shopping"} <= set(data.scenarios)
    store_door = data.maps["town"].door_at[(18, 6)]
    assert (store_door.to, store_door.open, store_door.close) == ("store", 540, 1020)


def test_a_broken_item_names_the_file_and_entry(data_copy):
    p = data_copy / "items.toml"
    p.write_text(p.read_text().replace('crop = "parsnip"\n', 'crop = "parsnp"\n', 1))
    with pytest.raises(DataError, match=r"items\.toml: .*'parsnip_seeds'.*'parsnp'"):
        load_data(data_copy)


def test_a_ragged_map_row_names_the_file_and_row(data_copy):
    p = data_copy / "map_farmhouse.toml"
    p.write_text(p.read_text().replace("#oo**oooooo#", "#oo**ooooo#"))
    with pytest.raises(DataError, match=r"map_farmhouse\.toml: map: row 5 has 11 tiles"):
        load_data(data_copy)


def test_an_unknown_tile_char_is_reported_with_its_place(data_copy):
    p = data_copy / "map_store.toml"
    p.write_text(p.read_text().replace("#oooooooooooooo#\n#######e", "#oooooooo?ooooo#\n#######e"))
    with pytest.raises(DataError, match=r"map_store\.toml: map: row 8 column 9: '\?'"):
        load_data(data_copy)


def test_a_wrong_field_type_is_reported(data_copy):
    p = data_copy / "obstacles.toml"
    p.write_text(p.read_text().replace("hits = 2", 'hits = "two"'))
    with pytest.raises(DataError, match=r"obstacles\.toml: obstacle #3 \('stone'\): field 'hits'"):
        load_data(data_copy)


def test_a_warp_to_a_missing_map_is_reported(data_copy):
    p = data_copy / "map_farm.toml"
    p.write_text(p.read_text().replace('to = "bus_stop"', 'to = "moon"'))
    with pytest.raises(DataError, match=r"map_farm\.toml: warp at \(39, 14\): unknown map 'moon'"):
        load_data(data_copy)


def test_invalid_toml_is_reported_with_the_file(data_copy):
    (data_copy / "scenarios.toml").write_text("[scenario.default\n")
    with pytest.raises(DataError, match=r"scenarios\.toml: not valid TOML"):
        load_data(data_copy)
