"""The 16-bit conversions against independent references: numpy's own float16 conversions
(npy_half_to_float / npy_float_to_half, written apart from liboclfuse), and a bfloat16 rounding
written here in numpy integer arithmetic (and ml_dtypes' where it is installed)."""
import numpy as np

import oclfuse


def bits32(x):
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def test_half_to_float_every_pattern():
    patterns = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    got = oclfuse.half_to_float(patterns)
    want = patterns.view(np.float16).astype(np.float32)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(bits32(got)[~nan], bits32(want)[~nan])
    # A NaN keeps its sign and payload, shifted up (documented): exactly the bits.
    expect_nan_bits = ((patterns[nan].astype(np.uint32) & 0x8000) << 16) | 0x7f800000 | (
        (patterns[nan].astype(np.uint32) & 0x3ff) << 13)
    assert np.array_equal(bits32(got)[nan], expect_nan_bits)
    # float16 arrays are taken as they are.
    assert np.array_equal(bits32(oclfuse.half_to_float(patterns.view(np.float16))), bits32(got))


def test_bfloat16_to_float_every_pattern():
    patterns = np.arange(65536, dtype=np.uint32).astype(np.uint16)
    got = oclfuse.bfloat16_to_float(patterns)
    assert np.array_equal(bits32(got), patterns.astype(np.uint32) << 16)


def edge_and_random_floats(rng):
    base = np.array([0, 1, 0x007fffff, 0x00800000, 0x33000000, 0x33000001, 0x33800000,
                     0x33c00000, 0x38800000, 0x387fe000, 0x387ff000, 0x3f800000, 0x3f801000,
                     0x3f803000, 0x3f808000, 0x3f818000, 0x477fe000, 0x477ff000, 0x47800000,
                     0x7f7f7fff, 0x7f7f8000, 0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fc00000,
                     0x7fffffff], dtype=np.int64)
    edges = (base[:, None] + np.array([-1, 0, 1])).reshape(-1) % (1 << 31)
    edges = np.concatenate([edges, edges | (1 << 31)]).astype(np.uint32)
    random = rng.integers(0, 1 << 32, size=1 << 20, dtype=np.uint64).astype(np.uint32)
    return np.concatenate([edges, random]).view(np.float32)


def test_float_to_half_edges_and_random(rng):
    floats = edge_and_random_floats(rng)
    got = oclfuse.float_to_half(floats)
    assert got.dtype == np.float16
    with np.errstate(over="ignore", invalid="ignore"):
        want = floats.astype(np.float16)
    nan = np.isnan(floats)
    assert np.array_equal(got.view(np.uint16)[~nan], want.view(np.uint16)[~nan])
    # NaN: the quiet NaN 0x7e00 with the input's sign (documented).
    signs = (floats[nan].view(np.uint32) >> 16) & 0x8000
    assert np.array_equal(got.view(np.uint16)[nan], (signs | 0x7e00).astype(np.uint16))


def reference_bfloat16(floats):
    """Round to nearest even on the top half, written on 64-bit integers (no wrap): a NaN is
    kept a NaN with its quiet bit set."""
    u = floats.view(np.uint32).astype(np.uint64)
    upper, lower = u >> 16, u & 0xffff
    up = (lower > 0x8000) | ((lower == 0x8000) & ((upper & 1) == 1))
    rounded = (upper + up.astype(np.uint64)).astype(np.uint16)
    nan = np.isnan(floats)
    rounded[nan] = (upper[nan] | 0x40).astype(np.uint16)
    return rounded


def test_float_to_bfloat16_edges_and_random(rng):
    floats = edge_and_random_floats(rng)
    got = oclfuse.float_to_bfloat16(floats)
    got_bits = got.view(np.uint16)
    assert np.array_equal(got_bits, reference_bfloat16(floats))
    try:
        import ml_dtypes
    except ImportError:
        return
    finite = np.isfinite(floats)
    want = floats.astype(ml_dtypes.bfloat16).view(np.uint16)
    assert np.array_equal(got_bits[finite], want[finite])


def test_round_trips_and_shapes():
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(2, 3, 4)
    h = oclfuse.float_to_half(x)
    assert h.shape == x.shape
    assert np.array_equal(oclfuse.half_to_float(h), h.astype(np.float32))
    b = oclfuse.float_to_bfloat16(x[:, ::2])  # a strided view is copied first
    assert b.shape == (2, 2, 4)
    back = oclfuse.bfloat16_to_float(b)
    assert np.all(np.abs(back - x[:, ::2]) <= np.abs(x[:, ::2]) * 2.0 ** -8)
    assert oclfuse.float_to_half(np.zeros(0, np.float32)).size == 0
