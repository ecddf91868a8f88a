//===- CPUTarget.cpp - The x86 CPU as a lowering target ---------*- C++ -*-===//

#include "transforms/Codegen/CPU/CPUTarget.h"
#include "transforms/Codegen/CPU/CPUKernels.h"

#include "conversion/RelayToLinalg/LoweringHelpers.h"
#include "conversion/RelayToLinalg/LoweringTarget.h"
#include "transforms/Layout/LayoutRules.h"

#include "dialects/relay/OperatorRegistry.h"
#include "dialects/relay/RelayOps.h"

#include <mutex>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::cpu;

namespace {
/// The padding (front, top, left, back, bottom, right) of the
/// relay.nn.conv3d `op` when it is ungrouped at unit strides and
/// dilations (the convolutions winogradConv3d may take); none otherwise.
std::optional<SmallVector<int64_t>> unitStrideConv3dPadding(Operation *op) {
  if (!isa<relay::Conv3DOp>(op) || lowering::intAttr(op, "groups", 1) != 1)
    return std::nullopt;
  for (StringRef name : {"strides", "dilation"})
    if (llvm::any_of(lowering::intsAttr(op, name, {1}),
                     [](int64_t v) { return v != 1; }))
      return std::nullopt;
  SmallVector<int64_t> p = lowering::intsAttr(op, "padding", {0});
  if (p.size() == 1)
    return SmallVector<int64_t>(6, p[0]);
  if (p.size() == 3)
    return SmallVector<int64_t>{p[0], p[1], p[2], p[0], p[1], p[2]};
  if (p.size() == 6)
    return p;
  return std::nullopt;
}

class CPULoweringTarget : public LoweringTarget {
public:
  StringRef getName() const override { return "cpu"; }

  /// The target-neutral resizes, and 3-d convolutions of 3x3 rows and
  /// columns that Winograd computes depth slice by depth slice (R3D-18's):
  /// their decomposition stacks the depth taps into a 2-d convolution,
  /// whose transform redoes each slice once per tap.
  bool lowersWhole(Operation *op) const override {
    if (LoweringTarget::lowersWhole(op))
      return true;
    std::optional<SmallVector<int64_t>> padding = unitStrideConv3dPadding(op);
    if (!padding || op->getNumOperands() != 2)
      return false;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    auto data = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto weight = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
    return type && data && weight &&
           winogradConv3dApplies(type, data, weight, *padding, cpuFor(op));
  }

  Value buildConv3d(OpBuilder &b, Operation *op, RankedTensorType type,
                    Value data, Value weight) const override {
    std::optional<SmallVector<int64_t>> padding = unitStrideConv3dPadding(op);
    if (!padding)
      return nullptr;
    return winogradConv3d(b, op->getLoc(), type, data, weight, *padding);
  }

  Value buildContraction(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange operands, unsigned numDims,
                         ArrayRef<AffineMap> maps) const override {
    MLIRContext *ctx = b.getContext();
    bool rowsTimesTransposed = numDims == 3 && maps.size() == 3 &&
                               maps[0] == lowering::map(ctx, 3, {0, 2}) &&
                               maps[1] == lowering::map(ctx, 3, {1, 2}) &&
                               maps[2] == lowering::map(ctx, 3, {0, 1});
    bool rowsTimesMatrix = numDims == 3 && maps.size() == 3 &&
                           maps[0] == lowering::map(ctx, 3, {0, 2}) &&
                           maps[1] == lowering::map(ctx, 3, {2, 1}) &&
                           maps[2] == lowering::map(ctx, 3, {0, 1});
    // bf16 operands into f32 (--relay-to-mixed-precision): vdpbf16ps, or the
    // f32 kernels on the operands widened where the CPU has no AVX-512 BF16.
    // AMX tiles where the CPU has them and there are rows enough.
    if (isBF16IntoF32(type, operands)) {
      if (rowsTimesTransposed || rowsTimesMatrix) {
        if (Value out = amxProduct(b, loc, type, operands[0], operands[1],
                                   rowsTimesTransposed))
          return out;
        if (Value out = bf16Product(b, loc, type, operands[0], operands[1],
                                    rowsTimesTransposed))
          return out;
      }
      SmallVector<Value> wide;
      for (Value v : operands)
        wide.push_back(widenedBF16(b, loc, v));
      return buildContraction(b, loc, type, wide, numDims, maps);
    }
    // One row times a weight matrix read along k (dense, matmul with B
    // transposed): a split reduction along the weight rows.
    if (rowsTimesTransposed && isOneRowProduct(type, operands[0], operands[1]))
      return rowTimesTransposed(b, loc, type, operands[0], operands[1]);
    // A product with constant weights (a dense or linear layer) on weights
    // packed into panels.
    if (rowsTimesTransposed || rowsTimesMatrix) {
      if (Value out = packedWeightProduct(b, loc, type, operands[0],
                                          operands[1], rowsTimesTransposed))
        return out;
      // Large operands made at run time are packed the same way by a copy.
      if (Value out = packedOperandProduct(b, loc, type, operands[0],
                                           operands[1], rowsTimesTransposed))
        return out;
    }
    return paddedContract(b, loc, type, operands, numDims, maps);
  }

