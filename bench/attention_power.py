"""Attention's speed against the GPU's clock and power over a sustained run:
each provider's forward runs back to back (an L2 flush before each call,
as `do_bench` does) for a few seconds, in chunks of about 100 ms that end
in a synchronize; `nvidia-smi` samples the SM clock, the power drawn, the
temperature and the active clock-throttle reasons every 20 ms meanwhile.
Per chunk the table gives the median call (CUDA events), its TFLOP/s, and
the mean clock and power of the samples taken during the chunk; a last
line per provider gives the medians over all chunks after the first
second, and the cycles a call takes at the mean clock (4 * B * H * N^2 * D
flops, half for causal).

    python3 bench/attention_power.py --cases 128:0 64:0 --sizes 2048 16384 \\
        [--providers terrazzo sdpa triton] [--seconds 4] [--chunks] \\
        [--configs '{"BLOCK_M": 128, "num_warps": 8, "persistent": true}' ...]

The providers run one after the other with a pause between them (`--pause`)
so that each starts from a similar temperature; each is checked against
SDPA first (relative error under 1e-2)."""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_case import AttentionCase  # noqa: E402
from loading import load_tutorial  # noqa: E402
from power_trace import Sampler, print_table, sustained  # noqa: E402

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", nargs="+", default=["128:0", "64:0"], help="HEAD_DIM:CAUSAL")
    parser.add_argument("--sizes", nargs="+", type=int, default=[2048, 16384])
    parser.add_argument("--providers", nargs="+", default=["terrazzo", "sdpa"],
                        choices=["terrazzo", "sdpa", "triton"])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--pause", type=float, default=3.0)
    parser.add_argument("--dtype", default="float16", choices=["float16", "bfloat16"])
    parser.add_argument("--chunks", action="store_true", help="print every chunk")
    parser.add_argument("--configs", nargs="+", default=[], metavar="JSON",
                        help="also run Terrazzo under these launch configurations (JSON "
                             "objects laid over fwd_config's choice, with \"persistent\": "
                             "true or false for the form), named cfg1, cfg2, ...")
    args = parser.parse_args()

    import torch
    t06 = load_tutorial("06-fused-attention.py", None)
    dtype = getattr(torch, args.dtype)
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    with Sampler() as sampler:
        runs = measure(args, torch, t06, dtype)
    print_table(runs, sampler.samples, args.chunks)
    for i, text in enumerate(args.configs, 1):
        print(f"cfg{i}: {text}")


def measure(args, torch, t06, dtype):
    """[(case, provider, flops, chunks or why not)] in the order run."""
    runs_out = []
    for head_dim, causal in (map(int, case.split(":")) for case in args.cases):
        causal = bool(causal)
        for n_ctx in args.sizes:
            case = AttentionCase(torch, head_dim, causal, n_ctx, dtype)
            runs = case.providers(t06, args.providers)
            for i, text in enumerate(args.configs, 1):
                cfg = t06.fwd_config(head_dim, causal, False, n_ctx=n_ctx)
                cfg.update(json.loads(text))
                persistent = bool(cfg.pop("persistent", False))
                runs[f"cfg{i}"] = case.forward(t06, config=cfg, persistent=persistent)
            label = f"D={head_dim} {'causal' if causal else 'non-causal'} N={n_ctx}"
            for name, run in runs.items():
                err = case.error(run)
                if not err < 1e-2:
                    runs_out.append((label, name, case.flops,
                                     f"relative error {err:.2e} against SDPA"))
                    continue
                time.sleep(args.pause)
                runs_out.append((label, name, case.flops, sustained(torch, run, args.seconds)))
                print(f"{label} {name}: done", flush=True)
            case.free()
    return runs_out

if __name__ == "__main__":
    main()
