//===- RelayAttrs.td - Relay attribute definitions ---------*- tablegen -*-===//
//
// Type relations attached to function types, and the patterns of
// `relay.match`.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_ATTRS
#define RELAY_ATTRS

include "dialects/relay/RelayDialect.td"

class Relay_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Relay_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Relay_TypeRelationAttr : Relay_Attr<"TypeRelation", "rel"> {
  let summary = "A type relation constraining a function type";
  let description = [{
    `Broadcast(T1, T2, R)` in `fn (T1, T2) -> R where Broadcast(T1, T2, R)`:
    a named relation (solved by type inference) over some of the types of the
    function.

    ```mlir
    #relay.rel<Broadcast(!relay.tvar<a>, !relay.tvar<b>, !relay.tvar<c>)>
    ```
  }];
  let parameters = (ins StringRefParameter<"relation name">:$name,
                        OptionalArrayRefParameter<"::mlir::Type">:$args);
  let assemblyFormat = "`<` $name (`(` $args^ `)`)? `>`";
}

//===----------------------------------------------------------------------===//
// Patterns of relay.match. `relay.match` prints them in Relay's own syntax;
// these are their stored form.
//===----------------------------------------------------------------------===//

def Relay_PatternWildcardAttr : Relay_Attr<"PatternWildcard", "pwild"> {
  let summary = "The wildcard pattern `_`: matches anything, binds nothing";
}

def Relay_PatternVarAttr : Relay_Attr<"PatternVar", "pvar"> {
  let summary = "A variable pattern `%x : T`: matches anything, binds it";
  let description = [{
    The bound value is the next block argument of the case region, in the
    left-to-right order of the pattern's variables.
  }];
}

def Relay_PatternCtorAttr : Relay_Attr<"PatternCtor", "pctor"> {
  let summary = "A constructor pattern `@List::@Cons(p1, p2)`";
  let parameters = (ins "::mlir::SymbolRefAttr":$constructor,
                        OptionalArrayRefParameter<"::mlir::Attribute">:$fields);
  let assemblyFormat = "`<` $constructor (`(` $fields^ `)`)? `>`";
}

def Relay_PatternTupleAttr : Relay_Attr<"PatternTuple", "ptuple"> {
  let summary = "A tuple pattern `(p1, p2)`";
  let parameters = (ins OptionalArrayRefParameter<"::mlir::Attribute">:$fields);
  let assemblyFormat = "`<` (`(` $fields^ `)`)? `>`";
}

#endif // RELAY_ATTRS
