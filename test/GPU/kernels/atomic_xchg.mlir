// old[i] = atomic_xchg(p[i], v[i]) for i < n without collisions, in f32
// (the 32-bit exchange) and bf16 (a 16-bit compare-and-swap loop): p takes
// v and old the previous contents of p; masked tail.
func.func @atomic_xchg(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %v: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %old: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                       %ph: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                       %vh: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                       %oldh: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                       %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %starts = tile.splat %start : i32 -> tensor<256xi32>
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %i = arith.addi %starts, %range : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<256xi32>
  %vs = tile.splat %v : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %vp = tile.addptr %vs, %i : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %val = tile.load %vp, %mask : tensor<256x!tile.ptr<f32>>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %i : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %prev = tile.atomic_rmw xchg, acq_rel, gpu, %pp, %val, %mask : tensor<256x!tile.ptr<f32>>
  %os = tile.splat %old : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %op = tile.addptr %os, %i : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %op, %prev, %mask : tensor<256x!tile.ptr<f32>>
  %vhs = tile.splat %vh : !tile.ptr<bf16> -> tensor<256x!tile.ptr<bf16>>
  %vhp = tile.addptr %vhs, %i : tensor<256x!tile.ptr<bf16>>, tensor<256xi32>
  %valh = tile.load %vhp, %mask : tensor<256x!tile.ptr<bf16>>
  %phs = tile.splat %ph : !tile.ptr<bf16> -> tensor<256x!tile.ptr<bf16>>
  %php = tile.addptr %phs, %i : tensor<256x!tile.ptr<bf16>>, tensor<256xi32>
  %prevh = tile.atomic_rmw xchg, relaxed, gpu, %php, %valh, %mask : tensor<256x!tile.ptr<bf16>>
  %ohs = tile.splat %oldh : !tile.ptr<bf16> -> tensor<256x!tile.ptr<bf16>>
  %ohp = tile.addptr %ohs, %i : tensor<256x!tile.ptr<bf16>>, tensor<256xi32>
  tile.store %ohp, %prevh, %mask : tensor<256x!tile.ptr<bf16>>
  return
}
