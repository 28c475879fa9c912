"""The examples of python/README.md run as they are."""
import os
import runpy

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")


def test_quickstart(ctx, capsys):
    runpy.run_path(os.path.join(EXAMPLES, "quickstart.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "(64, 16) float32" in out and "OCF_ERR_INVALID_VALUE" in out and "scale" in out


def test_zero_copy(ctx, capsys, monkeypatch):
    cl = pytest.importorskip("pyopencl")
    # create_some_context picks the device PYOPENCL_CTX names ("P", or "P:D" where the
    # platform has several): the tests' device.
    for p, platform in enumerate(cl.get_platforms()):
        for d, device in enumerate(platform.get_devices()):
            if device.int_ptr == ctx.device_ptr:
                several = len(platform.get_devices()) > 1
                monkeypatch.setenv("PYOPENCL_CTX", "%d:%d" % (p, d) if several else str(p))
    runpy.run_path(os.path.join(EXAMPLES, "zero_copy.py"), run_name="__main__")
    assert capsys.readouterr().out.count("[") >= 2
