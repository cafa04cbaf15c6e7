// RUN: terrazzo-opt %s -split-input-file -verify-diagnostics

// tilegpu.warp_specialize's verifier: setmaxnreg's register counts, budgets
// that balance (what the consumers take, the producer gives up), the
// module's total warps, whole warp groups, scalar code and no barrier of
// the program in the producer, no nesting, no empty partition.

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90"} {
  func.func @odd_registers() {
    // expected-error @+1 {{register budgets must be multiples of 8 from 24 to 256, got 36}}
    tilegpu.warp_specialize producer_warps = 4 registers = 36, 232 {
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90"} {
  func.func @unbalanced() {
    // expected-error @+1 {{register budgets 40 and 248 do not balance: 12 warps start with 168 registers per thread, and the consumers may take only what the producer gives up}}
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 248 {
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 16 : i32, tilegpu.target = "cuda:90"} {
  func.func @total_warps() {
    // expected-error @+1 {{adds 4 producer warps to the module's tilegpu.num-warps, so the module's tilegpu.total-num-warps must be 12, got 16}}
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

// expected-error @+1 {{'tilegpu.total-num-warps' must exceed 'tilegpu.num-warps' (8) by whole warp groups of four, up to 32, got 8}}
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 8 : i32, tilegpu.target = "cuda:90"} {
}

// -----

// expected-error @+1 {{'tilegpu.total-num-warps' must exceed 'tilegpu.num-warps' (8) by whole warp groups of four, up to 32, got 10}}
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 10 : i32, tilegpu.target = "cuda:90"} {
}

// -----

#blocked = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90"} {
  func.func @tensor_in_producer() {
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.partition_end
    } producer {
      // expected-error @+1 {{holds a tensor in a warp_specialize's producer, whose warps no layout describes}}
      %r = tile.make_range 0 to 256 : tensor<256xi32, #blocked>
      tilegpu.partition_end
    }
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90"} {
  func.func @barrier_in_producer() {
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.partition_end
    } producer {
      // expected-error @+1 {{is a barrier of the program in a warp_specialize's producer, which meets the consumers through mbarriers only}}
      tilegpu.barrier
      tilegpu.partition_end
    }
    return
  }
}

// -----

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90"} {
  func.func @nested() {
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      // expected-error @+1 {{cannot be nested in another warp_specialize}}
      tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
        tilegpu.partition_end
      } producer {
        tilegpu.partition_end
      }
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

// A register cap (maxnreg) lowers the launch budget that the setmaxnregs
// move: 8 warps at 128 (two programs per SM) leave the consumers 216.
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.total-num-warps" = 8 : i32, "tilegpu.max-registers" = 128 : i32, tilegpu.target = "cuda:90"} {
  func.func @capped() {
    // expected-error @+1 {{register budgets 40 and 232 do not balance: 8 warps start with 128 registers per thread, and the consumers may take only what the producer gives up}}
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.partition_end
    } producer {
      tilegpu.partition_end
    }
    return
  }
}

// -----

// expected-error @+1 {{'tilegpu.max-registers' must be from 24 to 255 registers per thread, got 16}}
module attributes {"tilegpu.max-registers" = 16 : i32} {
}

// -----

// expected-error @+1 {{'tilegpu.max-registers' must be an i32, got 128 : i64}}
module attributes {"tilegpu.max-registers" = 128} {
}

// -----

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.total-num-warps" = 12 : i32, tilegpu.target = "cuda:90"} {
  func.func @empty_producer() {
    // expected-error @+1 {{has an empty producer region; each partition ends in tilegpu.partition_end}}
    tilegpu.warp_specialize producer_warps = 4 registers = 40, 232 {
      tilegpu.partition_end
    } producer {
    }
    return
  }
}