  // An int8 dense layer is a 1x1 convolution of an image of m positions
  // and k channels (NHWC [1, 1, m, k]) with HWIO weights [1, 1, k, n]: the
  // int8 convolutions' dot-product kernels (AMX, VNNI, AVX2), on w
  // transposed at compile time.
  Value buildInt8Dense(OpBuilder &b, Location loc, RankedTensorType type,
                       Value x, Value w) const override {
    auto xt = cast<RankedTensorType>(x.getType());
    auto wt = cast<RankedTensorType>(w.getType());
    CPUDescription cpu = cpuAt(b);
    if ((!cpu.vnni && cpu.vectorBits < 256) || !xt.hasStaticShape() ||
        !wt.hasStaticShape())
      return nullptr;
    int64_t m = xt.getDimSize(0), k = xt.getDimSize(1), n = wt.getDimSize(0);
    std::vector<char> hwio(k * n);
    bool isResource = false;
    if (DenseElementsAttr splat = splatConstant(w)) {
      std::fill(hwio.begin(), hwio.end(),
                static_cast<char>(splat.getSplatValue<APInt>().getZExtValue()));
    } else {
      ArrayRef<char> bytes;
      if (!constantBytes(w, bytes, isResource))
        return nullptr;
      for (int64_t o = 0; o < n; ++o)
        for (int64_t c = 0; c < k; ++c)
          hwio[c * n + o] = bytes[o * k + c];
    }
    Type i8 = b.getI8Type();
    Conv2dProblem conv(loc);
    conv.type = RankedTensorType::get({1, 1, m, n}, type.getElementType());
    conv.data = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1, 1, m, k}, i8), x,
        SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
    conv.weight = bytesConstant(b, loc, RankedTensorType::get({1, 1, k, n}, i8),
                                hwio, isResource);
    conv.nchw = false;
    conv.strides = {1, 1};
    conv.dilations = {1, 1};
    conv.padding = {0, 0, 0, 0};
    Value out = amxInt8Conv2d(b, conv);
    if (!out)
      out = vnniConv2d(b, conv);
    if (!out)
      out = avx2Int8Conv2d(b, conv);
    if (!out) {
      conv.weight.getDefiningOp()->erase();
      conv.data.getDefiningOp()->erase();
      return nullptr;
    }
    return tensor::CollapseShapeOp::create(
        b, loc, type, out, SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  }

