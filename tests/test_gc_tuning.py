"""``arena.gc_tuning``: the collector settings for many games, and the caller's put back."""

from __future__ import annotations

import gc

import pytest

from arena.gc_tuning import BOT_GAMES_THRESHOLD, many_games


@pytest.fixture
def default_collector():
    before = gc.get_threshold(), gc.isenabled()
    gc.unfreeze()
    yield
    gc.set_threshold(*before[0])
    (gc.enable if before[1] else gc.disable)()
    gc.unfreeze()


def test_many_games_restores_the_threshold_and_unfreezes_even_on_error(default_collector):
    gc.set_threshold(900, 9, 8)
    with pytest.raises(RuntimeError):
        with many_games():
            assert gc.get_threshold() == BOT_GAMES_THRESHOLD and gc.get_freeze_count() > 0
            raise RuntimeError
    assert gc.get_threshold() == (900, 9, 8) and gc.get_freeze_count() == 0


def test_many_games_keeps_a_callers_freeze_and_a_switched_off_collector(default_collector):
    gc.freeze()
    with many_games():
        pass
    assert gc.get_freeze_count() > 0  # the caller's frozen objects stay frozen
    gc.unfreeze()
    gc.disable()
    with many_games():
        assert not gc.isenabled() and gc.get_threshold() != BOT_GAMES_THRESHOLD
    assert not gc.isenabled()
    gc.enable()
    gc.set_threshold(0)
    with many_games():
        assert gc.get_threshold()[0] == 0
