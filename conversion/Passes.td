//===- Passes.td - Relay conversion passes -----------------*- tablegen -*-===//

#ifndef RELAY_CONVERSION_PASSES
#define RELAY_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def RelayToSCF : Pass<"relay-to-scf", "::mlir::ModuleOp"> {
  let summary = "Lower Relay functions, calls, `if` and tuples to func/scf";
  let description = [{
    The structure of a program: relay.func becomes func.func (with
    `llvm.emit_c_interface`) on the flattened signature, relay.call
    func.call, relay.return func.return, relay.if scf.if on the element of
    its 0-d condition; relay.tuple and relay.tuple_get disappear (a tuple is
    its fields' values everywhere: signatures, calls, `if` results). A
    function whose self-calls are all tail calls (through any nesting of
    `if`) then becomes an scf.while loop.

    Other relay ops stay, with casts (relay.tuple, relay.tuple_get,
    unrealized_conversion_cast) where they meet converted values; a
    polymorphic function (run --relay-specialize first) or one whose
    signature has a dynamic shape is reported at the op.

    ```mlir
    relay.func @f(%c: tensor<i1>, %t: tuple<tensor<2xf32>, tensor<2xf32>>)
        -> tensor<2xf32> {
      %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
        %a = relay.tuple_get %t[0] : tuple<tensor<2xf32>, tensor<2xf32>>
        relay.yield %a : tensor<2xf32>
      } else { ... }
      relay.return %r : tensor<2xf32>
    }
    // becomes
    func.func @f(%c: tensor<i1>, %t0: tensor<2xf32>, %t1: tensor<2xf32>)
        -> tensor<2xf32> attributes {llvm.emit_c_interface} {
      %b = tensor.extract %c[] : tensor<i1>
      %r = scf.if %b -> (tensor<2xf32>) { scf.yield %t0 : tensor<2xf32> }
           else { ... }
      return %r : tensor<2xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def RelayToRuntime : Pass<"relay-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower ADTs and references to runtime objects";
  let description = [{
    ADT values and references become runtime objects (`!llvm.ptr`,
    runtime/C/RelayRuntime.h): constructors and `ref` allocate, `match`
    tests tags and reads fields (an scf.if chain, nested patterns included,
    with a located run-time error when no case matches), ref_read and
    ref_write get and set a cell. A tensor stored in an object is copied
    in once and read in place. Closures arrive as ADTs: run --relay-defunctionalize first (a
    `relay.fn`, `relay.apply` or `relay.global_ref` left is an error that
    says so).

    ```mlir
    %l = relay.construct @List::@Cons(%x, %nil) : (tensor<f32>, ...) -> ...
    // becomes
    %l = call @relay_rt_alloc(%tag, %c2) : (i64, i64) -> !llvm.ptr
    ...
    call @relay_rt_set_field(%l, %c0, %boxed) : (!llvm.ptr, i64, !llvm.ptr) -> ()
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def RelayToLinalg : Pass<"relay-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower a typed, monomorphic Relay program to linalg on "
                "tensors";
  let description = [{
    One partial conversion of the whole program with the patterns of
    --relay-to-scf (functions, calls, `if`, tuples, tail recursion as
    loops), --relay-to-runtime (ADTs, references; closures are ADTs after
    --relay-defunctionalize, which must run first) and the
    operator families of RelayToLinalg.h: every operator becomes linalg
    (generic for elementwise, broadcasting, reductions and products; named
    ops for convolutions and pooling), tensor, arith and math on tensors of
    static shape. Products and convolutions are built by the lowering
    `target` (`cpu`: Winograd, depthwise row kernels, banded and packed
    products; `generic`: plain contractions and linalg's named
    convolutions). An operator whose registry entry has a lowering rule is
    lowered by that rule.

    The program must be typed with static shapes (run --relay-infer-types
    first) and monomorphic (--relay-specialize); what cannot be lowered is
    reported at the first op concerned, with the reason.

    ```mlir
    relay.func @f(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x4xf32> {
      %d = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
      relay.return %d : tensor<2x4xf32>
    }
    // becomes a func.func whose body fills an accumulator and contracts
    // over k: linalg.fill, linalg.generic {iterator_types = ["parallel",
    // "parallel", "reduction"]} (arith.mulf, arith.addf)
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "The lowering target that builds products and convolutions "
           "(`cpu`, `generic`, or one registered by an embedder)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

#endif // RELAY_CONVERSION_PASSES
