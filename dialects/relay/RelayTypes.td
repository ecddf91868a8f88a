//===- RelayTypes.td - Relay type definitions --------------*- tablegen -*-===//
//
// The Relay types builtin MLIR lacks. Tensors are builtin `tensor<...>` and
// tuples builtin `tuple<...>`.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TYPES
#define RELAY_TYPES

include "dialects/relay/RelayDialect.td"
include "dialects/relay/RelayAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Relay_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Relay_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Relay_TypeVarType : Relay_Type<"TypeVar", "tvar"> {
  let summary = "A type variable (type parameter) with a kind";
  let description = [{
    A type parameter of a polymorphic function or ADT. Its kind says where it
    may stand: `Type` (a whole type, the default), `Shape` (the shape of a
    `!relay.tensor`), `BaseType` (the dtype of a `!relay.tensor`) or
    `ShapeVar` (one dimension of a `!relay.tensor`).

    ```mlir
    !relay.tvar<a>
    !relay.tvar<s : Shape>
    ```
  }];
  let parameters = (ins StringRefParameter<"variable name">:$name,
                        "::mlir::relay::TypeKind":$kind);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    TypeBuilder<(ins "::llvm::StringRef":$name), [{
      return $_get($_ctxt, name, ::mlir::relay::TypeKind::Type);
    }]>
  ];
}

def Relay_PolyTensorType : Relay_Type<"PolyTensor", "tensor"> {
  let summary = "A tensor whose shape or dtype is symbolic";
  let description = [{
    Relay's `Tensor[s, d]` where the shape is a `Shape` type variable, a
    dimension is a `ShapeVar` variable, or the dtype is a `BaseType` variable.
    A tensor with a concrete shape (`?` allowed) and dtype is always the
    builtin `tensor<...>`; this type exists only for the symbolic rest.

    ```mlir
    !relay.tensor<s, f32>          // s : Shape
    !relay.tensor<[n, ?, 3], f32>  // n : ShapeVar, ? is Any
    !relay.tensor<[2, 2], d>       // d : BaseType
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$shapeVar,
    ArrayRefParameter<"::mlir::Attribute", "dimensions">:$dims,
    "::mlir::Type":$dtype);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Returns true when the shape is a `Shape` variable (not a dim list).
    bool hasShapeVar() const { return static_cast<bool>(getShapeVar()); }
    /// The dtype variable name, or null when the dtype is concrete.
    ::mlir::StringAttr getDtypeVar() const;
  }];
}

def Relay_FuncType : Relay_Type<"Func", "fn"> {
  let summary = "A Relay function or closure type";
  let description = [{
    Relay's `fn<type params>(args) -> result where relations`. Global
    functions and closures have this type; type parameters are bound here and
    instantiated at each call; relations must hold at every call site.

    ```mlir
    !relay.fn<(tensor<f32>, tensor<f32>) -> tensor<f32>>
    !relay.fn<[a](!relay.tvar<a>) -> !relay.tvar<a>>
    !relay.fn<[a, b, c](!relay.tvar<a>, !relay.tvar<b>) -> !relay.tvar<c>
              where Broadcast(!relay.tvar<a>, !relay.tvar<b>, !relay.tvar<c>)>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"::mlir::relay::TypeVarType", "type parameters">:$typeParams,
    ArrayRefParameter<"::mlir::Type", "argument types">:$inputs,
    "::mlir::Type":$result,
    ArrayRefParameter<"::mlir::relay::TypeRelationAttr", "relations">:$relations);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    TypeBuilder<(ins "::mlir::TypeRange":$inputs, "::mlir::Type":$result), [{
      return $_get($_ctxt, ::llvm::ArrayRef<TypeVarType>(),
                   ::llvm::SmallVector<::mlir::Type>(inputs), result,
                   ::llvm::ArrayRef<TypeRelationAttr>());
    }]>
  ];
  let extraClassDeclaration = [{
    bool isPolymorphic() const { return !getTypeParams().empty(); }
    unsigned getNumInputs() const { return getInputs().size(); }
  }];
}

def Relay_RefType : Relay_Type<"Ref", "ref"> {
  let summary = "A mutable reference cell: Relay's `Ref[T]`";
  let description = [{
    ```mlir
    !relay.ref<tensor<f32>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Relay_AdtType : Relay_Type<"Adt", "adt"> {
  let summary = "An ADT type call: Relay's `List[T]`";
  let description = [{
    The ADT declared by the `relay.data` op named by the symbol, applied to
    type arguments.

    ```mlir
    !relay.adt<@List, tensor<i32>>
    !relay.adt<@Nat>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name,
                        ArrayRefParameter<"::mlir::Type", "type arguments">:$args);
  let hasCustomAssemblyFormat = 1;
}

def Relay_IncompleteType : Relay_Type<"Incomplete", "incomplete"> {
  let summary = "A type not known yet: Relay's `_`";
  let description = [{
    Stands for an omitted annotation; type inference replaces it.

    ```mlir
    !relay.incomplete
    ```
  }];
}

#endif // RELAY_TYPES
