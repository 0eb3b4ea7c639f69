"""Exact stand-ins for the numpy draws and generators that search loops make most often, without
their per-call costs.

``Generator.integers(n)`` spends most of a call converting and checking its bounds before it
draws; a search makes one such call per random rollout action. :class:`Draws` makes the same
draws from the same stream: it calls the generator's own bit generator through numpy's ctypes
interface (``BitGenerator.ctypes``, the one numpy documents for compiled callers) and bounds the
draw with Lemire's method as numpy does (numpy's ``random_bounded_uint64_fill``: a range below
2**32 draws 32-bit words, through the bit generator's own buffer of half-used 64-bit words; a
wider range draws 64-bit words). The stream is then exactly where ``integers`` leaves it, so the
draws interleave with the generator's other methods as before
(``tests/test_draws.py`` compares them over mixed sequences).

Like any direct use of a bit generator, these draws do not take the generator's lock: use a
generator from one thread at a time (a search owns its generator).

:func:`generator` is ``np.random.default_rng(seed)`` for an int seed, the same state, cheaper:
a search seeds a new generator for every state it samples, and most of
``default_rng``'s time goes to ``SeedSequence`` hashing the seed in Python-level steps. The
bit generator is seeded from :class:`SeedWords`, which computes the four 64-bit words
``SeedSequence(seed).generate_state(4, np.uint64)`` gives (the hash of O'Neill's ``seed_seq_fe``
as numpy's ``SeedSequence`` runs it: its entropy in 32-bit words, a pool of four) and hands
everything else (other word counts, ``spawn``) to a real ``SeedSequence`` of the same seed.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from mypy_extensions import i64, mypyc_attr
from numpy.random.bit_generator import ISpawnableSeedSequence

from boardgames_rl import compiled as _build

_MASK32: Final = 0xFFFFFFFF

_native: Any = None
"""The compiled build's C draws (``native_draws.c``: numpy's algorithms on the bit generator's
capsule, without a ctypes call per word); None in the pure build, which uses ctypes."""
if "boardgames_rl.core.native_draws" in _build.MODULES:
    from boardgames_rl.core import native_draws

    _native = native_draws


def _checked_normals() -> Any:
    """``native_draws.normals`` where the build linked numpy's own standard normal and it gives
    this numpy's values (checked once, mixed with another draw); else None, and
    :meth:`Draws.normals` asks the generator (the same values)."""
    normals = getattr(_native, "normals", None)
    if normals is None:
        return None
    numpy_rng = np.random.default_rng(2**40 + 7)
    capsule = np.random.default_rng(2**40 + 7).bit_generator.capsule
    want = numpy_rng.standard_normal(64).tolist() + [float(numpy_rng.random())]
    got = normals(capsule, 64) + [float(_native.uniform(capsule))]
    want += numpy_rng.standard_normal(3).tolist()
    got += normals(capsule, 3)
    return normals if got == want else None


_normals: Any = _checked_normals()
"""The compiled build's standard normals (``native_draws.normals``), or None."""


