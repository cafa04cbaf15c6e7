// out[j] = s * sum over k < rows of x[k * cols + j], with s = 2 when rows is
// odd and 1 otherwise: an scf.for carrying an accumulator and a pointer
// block, and an scf.if on a runtime condition.
func.func @loop_sum(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %out: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                    %rows: i32,
                    %cols: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %block = arith.constant 256 : i32
  %start = arith.muli %pid, %block : i32
  %starts = tile.splat %start : i32 -> tensor<256xi32>
  %range = tile.make_range 0 to 256 : tensor<256xi32>
  %j = arith.addi %starts, %range : tensor<256xi32>
  %colss = tile.splat %cols : i32 -> tensor<256xi32>
  %mask = arith.cmpi slt, %j, %colss : tensor<256xi32>
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %p0 = tile.addptr %xs, %j : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %sum, %end = scf.for %k = %c0 to %rows step %c1
      iter_args(%acc = %zero, %p = %p0)
      -> (tensor<256xf32>, tensor<256x!tile.ptr<f32>>) : i32 {
    %v = tile.load %p, %mask, %zero : tensor<256x!tile.ptr<f32>>
    %acc2 = arith.addf %acc, %v : tensor<256xf32>
    %p2 = tile.addptr %p, %colss : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
    scf.yield %acc2, %p2 : tensor<256xf32>, tensor<256x!tile.ptr<f32>>
  }
  %odd = arith.andi %rows, %c1 : i32
  %is_odd = arith.cmpi ne, %odd, %c0 : i32
  %result = scf.if %is_odd -> tensor<256xf32> {
    %two = arith.constant dense<2.0> : tensor<256xf32>
    %doubled = arith.mulf %sum, %two : tensor<256xf32>
    scf.yield %doubled : tensor<256xf32>
  } else {
    scf.yield %sum : tensor<256xf32>
  }
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %op = tile.addptr %os, %j : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %op, %result, %mask : tensor<256x!tile.ptr<f32>>
  return
}
