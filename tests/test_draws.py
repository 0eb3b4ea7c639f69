"""``core.draws``: ``Draws`` gives the same values as ``Generator.integers`` (and ``shuffle`` of a
list, ``random()`` and ``standard_normal(k)``) and leaves the stream where numpy leaves it, mixed
with the generator's other draws, for every numpy bit generator, in both builds (the compiled
build draws through its C helper ``core.native_draws``, the pure build through ctypes);
``generator(seed)`` is ``default_rng(seed)``, its seed sequence a real one's stand-in."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from boardgames_rl.core.draws import Draws, generator, seed_words

BIT_GENERATORS = [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox,
                  np.random.SFC64]  # fmt: skip
NARROW = [1, 2, 3, 7, 20, 175, 600, 2**31 + 5, 2**32 - 1, 2**32]
WIDE = [2**32 + 1, 2**40 + 3, 2**62 + 7, 2**63]


@pytest.mark.parametrize("bits", BIT_GENERATORS, ids=lambda b: b.__name__)
def test_the_same_draws_as_integers_mixed_with_other_draws(bits):
    for seed in range(3):
        ref = np.random.Generator(bits(seed))
        rng = np.random.Generator(bits(seed))
        draws = Draws(rng)
        plan = np.random.default_rng(100 + seed)
        for _ in range(3000):
            kind = int(plan.integers(8))
            if kind <= 1:
                n = NARROW[int(plan.integers(len(NARROW)))]
                assert draws.below(n) == int(ref.integers(n))
            elif kind == 2:
                n = WIDE[int(plan.integers(len(WIDE)))]
                assert draws.below_wide(n) == int(ref.integers(n))
            elif kind == 3:  # a double between them: the 32-bit half-word buffer must carry over
                assert rng.random() == ref.random()
            elif kind == 4:
                items = list(range(int(plan.integers(40))))
                mine, theirs = items[:], items[:]
                draws.shuffle(mine)
                ref.shuffle(theirs)
                assert mine == theirs
            elif kind == 5:
                assert rng.standard_normal(3).tolist() == ref.standard_normal(3).tolist()
            elif kind == 6:
                k = int(plan.integers(7))
                assert draws.normals(k) == ref.standard_normal(k).tolist()
            else:
                assert draws.uniform() == float(ref.random())
        assert rng.integers(2**32, size=8).tolist() == ref.integers(2**32, size=8).tolist()


def test_a_range_of_one_value_draws_nothing():
    rng, ref = np.random.default_rng(5), np.random.default_rng(5)
    assert Draws(rng).below(1) == 0
    assert rng.integers(2**32, size=8).tolist() == ref.integers(2**32, size=8).tolist()


def test_a_range_outside_one_to_2_32_is_refused_and_draws_nothing():
    """``integers(0)`` raises; ``below`` never answers 0 for an empty range instead."""
    rng, ref = np.random.default_rng(6), np.random.default_rng(6)
    draws = Draws(rng)
    for n in (0, -3, 2**32 + 1):
        with pytest.raises(ValueError, match="1 <= n <= 2\\*\\*32"):
            draws.below(n)
    assert rng.integers(2**32, size=8).tolist() == ref.integers(2**32, size=8).tolist()


def test_pick_is_choice_of_a_list_with_the_same_stream():
    for seed in range(40):
        rng, ref = np.random.default_rng(seed), np.random.default_rng(seed)
        draws = Draws(rng)
        for k in range(60):
            items = [3 * i - 1 for i in range(1 + (k * 7 + seed) % 11)]
            assert draws.pick(items) == ref.choice(items)
            if k % 4 == 0:  # a double between them
                assert rng.random() == ref.random()
        assert rng.integers(2**32, size=8).tolist() == ref.integers(2**32, size=8).tolist()
    with pytest.raises(ValueError, match="1 <= n"):
        Draws(np.random.default_rng(0)).pick([])


def test_the_compiled_build_draws_through_its_c_helper_and_the_pure_build_does_not():
    from boardgames_rl.compiled import build_info
    from boardgames_rl.core import draws

    compiled = build_info()["build"] == "compiled"
    assert (draws._native is not None) == compiled
    assert (Draws(np.random.default_rng(0))._capsule is not None) == compiled


def test_the_compiled_build_draws_normals_through_numpys_own_ziggurat():
    """setup.py links numpy's static library of distributions where numpy ships it (every
    supported numpy on Linux): the compiled build then draws normals in C, checked at import
    against this numpy; the pure build asks the generator."""
    from boardgames_rl.compiled import build_info
    from boardgames_rl.core import draws

    compiled = build_info()["build"] == "compiled"
    assert (draws._normals is not None) == compiled
    if compiled:
        capsule = np.random.default_rng(3).bit_generator.capsule
        assert draws._normals(capsule, 0) == []
        with pytest.raises(ValueError, match="0 <= k <= 2\\*\\*20, got -1"):
            draws._normals(capsule, -1)
        with pytest.raises(TypeError, match="needs an int, got float"):
            draws._normals(capsule, 2.0)


def test_the_c_helper_refuses_what_is_not_a_bit_generator_a_range_or_a_list_in_one_line():
    from boardgames_rl.core import draws

    if draws._native is None:
        pytest.skip("the pure build has no C helper")
    native, capsule = draws._native, np.random.default_rng(0).bit_generator.capsule
    with pytest.raises(ValueError, match="2\\*\\*32 < n <= 2\\*\\*63, got 4294967296"):
        native.below_wide(capsule, 2**32)
    with pytest.raises(ValueError, match="got 9223372036854775809"):
        native.below_wide(capsule, 2**63 + 1)
    with pytest.raises(ValueError, match="got -1"):
        native.below(capsule, -1)
    with pytest.raises(ValueError, match="got 36893488147419103232"):
        native.below(capsule, 2**65)
    with pytest.raises(TypeError, match="needs an int, got float"):
        native.below(capsule, 3.0)
    with pytest.raises(TypeError, match="needs a list, got tuple"):
        native.shuffle(capsule, (1, 2))
    with pytest.raises(ValueError):  # not numpy's bit generator capsule
        native.below(object(), 3)


class Dice:
    """Not a numpy generator: only an ``integers`` method."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def integers(self, n: int) -> int:
        self.asked.append(n)
        return n - 1