  Value buildConv2d(OpBuilder &b, const Conv2dProblem &conv) const override {
    Location loc = conv.loc;
    RankedTensorType type = conv.type;
    ArrayRef<int64_t> s = conv.strides, d = conv.dilations, p = conv.padding;
    bool unit = s[0] == 1 && s[1] == 1 && d[0] == 1 && d[1] == 1;
    if (isBF16IntoF32(type, {conv.data, conv.weight})) {
      // AMX tiles, where the CPU has them, outrun every f32 kernel
      // (Winograd's included): 16 times vdpbf16ps's products per
      // instruction. (A 1x1 convolution computed in a depthwise one's
      // windows stays fused, below.)
      if (!(conv.op && feedsDepthwiseRowBands(conv.op)))
        if (Value out = amxConv2d(b, conv))
          return out;
      // Winograd's minimal filtering saves more multiplies (2.25-4x) than
      // vdpbf16ps's doubled rate: where it applies and pays, it computes on
      // the bf16 values widened (exactly) to f32; vdpbf16ps elsewhere.
      Conv2dProblem wide = conv;
      auto widen = [&] {
        wide.data = widenedBF16(b, loc, conv.data);
        wide.weight = widenedBF16(b, loc, conv.weight);
      };
      if (conv.nchw && conv.groups == 1 && unit) {
        widen();
        if (Value out = winogradConv2d(b, loc, type, wide.data, wide.weight, p))
          return out;
      }
      if (conv.nchw && conv.groups == 1 && s[0] == 1 && s[1] == 1 && !unit) {
        widen();
        if (Value out = dilatedWinogradConv2d(b, loc, type, wide.data,
                                              wide.weight, d, p))
          return out;
      }
      // A 1x1 convolution that a depthwise one reads window by window is
      // computed in those windows by the f32 kernels (fused), which saves
      // more than vdpbf16ps would.
      if (!(conv.op && feedsDepthwiseRowBands(conv.op)))
        if (Value out = bf16Conv2d(b, conv))
          return out;
      if (wide.data == conv.data)
        widen();
      return buildConv2d(b, wide);
    }
    if (conv.nchw && conv.groups == 1 && unit)
      if (Value out = winogradConv2d(b, loc, type, conv.data, conv.weight, p))
        return out;
    // Dilated (DeepLabV3's and FCN's backbones): Winograd on the image's
    // phases where they are large enough for it.
    if (conv.nchw && conv.groups == 1 && s[0] == 1 && s[1] == 1 && !unit)
      if (Value out =
              dilatedWinogradConv2d(b, loc, type, conv.data, conv.weight, d, p))
        return out;
    if (conv.nchw && conv.isDepthwise())
      if (Value out = depthwiseConvInRows(
              b, loc, type, conv.data, conv.weight, s, d, p,
              /*allowRowBands=*/!(conv.op && imageInChannelBands(conv.op))))
        return out;
    if (conv.nchw && conv.groups > 1 && !conv.isDepthwise())
      if (Value out = groupedConvInRows(b, loc, type, conv.data, conv.weight,
                                        conv.groups, s, d, p))
        return out;
    if (Value out = amxInt8Conv2d(b, conv))
      return out;
    if (Value out = vnniConv2d(b, conv))
      return out;
    if (Value out = avx2Int8Conv2d(b, conv))
      return out;
    if (Value out = integerDepthwiseAsFloat(b, conv))
      return out;
    if (Value out = integerDepthwiseNhwc(b, conv))
      return out;
    // Float convolutions become matrix products; other integer ones are
    // products of their own (integerConvolution).
    if (!conv.isSameFloat() || (!conv.nchw && conv.groups != 1))
      return nullptr;
    Value data = lowering::padImage(
        b, loc, conv.data, p, conv.nchw ? 2 : 1, conv.nchw ? 3 : 2,
        lowering::constantScalar(b, loc, type.getElementType(), 0));
    if (!conv.nchw)
      return conv2dNhwcAsProduct(b, loc, type, data, conv.weight, s, d);
    if (conv.isDepthwise())
      return depthwiseConv2dNchw(b, loc, type, data, conv.weight, s, d);
    if (type.getDimSize(0) > 1)
      return convImageByImage(b, loc, type, data, conv.weight, conv.groups, s,
                              d);
    // A 1x1 convolution whose image a depthwise convolution reads window by
    // window is computed in those windows, not in bands of its own.
    bool bands = !(conv.op && feedsDepthwiseRowBands(conv.op));
    return conv2dNchwAsProduct(b, loc, type, data, conv.weight, conv.groups, s,
                               d, bands);
  }
};
} // namespace

