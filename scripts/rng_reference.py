#!/usr/bin/env python3
"""Independent reference for warsim's game_rng (core/src/rng.rs): SplitMix64 finaliser of the
seed, xor the game index, rand_xoshiro's seed_from_u64 (SplitMix64 expansion), then the first
xoshiro256++ output. Prints the words pinned in game_rng_value_stability."""
M = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def finalize(z):
    return mix((z + GOLDEN) & M)


def first_word(seed):
    state, x = [], seed
    for _ in range(4):
        x = (x + GOLDEN) & M
        state.append(mix(x))
    s = (state[0] + state[3]) & M
    return ((((s << 23) | (s >> 41)) & M) + state[0]) & M


for seed, index in [(0, 0), (0, 1), (5, 299_999)]:
    print(seed, index, first_word(finalize(seed) ^ index))
