#!/usr/bin/env bash
# Nsight Compute profile of one tutorial-03 configuration, Terrazzo's kernel
# and Triton's side by side (the first launch of each), for finding where a
# per-configuration gap in bench/matmul_configs.py comes from.
#
#   PYTHONPATH=<built terrazzo> bench/profile-matmul.sh OUTDIR [M,N,K,stages,warps] [size] [dtype]
#
# Writes OUTDIR/matmul.ncu-rep, OUTDIR/details.txt (every section, both
# kernels) and OUTDIR/sass-<n>.csv (per-instruction stall samples). Clocks
# are left as the machine has them (--clock-control none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$1
config=${2:-128,256,64,3,8}
size=${3:-8192}
dtype=${4:-float16}
python=${PYTHON:-python3}
mkdir -p "$out"
# Launch order in matmul_configs.py: Terrazzo's checked call, then Triton's.
ncu --clock-control none --kernel-name regex:matmul --launch-count 2 --set full \
  --import-source no -f -o "$out/matmul" \
  "$python" bench/matmul_configs.py --only --config "$config" --size "$size" \
  --dtype "$dtype" --runs 1 --rounds 1 >"$out/ncu-run.log" 2>&1
ncu -i "$out/matmul.ncu-rep" --page details >"$out/details.txt"
for n in 0 1; do
  ncu -i "$out/matmul.ncu-rep" --page source --csv --print-source sass \
    --launch-skip "$n" --launch-count 1 >"$out/sass-$n.csv" 2>&1 || true
done
