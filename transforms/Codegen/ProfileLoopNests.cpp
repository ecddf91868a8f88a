//===- ProfileLoopNests.cpp - Each loop nest's call timed -----------------===//
//
// --relay-profile-loop-nests: every call of an outlined loop nest is
// bracketed by the C runtime's profile clock and a record under the
// Relay operator's location (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

namespace mlir::relay {
#define GEN_PASS_DEF_PROFILELOOPNESTS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kClock = "relay_rt_profile_clock";
constexpr llvm::StringLiteral kRecord = "relay_rt_profile_record";

/// `loc` as a profile names it: a named location (an ONNX node's name, a
/// Relay variable's) with the place it names, a file's `file:line:col`, a
/// fused one's distinct parts (the first three, joined by " + "); "" where
/// nothing is known.
void describe(Location loc, llvm::raw_ostream &os) {
  if (auto named = dyn_cast<NameLoc>(loc)) {
    os << named.getName().getValue();
    std::string place;
    llvm::raw_string_ostream placeOs(place);
    describe(named.getChildLoc(), placeOs);
    if (!place.empty())
      os << " (" << place << ")";
  } else if (auto file = dyn_cast<FileLineColLoc>(loc)) {
    os << llvm::sys::path::filename(file.getFilename().getValue()) << ":"
       << file.getLine() << ":" << file.getColumn();
  } else if (auto fused = dyn_cast<FusedLoc>(loc)) {
    // (The operators a nest computes, or fusion merged: the first three.)
    SmallVector<std::string> parts;
    for (Location part : fused.getLocations()) {
      std::string text;
      llvm::raw_string_ostream textOs(text);
      describe(part, textOs);
      if (!text.empty() && !llvm::is_contained(parts, text))
        parts.push_back(text);
    }
    for (auto [k, part] : llvm::enumerate(parts)) {
      if (k == 3) {
        os << " + " << parts.size() - 3 << " more";
        break;
      }
      os << (k ? " + " : "") << part;
    }
  } else if (auto site = dyn_cast<CallSiteLoc>(loc)) {
    describe(site.getCallee(), os);
  }
}

struct ProfileLoopNests
    : public relay::impl::ProfileLoopNestsBase<ProfileLoopNests> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SymbolTable symbols(module);
    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && relay::hasCodegenMark(callee, relay::CodegenMark::LoopNest))
        calls.push_back({call, callee});
    });
    if (calls.empty())
      return;

    OpBuilder builder(ctx);
    builder.setInsertionPointToEnd(module.getBody());
    Type i64 = builder.getI64Type();
    Type pointer = LLVM::LLVMPointerType::get(ctx);
    auto declare = [&](StringRef name, FunctionType type) {
      if (auto existing = symbols.lookup<func::FuncOp>(name))
        return existing;
      auto func = func::FuncOp::create(builder, module.getLoc(), name, type);
      func.setPrivate();
      symbols.insert(func);
      return func;
    };
    func::FuncOp clock = declare(kClock, builder.getFunctionType({}, {i64}));
    func::FuncOp record =
        declare(kRecord, builder.getFunctionType({pointer, i64}, {}));

    // One string constant per distinct name: the runtime sums by address.
    llvm::StringMap<LLVM::GlobalOp> names;
    for (auto [call, callee] : calls) {
      std::string name;
      llvm::raw_string_ostream os(name);
      describe(call.getLoc(), os);
      if (name.empty())
        name = callee.getName().str();
      LLVM::GlobalOp &global = names[name];
      if (!global) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPointToStart(module.getBody());
        std::string text = name + '\0';
        auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
        global = LLVM::GlobalOp::create(
            builder, call.getLoc(), type, /*isConstant=*/true,
            LLVM::Linkage::Internal,
            "relay_profile_name_" + std::to_string(names.size() - 1),
            builder.getStringAttr(text));
        symbols.insert(global);
      }
      Location loc = call.getLoc();
      builder.setInsertionPoint(call);
      Value start = func::CallOp::create(builder, loc, clock).getResult(0);
      builder.setInsertionPointAfter(call);
      Value address = LLVM::AddressOfOp::create(builder, loc, global);
      func::CallOp::create(builder, loc, record, ValueRange{address, start});
    }
    numNests += calls.size();
  }
};

} // namespace
