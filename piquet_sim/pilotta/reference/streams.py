"""A pure-Python port of the core's counter-based streams (``core.rng``), so the reference can
replay a simulated round from (seed, index) without numba: SplitMix64 over a counter, exact
bounded draws on 16-bit chunks, and the inside-out Fisher-Yates shuffle."""

from __future__ import annotations

M64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    z &= M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def stream_key(seed: int, index: int) -> int:
    return mix64(mix64(seed ^ 0x2545F4914F6CDD1D) ^ ((index * 0xD1B54A32D192ED03) & M64))


class Stream:
    """The stream of a key: 16-bit chunks in order, uniform draws, the pack shuffle."""

    def __init__(self, key: int):
        self.key = key
        self.next_chunk = 0

    def word(self, counter: int) -> int:
        return mix64(self.key + (counter + 1) * GAMMA)

    def chunk(self, c: int) -> int:
        return (self.word(c >> 2) >> (16 * (c & 3))) & 0xFFFF

    def draw(self, n: int) -> int:
        """Uniform integer in [0, n) (Lemire's multiply on two chunks, with rejection)."""
        while True:
            c = self.next_chunk
            self.next_chunk += 2
            r = self.chunk(c) | (self.chunk(c + 1) << 16)
            m = r * n
            low = m & 0xFFFFFFFF
            if low >= n or low >= ((1 << 32) - n) % n:
                return m >> 32

    def shuffle(self, n_cards: int) -> list[int]:
        """Position -> card ordinal, as ``core.rng.shuffle_pack``; leaves the stream after it."""
        pack = [0] * n_cards
        extra = n_cards
        for i in range(1, n_cards):
            n = i + 1
            m = self.chunk(i) * n
            low = m & 0xFFFF
            if low < n:
                threshold = (0x10000 - n) % n
                while low < threshold:
                    m = self.chunk(extra) * n
                    extra += 1
                    low = m & 0xFFFF
            j = m >> 16
            pack[i] = pack[j]
            pack[j] = i
        self.next_chunk = extra
        return pack
