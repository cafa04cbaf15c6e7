// As atomic_ticket with 16 elements per program: with more threads than
// elements, lanes and warps hold copies of the elements, which must not
// add again, and must still get their element's ticket (the store writes
// from every copy).
func.func @atomic_ticket_small(%counter: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                               %out: !tile.ptr<i32> {tile.divisibility = 16 : i32},
                               %n: i32) {
  %pid = tile.program_id x : i32
  %c16 = arith.constant 16 : i32
  %start = arith.muli %pid, %c16 : i32
  %starts = tile.splat %start : i32 -> tensor<16xi32>
  %range = tile.make_range 0 to 16 : tensor<16xi32>
  %i = arith.addi %starts, %range : tensor<16xi32>
  %ns = tile.splat %n : i32 -> tensor<16xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<16xi32>
  %cp = tile.splat %counter : !tile.ptr<i32> -> tensor<16x!tile.ptr<i32>>
  %one = arith.constant dense<1> : tensor<16xi32>
  %ticket = tile.atomic_rmw add, relaxed, gpu, %cp, %one, %mask : tensor<16x!tile.ptr<i32>>
  %os = tile.splat %out : !tile.ptr<i32> -> tensor<16x!tile.ptr<i32>>
  %op = tile.addptr %os, %i : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  tile.store %op, %ticket, %mask : tensor<16x!tile.ptr<i32>>
  return
}
