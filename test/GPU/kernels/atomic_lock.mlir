// A spin lock from scalar atomics, taken by every program `iters` times:
// acquire with compare-and-swap 0 -> 1 (acquire ordering) until it
// succeeds, then read the counter (an atomic add of 0) and write it back
// plus one (an exchange): an increment that loses updates unless the lock
// excludes the other programs; release with an exchange to 0 (release
// ordering). The counter ends at grid * iters.
func.func @atomic_lock(%lock: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                       %counter: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                       %iters: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %k = %c0 to %iters step %c1 : i32 {
    %done = scf.while (%taken = %c1) : (i32) -> i32 {
      %busy = arith.cmpi ne, %taken, %c0 : i32
      scf.condition(%busy) %taken : i32
    } do {
    ^bb0(%t: i32):
      %prev = tile.atomic_cas acquire, gpu, %lock, %c0, %c1 : !tile.ptr<i32>
      scf.yield %prev : i32
    }
    %v = tile.atomic_rmw add, relaxed, gpu, %counter, %c0 : !tile.ptr<i32>
    %v1 = arith.addi %v, %c1 : i32
    %w = tile.atomic_rmw xchg, relaxed, gpu, %counter, %v1 : !tile.ptr<i32>
    %u = tile.atomic_rmw xchg, release, gpu, %lock, %c0 : !tile.ptr<i32>
  }
  return
}
