//===- RelayAnnotationOperators.td - TVM's annotations -----*- tablegen -*-===//
//
// TVM's annotations: stop_fusion, checkpoint, cast_hint, compiler_begin/
// _end, bitpack_start/_end, and the device placement PlanDevices writes
// (on_device, device_copy). Each is the identity on its operand; the
// interpreter returns it and --relay-decompose removes the annotation
// (transforms/Decompose/Decompose.cpp, RemoveAnnotation).
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_ANNOTATION_OPERATORS
#define RELAY_ANNOTATION_OPERATORS

class Relay_AnnotationOp<string mnemonic, string what,
                         string relation = "Annotation">
    : Relay_OperatorOp<mnemonic, relation, "Opaque", 1, 10> {
  let summary = "The identity, marking " # what;
  let description = [{
    One of TVM's annotations: the identity on its operand (a tensor or a
    tuple of tensors). Its pattern kind, opaque, keeps --relay-fuse-ops
    from fusing across it (stop_fusion's purpose, which TVM's quantization
    uses); --relay-decompose removes it before lowering and the
    interpreter runs it as the identity.
  }];
  let arguments = (ins AnyType:$data);
}
def Relay_StopFusionOp : Relay_AnnotationOp<"annotation.stop_fusion",
    "a boundary operator fusion does not cross">;
def Relay_CheckpointOp : Relay_AnnotationOp<"annotation.checkpoint",
    "a value to recompute rather than keep for the gradient (TVM's "
    "checkpointing)">;
def Relay_CastHintOp : Relay_AnnotationOp<"annotation.cast_hint",
    "the dtype quantization should give a value"> {
  let arguments = (ins AnyType:$data, TypeAttr:$dtype);
}
def Relay_CompilerBeginOp : Relay_AnnotationOp<"annotation.compiler_begin",
    "where a region for another compiler begins"> {
  let arguments = (ins AnyType:$data, StrAttr:$compiler);
}
def Relay_CompilerEndOp : Relay_AnnotationOp<"annotation.compiler_end",
    "where a region for another compiler ends"> {
  let arguments = (ins AnyType:$data, StrAttr:$compiler);
}
def Relay_BitpackStartOp : Relay_AnnotationOp<"annotation.bitpack_start",
    "where bit-packing begins">;
def Relay_BitpackEndOp : Relay_AnnotationOp<"annotation.bitpack_end",
    "where bit-packing ends">;
// TVM's device placement (PlanDevices' input and output). relay-mlir
// compiles a program for one device, so they are the identity wherever
// they are; the devices are kept only to print back.
def Relay_OnDeviceOp : Relay_AnnotationOp<"on_device",
    "the device a value is computed on", "DeviceAnnotation"> {
  let description = [{
    TVM's `on_device(%x, virtual_device=meta[VirtualDevice][0],
    constrain_body=True, constrain_result=False)`: the identity on its
    operand, a value of any type (a closure, a reference, a list too). `virtual_device` is the
    index of TVM's `VirtualDevice` in the metadata table the program
    refers to (`meta[VirtualDevice][n]`, printed back so); the
    constraints say which side of the annotation PlanDevices fixes. A
    program is compiled for one device (`relay-run --target`), so neither
    changes what it computes; --relay-decompose removes the annotation
    before lowering and the interpreter runs it as the identity.
  }];
  let arguments = (ins AnyType:$data,
                       OptionalAttr<I64Attr>:$virtual_device,
                       DefaultValuedAttr<BoolAttr, "true">:$constrain_body,
                       DefaultValuedAttr<BoolAttr, "false">:$constrain_result);
}
def Relay_DeviceCopyOp : Relay_AnnotationOp<"device_copy",
    "a copy of a value from one device to another", "DeviceAnnotation"> {
  let description = [{
    TVM's `device_copy(%x, src_virtual_device=meta[VirtualDevice][0],
    dst_virtual_device=meta[VirtualDevice][1])`: the identity on its
    operand, of any type; the devices are indices into
    TVM's metadata table, as on_device's. A program is compiled for one
    device, where the copy has nothing to do: --relay-decompose removes
    it before lowering and the interpreter runs it as the identity.
  }];
  let arguments = (ins AnyType:$data,
                       OptionalAttr<I64Attr>:$src_virtual_device,
                       OptionalAttr<I64Attr>:$dst_virtual_device);
}

#endif // RELAY_ANNOTATION_OPERATORS
