//===- RelayDocs.td - The relay dialect's documentation -----*- tablegen -*-===//
//
// Everything the relay dialect defines (its types, attributes, structural
// ops and operators), for mlir-tblgen -gen-dialect-doc: build/docs/Dialects/
// RelayDialect.md (`ninja relay-mlir-doc`).
//
//===----------------------------------------------------------------------===//

include "dialects/relay/RelayOps.td"
include "dialects/relay/RelayOperators.td"
