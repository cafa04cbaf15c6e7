// out = a[0] (i64) + b[0] (f16, widened) + *c[0] (a loaded pointer's
// pointee): scalar loads of 64, 16 and pointer width.
func.func @loaded_scalars_widths(%a: !tile.ptr<i64> {tile.divisibility = 16 : i32},
                                 %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                                 %c: !tile.ptr<!tile.ptr<f32>> {tile.divisibility = 16 : i32},
                                 %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %x = tile.load %a : !tile.ptr<i64>
  %y = tile.load %b : !tile.ptr<f16>
  %p = tile.load %c : !tile.ptr<!tile.ptr<f32>>
  %z = tile.load %p : !tile.ptr<f32>
  %xf = arith.sitofp %x : i64 to f32
  %yf = arith.extf %y : f16 to f32
  %s = arith.addf %xf, %yf : f32
  %t = arith.addf %s, %z : f32
  tile.store %out, %t : !tile.ptr<f32>
  return
}
