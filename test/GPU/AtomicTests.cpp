// GPU tests of tile.atomic_rmw and tile.atomic_cas: histograms with many
// collisions (i32 exact, f32 within a tolerance), float max/min with both
// signs, signed zeros and NaNs (IEEE totalOrder, checked bit for bit),
// integer signed and unsigned max/min, exchanges, compare-and-swap claims,
// a spin lock, tickets from atomic adds (every old value returned once),
// scalar atomics whose old value every thread receives, and f16/bf16 adds,
// at 1, 4 and 8 warps, with sizes that are not multiples of the block and
// guard elements past the end that must keep their poison. The kernels are
// in test/GPU/kernels/atomic_*.mlir.
#include "GpuTestSupport.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

using namespace terrazzo;
using namespace terrazzo::gputest;

namespace {

std::string warpsSuffix(int warps) {
  return " (" + std::to_string(warps) + " warp" + (warps > 1 ? "s" : "") + ")";
}

std::vector<int32_t> randomIndices(size_t n, int32_t bins) {
  std::uniform_int_distribution<int32_t> dist(0, bins - 1);
  std::vector<int32_t> values(n);
  for (int32_t &value : values)
    value = dist(rng());
  return values;
}

uint32_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

float bitsFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// f32 to f16 bits, rounding to nearest even (finite values in range).
uint16_t toHalf(float f) {
  uint32_t x = floatBits(f);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exponent = int32_t((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mantissa = x & 0x7FFFFF;
  if (((x >> 23) & 0xFF) == 0xFF)
    return uint16_t(sign | 0x7C00 | (mantissa ? 0x200 : 0));
  if (exponent >= 31)
    return uint16_t(sign | 0x7C00);
  if (exponent <= 0) {
    if (exponent < -10)
      return uint16_t(sign);
    mantissa |= 0x800000;
    int shift = 14 - exponent;
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1FFF;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(sign | half);
}

double halfValue(uint16_t h) {
  int exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
  double magnitude = exponent == 0 ? std::ldexp(double(mantissa), -24)
                     : exponent == 31
                         ? (mantissa ? NAN : INFINITY)
                         : std::ldexp(double(mantissa | 0x400), exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

/// bf16 bits of a float that bf16 holds exactly.
uint16_t toBF16(float f) { return uint16_t(floatBits(f) >> 16); }
double bf16Value(uint16_t b) { return bitsFloat(uint32_t(b) << 16); }

/// The key whose unsigned order is IEEE totalOrder on the bits of a float
/// of `Bits` (uint16_t or uint32_t): -NaN < -inf < ... < -0 < +0 < ... <
/// +inf < +NaN.
template <typename Bits> Bits totalOrderKey(Bits bits) {
  constexpr Bits sign = Bits(Bits(1) << (sizeof(Bits) * 8 - 1));
  return (bits & sign) ? Bits(~bits) : Bits(bits | sign);
}

template <typename Bits> Bits totalOrderMax(Bits a, Bits b) {
  return totalOrderKey(b) > totalOrderKey(a) ? b : a;
}

template <typename Bits> Bits totalOrderMin(Bits a, Bits b) {
  return totalOrderKey(b) < totalOrderKey(a) ? b : a;
}

/// Reports whether the bit patterns `got[0..n)` equal `want[0..n)` and the
/// `guard` elements after them kept the poison.
template <typename T>
void checkBits(const std::string &name, const std::vector<T> &got,
               const std::vector<T> &want, size_t n, size_t guard,
               const std::string &extra = "") {
  size_t bad = 0, firstBad = n, clobbered = 0;
  for (size_t i = 0; i < n; ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && !bad++)
      firstBad = i;
  for (size_t i = n; i < n + guard; ++i)
    clobbered += !isPoison(got[i]);
  char detail[256];
  std::snprintf(detail, sizeof(detail),
                "n=%zu: %zu wrong (first at %zu), %zu of %zu guard elements "
                "overwritten%s",
                n, bad, firstBad, clobbered, guard, extra.c_str());
  report(name, bad == 0 && clobbered == 0, detail);
}

/// Reports whether `tickets[0..n)` are 0..n-1, each once.
template <typename T>
void checkTickets(const std::string &name, const std::vector<T> &tickets,
                  size_t n, double counter, size_t guard) {
  std::vector<T> sorted(tickets.begin(), tickets.begin() + n);
  std::sort(sorted.begin(), sorted.end());
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += double(sorted[i]) != double(i);
  size_t clobbered = 0;
  for (size_t i = n; i < n + guard; ++i)
    clobbered += !isPoison(tickets[i]);
  char detail[256];
  std::snprintf(detail, sizeof(detail),
                "n=%zu: %zu tickets out of place, counter %.0f, %zu of %zu "
                "guard elements overwritten",
                n, bad, counter, clobbered, guard);
  report(name, bad == 0 && counter == double(n) && clobbered == 0, detail);
}

// ---------------------------------------------------------------------------

void testHistogramI32(const LoadedKernel &kernel, size_t n, int32_t bins,
                      int warps) {
  Buffer<int32_t> idx(n), hist(size_t(bins) + kGuard);
  idx.host = randomIndices(n, bins);
  idx.upload();
  std::fill(hist.host.begin(), hist.host.end(), -1);
  std::fill(hist.host.begin(), hist.host.begin() + bins, 0);
  hist.upload();
  launch(kernel, cdiv(n, 512), 1, idx.pointer(), hist.pointer(), int32_t(n));
  check(runtime::synchronize(), "histogram i32");
  hist.download();
  std::vector<int64_t> want(bins, 0);
  for (size_t i = 0; i < n; ++i)
    ++want[idx.host[i]];
  checkElements("histogram i32, " + std::to_string(bins) + " bins" +
                    warpsSuffix(warps),
                hist.host, size_t(bins),
                [&](size_t b) { return double(want[b]); }, 0, kGuard);
}

void testHistogramF32(const LoadedKernel &kernel, size_t n, int32_t bins,
                      int warps) {
  Buffer<int32_t> idx(n);
  Buffer<float> w(n), hist(size_t(bins) + kGuard);
  idx.host = randomIndices(n, bins);
  w.host = randomFloats(n, -1, 1);
  idx.upload();
  w.upload();
  std::fill(hist.host.begin(), hist.host.end(), bitsFloat(0xFFFFFFFF));
  std::fill(hist.host.begin(), hist.host.begin() + bins, 0.0f);
  hist.upload();
  launch(kernel, cdiv(n, 256), 1, idx.pointer(), w.pointer(), hist.pointer(),
         int32_t(n));
  check(runtime::synchronize(), "histogram f32");
  hist.download();
  std::vector<double> want(bins, 0);
  for (size_t i = 0; i < n; ++i)
    want[idx.host[i]] += w.host[i];
  // The order of the additions varies: f32 rounding of up to n / bins
  // terms, relative to max(1, |sum|).
  checkElements("histogram f32, " + std::to_string(bins) + " bins" +
                    warpsSuffix(warps),
                hist.host, size_t(bins), [&](size_t b) { return want[b]; },
                5e-5 * std::sqrt(double(n) / bins + 1), kGuard);
}

void testTicket(const LoadedKernel &kernel, size_t n, size_t block,
                const std::string &name) {
  Buffer<int32_t> counter(1), out(n + kGuard);
  counter.host = {0};
  counter.upload();
  out.poison();
  launch(kernel, cdiv(n, block), 1, counter.pointer(), out.pointer(),
         int32_t(n));
  check(runtime::synchronize(), name);
  out.download();
  counter.download();
  checkTickets(name, out.host, n, counter.host[0], kGuard);
}

void testScalar(const LoadedKernel &kernel, unsigned programs, int warps) {
  Buffer<int32_t> counter(1), out(programs + kGuard),
      rows(size_t(programs) * 64 + kGuard);
  counter.host = {0};
  counter.upload();
  out.poison();
  rows.poison();
  launch(kernel, programs, 1, counter.pointer(), out.pointer(), rows.pointer());
  check(runtime::synchronize(), "scalar atomic");
  out.download();
  rows.download();
  counter.download();
  checkTickets("scalar atomic_add tickets" + warpsSuffix(warps), out.host,
               programs, counter.host[0], kGuard);
  // Every thread holds its program's ticket.
  std::vector<int32_t> want(rows.host.size());
  for (size_t p = 0; p < programs; ++p)
    for (size_t j = 0; j < 64; ++j)
      want[p * 64 + j] = out.host[p];
  checkBits("scalar atomic old value in every thread" + warpsSuffix(warps),
            rows.host, want, size_t(programs) * 64, kGuard);
}

/// Floats with both signs, some signed zeros, infinities and NaNs of both
/// signs.
std::vector<float> specialFloats(size_t n) {
  std::vector<float> values = randomFloats(n, -100, 100);
  std::uniform_int_distribution<int> pick(0, 99);
  for (float &value : values) {
    int p = pick(rng());
    if (p == 0)
      value = 0.0f;
    else if (p == 1)
      value = -0.0f;
    else if (p == 2)
      value = bitsFloat(0x7FC00000); // +NaN
    else if (p == 3)
      value = bitsFloat(0xFFC00000); // -NaN
    else if (p == 4)
      value = -INFINITY;
  }
  return values;
}

void testMinMaxF32(const LoadedKernel &kernel, size_t n, int32_t bins,
                   int warps) {
  Buffer<float> x(n), maxBins(size_t(bins) + kGuard),
      minBins(size_t(bins) + kGuard);
  Buffer<int32_t> idx(n);
  x.host = specialFloats(n);
  idx.host = randomIndices(n, bins);
  x.upload();
  idx.upload();
  // Initial contents: -0.0 for even bins (a +0.0 must win the max), random
  // otherwise.
  std::vector<float> initial = randomFloats(bins, -50, 50);
  for (int32_t b = 0; b < bins; b += 2)
    initial[b] = -0.0f;
  for (Buffer<float> *buffer : {&maxBins, &minBins}) {
    std::fill(buffer->host.begin(), buffer->host.end(), bitsFloat(0xFFFFFFFF));
    std::copy(initial.begin(), initial.end(), buffer->host.begin());
    buffer->upload();
  }
  launch(kernel, cdiv(n, 256), 1, x.pointer(), idx.pointer(),
         maxBins.pointer(), minBins.pointer(), int32_t(n));
  check(runtime::synchronize(), "min/max f32");
  maxBins.download();
  minBins.download();
  std::vector<uint32_t> wantMax(bins + kGuard), wantMin(bins + kGuard);
  for (int32_t b = 0; b < bins; ++b)
    wantMax[b] = wantMin[b] = floatBits(initial[b]);
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = floatBits(x.host[i]);
    wantMax[idx.host[i]] = totalOrderMax(wantMax[idx.host[i]], v);
    wantMin[idx.host[i]] = totalOrderMin(wantMin[idx.host[i]], v);
  }
  std::vector<uint32_t> gotMax(maxBins.host.size()), gotMin(minBins.host.size());
  for (size_t i = 0; i < gotMax.size(); ++i) {
    gotMax[i] = floatBits(maxBins.host[i]);
    gotMin[i] = floatBits(minBins.host[i]);
  }
  std::string size = ", n=" + std::to_string(n) + warpsSuffix(warps);
  checkBits("atomic_max f32 (totalOrder)" + size, gotMax, wantMax,
            size_t(bins), kGuard);
  checkBits("atomic_min f32 (totalOrder)" + size, gotMin, wantMin,
            size_t(bins), kGuard);
}

void testMinMaxF16(const LoadedKernel &kernel, size_t n, int32_t bins,
                   int warps) {
  Buffer<uint16_t> x(n), maxBins(size_t(bins) + kGuard),
      minBins(size_t(bins) + kGuard);
  Buffer<int32_t> idx(n);
  std::vector<float> values = specialFloats(n);
  for (size_t i = 0; i < n; ++i)
    x.host[i] = toHalf(values[i]);
  idx.host = randomIndices(n, bins);
  x.upload();
  idx.upload();
  std::vector<float> initialFloats = randomFloats(bins, -50, 50);
  std::vector<uint16_t> initial(bins);
  for (int32_t b = 0; b < bins; ++b)
    initial[b] = b % 2 ? toHalf(initialFloats[b]) : uint16_t(0x8000);
  for (Buffer<uint16_t> *buffer : {&maxBins, &minBins}) {
    std::fill(buffer->host.begin(), buffer->host.end(), uint16_t(0xFFFF));
    std::copy(initial.begin(), initial.end(), buffer->host.begin());
    buffer->upload();
  }
  launch(kernel, cdiv(n, 256), 1, x.pointer(), idx.pointer(),
         maxBins.pointer(), minBins.pointer(), int32_t(n));
  check(runtime::synchronize(), "min/max f16");
  maxBins.download();
  minBins.download();
  std::vector<uint16_t> wantMax(bins + kGuard), wantMin(bins + kGuard);
  for (int32_t b = 0; b < bins; ++b)
    wantMax[b] = wantMin[b] = initial[b];
  for (size_t i = 0; i < n; ++i) {
    wantMax[idx.host[i]] = totalOrderMax(wantMax[idx.host[i]], x.host[i]);
    wantMin[idx.host[i]] = totalOrderMin(wantMin[idx.host[i]], x.host[i]);
  }
  std::string size = ", n=" + std::to_string(n) + warpsSuffix(warps);
  checkBits("atomic_max f16 (CAS loop)" + size, maxBins.host, wantMax,
            size_t(bins), kGuard);
  checkBits("atomic_min f16 (CAS loop)" + size, minBins.host, wantMin,
            size_t(bins), kGuard);
}

void testMinMaxInt(const LoadedKernel &kernel, size_t n, int32_t bins,
                   int warps) {
  Buffer<int32_t> x(n), idx(n);
  std::uniform_int_distribution<int32_t> any(
      std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  for (int32_t &value : x.host)
    value = any(rng());
  idx.host = randomIndices(n, bins);
  x.upload();
  idx.upload();
  std::vector<int32_t> initial(bins);
  for (int32_t &value : initial)
    value = any(rng()) / 4;
  std::vector<Buffer<int32_t>> outs;
  for (int k = 0; k < 4; ++k) {
    outs.emplace_back(size_t(bins) + kGuard);
    std::fill(outs[k].host.begin(), outs[k].host.end(), -1);
    std::copy(initial.begin(), initial.end(), outs[k].host.begin());
    outs[k].upload();
  }
  launch(kernel, cdiv(n, 256), 1, x.pointer(), idx.pointer(),
         outs[0].pointer(), outs[1].pointer(), outs[2].pointer(),
         outs[3].pointer(), int32_t(n));
  check(runtime::synchronize(), "min/max int");
  std::vector<std::vector<int32_t>> want(4, std::vector<int32_t>(bins + kGuard));
  for (int k = 0; k < 4; ++k)
    std::copy(initial.begin(), initial.end(), want[k].begin());
  for (size_t i = 0; i < n; ++i) {
    int32_t b = idx.host[i], v = x.host[i];
    want[0][b] = std::max(want[0][b], v);
    want[1][b] = std::min(want[1][b], v);
    want[2][b] = int32_t(std::max(uint32_t(want[2][b]), uint32_t(v)));
    want[3][b] = int32_t(std::min(uint32_t(want[3][b]), uint32_t(v)));
  }
  const char *names[] = {"atomic_max i32", "atomic_min i32", "atomic_max u32",
                         "atomic_min u32"};
  for (int k = 0; k < 4; ++k) {
    outs[k].download();
    checkBits(std::string(names[k]) + ", n=" + std::to_string(n) +
                  warpsSuffix(warps),
              outs[k].host, want[k], size_t(bins), kGuard);
  }
}

void testXchg(const LoadedKernel &kernel, size_t n, int warps) {
  Buffer<float> p(n + kGuard), v(n), old(n + kGuard);
  Buffer<uint16_t> ph(n + kGuard), vh(n), oldh(n + kGuard);
  std::vector<float> initial = randomFloats(n, -10, 10);
  v.host = randomFloats(n, -10, 10);
  std::vector<float> hv = randomFloats(2 * n, -10, 10);
  std::fill(p.host.begin(), p.host.end(), bitsFloat(0xFFFFFFFF));
  std::copy(initial.begin(), initial.end(), p.host.begin());
  std::fill(ph.host.begin(), ph.host.end(), uint16_t(0xFFFF));
  for (size_t i = 0; i < n; ++i) {
    ph.host[i] = toBF16(hv[i]);
    vh.host[i] = toBF16(hv[n + i]);
  }
  std::vector<uint16_t> initialH(ph.host.begin(), ph.host.end());
  p.upload();
  v.upload();
  ph.upload();
  vh.upload();
  old.poison();
  oldh.poison();
  launch(kernel, cdiv(n, 256), 1, p.pointer(), v.pointer(), old.pointer(),
         ph.pointer(), vh.pointer(), oldh.pointer(), int32_t(n));
  check(runtime::synchronize(), "xchg");
  p.download();
  old.download();
  ph.download();
  oldh.download();
  std::vector<float> wantP(p.host.size(), bitsFloat(0xFFFFFFFF));
  std::copy(v.host.begin(), v.host.end(), wantP.begin());
  std::vector<float> wantOld(old.host.size());
  std::copy(initial.begin(), initial.end(), wantOld.begin());
  std::vector<uint16_t> wantPH(ph.host.size(), 0xFFFF);
  std::copy(vh.host.begin(), vh.host.end(), wantPH.begin());
  std::string size = ", n=" + std::to_string(n) + warpsSuffix(warps);
  checkBits("atomic_xchg f32 memory" + size, p.host, wantP, n, kGuard);
  checkBits("atomic_xchg f32 old values" + size, old.host, wantOld, n, kGuard);
  checkBits("atomic_xchg bf16 memory" + size, ph.host, wantPH, n, kGuard);
  checkBits("atomic_xchg bf16 old values" + size, oldh.host, initialH, n,
            kGuard);
}

void testCasClaim(const LoadedKernel &kernel, size_t n, int32_t slots,
                  int warps) {
  Buffer<int32_t> slot(size_t(slots) + kGuard), idx(n), got(n + kGuard);
  idx.host = randomIndices(n, slots);
  idx.upload();
  // Free slots hold -1, which is also the poison the guard past them must
  // keep.
  std::fill(slot.host.begin(), slot.host.end(), -1);
  slot.upload();
  got.poison();
  launch(kernel, cdiv(n, 256), 1, slot.pointer(), idx.pointer(), got.pointer(),
         int32_t(n));
  check(runtime::synchronize(), "cas claim");
  slot.download();
  got.download();
  // Per slot: exactly one element found -1 (the winner), the slot holds
  // its index, and every other element of the slot found the winner.
  std::map<int32_t, std::vector<size_t>> members;
  for (size_t i = 0; i < n; ++i)
    members[idx.host[i]].push_back(i);
  size_t badSlots = 0;
  for (int32_t s = 0; s < slots; ++s) {
    auto it = members.find(s);
    if (it == members.end()) {
      badSlots += slot.host[s] != -1;
      continue;
    }
    int32_t winner = slot.host[s];
    size_t winners = 0, wrong = 0;
    bool member = false;
    for (size_t i : it->second) {
      member |= int32_t(i) == winner;
      if (got.host[i] == -1)
        winners += int32_t(i) == winner;
      else
        wrong += got.host[i] != winner;
      wrong += got.host[i] == -1 && int32_t(i) != winner;
    }
    badSlots += !member || winners != 1 || wrong != 0;
  }
  size_t clobbered = 0;
  for (size_t i = n; i < n + kGuard; ++i)
    clobbered += !isPoison(got.host[i]);
  for (size_t s = slots; s < slot.host.size(); ++s)
    clobbered += !isPoison(slot.host[s]);
  char detail[200];
  std::snprintf(detail, sizeof(detail),
                "n=%zu, %d slots: %zu slots wrong, %zu guard elements "
                "overwritten",
                n, slots, badSlots, clobbered);
  report("atomic_cas claims" + warpsSuffix(warps),
         badSlots == 0 && clobbered == 0, detail);
}

void testLock(const LoadedKernel &kernel, unsigned programs, int32_t iters,
              int warps) {
  Buffer<int32_t> lock(1), counter(1);
  lock.host = {0};
  counter.host = {0};
  lock.upload();
  counter.upload();
  launch(kernel, programs, 1, lock.pointer(), counter.pointer(), iters);
  check(runtime::synchronize(), "lock");
  lock.download();
  counter.download();
  char detail[160];
  std::snprintf(detail, sizeof(detail),
                "%u programs x %d: counter %d (want %lld), lock %d", programs,
                iters, counter.host[0], (long long)programs * iters,
                lock.host[0]);
  report("atomic_cas spin lock" + warpsSuffix(warps),
         counter.host[0] == int64_t(programs) * iters && lock.host[0] == 0,
         detail);
}

void testAddReturn(const LoadedKernel &kernel, size_t n, int warps) {
  Buffer<float> counter(1), out(n + kGuard);
  Buffer<double> counter64(1), out64(n + kGuard);
  counter.host = {0.0f};
  counter64.host = {0.0};
  counter.upload();
  counter64.upload();
  out.poison();
  out64.poison();
  launch(kernel, cdiv(n, 128), 1, counter.pointer(), out.pointer(),
         counter64.pointer(), out64.pointer(), int32_t(n));
  check(runtime::synchronize(), "add return");
  counter.download();
  out.download();
  counter64.download();
  out64.download();
  checkTickets("atomic_add f32 old values" + warpsSuffix(warps), out.host, n,
               counter.host[0], kGuard);
  checkTickets("atomic_add f64 old values" + warpsSuffix(warps), out64.host, n,
               counter64.host[0], kGuard);
}

void testAddHalf(const LoadedKernel &kernel, unsigned rows, int32_t cols,
                 int warps) {
  // Small integers: every partial sum is exact in f16 and bf16.
  std::uniform_int_distribution<int> dist(-3, 3);
  Buffer<uint16_t> xh(size_t(rows) * cols), xb(size_t(rows) * cols),
      outh(size_t(cols) + kGuard), outb(size_t(cols) + kGuard);
  std::vector<double> wantH(cols, 0), wantB(cols, 0);
  for (unsigned r = 0; r < rows; ++r)
    for (int32_t j = 0; j < cols; ++j) {
      int a = dist(rng()), b = dist(rng());
      xh.host[size_t(r) * cols + j] = toHalf(float(a));
      xb.host[size_t(r) * cols + j] = toBF16(float(b));
      wantH[j] += a;
      wantB[j] += b;
    }
  xh.upload();
  xb.upload();
  std::fill(outh.host.begin(), outh.host.end(), uint16_t(0xFFFF));
  std::fill(outb.host.begin(), outb.host.end(), uint16_t(0xFFFF));
  std::fill(outh.host.begin(), outh.host.begin() + cols, uint16_t(0));
  std::fill(outb.host.begin(), outb.host.begin() + cols, uint16_t(0));
  outh.upload();
  outb.upload();
  launch(kernel, rows, 1, xh.pointer(), outh.pointer(), xb.pointer(),
         outb.pointer(), cols);
  check(runtime::synchronize(), "add half");
  outh.download();
  outb.download();
  std::vector<double> gotH(outh.host.size()), gotB(outb.host.size());
  for (size_t i = 0; i < gotH.size(); ++i) {
    gotH[i] = halfValue(outh.host[i]);
    gotB[i] = bf16Value(outb.host[i]);
  }
  size_t badH = 0, badB = 0, clobbered = 0;
  for (int32_t j = 0; j < cols; ++j) {
    badH += gotH[j] != wantH[j];
    badB += gotB[j] != wantB[j];
  }
  for (size_t i = cols; i < outh.host.size(); ++i)
    clobbered += !isPoison(outh.host[i]) + !isPoison(outb.host[i]);
  char detail[200];
  std::snprintf(detail, sizeof(detail),
                "%u rows x %d: %zu f16 and %zu bf16 sums wrong, %zu guard "
                "elements overwritten",
                rows, cols, badH, badB, clobbered);
  report("atomic_add f16 and bf16" + warpsSuffix(warps),
         badH == 0 && badB == 0 && clobbered == 0, detail);
}

} // namespace

TERRAZZO_GPU_TEST_SUITE(atomic) {
  const std::string dir = "test/GPU/kernels/";
  for (int warps : {1, 4, 8}) {
    LoadedKernel histI32 = loadKernel(dir + "atomic_histogram_i32.mlir", warps);
    for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
      testHistogramI32(histI32, n, 37, warps);
    testHistogramI32(histI32, 4099, 1, warps); // every element collides

    LoadedKernel histF32 = loadKernel(dir + "atomic_histogram_f32.mlir", warps);
    for (size_t n : {size_t(1), size_t(1000), size_t(100003)})
      testHistogramF32(histF32, n, 37, warps);

    LoadedKernel ticket = loadKernel(dir + "atomic_ticket.mlir", warps);
    for (size_t n : {size_t(1), size_t(777), size_t(65539)})
      testTicket(ticket, n, 256, "atomic_add tickets" + warpsSuffix(warps));
    // 16 elements over 32 to 256 threads: copies must not add again.
    LoadedKernel small = loadKernel(dir + "atomic_ticket_small.mlir", warps);
    for (size_t n : {size_t(5), size_t(16 * 41 + 9)})
      testTicket(small, n, 16,
                 "atomic_add tickets, 16-element blocks" + warpsSuffix(warps));

    LoadedKernel scalar = loadKernel(dir + "atomic_scalar.mlir", warps);
    testScalar(scalar, 1, warps);
    testScalar(scalar, 300, warps);

    LoadedKernel minmax = loadKernel(dir + "atomic_minmax_f32.mlir", warps);
    for (size_t n : {size_t(1), size_t(1000), size_t(50001)})
      testMinMaxF32(minmax, n, 29, warps);
    LoadedKernel minmaxHalf = loadKernel(dir + "atomic_minmax_f16.mlir", warps);
    for (size_t n : {size_t(1000), size_t(50001)})
      testMinMaxF16(minmaxHalf, n, 29, warps);
    LoadedKernel minmaxInt = loadKernel(dir + "atomic_minmax_int.mlir", warps);
    for (size_t n : {size_t(1000), size_t(50001)})
      testMinMaxInt(minmaxInt, n, 29, warps);

    LoadedKernel xchg = loadKernel(dir + "atomic_xchg.mlir", warps);
    for (size_t n : {size_t(1), size_t(1000), size_t(70001)})
      testXchg(xchg, n, warps);

    LoadedKernel claim = loadKernel(dir + "atomic_cas_claim.mlir", warps);
    for (size_t n : {size_t(1), size_t(1000), size_t(60007)})
      testCasClaim(claim, n, 101, warps);

    LoadedKernel lock = loadKernel(dir + "atomic_lock.mlir", warps);
    testLock(lock, 264, 8, warps);

    LoadedKernel addRet = loadKernel(dir + "atomic_add_ret.mlir", warps);
    for (size_t n : {size_t(1), size_t(1000), size_t(40007)})
      testAddReturn(addRet, n, warps);

    LoadedKernel addHalf = loadKernel(dir + "atomic_add_half.mlir", warps);
    testAddHalf(addHalf, 64, 256, warps);
    testAddHalf(addHalf, 37, 208, warps); // a multiple of 16, as the kernel assumes
  }
}
