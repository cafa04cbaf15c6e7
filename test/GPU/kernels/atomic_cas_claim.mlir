// got[i] = atomic_cas(slots[idx[i]], -1, i) for i < n, with many elements
// per slot: exactly one element per used slot finds -1 and claims it; the
// others find the winner's index, which stays. Masked tail.
func.func @atomic_cas_claim(%slots: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                            %idx: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                            %got: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                            %n: i32) {
  %pid = tile.program_id x : i32
  %c256 = arith.constant 256 : i32
  %start = arith.muli %pid, %c256 : i32
  %starts = tile.splat %start : i32 -> tensor<256xi32>
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %i = arith.addi %starts, %range : tensor<256xi32>
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<256xi32>
  %is = tile.splat %idx : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %ip = tile.addptr %is, %i : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %b = tile.load %ip, %mask : tensor<256x!tile.ptr<i32>>
  // Masked-off elements point at slot 0 with a compare value no slot holds.
  %zero = arith.constant dense<0> : tensor<256xi32>
  %slot = arith.select %mask, %b, %zero : tensor<256xi1>, tensor<256xi32>
  %ss = tile.splat %slots : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %sp = tile.addptr %ss, %slot : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  %free = arith.constant dense<-1> : tensor<256xi32>
  %never = arith.constant dense<-2> : tensor<256xi32>
  %cmp = arith.select %mask, %free, %never : tensor<256xi1>, tensor<256xi32>
  %prev = tile.atomic_cas acq_rel, gpu, %sp, %cmp, %i : tensor<256x!tile.ptr<i32>>
  %gs = tile.splat %got : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %gp = tile.addptr %gs, %i : tensor<256x!tile.ptr<i32>>, tensor<256xi32>
  tile.store %gp, %prev, %mask : tensor<256x!tile.ptr<i32>>
  return
}
