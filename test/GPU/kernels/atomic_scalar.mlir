// A scalar atomic per program: t = atomic_add(counter, 1); out[pid] = t and
// every thread writes t to all 64 elements of row[pid * 64 ...]: the
// tickets of the programs are 0..grid-1 and every thread received its
// program's ticket (the old value is broadcast from the one thread that
// did the atomic).
func.func @atomic_scalar(%counter: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                         %out: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                         %rows: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %c1 = arith.constant 1 : i32
  %t = tile.atomic_rmw add, acq_rel, gpu, %counter, %c1 : !tile.ptr<i32>
  %o = tile.addptr %out, %pid : !tile.ptr<i32>, i32
  tile.store %o, %t : !tile.ptr<i32>
  %c64 = arith.constant 64 : i32
  %start = arith.muli %pid, %c64 : i32
  %starts = tile.splat %start : i32 -> tensor<64xi32>
  %range = tile.make_range 0 to 64 : tensor<64xi32>
  %j = arith.addi %starts, %range : tensor<64xi32>
  %rs = tile.splat %rows : !tile.ptr<i32> -> tensor<64x!tile.ptr<i32>>
  %rp = tile.addptr %rs, %j : tensor<64x!tile.ptr<i32>>, tensor<64xi32>
  %ts = tile.splat %t : i32 -> tensor<64xi32>
  tile.store %rp, %ts : tensor<64x!tile.ptr<i32>>
  return
}
