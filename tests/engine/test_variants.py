"""The registry's variants: each game with each way to start it, by the key the app's chooser, the benchmarks and the
adapters share (``game_variants``, ``find_variant``, ``variant_start``)."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.protocol import find_variant, game_variants, variant_start
from tests.support.games import VARIANT_IDS, VARIANTS


def test_every_shipped_variant_is_registered_under_its_key() -> None:
    every = game_variants()
    assert set(VARIANT_IDS) <= set(every)  # a test's own toy game may be registered too
    for key, (game, expansion) in zip(VARIANT_IDS, VARIANTS, strict=True):
        info, variant = find_variant(key)
        assert (info.name, variant.key) == (game, key)
        assert variant_start(key) == (game, {"expansion": expansion} if expansion else {})
        name, options = variant_start(key)
        assert sl.new_game(name, players=3, seed=1, **options).game == game


def test_the_options_handed_out_are_a_copy() -> None:
    _, options = variant_start("kaispeicher")
    options["expansion"] = "spoilt"
    assert variant_start("kaispeicher")[1] == {"expansion": "kaispeicher"}


@pytest.mark.parametrize("key", ["chess", "", "Kaispeicher"])
def test_an_unknown_variant_is_refused_naming_the_field(key: str) -> None:
    with pytest.raises(ValueError, match=r"^game: .*known: .*kaispeicher"):
        find_variant(key)
    with pytest.raises(ValueError, match=r"^game: "):
        variant_start(key)
