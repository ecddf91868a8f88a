//===- RelayOps.td - Relay language ops --------------------*- tablegen -*-===//
//
// The ops of Relay's language core: definitions, calls, closures, control
// flow, ADTs, tuples, constants and references. Operators (`relay.add`, ...)
// are in RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_OPS
#define RELAY_OPS

include "dialects/relay/RelayDialect.td"
include "dialects/relay/RelayTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// The store of reference cells: ref ops read, write and allocate it.
def Relay_RefResource : Resource<"::mlir::relay::RefResource">;

def Relay_RefTypeConstraint : Type<CPred<"::llvm::isa<::mlir::relay::RefType>($_self)">,
    "Relay reference type", "::mlir::relay::RefType">;

//===----------------------------------------------------------------------===//
// Global functions and calls
//===----------------------------------------------------------------------===//

def Relay_FuncOp : Relay_Op<"func", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A global function definition: Relay's `def @f`";
  let description = [{
    A global function. Optional type parameters (with kinds) make it
    polymorphic; they are instantiated at each `relay.call`. The body is one
    block ending in `relay.return`; global calls (including recursive and
    mutually recursive ones) refer to the function by symbol.

    ```mlir
    relay.func @id[a](%x: !relay.tvar<a>) -> !relay.tvar<a> {
      relay.return %x : !relay.tvar<a>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<TypeArrayAttr>:$type_params,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  // No block only for a moment: the inliner moves the body of a callee it
  // inlines into its one caller out before it erases the callee, and may
  // verify it in between. The parser asks for a body.
  let regions = (region MaxSizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::TypeRange":$inputs,
                   "::mlir::Type":$result,
                   CArg<"::llvm::ArrayRef<TypeVarType>", "{}">:$typeParams)>
  ];
  let extraClassDeclaration = [{
    //===------------------------------------------------------------------===//
    // FunctionOpInterface / CallableOpInterface
    //===------------------------------------------------------------------===//
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }

    /// The single result type of the function.
    ::mlir::Type getReturnType() { return getFunctionType().getResult(0); }
    /// The type parameters, in order.
    ::llvm::SmallVector<TypeVarType> getTypeParamList();
    bool isPolymorphic() { return getTypeParams() && !getTypeParams()->empty(); }
    /// The function's Relay type: `fn<type params>(inputs) -> result`.
    FuncType getRelayType();
  }];
}

def Relay_ReturnOp : Relay_Op<"return", [
    Pure, Terminator, ReturnLike, ParentOneOf<["FuncOp", "FnOp"]>]> {
  let summary = "Returns the value of a function or closure body";
  let description = [{
    ```mlir
    relay.return %x : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
  let hasVerifier = 1;
}

def Relay_CallOp : Relay_Op<"call", [
    CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Calls a global function: `@f(%a, %b)`";
  let description = [{
    Calls the `relay.func` named by `callee`. A polymorphic callee may be
    given explicit type arguments (Relay's `@f<T1, T2>(...)`), one per type
    parameter: a type for kind Type, an element type for BaseType, an
    `array<i64: ...>` of sizes (-1 for `?`) for Shape, an integer for
    ShapeVar. Without them, type inference finds them. The call has the effects of the callee: it is
    pure (and so CSE'd and removed when unused) unless the callee, or a
    function it calls, touches references or applies an unknown closure.

    ```mlir
    %r = relay.call @ackermann(%m, %n) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %i = relay.call @id [tensor<i1>] (%b) : (tensor<i1>) -> tensor<i1>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$args,
                       OptionalAttr<ArrayAttr>:$type_args,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $callee ($type_args^)? `(` $args `)` attr-dict `:`
    functional-type($args, $result)
  }];
  let builders = [
    OpBuilder<(ins "FuncOp":$callee, "::mlir::ValueRange":$args), [{
      build($_builder, $_state, callee.getReturnType(), callee.getSymName(),
            args, /*type_args=*/nullptr, /*arg_attrs=*/nullptr,
            /*res_attrs=*/nullptr);
    }]>
  ];
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return getCalleeAttr();
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      setCalleeAttr(::llvm::cast<::mlir::FlatSymbolRefAttr>(
          ::llvm::cast<::mlir::SymbolRefAttr>(callee)));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getArgs(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getArgsMutable();
    }
  }];
}

def Relay_GlobalRefOp : Relay_Op<"global_ref", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "A global function as a first-class value";
  let description = [{
    Relay's use of `@f` as an expression (not in call position): a closure
    value with no captured environment.

    ```mlir
    %f = relay.global_ref @double : !relay.fn<(tensor<f32>) -> tensor<f32>>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Closures
//===----------------------------------------------------------------------===//

def Relay_FnOp : Relay_Op<"fn", [
    AutomaticAllocationScope, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "A function expression: creates a closure";
  let description = [{
    Relay's `fn (%x: T) -> R { body }`. The body may use any value defined
    above (those are captured: the closure stores their values when it is
    created). With `rec(%self)`, the first block argument is the closure
    itself, which gives local recursion (Relay's `let %f = fn ... %f(...)`).
    The result type is the closure's `!relay.fn` type, derived from the
    signature. Creating a closure has no effect; applying it has the
    effects of its body.

    ```mlir
    %fact = relay.fn rec(%self) (%x: tensor<i64>) -> tensor<i64> {
      ...
      %r = relay.apply %self(%y) : (!relay.fn<(tensor<i64>) -> tensor<i64>>,
                                     tensor<i64>) -> tensor<i64>
      relay.return %r : tensor<i64>
    }
    ```
  }];
  let arguments = (ins UnitAttr:$recursive);
  let results = (outs Relay_FuncType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    FuncType getFuncType() { return getResult().getType(); }
    /// The block arguments that are the closure's parameters (not `self`).
    ::mlir::Block::BlockArgListType getParams();
    /// The closure itself inside its body; null unless `rec`.
    ::mlir::BlockArgument getSelf();
  }];
}

def Relay_ApplyOp : Relay_Op<"apply", [
    CallOpInterface, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Applies a closure to arguments: `%f(%a, %b)`";
  let description = [{
    Calls a closure value. Its effects are those of the closure's body when
    the closure is a visible `relay.fn` or `relay.global_ref`; an unknown
    closure (a parameter, say) may do anything.

    ```mlir
    %r = relay.apply %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>,
                               tensor<f32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$callee, Variadic<AnyType>:$args,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() { return getCallee(); }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      getCalleeMutable().assign(::llvm::cast<::mlir::Value>(callee));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getArgs(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getArgsMutable();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Relay_IfOp : Relay_Op<"if", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface, ["areTypesCompatible"]>,
    RecursiveMemoryEffects,
    NoRegionArguments]> {
  let summary = "if-then-else on a 0-d bool tensor";
  let description = [{
    Relay's `if (%c) { ... } else { ... }`: evaluates one branch. Both
    branches yield a value of the result type.

    ```mlir
    %r = relay.if %c : tensor<i1> -> tensor<f32> {
      relay.yield %a : tensor<f32>
    } else {
      relay.yield %b : tensor<f32>
    }
    ```
  }];
  let arguments = (ins AnyType:$cond);
  let results = (outs AnyType:$result);
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $cond `:` type($cond) `->` type($result) attr-dict-with-keyword
    $thenRegion `else` $elseRegion
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Relay_YieldOp : Relay_Op<"yield", [
    Pure, Terminator, ReturnLike, ParentOneOf<["IfOp", "MatchOp"]>]> {
  let summary = "Yields the value of an if branch or a match case";
  let description = [{
    ```mlir
    relay.yield %x : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Algebraic data types
//===----------------------------------------------------------------------===//

def Relay_DataOp : Relay_Op<"data", [
    Symbol, SymbolTable, IsolatedFromAbove, NoTerminator, SingleBlock,
    NoRegionArguments, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "An algebraic data type declaration: Relay's `type List[A]`";
  let description = [{
    Declares an ADT with type parameters and its constructors (`relay.ctor`,
    nested symbols: `@List::@Cons`). `extern` declares an opaque type with
    no constructors (Relay's `extern type`).

    ```mlir
    relay.data @List[a] {
      relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
      relay.ctor @Nil
    }
    relay.data extern @Handle
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<TypeArrayAttr>:$type_params,
                       UnitAttr:$external,
                       OptionalAttr<StrAttr>:$sym_visibility);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name,
                   CArg<"::llvm::ArrayRef<TypeVarType>", "{}">:$typeParams,
                   CArg<"bool", "false">:$external)>
  ];
  let extraClassDeclaration = [{
    ::llvm::SmallVector<TypeVarType> getTypeParamList();
    /// The constructors, in declaration order (their tags).
    ::llvm::SmallVector<class CtorOp> getConstructors();
    /// `!relay.adt<@Name, params...>`: the type of the ADT over its own
    /// type parameters, i.e. the result type of its constructors.
    AdtType getSelfType();
  }];
}

def Relay_CtorOp : Relay_Op<"ctor", [Symbol, HasParent<"DataOp">]> {
  let summary = "A constructor of an ADT";
  let description = [{
    A constructor with its field types, which may use the ADT's type
    parameters. Its tag is its position in the `relay.data` body.

    ```mlir
    relay.ctor @Cons(!relay.tvar<a>, !relay.adt<@List, !relay.tvar<a>>)
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeArrayAttr:$fields);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The relay.data op declaring this constructor.
    class DataOp getDataOp();
    ::llvm::SmallVector<::mlir::Type> getFieldTypes();
    /// The constructor's position in its ADT.
    unsigned getTag();
    /// `@List::@Cons`.
    ::mlir::SymbolRefAttr getQualifiedName();
  }];
}

def Relay_ConstructOp : Relay_Op<"construct", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Applies an ADT constructor: `Cons(%x, %xs)`";
  let description = [{
    ```mlir
    %l = relay.construct @List::@Cons(%x, %nil)
        : (tensor<i32>, !relay.adt<@List, tensor<i32>>)
          -> !relay.adt<@List, tensor<i32>>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$constructor, Variadic<AnyType>:$fields);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $constructor `(` $fields `)` attr-dict `:` functional-type($fields, $result)
  }];
}

def Relay_MatchOp : Relay_Op<"match", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface, ["areTypesCompatible"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Pattern matching: Relay's `match` and `match?`";
  let description = [{
    Tries the cases in order and evaluates the first whose pattern matches
    the scrutinee. Patterns are constructor patterns (nested to any depth),
    tuple patterns, the wildcard `_` and variables `%x : T`; the variables
    of a case are its region's block arguments, in left-to-right order.
    `partial` is Relay's `match?`: it may fail at run time when no case
    matches.

    ```mlir
    %r = relay.match %l : !relay.adt<@List, tensor<i32>> -> tensor<i32> {
      case @List::@Cons(%x : tensor<i32>, _) {
        relay.yield %x : tensor<i32>
      }
      case @List::@Nil {
        relay.yield %zero : tensor<i32>
      }
    }
    ```
  }];
  let arguments = (ins AnyType:$scrutinee, ArrayAttr:$patterns,
                       UnitAttr:$partial);
  let results = (outs AnyType:$result);
  let regions = (region VariadicRegion<SizedRegion<1>>:$cases);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

def Relay_TupleOp : Relay_Op<"tuple", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Builds a tuple: `(%a, %b)`";
  let description = [{
    ```mlir
    %t = relay.tuple(%a, %b : tensor<f32>, tensor<i32>)
    %unit = relay.tuple()
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$fields);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = "`(` ($fields^ `:` type($fields))? `)` attr-dict";
}

def Relay_TupleGetOp : Relay_Op<"tuple_get", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Projects a tuple field: `%t.1`";
  let description = [{
    The result type is the field's type; projecting a value whose type is
    not known yet gives `!relay.incomplete`. Type inference may give the
    result sizes where the field's type says `?` (a list of `?`-sized
    tensors whose elements it finds static): the result may be typed more
    precisely than the field, as long as the two are compatible.

    ```mlir
    %b = relay.tuple_get %t[1] : tuple<tensor<f32>, tensor<i32>>
    ```
  }];
  let arguments = (ins AnyType:$tuple, ConfinedAttr<I64Attr, [IntNonNegative]>:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$tuple `[` $index `]` attr-dict `:` type($tuple)";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    static bool isCompatibleReturnTypes(::mlir::TypeRange inferred,
                                        ::mlir::TypeRange actual);
  }];
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Relay_ConstantOp : Relay_Op<"constant", [
    ConstantLike, Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A constant tensor; scalar literals are 0-d tensors";
  let description = [{
    ```mlir
    %c = relay.constant dense<1> : tensor<i32>
    %w = relay.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The value as dense elements: a `dense_resource` blob read as its
    /// type's elements; null when the blob is missing or malformed.
    ::mlir::DenseElementsAttr getDenseValue();
  }];
}

//===----------------------------------------------------------------------===//
// References
//===----------------------------------------------------------------------===//

def Relay_RefOp : Relay_Op<"ref", [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Allocates a reference cell: `ref(%v)`";
  let description = [{
    ```mlir
    %r = relay.ref %v : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs Res<Relay_RefTypeConstraint, "the new cell",
                          [MemAlloc<Relay_RefResource>]>:$result);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Relay_RefReadOp : Relay_Op<"ref_read", [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Reads a reference cell: `ref_read(%r)`";
  let description = [{
    ```mlir
    %v = relay.ref_read %r : !relay.ref<tensor<f32>>
    ```
  }];
  let arguments = (ins Arg<AnyType, "the cell", [MemRead<Relay_RefResource>]>:$ref);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$ref attr-dict `:` type($ref)";
}

def Relay_RefWriteOp : Relay_Op<"ref_write", [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Writes a reference cell: `ref_write(%r, %v)`, returns `()`";
  let description = [{
    ```mlir
    %u = relay.ref_write %r, %v : !relay.ref<tensor<f32>>, tensor<f32>
    ```
  }];
  let arguments = (ins Arg<AnyType, "the cell", [MemWrite<Relay_RefResource>]>:$ref,
                       AnyType:$value);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = "$ref `,` $value attr-dict `:` type($ref) `,` type($value)";
  let hasVerifier = 1;
}

#endif // RELAY_OPS
