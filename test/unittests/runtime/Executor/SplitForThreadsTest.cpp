//===- SplitForThreadsTest.cpp - Splitting loop nests off a module --------===//
//
// The loop-nest functions move into parts compiled on other threads, with
// copies of the private functions and constants they use; the program calls
// them through slots; nests that use the program's own functions or mutable
// globals stay.
//
//===----------------------------------------------------------------------===//

#include "runtime/Executor/SplitForThreads.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

constexpr const char *kProgram = R"mlir(
  llvm.mlir.global private constant @table(dense<[1.0, 2.0]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
  llvm.mlir.global private @state(0 : i64) {addr_space = 0 : i32} : i64
  llvm.func @relay_rt_fail(!llvm.ptr)
  llvm.func @helper(%x: f32) -> f32 attributes {sym_visibility = "private"} {
    llvm.return %x : f32
  }
  llvm.func @big(%p: !llvm.ptr) attributes {relay.loop_nest, sym_visibility = "private"} {
    %t = llvm.mlir.addressof @table : !llvm.ptr
    %v = llvm.load %t : !llvm.ptr -> f32
    %w = llvm.call @helper(%v) : (f32) -> f32
    llvm.store %w, %p : f32, !llvm.ptr
    llvm.call @relay_rt_fail(%p) : (!llvm.ptr) -> ()
    %a = llvm.fadd %w, %w : f32
    %b = llvm.fadd %a, %a : f32
    llvm.store %b, %p : f32, !llvm.ptr
    llvm.return
  }
  llvm.func @small(%p: !llvm.ptr) attributes {relay.loop_nest, sym_visibility = "private"} {
    %c = llvm.mlir.constant(1.0 : f32) : f32
    llvm.store %c, %p : f32, !llvm.ptr
    llvm.return
  }
  llvm.func @calls_main(%p: !llvm.ptr) attributes {relay.loop_nest, sym_visibility = "private"} {
    llvm.call @main(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @uses_state(%p: !llvm.ptr) attributes {relay.loop_nest, sym_visibility = "private"} {
    %s = llvm.mlir.addressof @state : !llvm.ptr
    llvm.store %p, %s : !llvm.ptr, !llvm.ptr
    llvm.return
  }
  llvm.func @main(%p: !llvm.ptr) {
    llvm.call @big(%p) : (!llvm.ptr) -> ()
    llvm.call @small(%p) : (!llvm.ptr) -> ()
    llvm.call @calls_main(%p) : (!llvm.ptr) -> ()
    llvm.call @uses_state(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
)mlir";

class SplitForThreadsTest : public ::testing::Test {
protected:
  SplitForThreadsTest() { context.loadDialect<LLVM::LLVMDialect>(); }
  MLIRContext context;
};

LLVM::LLVMFuncOp function(ModuleOp module, StringRef name) {
  return module.lookupSymbol<LLVM::LLVMFuncOp>(name);
}

TEST_F(SplitForThreadsTest, MovesNestsWithWhatTheyUse) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  relay::LoopNestParts split = relay::splitLoopNests(*module, 2, /*minOps=*/0);
  SmallVector<OwningOpRef<ModuleOp>> &parts = split.modules;
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(split.throughSlots);
  // The larger nest goes first, each to a part of its own.
  ModuleOp first = *parts[0], second = *parts[1];
  ASSERT_TRUE(function(first, "big"));
  EXPECT_FALSE(function(first, "big").isExternal());
  EXPECT_EQ(function(first, "big").getLinkage(), LLVM::Linkage::External);
  EXPECT_EQ(SymbolTable::getSymbolVisibility(function(first, "big")),
            SymbolTable::Visibility::Public);
  // Its private helper and constant are copied in, internal; the runtime
  // function is declared.
  ASSERT_TRUE(function(first, "helper"));
  EXPECT_EQ(function(first, "helper").getLinkage(), LLVM::Linkage::Internal);
  ASSERT_TRUE(first.lookupSymbol<LLVM::GlobalOp>("table"));
  EXPECT_TRUE(function(first, "relay_rt_fail").isExternal());
  EXPECT_FALSE(function(first, "small"));
  ASSERT_TRUE(function(second, "small"));
  EXPECT_FALSE(function(second, "helper"));
  EXPECT_TRUE(succeeded(verify(first)));
  EXPECT_TRUE(succeeded(verify(second)));

  // The program calls the moved nests through slots (no declarations
  // left: it links without the parts), and keeps the nests that use its
  // own function or its mutable global.
  EXPECT_FALSE(function(*module, "big"));
  EXPECT_FALSE(function(*module, "small"));
  for (StringRef nest : {"big", "small"}) {
    auto slot = module->lookupSymbol<LLVM::GlobalOp>(relay::nestSlotName(nest));
    ASSERT_TRUE(slot);
    EXPECT_FALSE(slot.getConstant());
    EXPECT_EQ(slot.getLinkage(), LLVM::Linkage::External);
  }
  int indirect = 0;
  function(*module, "main").walk([&](LLVM::CallOp call) {
    indirect += !call.getCallee();
  });
  EXPECT_EQ(indirect, 2);
  EXPECT_FALSE(function(*module, "calls_main").isExternal());
  EXPECT_FALSE(function(*module, "uses_state").isExternal());
  EXPECT_FALSE(function(*module, "helper").isExternal());
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(SplitForThreadsTest, LeavesSmallProgramsWhole) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kProgram, &context);
  ASSERT_TRUE(module);
  EXPECT_TRUE(
      relay::splitLoopNests(*module, 2, /*minOps=*/1000).modules.empty());
  EXPECT_FALSE(function(*module, "big").isExternal());
}

} // namespace
