/*
 * Deterministic pseudo-random data, the same on every platform: the one source of inputs of the
 * tests, `oclfuse check` and the benchmark (the harness, with reference.h and tolerance.h).
 */
#ifndef OCLFUSE_FILL_H
#define OCLFUSE_FILL_H

#include <stddef.h>
#include <stdint.h>

/* The next value of a splitmix64 sequence whose state is *state (any start value). */
uint64_t ocft_rng_next(uint64_t *state);

/* Uniform floats in [lo, hi), independent and identically distributed (so in random order, as
   the softmax error model of tolerance.c assumes), from `seed`. */
void ocft_fill_uniform(float *data, size_t count, float lo, float hi, uint64_t seed);

#endif /* OCLFUSE_FILL_H */
