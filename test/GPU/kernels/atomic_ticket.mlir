// out[i] = atomic_add(counter, 1) for i < n: every element adds to the same
// counter (a block of identical pointers) and gets a ticket; the tickets
// of all programs are 0..n-1, each once. 256 elements per program, masked
// tail (masked elements do not count).
func.func @atomic_ticket(%counter: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                         %out: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                         %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %starts = tile.splat %start : i32 -> tensor<256xi32>
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %i = arith.addi %starts, %range : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<256xi32>
  %cp = tile.splat %counter : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %one = arith.constant dense<1> : tensor<256xi32>
  %ticket = tile.atomic_rmw add, acq_rel, gpu, %cp, %one, %mask : tensor<256x!tile.ptr<i32>>
  %os = tile.splat %out : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %op = tile.addptr %os, %i : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %op, %ticket, %mask : tensor<256x!tile.ptr<i32>>
  return
}
