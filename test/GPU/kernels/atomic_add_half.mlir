// outh[j] += xh[pid * cols + j] and outb[j] += xb[pid * cols + j] for
// j < cols: every program adds its row of f16 and bf16 values into the
// same output row (f16 and bf16 atomic adds; bf16 is a compare-and-swap
// loop before sm_90). 256 columns, masked tail; cols is a multiple of 16,
// so the mask is constant over pairs of columns and adjacent elements go
// together as f16x2/bf16x2 atomics.
func.func @atomic_add_half(%xh: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                           %outh: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                           %xb: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                           %outb: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                           %cols: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %row = arith.muli %pid, %cols : i32
  %rows = tile.splat %row : i32 -> tensor<256xi32>
  %j = tile.make_range 0 to 256 : tensor<256xi32>
  %cs = tile.splat %cols : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %j, %cs : tensor<256xi32>
  %k = arith.addi %rows, %j : tensor<256xi32>
  %xhs = tile.splat %xh : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %xhp = tile.addptr %xhs, %k : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %vh = tile.load %xhp, %mask : tensor<256x!tile.ptr<f16>>
  %ohs = tile.splat %outh : !tile.ptr<f16> -> tensor<256x!tile.ptr<f16>>
  %ohp = tile.addptr %ohs, %j : tensor<256x!tile.ptr<f16>>, tensor<256xi32>
  %r1 = tile.atomic_rmw fadd, relaxed, gpu, %ohp, %vh, %mask : tensor<256x!tile.ptr<f16>>
  %xbs = tile.splat %xb : !tile.ptr<bf16> -> tensor<256x!tile.ptr<bf16>>
  %xbp = tile.addptr %xbs, %k : tensor<256x!tile.ptr<bf16>>, tensor<256xi32>
  %vb = tile.load %xbp, %mask : tensor<256x!tile.ptr<bf16>>
  %obs = tile.splat %outb : !tile.ptr<bf16> -> tensor<256x!tile.ptr<bf16>>
  %obp = tile.addptr %obs, %j : tensor<256x!tile.ptr<bf16>>, tensor<256xi32>
  %r2 = tile.atomic_rmw fadd, relaxed, gpu, %obp, %vb, %mask : tensor<256x!tile.ptr<bf16>>
  return
}
