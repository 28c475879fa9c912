"""The tests run on OCLFUSE_TEST_DEVICE (else the library's default device: PoCL on a machine
without a GPU), with the library named by OCLFUSE_LIBRARY (ctest sets it to the build tree's)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import oclfuse  # noqa: E402


@pytest.fixture(scope="session")
def ctx():
    try:
        context = oclfuse.Context(os.environ.get("OCLFUSE_TEST_DEVICE"))
    except oclfuse.NoDeviceError as error:
        pytest.skip("no OpenCL device: %s" % error)
    yield context
    context.close()


@pytest.fixture
def rng():
    import numpy as np
    return np.random.default_rng(20261201)
