"""One case of tutorial 06's attention forward as the attention benchmarks
measure it (bench/attention_configs.py, attention_kernel_times.py,
attention_power.py): fresh random inputs, SDPA's output as the reference,
the forward's flops (4 * B * H * N^2 * D, half for causal) and its
callables. B=4 and H=32 at D=64, H=16 at D=128 unless a shape is given,
as issue 16's table has them."""
import math


def default_shape(head_dim):
    """(batch, heads) of the issue's table for `head_dim`."""
    return (4, 32) if head_dim == 64 else (4, 16)


class AttentionCase:
    def __init__(self, torch, head_dim, causal, n_ctx, dtype, shape=None):
        """`shape`: "B,H", or None for default_shape."""
        self.torch, self.causal = torch, causal
        self.batch, self.heads = (tuple(map(int, shape.split(","))) if shape
                                  else default_shape(head_dim))
        self.flops = 4.0 * self.batch * self.heads * n_ctx * n_ctx * head_dim * \
            (0.5 if causal else 1.0)
        self.q, self.k, self.v = (
            torch.randn((self.batch, self.heads, n_ctx, head_dim), device="cuda", dtype=dtype)
            for _ in range(3))
        self.scale = 1 / math.sqrt(head_dim)
        self.want = self.sdpa().float()

    def sdpa(self):
        return self.torch.nn.functional.scaled_dot_product_attention(
            self.q, self.k, self.v, is_causal=self.causal, scale=self.scale)

    def forward(self, t06, kernels=None, config=None, persistent=None):
        """A callable of tutorial 06's forward (O only) under `kernels`
        (None: Terrazzo's), `config` and `persistent` (None: its defaults)."""
        return lambda: t06.attention_forward(self.q, self.k, self.v, self.causal, self.scale,
                                             kernels=kernels, config=config,
                                             persistent=persistent)[0]

    def providers(self, t06, names):
        """name -> callable for "sdpa", "terrazzo" (the defaults) and
        "triton" (the same source under Triton, left out where it is not
        installed), those of `names`."""
        runs = {"sdpa": self.sdpa, "terrazzo": self.forward(t06)}
        if "triton" in names:
            kernels = t06.triton_kernels()
            if kernels is not None:
                runs["triton"] = self.forward(t06, kernels)
        return {name: runs[name] for name in names if name in runs}

    def error(self, run):
        """`run()`'s relative error against SDPA (norm of the difference)."""
        return ((run().float() - self.want).norm() / self.want.norm()).item()

    def free(self):
        del self.q, self.k, self.v, self.want
        self.torch.cuda.empty_cache()
