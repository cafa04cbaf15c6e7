// Vector add in tile IR, written the way the Python frontend emits it: one
// program instance adds BLOCK = 1024 consecutive elements, masked at the
// end of the arrays. The offset computation lives in a helper function and
// the pointers are advanced in two steps; `--terrazzo-tile-pipeline` inlines
// the helper, folds the constants and merges the pointer arithmetic. The
// arrays are smaller than 2 GiB (tile.pointer_range = 32, what a launch on
// such tensors says), so the offsets stay i32.
func.func private @block_offsets(%pid: i32) -> tensor<1024xi32> {
  %block = arith.constant 1024 : i32
  %start = arith.muli %pid, %block : i32
  %starts = tile.splat %start : i32 -> tensor<1024xi32>
  %range = tile.make_range 0 to 1024 : tensor<1024xi32>
  %offsets = arith.addi %starts, %range : tensor<1024xi32>
  return %offsets : tensor<1024xi32>
}

func.func @add_kernel(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32},
                      %y: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32},
                      %out: !tile.ptr<f32> {tile.divisibility = 16 : i32, tile.pointer_range = 32 : i32},
                      %n: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id x : i32
  %offsets = func.call @block_offsets(%pid) : (i32) -> tensor<1024xi32>
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offsets, %ns : tensor<1024xi32>
  %zero = arith.constant 0 : i32
  %zeros = tile.splat %zero : i32 -> tensor<1024xi32>

  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xs0 = tile.addptr %xs, %zeros : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x_ptrs = tile.addptr %xs0, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %x_ptrs, %mask : tensor<1024x!tile.ptr<f32>>

  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %ys, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %yv = tile.load %y_ptrs, %mask : tensor<1024x!tile.ptr<f32>>

  %sum = arith.addf %xv, %yv : tensor<1024xf32>
  %outs = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %out_ptrs = tile.addptr %outs, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %out_ptrs, %sum, %mask : tensor<1024x!tile.ptr<f32>>
  return
}
