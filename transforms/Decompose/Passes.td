//===- Passes.td - Relay passes: Decompose -----------------*- tablegen -*-===//
//
// Decomposing ops into simpler Relay ops (transforms/Decompose). Included by
// transforms/Passes.td, which generates every pass declaration into one
// Passes.h.inc.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_TRANSFORMS_DECOMPOSE_PASSES
#define RELAY_TRANSFORMS_DECOMPOSE_PASSES

include "mlir/Pass/PassBase.td"

def Decompose : Pass<"relay-decompose", "::mlir::ModuleOp"> {
  let summary = "Rewrite composite operators into primitive ones";
  let description = [{
    The composite operators (`fast_exp`, `trunc_divide`, `isnan`, `isinf`,
    `isfinite`, `cast_like`, `broadcast_to_like`, `collapse_sum_like`,
    `reverse`, `tile`, `repeat`, `nn.fast_softmax`, `nn.l2_normalize`,
    `nn.lrn`, `nn.instance_norm`, `nn.group_norm`, `one_hot`, `cumsum`, `cumprod`,
    `topk`,
    `argsort`, `sort`, `shape_of`, `ndarray_size`, `nn.mirror_pad`, `variance`,
    `image.resize1d`, `image.resize2d`, `image.resize3d`,
    `nn.depth_to_space`, `nn.space_to_depth`, `sequence_mask`, `nn.conv1d`,
    `nn.conv1d_transpose`, `nn.max_pool1d`, `nn.avg_pool1d`,
    `nn.adaptive_avg_pool1d`, `nn.adaptive_max_pool1d`, `nn.conv3d`,
    `nn.max_pool3d`, `nn.avg_pool3d`, `nn.adaptive_avg_pool3d`,
    `nn.adaptive_max_pool3d`, `trilu`, `gather_nd`, `scatter_add`,
    `unravel_index`, `invert_permutation`, `searchsorted`,
    `nn.space_to_batch_nd`, `nn.batch_to_space_nd`, `nn.dilate`,
    `sparse_to_dense`, `einsum`, `meshgrid`, `matrix_set_diag`,
    `image.crop_and_resize`, `reverse_sequence`, `slice_like`,
    `nn.upsampling3d`, `image.affine_grid`, `image.dilation2d`,
    `nn.correlation`, `vision.multibox_prior`, `fixed_point_multiply`,
    `vision.multibox_transform_loc`, `vision.get_valid_counts`,
    `vision.roi_pool`, and, whatever their sizes, `dyn.zeros`, `dyn.ones`,
    `dyn.broadcast_to`)
    are typed
    by their
    relations like every operator; this pass rewrites them into the
    primitive operators that lowering and the interpreter implement, as
    TVM's SimplifyInference and Legalize do. It needs static operand
    shapes: native compilation runs it after `--relay-specialize`, relay-run
    after type inference; an op whose shapes are not known is left alone.

    ```mlir
    %y = relay.tile %x {reps = array<i64: 2>} : (tensor<3xf32>) -> tensor<6xf32>
    // becomes
    %0 = relay.reshape %x {newshape = array<i64: 1, 3>} : ...
    %1 = relay.broadcast_to %0 {shape = array<i64: 2, 3>} : ...
    %y = relay.reshape %1 {newshape = array<i64: 6>} : ...
    ```

    `keep-ops` names operators to leave whole: relay-run keeps `topk`,
    `argsort` and `sort` (their decompositions are sorting networks of
    thousands of operators on a long axis, which the interpreter's kernels
    sort directly; native compilation decomposes them in its pipeline).

    `target` names the lowering target the program is for (as
    `--relay-to-linalg{target=...}`): the operators that target computes
    whole with kernels of its own stay. The `cpu` target keeps a 3-d
    convolution of 3x3 rows and columns at unit strides that its Winograd
    kernel takes (each depth slice transformed once for all the depth taps
    that read it, instead of once per tap of the stacked 2-d convolution).
  }];
  let options = [
    ListOption<"keepOps", "keep-ops", "std::string",
               "Operators not to decompose (relay.topk, ...)">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The lowering target whose own kernels keep operators whole "
           "(cpu, generic; none by default)">,
  ];
  let dependentDialects = ["::mlir::relay::RelayDialect"];
}

#endif // RELAY_TRANSFORMS_DECOMPOSE_PASSES
