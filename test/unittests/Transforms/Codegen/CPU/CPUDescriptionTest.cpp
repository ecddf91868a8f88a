//===- CPUDescriptionTest.cpp - The CPU the kernels are sized for ---------===//

#include "transforms/Codegen/CPU/CPUDescription.h"

#include <gtest/gtest.h>

using namespace mlir::relay::cpu;

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

} // namespace
