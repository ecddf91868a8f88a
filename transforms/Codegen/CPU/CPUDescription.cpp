//===- CPUDescription.cpp - The x86 CPU code is compiled for ----*- C++ -*-===//

#include "transforms/Codegen/CPU/CPUDescription.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <optional>

using namespace mlir;
using namespace mlir::relay::cpu;

/// The DLTI device and keys the description is recorded under. The cache
/// key is upstream's (DataLayout::getDevicePropertyValue users such as the
/// transform dialect's tiling read "L1_cache_size_in_bytes"); the others
/// follow its spelling.
static constexpr llvm::StringLiteral kDevice = "CPU", kName = "cpu",
                                     kFeatures = "features",
                                     kL1 = "L1_cache_size_in_bytes",
                                     kL2 = "L2_cache_size_in_bytes",
                                     kL3 = "L3_cache_size_in_bytes_per_core",
                                     kVectorBits = "max_vector_op_width",
                                     kThreads = "threads";

/// The ISA facts of a feature set (LLVM's names).
static void setISA(CPUDescription &cpu, const llvm::StringMap<bool> &features) {
  cpu.vectorBits = features.lookup("avx512f") ? 512
                   : features.lookup("avx2")  ? 256
                                              : 128;
  cpu.vnni = features.lookup("avx512vnni") && features.lookup("avx512bw");
  cpu.bf16 = features.lookup("avx512bf16") && features.lookup("avx512bw");
  cpu.amx = features.lookup("amx-tile") && features.lookup("amx-bf16");
  cpu.amxInt8 = features.lookup("amx-tile") && features.lookup("amx-int8");
}

/// A subtarget feature string ("+avx2,-avx512f,...") as a map.
static llvm::StringMap<bool> parseFeatures(StringRef features) {
  llvm::StringMap<bool> map;
  SmallVector<StringRef> list;
  features.split(list, ',', -1, /*KeepEmpty=*/false);
  for (StringRef f : list)
    map[f.drop_front()] = f.front() == '+';
  return map;
}

/// The "CPU" device of `module`'s DLTI target system spec, if any.
static std::optional<TargetDeviceSpecInterface> cpuDeviceSpec(ModuleOp module) {
  auto system = module->getAttrOfType<TargetSystemSpecAttr>(
      DLTIDialect::kTargetSystemDescAttrName);
  if (!system)
    return std::nullopt;
  return system.getDeviceSpecForDeviceID(
      StringAttr::get(module.getContext(), kDevice));
}

/// "48K", "2048K", "32M" as bytes; 0 when unreadable.
static int64_t parseCacheSize(StringRef text) {
  text = text.trim();
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1 << 10;
  else if (text.consume_back("M"))
    scale = 1 << 20;
  int64_t value = 0;
  if (text.getAsInteger(10, value))
    return 0;
  return value * scale;
}

/// A sysfs file's text, trimmed; empty when unreadable. (sysfs files say
/// they have 4096 bytes: they are read as streams.)
static std::string readFile(const Twine &path) {
  auto buffer = llvm::MemoryBuffer::getFileAsStream(path);
  return buffer ? (*buffer)->getBuffer().trim().str() : std::string();
}

/// How many CPUs a sysfs cpu list ("0-1", "0,4,8-11") names.
static int64_t countCPUs(StringRef list) {
  int64_t count = 0;
  SmallVector<StringRef> ranges;
  list.split(ranges, ',', -1, /*KeepEmpty=*/false);
  for (StringRef range : ranges) {
    auto [first, last] = range.split('-');
    int64_t lo = 0, hi = 0;
    if (first.trim().getAsInteger(10, lo))
      continue;
    hi = lo;
    if (!last.empty() && last.trim().getAsInteger(10, hi))
      continue;
    count += std::max<int64_t>(1, hi - lo + 1);
  }
  return count;
}

int64_t mlir::relay::cpu::lastLevelCacheShare(int64_t bytes,
                                              int64_t sharingCPUs) {
  return std::min(bytes / std::max<int64_t>(1, sharingCPUs),
                  kMaxL3BytesPerCore);
}

namespace {
/// Data caches of a family of CPUs LLVM names (per core; the last level's
/// share per core as the parts are sold, not as a virtual machine sees it).
struct CacheSizes {
  int64_t l1, l2, l3PerCore;
};
} // namespace

