"""The tests' view of 16-bit storage: the values an array stores, as float64, and a float array
stored in a library dtype; HALF_ULP is half an ulp at 1 of each type (the rounding of a 16-bit
result)."""
import numpy as np

import oclfuse

HALF_ULP = {oclfuse.F32: 0.0, oclfuse.F16: 2.0 ** -11, oclfuse.BF16: 2.0 ** -8}


def stored(array):
    """The values an array holds, as float64 (uint16 arrays are bfloat16 bits)."""
    array = np.asarray(array)
    if array.dtype == np.uint16:
        return oclfuse.bfloat16_to_float(array).astype(np.float64)
    return array.astype(np.float64)


def as_dtype(x, code):
    """x rounded to the storage type `code` (bfloat16 as uint16 bits)."""
    x = np.asarray(x, dtype=np.float32)
    if code == oclfuse.F16:
        return x.astype(np.float16)
    if code == oclfuse.BF16:
        return oclfuse.float_to_bfloat16(x)
    return x