/// Whether `conv` (a relay.nn.conv2d) is an int8 convolution the CPU runs
/// in NHWC: on its int8 dot-product kernels (vnniConv2d, avx2Int8Conv2d:
/// ungrouped, signed bytes into int32, constant weights, static shapes, on
/// a CPU with either kernel), or depthwise between them
/// (integerDepthwiseNhwc).
static bool isInt8NhwcConv(Operation *conv) {
  auto data = dyn_cast<RankedTensorType>(conv->getOperand(0).getType());
  auto weight = dyn_cast<RankedTensorType>(conv->getOperand(1).getType());
  auto result = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  auto groups = getOperatorAttributes(conv).getAs<IntegerAttr>("groups");
  Operation *weights = conv->getOperand(1).getDefiningOp();
  if (!data || !weight || !result || !data.hasStaticShape() ||
      !weight.hasStaticShape() || !result.hasStaticShape() ||
      !data.getElementType().isSignlessInteger(8) ||
      !weight.getElementType().isSignlessInteger(8) ||
      !result.getElementType().isSignlessInteger(32) || !weights ||
      !weights->hasTrait<OpTrait::ConstantLike>())
    return false;
  cpu::CPUDescription cpu = cpu::cpuFor(conv);
  if (!cpu.vnni && cpu.vectorBits < 256)
    return false;
  int64_t g = groups ? groups.getInt() : 1;
  if (g == 1)
    return true;
  // Depthwise: as many groups as input and output channels.
  StringRef layout = lowering::strAttr(conv, "data_layout", "NCHW");
  size_t c = layout.find('C');
  return data.getRank() == 4 && layout.size() == 4 && c != StringRef::npos &&
         data.getDimSize(c) == g && result.getDimSize(c) == g;
}

/// --relay-alter-op-layout's rules for the CPU: float convolutions in
/// NCHW/OIHW and pooling in NCHW, the layouts its kernels are built for
/// (NHWC convolutions are one plain product, and grouped NHWC ones are not
/// lowered at all). int8 convolutions on the dot-product kernels in
/// NHWC/HWIO: they read their image in words of four (two) neighbouring
/// channels and their result is positions by channels, so that in NHWC
/// neither is transposed, and the requantization, residual additions,
/// pooling and depthwise convolutions (NHWC/HWOI) between them follow (an
/// NCHW network transposes its int8 images once at the first convolution
/// and back after the last).
static void registerCPULayoutRules() {
  (void)layout::registerAlterLayoutRule(
      "relay.nn.conv2d", "cpu",
      [](Operation *op) -> std::optional<SmallVector<std::string>> {
        StringRef data = lowering::strAttr(op, "data_layout", "NCHW");
        StringRef kernel = lowering::strAttr(op, "kernel_layout", "OIHW");
        if (isInt8NhwcConv(op)) {
          // TVM's kernel layouts for NHWC: HWIO, HWOI when depthwise.
          auto groups = getOperatorAttributes(op).getAs<IntegerAttr>("groups");
          StringRef want = groups && groups.getInt() != 1 ? "HWOI" : "HWIO";
          if (data == "NHWC" && kernel == want)
            return std::nullopt;
          return SmallVector<std::string>{"NHWC", want.str()};
        }
        if (data == "NCHW" && kernel == "OIHW")
          return std::nullopt;
        return SmallVector<std::string>{"NCHW", "OIHW"};
      });
  // Integer pooling follows its input (an int8 network's NHWC images).
  for (StringRef pool : {"relay.nn.max_pool2d", "relay.nn.avg_pool2d"})
    (void)layout::registerAlterLayoutRule(
        pool, "cpu",
        [](Operation *op) -> std::optional<SmallVector<std::string>> {
          auto data = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
          if (lowering::strAttr(op, "layout", "NCHW") == "NCHW" ||
              (data && isa<IntegerType>(data.getElementType())))
            return std::nullopt;
          return SmallVector<std::string>{"NCHW"};
        });
}

void mlir::relay::registerCPULoweringTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerLoweringTarget(std::make_unique<CPULoweringTarget>());
    registerCPULayoutRules();
  });
}
