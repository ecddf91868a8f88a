//===- CPUDescriptionTest.cpp - The CPU the kernels are sized for ---------===//

#include "transforms/Codegen/CPU/CPUDescription.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir::relay::cpu;
using mlir::StringRef;

namespace {

// Tests that a last-level cache is shared among the CPUs sysfs names.
TEST(CPUDescriptionTest, LastLevelShareDividesTheCache) {
  EXPECT_EQ(lastLevelCacheShare(32 << 20, 16), 2 << 20);
  EXPECT_EQ(lastLevelCacheShare(8 << 20, 1), 8 << 20);
  // An unreadable count (0) is one CPU.
  EXPECT_EQ(lastLevelCacheShare(4 << 20, 0), 4 << 20);
}

// Tests that a virtual machine's view of its host's whole cache (480 MB for
// 2 CPUs) is not taken for a core's share: no part has over 12 MB a core.
TEST(CPUDescriptionTest, LastLevelShareOfAVirtualMachineIsBounded) {
  EXPECT_EQ(lastLevelCacheShare(int64_t(480) << 20, 2), kMaxL3BytesPerCore);
  EXPECT_EQ(lastLevelCacheShare(int64_t(96) << 20, 8), 12 << 20);
}

// Tests that the host's description never counts on more than that.
TEST(CPUDescriptionTest, HostShareIsBounded) {
  EXPECT_GT(hostCPU().l3BytesPerCore, 0);
  EXPECT_LE(hostCPU().l3BytesPerCore, kMaxL3BytesPerCore);
}

// Tests that a CPU named by LLVM takes its family's caches and ISA, and
// that an unknown name is refused with the valid names.
TEST(CPUDescriptionTest, NamedCPUs) {
  std::string error;
  auto spr = lookupCPU("sapphirerapids", error);
  ASSERT_TRUE(succeeded(spr)) << error;
  EXPECT_EQ(spr->l2Bytes, 2 << 20);
  EXPECT_EQ(spr->vectorBits, 512);
  EXPECT_TRUE(spr->amx);
  EXPECT_TRUE(spr->amxInt8);
  auto icelake = lookupCPU("icelake-server", error);
  ASSERT_TRUE(succeeded(icelake)) << error;
  EXPECT_TRUE(icelake->vnni);
  EXPECT_FALSE(icelake->amxInt8);
  auto haswell = lookupCPU("haswell", error);
  ASSERT_TRUE(succeeded(haswell)) << error;
  EXPECT_EQ(haswell->vectorBits, 256);
  EXPECT_FALSE(haswell->amx);
  EXPECT_FALSE(haswell->amxInt8);
  EXPECT_TRUE(failed(lookupCPU("pentium-9000", error)));
  EXPECT_NE(error.find("unknown CPU 'pentium-9000'"), std::string::npos);
  EXPECT_NE(error.find("znver4"), std::string::npos);
}

/// A sysfs cache directory in a fresh temporary directory, removed at the
/// end of the test: index0, index1, ... each with the files given.
class FakeCacheDir {
public:
  FakeCacheDir() {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("relay-cache", root));
  }
  ~FakeCacheDir() { llvm::sys::fs::remove_directories(root); }
  /// Adds index`index` with a `level`, `type`, `size` and, when not empty,
  /// `shared_cpu_list` file.
  void add(int index, StringRef level, StringRef type, StringRef size,
           StringRef shared = "") {
    llvm::SmallString<128> dir(root);
    llvm::sys::path::append(dir, "index" + llvm::Twine(index));
    ASSERT_FALSE(llvm::sys::fs::create_directories(dir));
    write(dir, "level", level);
    write(dir, "type", type);
    write(dir, "size", size);
    if (!shared.empty())
      write(dir, "shared_cpu_list", shared);
  }
  StringRef path() const { return root; }

private:
  static void write(StringRef dir, StringRef name, StringRef text) {
    llvm::SmallString<128> file(dir);
    llvm::sys::path::append(file, name);
    std::error_code error;
    llvm::raw_fd_ostream os(file, error);
    ASSERT_FALSE(error) << error.message();
    // sysfs ends each file with a newline.
    os << text << "\n";
  }
  llvm::SmallString<128> root;
};

