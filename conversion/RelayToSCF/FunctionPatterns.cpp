//===- FunctionPatterns.cpp - relay.func/call/return to func ----*- C++ -*-===//

#include "conversion/RelayCommon/RelayConversionPattern.h"
#include "conversion/RelayToSCF/RelayToSCF.h"

#include "dialects/relay/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

/// `'type'`, as diagnostics print a type.
std::string quoted(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << type << "'";
  return s;
}

/// relay.func @f(...) -> R: func.func @f on the flattened signature, with
/// a C interface (the executor calls it) and the same visibility.
struct FuncOpLowering : RelayOpConversionPattern<FuncOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(FuncOp func, OneToNOpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (func.isPolymorphic())
      return fail(rewriter, func,
                  "cannot lower polymorphic @" + func.getSymName() +
                      " (run --relay-specialize first)");
    const TypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(func.getNumArguments());
    SmallVector<Type> results;
    Type offending;
    auto unsupported = [&](Type t) {
      return fail(rewriter, func,
                  "cannot lower @" + func.getSymName() +
                      " yet: its signature has " + quoted(t) +
                      " (native code handles tensors of static shape and "
                      "tuples of them)");
    };
    for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
      SmallVector<Type> types;
      if (failed(converter.convertType(t, types)))
        return unsupported(t);
      signature.addInputs(i, types);
    }
    if (failed(convertTypes(func.getResultTypes(), results, offending)))
      return unsupported(offending);
    auto lowered = func::FuncOp::create(
        rewriter, func.getLoc(), func.getSymName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    lowered->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
    if (func.getSymVisibility())
      lowered.setSymVisibility(*func.getSymVisibility());
    rewriter.inlineRegionBefore(func.getBody(), lowered.getBody(),
                                lowered.end());
    rewriter.applySignatureConversion(&lowered.getBody().front(), signature,
                                      &converter);
    rewriter.eraseOp(func);
    return success();
  }
};

/// relay.call @f(...): func.call @f on the flattened values.
struct CallOpLowering : RelayOpConversionPattern<CallOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(CallOp call, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    Type offending;
    if (failed(convertTypes(call->getResultTypes(), results, offending)))
      return failOnType(rewriter, call, offending);
    auto lowered =
        func::CallOp::create(rewriter, call.getLoc(), call.getCallee(), results,
                             flattenOperands(adaptor.getOperands()));
    rewriter.replaceOpWithMultiple(call, {lowered.getResults()});
    return success();
  }
};

/// relay.return in a func.func (a converted relay.func or a lifted
/// closure body): func.return of the flattened value.
struct ReturnOpLowering : RelayOpConversionPattern<ReturnOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(ReturnOp ret, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<func::FuncOp>(ret->getParentOp()))
      return rewriter.notifyMatchFailure(ret, "not in a func.func yet");
    rewriter.replaceOpWithNewOp<func::ReturnOp>(
        ret, flattenOperands(adaptor.getOperands()));
    return success();
  }
};

/// relay.yield in an scf.if (a converted `if`, or a case of a converted
/// `match`): scf.yield of the flattened value.
struct YieldOpLowering : RelayOpConversionPattern<YieldOp> {
  using RelayOpConversionPattern::RelayOpConversionPattern;

  LogicalResult
  matchAndRewrite(YieldOp yield, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<scf::IfOp>(yield->getParentOp()))
      return rewriter.notifyMatchFailure(yield, "not in an scf.if yet");
    rewriter.replaceOpWithNewOp<scf::YieldOp>(
        yield, flattenOperands(adaptor.getOperands()));
    return success();
  }
};

} // namespace

void mlir::relay::populateRelayFunctionToFuncPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<FuncOpLowering, CallOpLowering>(converter,
                                               patterns.getContext());
}

void mlir::relay::populateRelayTerminatorConversionPatterns(
    RelayTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReturnOpLowering, YieldOpLowering>(converter,
                                                  patterns.getContext());
}