/// The caches of the family `name` belongs to, if the table knows it.
static std::optional<CacheSizes> cachesOf(StringRef name) {
  constexpr int64_t K = 1 << 10, M = 1 << 20;
  return llvm::StringSwitch<std::optional<CacheSizes>>(name)
      .Cases({"skylake-avx512", "cascadelake", "cooperlake"},
             CacheSizes{32 * K, 1 * M, 1375 * K})
      .Cases({"icelake-server", "sapphirerapids", "emeraldrapids"},
             CacheSizes{48 * K, 2 * M, 1875 * K})
      .Cases({"graniterapids", "graniterapids-d", "diamondrapids"},
             CacheSizes{48 * K, 2 * M, 4 * M})
      .Cases({"icelake-client", "tigerlake", "rocketlake"},
             CacheSizes{48 * K, 512 * K, 2 * M})
      .Cases({"alderlake", "raptorlake", "meteorlake", "arrowlake",
              "arrowlake-s", "lunarlake", "pantherlake"},
             CacheSizes{48 * K, 1280 * K, 3 * M})
      .Cases({"znver1", "znver2", "znver3"}, CacheSizes{32 * K, 512 * K, 4 * M})
      .Case("znver4", CacheSizes{32 * K, 1 * M, 4 * M})
      .Case("znver5", CacheSizes{48 * K, 1 * M, 4 * M})
      .Case("x86-64-v4", CacheSizes{32 * K, 1 * M, 2 * M})
      .Default(std::nullopt);
}

void mlir::relay::cpu::readCaches(CPUDescription &cpu, StringRef cacheDir) {
  if (std::optional<CacheSizes> family = cachesOf(cpu.name)) {
    cpu.l1Bytes = family->l1;
    cpu.l2Bytes = family->l2;
    cpu.l3BytesPerCore = family->l3PerCore;
  }
  for (int index = 0; index < 8; ++index) {
    std::string dir = (cacheDir + "/index" + Twine(index)).str();
    std::string level = readFile(dir + "/level");
    if (level.empty())
      break;
    if (readFile(dir + "/type") == "Instruction")
      continue;
    int64_t size = parseCacheSize(readFile(dir + "/size"));
    if (size <= 0)
      continue;
    if (level == "1")
      cpu.l1Bytes = size;
    else if (level == "2")
      cpu.l2Bytes = size;
    else if (level == "3")
      cpu.l3BytesPerCore = lastLevelCacheShare(
          size, countCPUs(readFile(dir + "/shared_cpu_list")));
  }
}

const CPUDescription &mlir::relay::cpu::hostCPU() {
  static const CPUDescription host = [] {
    CPUDescription cpu;
    cpu.name = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
    SmallVector<std::string> list;
    for (const auto &feature : features)
      list.push_back((feature.second ? "+" : "-") + feature.first().str());
    llvm::sort(list);
    cpu.features = llvm::join(list, ",");
    setISA(cpu, features);
    readCaches(cpu, kHostCacheDir);
    return cpu;
  }();
  return host;
}

FailureOr<CPUDescription> mlir::relay::cpu::lookupCPU(StringRef name,
                                                      std::string &error) {
  if (name.empty() || name == "host" || name == "native")
    return hostCPU();
  if (llvm::X86::parseArchX86(name, /*Only64Bit=*/true) == llvm::X86::CK_None) {
    SmallVector<StringRef> valid;
    llvm::X86::fillValidCPUArchList(valid, /*Only64Bit=*/true);
    error = ("unknown CPU '" + name +
             "'; expected host or one of LLVM's x86-64 CPUs: " +
             llvm::join(valid, ", "))
                .str();
    return failure();
  }
  CPUDescription cpu;
  cpu.name = name.str();
  SmallVector<StringRef> names;
  llvm::X86::getFeaturesForCPU(name, names, /*NeedPlus=*/false);
  llvm::StringMap<bool> features;
  SmallVector<std::string> list;
  for (StringRef feature : names) {
    features[feature] = true;
    list.push_back("+" + feature.str());
  }
  llvm::sort(list);
  cpu.features = llvm::join(list, ",");
  setISA(cpu, features);
  // Haswell to Skylake clients and anything older or generic.
  CacheSizes caches =
      cachesOf(name).value_or(CacheSizes{32 << 10, 256 << 10, 2 << 20});
  cpu.l1Bytes = caches.l1;
  cpu.l2Bytes = caches.l2;
  cpu.l3BytesPerCore = caches.l3PerCore;
  return cpu;
}