class Draws:
    """The draws of ``rng`` that :meth:`below`, :meth:`below_wide`, :meth:`pick`,
    :meth:`shuffle`, :meth:`uniform` and :meth:`normals` stand in for."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._direct = False
        self._capsule: Any = None
        self._next32: Any = None
        self._next64: Any = None
        self._state: Any = None
        bits = getattr(rng, "bit_generator", None)
        if _native is not None and bits is not None and hasattr(bits, "capsule"):
            self._capsule = bits.capsule  # the compiled build: its C draws
            return
        try:
            c = rng.bit_generator.ctypes
        except AttributeError:  # not a numpy generator: its own integers()
            return
        self._next32 = c.next_uint32
        self._next64 = c.next_uint64
        self._state = c.state_address
        self._direct = True

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its generator (a copy or a pickle of the generator): the C handle it holds
        # on the bit generator is not data
        return (Draws, (self.rng,))

    def below(self, n: int) -> int:
        """``int(rng.integers(n))`` for ``1 <= n <= 2**32``: the same value, the same stream."""
        capsule = self._capsule
        if capsule is not None:
            return int(_native.below(capsule, n))
        if not self._direct:
            return int(self.rng.integers(n))
        if n == 1:
            return 0  # numpy draws nothing for a range of one value
        if n < 1 or n > _MASK32 + 1:
            raise ValueError(f"Draws.below(n) needs 1 <= n <= 2**32, got {n}")
        if n == _MASK32 + 1:
            return int(self._next32(self._state))
        return _lemire(self._next32, self._state, n, 32)

    def pick(self, items: list[Any]) -> Any:
        """``rng.choice(items)`` for a non-empty list (numpy draws its index with
        ``integers(len(items))``): the same item, the same stream, without building an array."""
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """``rng.shuffle(items)`` for a list: the same order, the same stream (numpy's own call
        in the pure build, where it costs less than a ctypes call per word)."""
        capsule = self._capsule
        if capsule is not None:
            _native.shuffle(capsule, items)
        else:
            self.rng.shuffle(items)

    def uniform(self) -> float:
        """``float(rng.random())``: the same value, the same stream."""
        capsule = self._capsule
        if capsule is not None:
            return float(_native.uniform(capsule))
        return float(self.rng.random())

    def normals(self, k: int) -> list[float]:
        """``rng.standard_normal(k).tolist()``: the same values, the same stream (numpy's own
        ziggurat in the compiled build, see :func:`_checked_normals`)."""
        capsule = self._capsule
        if capsule is not None and _normals is not None:
            return _normals(capsule, k)
        return self.rng.standard_normal(k).tolist()

    def below_wide(self, n: int) -> int:
        """``int(rng.integers(n))`` for ``2**32 < n <= 2**63``: the same value, the same
        stream (a seed for a new generator: ``below_wide(2**63)``)."""
        capsule = self._capsule
        if capsule is not None:
            return int(_native.below_wide(capsule, n))
        if not self._direct:
            return int(self.rng.integers(n))
        return _lemire(self._next64, self._state, n, 64)


def _lemire(next_word: Any, state: Any, n: int, bits: int) -> int:
    """A draw below ``n`` from ``bits``-bit words, by Lemire's multiply-and-reject, as numpy's
    bounded integers make it (the same words taken, the same value)."""
    mask = (1 << bits) - 1
    m = int(next_word(state)) * n
    if (m & mask) < n:
        threshold = (mask - (n - 1)) % n
        while (m & mask) < threshold:
            m = int(next_word(state)) * n
    return m >> bits


_last: Draws | None = None
"""The :class:`Draws` of the generator asked for last (it holds that generator)."""


def draws_for(rng: np.random.Generator) -> Draws:
    """The :class:`Draws` of ``rng``, kept while the same generator is asked for (a search asks
    hundreds of times per decision with one generator)."""
    global _last
    last = _last
    if last is not None and last.rng is rng:
        return last
    last = _last = Draws(rng)
    return last


# SeedSequence's hash constants (O'Neill's seed_seq_fe, as numpy's SeedSequence uses them). The
# hash works on 32-bit words, held as native 64-bit ints (i64) in the compiled build: a product of
# two words wraps around 2**64 there (CPython builds its extensions with -fwrapv), and the word
# kept is its low 32 bits, the same as the exact product's (checked once at import, below).
_INIT_A: Final[i64] = 0x43B0D7E5
_MULT_A: Final[i64] = 0x931E8875
_INIT_B: Final[i64] = 0x8B51F9DD
_MULT_B: Final[i64] = 0x58F38DED
_MIX_MULT_L: Final[i64] = 0xCA01F9DD
_MIX_MULT_R: Final[i64] = 0x4973F715
_WORD: Final[i64] = 0xFFFFFFFF
_POOL: Final = 4


def seed_words(seed: int) -> list[int]:
    """``SeedSequence(seed).generate_state(4, np.uint64).tolist()`` for an int ``seed >= 0``."""
    entropy: list[i64] = []
    rest = seed
    while True:
        entropy.append(rest & _MASK32)
        rest >>= 32
        if rest == 0:
            break
    h = _INIT_A
    pool: list[i64] = [0] * _POOL
    for i in range(_POOL):
        v: i64 = (entropy[i] if i < len(entropy) else 0) ^ h
        h = (h * _MULT_A) & _WORD
        v = (v * h) & _WORD
        pool[i] = v ^ (v >> 16)
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                v = pool[src] ^ h
                h = (h * _MULT_A) & _WORD
                v = (v * h) & _WORD
                pool[dst] = _mix(pool[dst], v ^ (v >> 16))
    for src in range(_POOL, len(entropy)):
        for dst in range(_POOL):
            v = entropy[src] ^ h
            h = (h * _MULT_A) & _WORD
            v = (v * h) & _WORD
            pool[dst] = _mix(pool[dst], v ^ (v >> 16))
    h = _INIT_B
    out: list[i64] = []
    for i in range(2 * _POOL):
        v = pool[i % _POOL] ^ h
        h = (h * _MULT_B) & _WORD
        v = (v * h) & _WORD
        out.append(v ^ (v >> 16))
    return [int(out[2 * k]) | (int(out[2 * k + 1]) << 32) for k in range(_POOL)]


def _mix(x: i64, y: i64) -> i64:
    r = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _WORD
    return r ^ (r >> 16)


def _check_seed_words() -> None:
    """Refuse to run if :func:`seed_words` does not give ``SeedSequence``'s words (a compiler
    whose 64-bit products do not wrap): every sampled state's generator would differ."""
    seed = 2**64 - 1
    if seed_words(seed) != np.random.SeedSequence(seed).generate_state(4, np.uint64).tolist():
        raise ImportError(
            "boardgames_rl.core.draws: the compiled seed hash disagrees with numpy's SeedSequence "
            "on this machine; reinstall the pure build (BOARDGAMES_RL_PURE=1 pip install ...)"
        )


_check_seed_words()


@mypyc_attr(native_class=False)  # numpy registers it as a seed sequence and may pickle it
class SeedWords:
    """A seed sequence for a numpy bit generator: ``SeedSequence(entropy)`` 's four 64-bit words
    computed directly; anything else asked of it by a real ``SeedSequence(entropy)``."""

    def __init__(self, entropy: int) -> None:
        self.entropy = entropy
        self._real: np.random.SeedSequence | None = None

    @property
    def real(self) -> np.random.SeedSequence:
        """``SeedSequence(entropy)`` (made once, when first needed)."""
        if self._real is None:
            self._real = np.random.SeedSequence(self.entropy)
        return self._real

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        if n_words == _POOL and dtype is np.uint64:
            return np.array(seed_words(self.entropy), dtype=np.uint64)
        return self.real.generate_state(n_words, dtype)

    def spawn(self, n_children: int) -> list[np.random.SeedSequence]:
        return self.real.spawn(n_children)

    @property
    def spawn_key(self) -> tuple[int, ...]:
        return self.real.spawn_key

    @property
    def n_children_spawned(self) -> int:
        return self.real.n_children_spawned


ISpawnableSeedSequence.register(SeedWords)


def generator(seed: int) -> np.random.Generator:
    """``np.random.default_rng(seed)`` for an int ``seed >= 0``: the same generator state."""
    # numpy takes any registered seed sequence; its stubs name SeedSequence only
    return np.random.Generator(np.random.PCG64(SeedWords(seed)))  # type: ignore[arg-type]
