//===- Dialects.cpp - C API: the relay dialect and its passes ---*- C++ -*-===//

#include "capi/Dialects.h"

#include "dialects/relay/RelayDialect.h"
#include "tools/init/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include <mutex>

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Relay, relay, mlir::relay::RelayDialect)

void mlirRelayRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::relay::registerAllDialects(*unwrap(registry));
}

MlirContext mlirRelayContextCreate(void) {
  mlir::DialectRegistry registry;
  mlir::relay::registerAllDialects(registry);
  auto *context = new mlir::MLIRContext(registry);
  context->loadAllAvailableDialects();
  context->printOpOnDiagnostic(false);
  return wrap(context);
}

void mlirRelayRegisterAllPasses(void) {
  // A pipeline registered twice is a fatal error in MLIR's registry.
  static std::once_flag once;
  std::call_once(once, [] { mlir::relay::registerAllPasses(); });
}
