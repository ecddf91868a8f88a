//===- BindParams.cpp - Parameters bound to constants ---------------------===//
//
// --relay-bind-params (TVM's bind_params_by_name): each parameter of a
// function that DIR holds a `<name>.npy` for becomes that constant and
// leaves the signature, so that what needs constants (quantizing weights,
// constant folding, packed weights) sees them. Names are the parameters'
// Relay names (`%w` is `w.npy`).
//
//===----------------------------------------------------------------------===//

#include "transforms/Passes.h"

#include "dialects/relay/RelayOps.h"
#include "runtime/Interpreter/Npy.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace mlir::relay {
#define GEN_PASS_DEF_BINDPARAMS
#include "transforms/Passes.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The Relay name of a block argument (its NameLoc), or "".
StringRef nameOf(BlockArgument arg) {
  if (auto named = dyn_cast<NameLoc>(arg.getLoc()))
    return named.getName().getValue();
  return "";
}

struct BindParamsPass : relay::impl::BindParamsBase<BindParamsPass> {
  using BindParamsBase::BindParamsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto fail = [&](Location loc) {
      signalPassFailure();
      return emitError(loc, "--relay-bind-params: ");
    };
    auto func = module.lookupSymbol<FuncOp>(this->func);
    if (!func || func.isExternal()) {
      fail(module.getLoc()) << "the module has no function @" << this->func;
      return;
    }
    if (!llvm::sys::fs::is_directory(dir)) {
      fail(module.getLoc()) << "'" << dir << "' is not a directory";
      return;
    }
    Block &body = func.getBody().front();
    llvm::StringMap<unsigned> params;
    std::string known;
    for (BlockArgument arg : body.getArguments()) {
      params[nameOf(arg)] = arg.getArgNumber();
      known += (known.empty() ? "" : ", ") + nameOf(arg).str();
    }
    std::error_code ec;
    SmallVector<std::string> files;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (StringRef(it->path()).ends_with(".npy"))
        files.push_back(it->path());
    if (ec) {
      fail(module.getLoc()) << "cannot read '" << dir << "': " << ec.message();
      return;
    }
    llvm::sort(files);
    llvm::BitVector bound(body.getNumArguments());
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    for (const std::string &file : files) {
      StringRef name = llvm::sys::path::stem(file);
      auto it = params.find(name);
      if (it == params.end() || name.empty()) {
        fail(func.getLoc())
            << "'" << file << "' names no parameter of @" << this->func
            << " (its parameters: " << known << ")";
        return;
      }
      BlockArgument arg = body.getArgument(it->second);
      std::string error;
      std::unique_ptr<llvm::MemoryBuffer> bytes = openInputFile(file, &error);
      FailureOr<interp::Tensor> t =
          bytes ? interp::readNpy(&getContext(), bytes->getBuffer(), error)
                : FailureOr<interp::Tensor>(failure());
      if (failed(t)) {
        fail(arg.getLoc()) << "'" << file << "': " << error;
        return;
      }
      if (t->getType() != arg.getType()) {
        fail(arg.getLoc()) << "'" << file << "' holds a " << t->getType()
                           << " for parameter %" << name << " of type "
                           << arg.getType();
        return;
      }
      Value c = ConstantOp::create(b, arg.getLoc(), t->toAttr());
      arg.replaceAllUsesWith(c);
      bound.set(it->second);
    }
    if (failed(func.eraseArguments(bound)))
      fail(func.getLoc()) << "cannot remove the bound parameters";
  }
};

} // namespace