/// A description named `name` with every cache at a recognisable value.
CPUDescription named(StringRef name) {
  CPUDescription cpu;
  cpu.name = name.str();
  cpu.l1Bytes = 1;
  cpu.l2Bytes = 2;
  cpu.l3BytesPerCore = 3;
  return cpu;
}

// Tests that without sysfs caches (a virtual machine that shows none) the
// host's family gives them: a Zen 5 has 48 KB, 1 MB and 4 MB a core.
TEST(CPUDescriptionTest, CachesFromTheFamilyWithoutSysfs) {
  FakeCacheDir none;
  CPUDescription zen5 = named("znver5");
  readCaches(zen5, none.path());
  EXPECT_EQ(zen5.l1Bytes, 48 << 10);
  EXPECT_EQ(zen5.l2Bytes, 1 << 20);
  EXPECT_EQ(zen5.l3BytesPerCore, 4 << 20);
  // A directory that does not exist reads as one without caches.
  CPUDescription spr = named("sapphirerapids");
  readCaches(spr, "/nonexistent/relay-mlir/cache");
  EXPECT_EQ(spr.l2Bytes, 2 << 20);
  EXPECT_EQ(spr.l3BytesPerCore, 1875 << 10);
}

// Tests that a family the table does not know, without sysfs caches, keeps
// the values it had.
TEST(CPUDescriptionTest, UnknownFamilyWithoutSysfsKeepsItsCaches) {
  FakeCacheDir none;
  CPUDescription cpu = named("some-future-cpu");
  readCaches(cpu, none.path());
  EXPECT_EQ(cpu.l1Bytes, 1);
  EXPECT_EQ(cpu.l2Bytes, 2);
  EXPECT_EQ(cpu.l3BytesPerCore, 3);
}

// Tests that sysfs's sizes win over the family's, that instruction caches
// are skipped, and that the last level is divided among the CPUs sharing
// it.
TEST(CPUDescriptionTest, SysfsCachesOverrideTheFamily) {
  FakeCacheDir dir;
  dir.add(0, "1", "Data", "32K");
  dir.add(1, "1", "Instruction", "64K");
  dir.add(2, "2", "Unified", "2048K");
  dir.add(3, "3", "Unified", "32768K", "0-7,16-23");
  CPUDescription cpu = named("znver5");
  readCaches(cpu, dir.path());
  EXPECT_EQ(cpu.l1Bytes, 32 << 10);
  EXPECT_EQ(cpu.l2Bytes, 2 << 20);
  EXPECT_EQ(cpu.l3BytesPerCore, 2 << 20);
}

// Tests that a level sysfs lacks or cannot be read (an empty size) keeps
// the family's value while the others come from sysfs, and that a virtual
// machine's whole host cache for its two CPUs is bounded per core.
TEST(CPUDescriptionTest, PartialSysfsKeepsTheFamilyForTheRest) {
  FakeCacheDir dir;
  dir.add(0, "1", "Data", "48K");
  dir.add(1, "2", "Unified", "");
  dir.add(2, "3", "Unified", "491520K", "0-1");
  CPUDescription cpu = named("graniterapids");
  readCaches(cpu, dir.path());
  EXPECT_EQ(cpu.l1Bytes, 48 << 10);
  EXPECT_EQ(cpu.l2Bytes, 2 << 20);
  EXPECT_EQ(cpu.l3BytesPerCore, kMaxL3BytesPerCore);
  // Without the last level in sysfs, the family's share stays.
  FakeCacheDir twoLevels;
  twoLevels.add(0, "1", "Data", "48K");
  twoLevels.add(1, "2", "Unified", "1M");
  CPUDescription zen5 = named("znver5");
  readCaches(zen5, twoLevels.path());
  EXPECT_EQ(zen5.l2Bytes, 1 << 20);
  EXPECT_EQ(zen5.l3BytesPerCore, 4 << 20);
}

} // namespace
