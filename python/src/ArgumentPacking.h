// Turning Python launch arguments into kernel parameters.
//
// Two steps, shared by Kernel.launch and the Dispatcher:
//  1. extractArgument() classifies one Python object (pointer-like, bool, int
//     or float) and reads its value once: the address of a tensor, the value
//     of an int, the dtype of a pointer (as a small index into a table of
//     dtype names). Per-type facts (does torch.Tensor have data_ptr?) are
//     cached, so a hot call does no attribute lookups beyond data_ptr() and
//     dtype (and, for the key's "fits in 2^31 bytes" bit, untyped_storage()
//     with its data_ptr() and nbytes(): fitsPointerRange).
//  2. packArgument() converts that value to the C type a signature character
//     asks for ('p', 'i', 'l', 'f', 'd', 'b'), range-checked, into a Slot
//     whose address goes into the cuLaunchKernel parameter array.
#ifndef TERRAZZO_PYTHON_ARGUMENTPACKING_H
#define TERRAZZO_PYTHON_ARGUMENTPACKING_H

#include "Common.h"

#include <cstdint>
#include <string>

namespace terrazzo::python {

enum class ArgKind : std::uint8_t { Pointer, Bool, Int, Float };

/// One launch argument after extraction.
struct ArgValue {
  ArgKind kind;
  /// Pointer: the argument was None (address 0).
  bool isNone;
  /// Int: the value is above INT64_MAX and held in `u` (up to UINT64_MAX).
  bool isUnsigned;
  /// Pointer: the key's "fits in 2^31 bytes" bit (fitsPointerRange), set
  /// by the dispatcher's key; false otherwise.
  bool fitsRange;
  /// Pointer: index into the dtype table (dtypeName); 0 when not asked for
  /// or unknown.
  std::uint16_t dtype;
  /// The argument's type, for error messages.
  PyTypeObject *type;
  union {
    std::uint64_t address; ///< Pointer
    std::int64_t i;        ///< Int (signed)
    std::uint64_t u;       ///< Int (isUnsigned)
    double f;              ///< Float
    bool b;                ///< Bool
  };
};

/// Names an argument in messages: "argument 2 ('n')" or "argument 2".
struct ParamRef {
  std::size_t index;
  PyObject *name = nullptr; ///< a str, or null when unknown
};
std::string describe(const ParamRef &who);

/// Classifies `object` and reads its value into `out`. Pointer-like: None,
/// an object with data_ptr() (torch tensors), or with
/// __cuda_array_interface__. `wantDtype` also reads the pointer's dtype.
/// Throws TypeError naming `who` for anything else.
void extractArgument(PyObject *object, ArgValue &out, bool wantDtype,
                     const ParamRef &who);

/// How far, in bytes, the memory of a pointer argument may reach on
/// either side of its address for the key's "fits in 2^31 bytes" bit
/// (tile.pointer_range = 32): 2^31 less 2^20, so that offsets of a block
/// (at most 2^20 elements) past the end, a masked tail's, stay below 2^31
/// for 1-byte elements too. Python's POINTER_RANGE_BYTES (checked equal).
constexpr std::uint64_t kPointerRangeBytes = (1ull << 31) - (1ull << 20);

/// Whether the memory that the pointer argument `object` (its address in
/// `value`) belongs to lies within kPointerRangeBytes of that address on
/// both sides, so that every address a kernel forms from it is within
/// 2^31 bytes: the memory is its `untyped_storage()` (torch tensors,
/// TensorWrapper, MockTensor: an object with data_ptr() and nbytes()).
/// False when unknown: no untyped_storage (__cuda_array_interface__,
/// DLPack, a raw address), or one that returns None or raises.
bool fitsPointerRange(PyObject *object, const ArgValue &value);

/// The dtype name registered under `index` ("float32", "bfloat16", ...), or
/// None for index 0.
py::object dtypeName(std::uint16_t index);

/// True when an Int value fits int32 (its key and default width is "i"),
/// false when it needs int64 ("l").
inline bool fitsInt32(const ArgValue &value) {
  return !value.isUnsigned && value.i >= INT32_MIN && value.i <= INT32_MAX;
}

/// Whether an Int argument is not negative (unsigned values never are).
inline bool isNonNegative(const ArgValue &value) {
  return value.isUnsigned || value.i >= 0;
}

/// A kernel parameter's storage; cuLaunchKernel reads the first bytes.
union Slot {
  std::uint64_t u64;
  std::int64_t i64;
  std::int32_t i32;
  float f32;
  double f64;
  std::uint8_t u8;
};

/// Signature characters: 'p' pointer, 'i' int32, 'l' int64, 'f' float32,
/// 'd' float64, 'b' int1 (a byte); '-' an argument that is accepted and not
/// passed (e.g. an integer the compiler specialized to a constant).
bool isSignatureChar(char c);
/// Throws ValueError when `signature` has a character outside the set above.
void checkSignature(const std::string &signature);

/// Converts `value` to the type `sig` asks for (not '-') into `slot`.
/// Throws TypeError (wrong kind) or OverflowError (out of range) naming `who`.
void packArgument(char sig, const ArgValue &value, Slot &slot,
                  const ParamRef &who);

/// Reads a grid: a tuple or list of 1 to 3 non-negative ints; missing
/// dimensions are 1. Throws TypeError / ValueError.
void parseGrid(PyObject *grid, unsigned out[3]);

} // namespace terrazzo::python

#endif // TERRAZZO_PYTHON_ARGUMENTPACKING_H