/// `module`'s target system spec with its "CPU" device made of `entries`
/// (other devices kept).
static void setCPUDeviceSpec(ModuleOp module,
                             ArrayRef<DataLayoutEntryInterface> entries) {
  MLIRContext *ctx = module.getContext();
  auto name = StringAttr::get(ctx, kDevice);
  SmallVector<DataLayoutEntryInterface> devices;
  if (auto system = module->getAttrOfType<TargetSystemSpecAttr>(
          DLTIDialect::kTargetSystemDescAttrName))
    for (DataLayoutEntryInterface e : system.getEntries())
      if (e.getKey() != DataLayoutEntryKey(name))
        devices.push_back(e);
  devices.push_back(
      DataLayoutEntryAttr::get(name, TargetDeviceSpecAttr::get(ctx, entries)));
  module->setAttr(DLTIDialect::kTargetSystemDescAttrName,
                  TargetSystemSpecAttr::get(ctx, devices));
}

void mlir::relay::cpu::setModuleCPU(ModuleOp module,
                                    const CPUDescription &cpu) {
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<DLTIDialect>();
  Builder b(ctx);
  auto entry = [&](StringRef key, Attribute value) -> DataLayoutEntryInterface {
    return DataLayoutEntryAttr::get(b.getStringAttr(key), value);
  };
  SmallVector<DataLayoutEntryInterface> entries = {
      entry(kName, b.getStringAttr(cpu.name)),
      entry(kFeatures, b.getStringAttr(cpu.features)),
      entry(kL1, b.getI64IntegerAttr(cpu.l1Bytes)),
      entry(kL2, b.getI64IntegerAttr(cpu.l2Bytes)),
      entry(kL3, b.getI64IntegerAttr(cpu.l3BytesPerCore)),
      entry(kVectorBits, b.getI64IntegerAttr(cpu.vectorBits))};
  if (cpu.threads > 1)
    entries.push_back(entry(kThreads, b.getI64IntegerAttr(cpu.threads)));
  setCPUDeviceSpec(module, entries);
}

void mlir::relay::cpu::setModuleThreads(ModuleOp module, int64_t threads) {
  std::optional<TargetDeviceSpecInterface> device = cpuDeviceSpec(module);
  MLIRContext *ctx = module.getContext();
  auto key = StringAttr::get(ctx, kThreads);
  if (threads <= 1 && (!device || !device->getSpecForIdentifier(key)))
    return;
  ctx->getOrLoadDialect<DLTIDialect>();
  SmallVector<DataLayoutEntryInterface> entries;
  if (device)
    for (DataLayoutEntryInterface e : device->getEntries())
      if (e.getKey() != DataLayoutEntryKey(key))
        entries.push_back(e);
  entries.push_back(DataLayoutEntryAttr::get(
      key, IntegerAttr::get(IntegerType::get(ctx, 64), threads)));
  setCPUDeviceSpec(module, entries);
}

FailureOr<bool> mlir::relay::cpu::moduleDescribesCPU(ModuleOp module,
                                                     std::string &error) {
  std::optional<TargetDeviceSpecInterface> device = cpuDeviceSpec(module);
  if (!device)
    return false;
  DataLayoutEntryInterface name =
      device->getSpecForIdentifier(StringAttr::get(module.getContext(), kName));
  if (!name)
    return true;
  auto value = dyn_cast<StringAttr>(name.getValue());
  if (!value) {
    error = "its \"cpu\" is not a string";
    return failure();
  }
  if (failed(lookupCPU(value, error)))
    return failure();
  return true;
}