def test_another_generator_is_asked_through_its_own_integers():
    dice = Dice()
    draws = Draws(dice)  # type: ignore[arg-type]
    assert (draws.below(6), draws.below_wide(2**40)) == (5, 2**40 - 1)
    assert dice.asked == [6, 2**40]


def test_a_generator_from_an_int_seed_is_default_rngs():
    plan = np.random.default_rng(7)
    seeds = [
        0,
        1,
        2**32 - 1,
        2**32,
        2**63 - 1,
        2**200 + 7,
        3**90,
        *plan.integers(2**63, size=300).tolist(),
    ]
    for seed in seeds:
        assert (
            seed_words(seed) == np.random.SeedSequence(seed).generate_state(4, np.uint64).tolist()
        )
        ours, ref = generator(seed), np.random.default_rng(seed)
        assert ours.bit_generator.state == ref.bit_generator.state
        assert ours.standard_normal(4).tolist() == ref.standard_normal(4).tolist()


def test_its_seed_sequence_spawns_and_pickles_as_a_real_one():
    ours, ref = generator(123), np.random.default_rng(123)
    assert [g.integers(2**40) for g in ours.spawn(3)] == [g.integers(2**40) for g in ref.spawn(3)]
    assert ours.bit_generator.seed_seq.generate_state(8).tolist() == (
        np.random.SeedSequence(123).generate_state(8).tolist()
    )
    again = pickle.loads(pickle.dumps(ours))
    assert again.integers(2**40, size=5).tolist() == ours.integers(2**40, size=5).tolist()


@pytest.mark.pure_only
def test_a_seed_hash_that_disagrees_with_numpy_is_refused_at_import(monkeypatch):
    from boardgames_rl.core import draws

    draws._check_seed_words()  # the real hash agrees
    monkeypatch.setattr(draws, "seed_words", lambda seed: [0, 0, 0, 0])
    with pytest.raises(ImportError, match="disagrees with numpy's SeedSequence.*PURE=1"):
        draws._check_seed_words()


def test_c_normals_that_disagree_with_numpy_are_not_used(monkeypatch):
    """A build whose linked ziggurat gives other values than this numpy's (a numpy changed
    between build and run) draws through the generator instead: the same games, never others."""
    from boardgames_rl.core import draws

    class Skewed:
        def normals(self, capsule: object, k: int) -> list[float]:
            return [0.5] * k

        def uniform(self, capsule: object) -> float:
            return 0.25

    monkeypatch.setattr(draws, "_native", Skewed())
    assert draws._checked_normals() is None
    monkeypatch.setattr(draws, "_native", None)
    assert draws._checked_normals() is None


def test_draws_copy_and_pickle_with_their_generator():
    """An env that keeps its opponents' draws can be copied: the copy draws what the original
    would, from its own copy of the generator."""
    import copy

    draws = Draws(np.random.default_rng(11))
    draws.below(7)
    for twin in (copy.deepcopy(draws), pickle.loads(pickle.dumps(draws))):
        assert twin.rng is not draws.rng
        ahead = Draws(copy.deepcopy(draws.rng))  # what the original draws next
        assert [twin.below(1000) for _ in range(5)] == [ahead.below(1000) for _ in range(5)]
    reference = Draws(np.random.default_rng(11))  # the original is not moved by its copies
    reference.below(7)
    assert [draws.below(1000) for _ in range(5)] == [reference.below(1000) for _ in range(5)]
