//===- CPUDescription.h - The x86 CPU code is compiled for ------*- C++ -*-===//
//
// What the CPU kernels' tile, block and band sizes and their choice of
// instructions depend on: the CPU's caches, its vector ISA and its
// extensions (VNNI, BF16, AMX). A description comes from the host (LLVM's
// host CPU name and features, cache sizes from sysfs) or from an LLVM CPU
// name (`cpu=skylake-avx512`), so that ahead-of-time objects can be built
// for another machine.
//
// --relay-to-llvm records the description on the module as MLIR's target
// description, a DLTI target system spec with one device "CPU":
//
//   module attributes {dlti.target_system_spec = #dlti.target_system_spec<
//       "CPU" = #dlti.target_device_spec<
//           "cpu" = "znver4", "L1_cache_size_in_bytes" = 32768 : i64, ...>>}
//
// and the kernels read it back at the op they lower (cpuFor), so a module
// that carries its own spec is compiled for the CPU it names.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUDESCRIPTION_H
#define RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUDESCRIPTION_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <string>

namespace mlir::relay::cpu {

struct CPUDescription {
  /// LLVM's name of the CPU (`-mcpu`), e.g. "znver4", "sapphirerapids".
  std::string name;
  /// LLVM subtarget features beyond those the name implies ("+avx512f,..."),
  /// for the host: what it reports (a virtual machine may hide some).
  std::string features;
  /// Data cache sizes: L1 and L2 of one core, and the share of the last
  /// level cache one core can count on.
  int64_t l1Bytes = 32 << 10;
  int64_t l2Bytes = 1 << 20;
  int64_t l3BytesPerCore = 2 << 20;
  /// The threads the code runs on (--relay-to-llvm's `threads`): the
  /// kernels cut their work into bands that divide among them.
  int64_t threads = 1;
  /// Widest vector registers (512 with AVX-512, 256 with AVX2) and how many
  /// there are.
  int64_t vectorBits = 512;
  /// AVX-512 VNNI and BW (vpdpbusd on zmm).
  bool vnni = false;
  /// AVX-512 BF16 (vdpbf16ps on zmm).
  bool bf16 = false;
  /// AMX tiles with bf16 products (tdpbf16ps).
  bool amx = false;
  /// AMX tiles with int8 products (tdpbssd).
  bool amxInt8 = false;