CPUDescription mlir::relay::cpu::cpuFor(Operation *op) {
  auto module = op ? (isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                                        : op->getParentOfType<ModuleOp>())
                   : ModuleOp();
  CPUDescription cpu = hostCPU();
  if (!module)
    return cpu;
  std::optional<TargetDeviceSpecInterface> device = cpuDeviceSpec(module);
  if (!device)
    return cpu;
  auto string = [&](StringRef key, std::string &into) {
    if (DataLayoutEntryInterface e = device->getSpecForIdentifier(
            StringAttr::get(module.getContext(), key)))
      if (auto s = dyn_cast<StringAttr>(e.getValue()))
        into = s.str();
  };
  auto integer = [&](StringRef key, int64_t &into) {
    if (DataLayoutEntryInterface e = device->getSpecForIdentifier(
            StringAttr::get(module.getContext(), key)))
      if (auto i = dyn_cast<IntegerAttr>(e.getValue()); i && i.getInt() > 0)
        into = i.getInt();
  };
  std::string name = cpu.name;
  string(kName, name);
  // A named CPU other than the host's brings its own features and caches;
  // the spec's explicit keys override them.
  if (name != cpu.name) {
    std::string error;
    if (FailureOr<CPUDescription> named = lookupCPU(name, error);
        succeeded(named))
      cpu = *named;
  }
  std::string features = cpu.features;
  string(kFeatures, features);
  if (features != cpu.features) {
    cpu.features = features;
    setISA(cpu, parseFeatures(features));
  }
  integer(kL1, cpu.l1Bytes);
  integer(kL2, cpu.l2Bytes);
  integer(kL3, cpu.l3BytesPerCore);
  integer(kVectorBits, cpu.vectorBits);
  integer(kThreads, cpu.threads);
  return cpu;
}

int64_t CPUDescription::registerTileRows() const {
  return vectorBits == 512 ? 8 : 6;
}

int64_t CPUDescription::panelColumns(int64_t width) const {
  int64_t tile = registerTileColumns();
  return width % tile == 0 ? tile : 16;
}

int64_t CPUDescription::paddedTileRows(int64_t rows) const {
  int64_t tile = registerTileRows(), cache = cacheTileRows();
  int64_t vectors = registerTileColumns() / f32Lanes();
  auto whole = [&](int64_t size) {
    if (size <= 2 * cache) {
      for (int64_t d = std::min(tile, size);
           d * vectors >= kMinTileAccumulators; --d)
        if (size % d == 0)
          return true;
      return false;
    }
    for (int64_t t = cache; 2 * t >= cache; t -= tile)
      if (size % t == 0)
        return true;
    return false;
  };
  if (rows <= tile || whole(rows))
    return rows;
  // Beyond two cache tiles, rows with a divisor of at least half a cache
  // tile are tiled by it unpadded (TileAndVectorize: 196 = 7 x 28, each
  // 24 rows of whole register tiles and 4 of their own) unless padding adds
  // under 3%: on a Zen 3, 196 rows padded to 210 (5 x 42) ran ConvNeXt-T's
  // and Swin-T's 196 x 384 x 1536 products 5-10% slower than unpadded.
  bool dividesUnpadded = false;
  if (rows > 2 * cache)
    for (int64_t t = cache; 2 * t >= cache && !dividesUnpadded; --t)
      dividesUnpadded = rows % t == 0;
  for (int64_t padded = (rows + tile - 1) / tile * tile;
       (padded - rows) * 100 < rows * (dividesUnpadded ? 3 : 15);
       padded += tile)
    if (whole(padded))
      return padded;
  return rows;
}

CPUDescription mlir::relay::cpu::cpuAt(OpBuilder &b) {
  Block *block = b.getInsertionBlock();
  return cpuFor(block ? block->getParentOp() : nullptr);
}

/// Whether LLVM's feature `name` adds instructions that compiled code may
/// use. Others (x87, which every x86-64 CPU has but the host query omits;
/// pku, sgx, which a virtual machine may hide) say nothing about it.
static bool isInstructionSetFeature(StringRef name) {
  for (StringRef prefix :
       {"avx",        "amx",     "sse",    "ssse",  "fma",  "f16c",
        "bmi",        "popcnt",  "lzcnt",  "movbe", "gfni", "vaes",
        "vpclmulqdq", "aes",     "pclmul", "sha",   "adx",  "cx16",
        "crc32",      "evex512", "apx",    "egpr"})
    if (name.starts_with(prefix))
      return true;
  return false;
}

bool mlir::relay::cpu::runsOnHost(const CPUDescription &cpu,
                                  std::string &missing) {
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  SmallVector<std::string> lacking;
  for (const auto &feature : parseFeatures(cpu.features))
    if (feature.second && isInstructionSetFeature(feature.first()) &&
        !host.lookup(feature.first()))
      lacking.push_back(feature.first().str());
  llvm::sort(lacking);
  missing = llvm::join(lacking, ", ");
  return lacking.empty();
}
