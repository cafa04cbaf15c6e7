// The CUDA tensor map (CUtensorMap: the descriptor sm_90's TMA copies go
// through) as the compiler and the runtime both see it: the compiler lays
// out kernel parameters and scratch slots of this size, the runtime encodes
// maps into buffers of it (cuTensorMapEncodeTiled). A fact of the CUDA ABI,
// defined once here; this header includes nothing else.
#ifndef TERRAZZO_TENSORMAP_H
#define TERRAZZO_TENSORMAP_H

namespace terrazzo {

/// The bytes of a tensor map; kernels take one by value.
inline constexpr unsigned kTensorMapBytes = 128;
/// The alignment the driver requires of a tensor map in host memory.
inline constexpr unsigned kTensorMapAlignment = 64;

} // namespace terrazzo

#endif // TERRAZZO_TENSORMAP_H