  /// f32 lanes of one vector register.
  int64_t f32Lanes() const { return vectorBits / 32; }
  int64_t vectorRegisters() const { return vectorBits == 512 ? 32 : 16; }
  /// The register tile of products (rows x f32 columns): two vectors wide,
  /// 8x32 with AVX-512 (16 of the 32 registers accumulate) and 6x16 with
  /// AVX2 (12 of 16: the other 3 hold the two vectors of B and the
  /// broadcast of A). 2 FMA pipes of latency 4 need 8 independent
  /// accumulators; AVX2's 4x16 had just those 8, no slack (a 512^3 product
  /// 45 -> 56 GFLOP/s with 6x16 on a Zen 3, oneDNN 64).
  int64_t registerTileRows() const;
  /// The fewest accumulators a register tile keeps the FMA pipes busy with:
  /// 2 pipes of latency 4 need 8 in flight, and the loads and broadcasts
  /// between them need slack (AVX2's 4x16 tiles, 8 accumulators, ran a
  /// 512^3 product 20% slower than 6x16 tiles on a Zen 3).
  static constexpr int64_t kMinTileAccumulators = 10;
  /// The least work (2*m*n*k) of a contraction split across threads. Handing
  /// a task to a spinning worker of the C runtime costs about a microsecond;
  /// MobileNet-V2 at two threads ran fastest with 2 MFLOP (5.2 ms, against
  /// 6.6 ms with 48 MFLOP and k >= 256, which the wake-ups of MLIR's own
  /// async runtime asked for).
  static constexpr int64_t kParallelMinFlops = 2 << 20;
  /// Whether a product reads the rows of its left operand in place at any
  /// size, rather than copying them into panels once they outgrow half of
  /// L2 (MatrixProducts' panelRows): a Zen 5. There, in place ran 384^3 to
  /// 4096^3 products 2-15% faster at one thread and 7-21% at two (no copy
  /// nor its parallel region; 1024^3: 9.2 -> 9.0 ms and 5.1 -> 4.8 ms, 2048^3
  /// 82 -> 75 and 42 -> 39), where a Xeon ran 768^3 and 1024^3 6-12% faster
  /// packed. A Zen 4 (an L1 of 8 ways, not 12, for a register tile's 8
  /// rows a row apart) is not measured: it keeps the packed rule.
  bool readsProductRowsInPlace() const { return name == "znver5"; }
  /// The rows of a product's cache tile: 8 register tiles.
  int64_t cacheTileRows() const { return 8 * registerTileRows(); }
  int64_t registerTileColumns() const { return 2 * f32Lanes(); }
  /// The columns of the panels a packed product operand `width` columns
  /// wide (a multiple of 16) is stored in: one register tile's, so that
  /// each tile streams its own panel, where they divide it; else 16. (With
  /// AVX2's 16-column tiles, 32-column panels made each tile read half of
  /// every 128-byte panel row: the 512-channel 7x7 layers 25% slower.)
  int64_t panelColumns(int64_t width) const;
  /// The k tile of a product on packed panels whose register tiles are
  /// `columns` wide: the slice of a panel it reads (k x columns elements of
  /// `elementBytes`) takes two thirds of L1, where each of the m tiles
  /// reads it in turn (--relay-tile-and-vectorize's schedulePanelProduct).
  /// On a Xeon with a 48 KB L1, a 1024^3 product's C loops in that order
  /// ran at 157 GFLOP/s with k tiles of 256 (two thirds), 147 with 128.
  int64_t panelSliceK(int64_t columns, int64_t elementBytes) const {
    return std::max<int64_t>(1, l1Bytes * 2 / 3 / (columns * elementBytes));
  }
  /// The bytes of a block of A's rows by a k tile a product on packed panels
  /// keeps in L2 while B's panels' slices stream past (half of it).
  int64_t panelBlockBytes() const { return l2Bytes / 2; }
  /// `rows` of a product (its m loop) padded with zero rows, by under 15%,
  /// where that makes them fit the tiles better; else `rows`. Up to twice
  /// cacheTileRows(), rows are one cache tile and need register tiles with
  /// at least 10 accumulators (AVX2: 49 -> 54 rows of 6-row tiles, 28 -> 30;
  /// AVX-512 keeps 49 as 7-row tiles). Beyond, the cache tiles must be at
  /// least half of cacheTileRows() too, since each reads all of B again
  /// (with 6-row tiles, 4096 rows padded to 4098 would take 6-row cache
  /// tiles: a 4096^3 product at 0.3 of oneDNN's speed; 4104 has 24-row
  /// ones); rows that such a cache tile divides unpadded are padded only
  /// by under 3% (AVX2: 196 stays, in cache tiles of 28).
  int64_t paddedTileRows(int64_t rows) const;
};

/// The largest share of a last-level cache one core of any x86 part has:
/// AMD's stacked-cache parts, 96 MB for 8 cores (12 MB; an EPYC 9684X,
/// 1,152 MB for 96).
constexpr int64_t kMaxL3BytesPerCore = 12 << 20;

/// The share of a last-level cache of `bytes` that each of the
/// `sharingCPUs` sysfs says share it can count on. A virtual machine is
/// told its host's whole cache shared by its own few CPUs (a 2-CPU VM of a
/// Xeon: 480 MB, 240 MB each); no part has more than kMaxL3BytesPerCore a
/// core, so a share beyond that is taken as that. (With 240 MB, a 4096^3
/// product never blocked its panels and ran at 98 GFLOP/s against 127.)
int64_t lastLevelCacheShare(int64_t bytes, int64_t sharingCPUs);

/// Where Linux's sysfs describes cpu0's caches (every core of an x86
/// package has the same).
constexpr llvm::StringLiteral kHostCacheDir =
    "/sys/devices/system/cpu/cpu0/cache";

/// Sets `cpu`'s data caches: first those of the family `cpu.name` belongs
/// to (a table of LLVM's names), then each level a sysfs cache directory
/// (`cacheDir`, holding index0, index1, ...) gives, the last level as the
/// share of one of the CPUs it names as sharing it (lastLevelCacheShare). A
/// level neither gives (virtual machines often show no caches in sysfs)
/// keeps the value it had: on a Zen 5 VM without sysfs caches the
/// defaults' 2 MB of L3 a core ran 4096^3 products at 170 / 233 GFLOP/s
/// (one / two threads), the family's 4 MB at 190 / 316. hostCPU() reads
/// kHostCacheDir; tests give their own.
void readCaches(CPUDescription &cpu, StringRef cacheDir);

/// The host CPU (computed once).
const CPUDescription &hostCPU();

/// The CPU `name` names: "host" (or empty) for hostCPU(), else an LLVM x86-64
/// CPU name (as `llc -mcpu=help` lists them). Fails with a message naming
/// the valid names when `name` is none of them.
FailureOr<CPUDescription> lookupCPU(StringRef name, std::string &error);

/// Records `cpu` on `module` as its DLTI target system spec (device "CPU").
void setModuleCPU(ModuleOp module, const CPUDescription &cpu);

/// Records on `module`'s target spec (adding a "CPU" device if it has none)
/// that its code runs on `threads` threads; 1 leaves a spec without the key
/// as it is.
void setModuleThreads(ModuleOp module, int64_t threads);
/// Whether `module`'s target spec has a "CPU" device; fails, setting
/// `error`, when that device names a CPU that is not a string or that LLVM
/// does not know.
FailureOr<bool> moduleDescribesCPU(ModuleOp module, std::string &error);

/// The CPU recorded on the module around `op` (setModuleCPU, or a spec a
/// user wrote: missing keys take the host's values); the host when there is
/// none.
CPUDescription cpuFor(Operation *op);

/// cpuFor the op `b` inserts into.
CPUDescription cpuAt(OpBuilder &b);

/// Whether code for `cpu` runs on this machine: every feature it needs is
/// the host's; else sets `missing` to those it lacks.
bool runsOnHost(const CPUDescription &cpu, std::string &missing);

} // namespace mlir::relay::cpu

#endif // RELAY_MLIR_TRANSFORMS_CODEGEN_CPU_CPUDESCRIPTION_H
