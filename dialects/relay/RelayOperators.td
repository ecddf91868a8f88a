//===- RelayOperators.td - Relay operators -----------------*- tablegen -*-===//
//
// Relay's primitive operators, one op each, named as in TVM (`relay.add`,
// `relay.nn.conv2d`) with TVM's attribute names. Every operator is pure and
// is typed by a type relation (TypeRelations.h) checked by its verifier.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_OPERATORS
#define RELAY_OPERATORS

include "dialects/relay/RelayDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Base class of every operator: pure, printed as
/// `relay.<name> %a, %b {attrs} : (T1, T2) -> R`.
class Relay_OperatorOp<string mnemonic, list<Trait> traits = []>
    : Relay_Op<mnemonic, !listconcat([Pure], traits)> {
  let results = (outs AnyType:$result);
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
}

/// Elementwise binary operators typed by the Broadcast relation: numpy
/// broadcasting of the two shapes, equal dtypes.
class Relay_BroadcastOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic> {
  let summary = "Elementwise " # what # " with numpy broadcasting";
  let description = [{
    Typed by the Broadcast relation: both operands are tensors of the same
    dtype whose shapes broadcast (numpy rules, `?` unifies with any
    dimension); the result has the broadcast shape and that dtype.

    ```mlir
    %r = relay.}] # mnemonic # [{ %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins AnyType:$lhs, AnyType:$rhs);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifyBroadcastOperator(*this, /*toBool=*/false);
    }
  }];
}

/// Elementwise comparisons: typed by BroadcastToBool.
class Relay_CompareOp<string mnemonic, string what>
    : Relay_OperatorOp<mnemonic> {
  let summary = "Elementwise " # what # " comparison with numpy broadcasting";
  let description = [{
    Typed by the BroadcastToBool relation: like Broadcast, but the result
    dtype is `i1` (Relay's `bool`).

    ```mlir
    %r = relay.}] # mnemonic # [{ %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    ```
  }];
  let arguments = (ins AnyType:$lhs, AnyType:$rhs);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return verifyBroadcastOperator(*this, /*toBool=*/true);
    }
  }];
}

def Relay_AddOp : Relay_BroadcastOp<"add", "addition">;
def Relay_SubtractOp : Relay_BroadcastOp<"subtract", "subtraction">;
def Relay_MultiplyOp : Relay_BroadcastOp<"multiply", "multiplication">;
def Relay_DivideOp : Relay_BroadcastOp<"divide", "division">;
def Relay_PowerOp : Relay_BroadcastOp<"power", "power">;
def Relay_ModOp : Relay_BroadcastOp<"mod", "remainder">;
def Relay_MaximumOp : Relay_BroadcastOp<"maximum", "maximum">;
def Relay_MinimumOp : Relay_BroadcastOp<"minimum", "minimum">;
def Relay_LogicalAndOp : Relay_BroadcastOp<"logical_and", "logical and">;
def Relay_LogicalOrOp : Relay_BroadcastOp<"logical_or", "logical or">;

def Relay_EqualOp : Relay_CompareOp<"equal", "==">;
def Relay_NotEqualOp : Relay_CompareOp<"not_equal", "!=">;
def Relay_LessOp : Relay_CompareOp<"less", "<">;
def Relay_LessEqualOp : Relay_CompareOp<"less_equal", "<=">;
def Relay_GreaterOp : Relay_CompareOp<"greater", ">">;
def Relay_GreaterEqualOp : Relay_CompareOp<"greater_equal", ">=">;

#endif // RELAY_OPERATORS
