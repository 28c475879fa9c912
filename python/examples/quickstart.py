import numpy as np
import oclfuse

with oclfuse.Context() as ctx:  # $OCLFUSE_DEVICE, else the first GPU, else any device
    x = np.random.rand(8, 1000).astype(np.float32)
    p = ctx.softmax(x, scale=0.5)  # softmax(0.5 x) of each row
    a = np.random.rand(64, 32).astype(np.float16)  # fp16 storage, fp32 arithmetic
    w = np.random.rand(32, 16).astype(np.float32)
    bias = np.ones(16, np.float32)
    y = ctx.matmul(a, w, bias=bias, activation="gelu")  # gelu(a @ w + bias), fused
    print(p.sum(axis=1)[:2], y.shape, y.dtype)
    try:
        ctx.softmax(x, scale=0.0)
    except oclfuse.InvalidValueError as error:  # the library's own words
        print(error)
