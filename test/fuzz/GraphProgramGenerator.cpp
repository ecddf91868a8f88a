//===- GraphProgramGenerator.cpp - Well-typed Relay programs from bytes ---===//

#include "GraphProgramGenerator.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <functional>
#include <numeric>

using namespace relay_fuzz;

namespace {
using Shape = std::vector<int64_t>;

/// The elements of the largest tensor an operator may take (the
/// interpreter runs every program).
constexpr int64_t kMaxElements = 2 * 8 * 9 * 9;

int64_t numElements(const Shape &shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

/// `[1, 2, 3]`, as operator attributes write shapes.
std::string listText(const Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

/// `Tensor[(1, 2), float32]`, `Tensor[(3,), float32]` or `float32`.
std::string typeText(const Shape &shape) {
  if (shape.empty())
    return "float32";
  std::string text = "Tensor[(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",), float32]" : "), float32]");
}

std::string floatText(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6ff", value);
  return buffer;
}

/// The output size of a window of `kernel` over `size` elements padded by
/// `pad` on each side with `stride`; 0 where the window does not fit.
int64_t windowOutput(int64_t size, int64_t kernel, int64_t pad,
                     int64_t stride) {
  if (size + 2 * pad < kernel)
    return 0;
  return (size + 2 * pad - kernel) / stride + 1;
}

class Generator {
public:
  explicit Generator(FuzzedDataProvider &data) : data(data) {}

  GraphProgram run();

private:
  /// A float32 tensor the program has bound, and the expression bound.
  struct Binding {
    std::string name;
    Shape shape;
    std::string expr;
    bool used = false;
  };

  int64_t pick(int64_t lo, int64_t hi) {
    return data.ConsumeIntegralInRange<int64_t>(lo, hi);
  }
  bool coin() { return data.ConsumeBool(); }
  /// A number in [lo, hi] from one byte.
  double real(double lo, double hi) {
    return lo + (hi - lo) * double(data.ConsumeIntegral<uint8_t>()) / 255.0;
  }

  std::string fresh(const char *prefix) {
    return prefix + std::to_string(counter++);
  }
  /// Binds `expr` (a float32 tensor of `shape`) to a new name.
  int bind(const std::string &expr, const Shape &shape) {
    std::string name = fresh("%v");
    body += "  let " + name + " = " + expr + ";\n";
    values.push_back({name, shape, expr});
    return values.size() - 1;
  }
  /// Binds `expr`, a value that is not a float32 tensor (a tuple, a
  /// closure), to a new name, not used as an operand by itself.
  std::string bindOther(const std::string &expr) {
    std::string name = fresh("%t");
    body += "  let " + name + " = " + expr + ";\n";
    return name;
  }
  const std::string &use(int index) {
    values[index].used = true;
    return values[index].name;
  }
  /// One of the bound values `accept` accepts (later ones likelier), or -1.
  /// Values larger than kMaxElements are not operands.
  int choose(const std::function<bool(const Binding &)> &accept) {
    std::vector<int> candidates;
    for (size_t i = 0; i < values.size(); ++i)
      if (numElements(values[i].shape) <= kMaxElements && accept(values[i]))
        candidates.push_back(i);
    if (candidates.empty())
      return -1;
    // Half the time the latest: chains of operators, as networks are.
    if (coin())
      return candidates.back();
    return candidates[pick(0, candidates.size() - 1)];
  }
  int chooseRank(size_t rank) {
    return choose([&](const Binding &b) { return b.shape.size() == rank; });
  }

  std::string parameter(const Shape &shape);
  std::string constant(const Shape &shape, bool positive = false);
  std::string weight(const Shape &shape);

  // Each adds bindings and returns whether it applied.
  bool convolution();
  bool parallelConvolutions();
  bool channelScale();
  bool batchNorm();
  bool unary();
  bool binary();
  bool pool();
  bool dense();
  bool softmax();
  bool reduce();
  bool transpose();
  bool reshape();
  bool concatenate();
  bool repeat();
  bool constantExpression();
  bool tupleProjection();
  bool conditional();
  bool closure();

  /// nn.conv2d of value `src` (NCHW) with the given geometry, optionally
  /// in NHWC between transposes; returns the result's index or -1.
  int conv2d(int src, int64_t channels, int64_t kernel, int64_t stride,
             int64_t pad, int64_t groups, bool nhwc);
  /// `value` followed, as the bytes say, by bias_add, a per-channel scale
  /// and relu.
  int epilogue(int value);

  FuzzedDataProvider &data;
  std::vector<Binding> values;
  std::vector<std::pair<std::string, Parameter>> parameters;
  std::string body;
  int counter = 0;
  bool haveFlag = false;
};

std::string Generator::parameter(const Shape &shape) {
  std::string name = "%x" + std::to_string(parameters.size());
  Parameter p;
  p.shape = shape;
  parameters.push_back({name, p});
  return name;
}

/// A constant float32 tensor: one value throughout, or distinct values
/// (a ramp) so that a transposed or misplaced element shows.
std::string Generator::constant(const Shape &shape, bool positive) {
  int64_t n = numElements(shape);
  if (n == 1 || coin()) {
    double value = positive ? real(0.25, 2.0) : real(-1.5, 1.5);
    if (shape.empty())
      return floatText(value);
    return "full(" + floatText(value) + ", shape=" + listText(shape) +
           ", dtype=\"float32\")";
  }
  double span = real(0.5, 3.0);
  double start = positive ? real(0.1, 1.0) : -real(0.0, span);
  std::string ramp = "add(cumsum(full(" + floatText(span / double(n)) +
                     ", shape=[" + std::to_string(n) +
                     "], dtype=\"float32\")), " + floatText(start) + ")";
  if (shape.size() == 1)
    return ramp;
  return "reshape(" + ramp + ", newshape=" + listText(shape) + ")";
}

/// Weights: constants (which the passes may fold) or parameters.
std::string Generator::weight(const Shape &shape) {
  if (parameters.size() < 6 && data.ConsumeIntegralInRange<int>(0, 3) == 0)
    return parameter(shape);
  return constant(shape);
}

int Generator::conv2d(int src, int64_t channels, int64_t kernel, int64_t stride,
                      int64_t pad, int64_t groups, bool nhwc) {
  Shape in = values[src].shape;
  int64_t h = windowOutput(in[2], kernel, pad, stride);
  int64_t w = windowOutput(in[3], kernel, pad, stride);
  if (!h || !w || in[1] % groups || channels % groups)
    return -1;
  std::string attrs = "strides=" + listText({stride, stride}) +
                      ", padding=" + listText({pad, pad, pad, pad}) +
                      ", channels=" + std::to_string(channels) +
                      ", kernel_size=" + listText({kernel, kernel});
  if (groups != 1)
    attrs += ", groups=" + std::to_string(groups);
  if (!nhwc) {
    std::string w8 = weight({channels, in[1] / groups, kernel, kernel});
    return bind("nn.conv2d(" + use(src) + ", " + w8 + ", " + attrs + ")",
                {in[0], channels, h, w});
  }
  int nhwcIn = bind("transpose(" + use(src) + ", axes=[0, 2, 3, 1])",
                    {in[0], in[2], in[3], in[1]});
  std::string w8 = weight({kernel, kernel, in[1] / groups, channels});
  int out = bind("nn.conv2d(" + use(nhwcIn) + ", " + w8 + ", " + attrs +
                     ", data_layout=\"NHWC\", kernel_layout=\"HWIO\")",
                 {in[0], h, w, channels});
  return bind("transpose(" + use(out) + ", axes=[0, 3, 1, 2])",
              {in[0], channels, h, w});
}

int Generator::epilogue(int value) {
  Shape shape = values[value].shape;
  int64_t channels = shape[1];
  if (coin())
    value = bind(
        "nn.bias_add(" + use(value) + ", " + constant({channels}) + ")", shape);
  if (coin()) {
    // One per channel: [C, 1, 1] of NCHW, [C] of a matrix's columns.
    Shape scale = {channels};
    scale.resize(shape.size() - 1, 1);
    value = bind("multiply(" + use(value) + ", " + constant(scale, true) + ")",
                 shape);
  }
  if (coin())
    value = bind("nn.relu(" + use(value) + ")", shape);
  return value;
}

bool Generator::convolution() {
  int src = chooseRank(4);
  if (src < 0)
    return false;
  int64_t in = values[src].shape[1];
  int64_t kernel = coin() ? 3 : 1;
  int64_t pad = kernel == 3 ? pick(0, 1) : 0;
  int64_t stride = pick(1, 2);
  int64_t groups = 1, channels;
  switch (pick(0, 2)) {
  case 0:
    channels = pick(1, 8);
    break;
  case 1: // depthwise
    groups = in;
    channels = in * pick(1, 2);
    break;
  default: // grouped: a divisor of the input channels
    groups = pick(1, in);
    while (in % groups)
      --groups;
    channels = groups * pick(1, 2);
    break;
  }
  bool nhwc = groups == 1 && data.ConsumeIntegralInRange<int>(0, 3) == 0;
  int out = conv2d(src, channels, kernel, stride, pad, groups, nhwc);
  if (out < 0)
    return false;
  epilogue(out);
  return true;
}

/// Convolutions of one input with one geometry, joined by concatenate or
/// add: CombineParallelConv2d's pattern.
bool Generator::parallelConvolutions() {
  int src = chooseRank(4);
  if (src < 0)
    return false;
  int64_t kernel = coin() ? 3 : 1;
  int64_t pad = kernel == 3 ? pick(0, 1) : 0;
  int64_t stride = pick(1, 2);
  int64_t channels = pick(1, 6);
  bool sameWidth = coin();
  std::vector<int> branches;
  int64_t total = 0;
  for (int64_t i = 0, e = pick(2, 3); i < e; ++i) {
    int64_t c = sameWidth ? channels : pick(1, 6);
    int out = conv2d(src, c, kernel, stride, pad, 1, false);
    if (out < 0)
      return false;
    branches.push_back(epilogue(out));
    total += c;
  }
  Shape shape = values[branches[0]].shape;
  if (sameWidth && coin()) {
    int sum = branches[0];
    for (size_t i = 1; i < branches.size(); ++i)
      sum = bind("add(" + use(sum) + ", " + use(branches[i]) + ")", shape);
    return true;
  }
  std::string fields;
  for (int b : branches)
    fields += (fields.empty() ? "" : ", ") + use(b);
  shape[1] = total;
  bind("concatenate((" + fields + "), axis=1)", shape);
  return true;
}

/// A positive per-channel scale of an NCHW value: FoldScaleAxis's forward
/// pattern when a convolution follows.
bool Generator::channelScale() {
  int src = chooseRank(4);
  if (src < 0)
    return false;
  Shape shape = values[src].shape;
  int scaled = bind("multiply(" + use(src) + ", " +
                        constant({shape[1], 1, 1}, true) + ")",
                    shape);
  if (coin())
    bind("nn.relu(" + use(scaled) + ")", shape);
  return true;
}

bool Generator::batchNorm() {
  int src = chooseRank(4);
  if (src < 0)
    return false;
  Shape shape = values[src].shape;
  Shape c = {shape[1]};
  std::string bn = bindOther("nn.batch_norm(" + use(src) + ", " +
                             constant(c, true) + ", " + constant(c) + ", " +
                             constant(c) + ", " + constant(c, true) + ")");
  bind(bn + ".0", shape);
  return true;
}

bool Generator::unary() {
  int src = choose([](const Binding &) { return true; });
  static const char *ops[] = {"nn.relu", "sigmoid", "tanh", "negative", "clip"};
  std::string op = ops[pick(0, 4)];
  std::string expr = op == "clip"
                         ? "clip(" + use(src) + ", a_min=-1.5, a_max=1.5)"
                         : op + "(" + use(src) + ")";
  bind(expr, values[src].shape);
  return true;
}

bool Generator::binary() {
  int src = choose([](const Binding &) { return true; });
  Shape shape = values[src].shape;
  static const char *ops[] = {"add", "subtract", "multiply", "maximum",
                              "minimum"};
  std::string op = ops[pick(0, 4)];
  std::string other;
  int same = -1;
  if (coin())
    same = choose([&](const Binding &b) { return b.shape == shape; });
  if (same >= 0) {
    other = use(same);
  } else {
    // A constant that broadcasts: a scalar, the trailing dimensions, or
    // one per channel.
    Shape partner;
    switch (shape.empty() ? 0 : pick(0, 2)) {
    case 0:
      break;
    case 1:
      partner.assign(shape.end() - pick(1, shape.size()), shape.end());
      break;
    default:
      partner = shape;
      if (shape.size() == 4)
        partner = {shape[1], 1, 1};
      break;
    }
    other = constant(partner);
  }
  std::string lhs = use(src), rhs = other;
  if (coin())
    std::swap(lhs, rhs);
  bind(op + "(" + lhs + ", " + rhs + ")", shape);
  return true;
}

bool Generator::pool() {
  int src = chooseRank(4);
  if (src < 0)
    return false;
  Shape shape = values[src].shape;
  switch (pick(0, 2)) {
  case 0:
    bind(std::string(coin() ? "nn.global_avg_pool2d("
                            : "nn.global_max_pool2d(") +
             use(src) + ")",
         {shape[0], shape[1], 1, 1});
    return true;
  default: {
    int64_t stride = pick(1, 2);
    int64_t h = windowOutput(shape[2], 2, 0, stride);
    int64_t w = windowOutput(shape[3], 2, 0, stride);
    if (!h || !w)
      return false;
    bind(std::string(coin() ? "nn.max_pool2d(" : "nn.avg_pool2d(") + use(src) +
             ", pool_size=[2, 2], strides=" + listText({stride, stride}) +
             ", padding=[0, 0, 0, 0])",
         {shape[0], shape[1], h, w});
    return true;
  }
  }
}

bool Generator::dense() {
  int src = choose([](const Binding &b) {
    return b.shape.size() == 2 ||
           (b.shape.size() == 4 && numElements(b.shape) <= 512);
  });
  if (src < 0)
    return false;
  Shape shape = values[src].shape;
  if (shape.size() == 4) {
    shape = {shape[0], shape[1] * shape[2] * shape[3]};
    src = bind("nn.batch_flatten(" + use(src) + ")", shape);
  }
  int64_t units = pick(1, 8);
  int out = bind("nn.dense(" + use(src) + ", " + weight({units, shape[1]}) +
                     ", units=" + std::to_string(units) + ")",
                 {shape[0], units});
  epilogue(out);
  return true;
}

bool Generator::softmax() {
  int src = choose([](const Binding &b) { return !b.shape.empty(); });
  if (src < 0)
    return false;
  bind("nn.softmax(" + use(src) + ", axis=-1)", values[src].shape);
  return true;
}

bool Generator::reduce() {
  int src = choose([](const Binding &b) { return !b.shape.empty(); });
  if (src < 0)
    return false;
  Shape shape = values[src].shape;
  int64_t axis = pick(0, shape.size() - 1);
  bool keep = coin();
  static const char *ops[] = {"sum", "mean", "max", "min"};
  Shape result = shape;
  if (keep)
    result[axis] = 1;
  else
    result.erase(result.begin() + axis);
  bind(std::string(ops[pick(0, 3)]) + "(" + use(src) + ", axis=[" +
           std::to_string(axis) + "]" + (keep ? ", keepdims=True)" : ")"),
       result);
  return true;
}

bool Generator::transpose() {
  int src = choose([](const Binding &b) { return b.shape.size() >= 2; });
  if (src < 0)
    return false;
  Shape shape = values[src].shape;
  Shape perm(shape.size());
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t i = perm.size() - 1; i > 0; --i)
    std::swap(perm[i], perm[pick(0, i)]);
  Shape result;
  for (int64_t p : perm)
    result.push_back(shape[p]);
  bind("transpose(" + use(src) + ", axes=" + listText(perm) + ")", result);
  return true;
}

bool Generator::reshape() {
  int src = choose([](const Binding &b) { return !b.shape.empty(); });
  if (src < 0)
    return false;
  Shape shape = values[src].shape;
  int64_t n = numElements(shape);
  Shape result;
  if (shape.size() == 4 && coin())
    result = {shape[0], shape[1] * shape[2], shape[3], 1};
  else if (coin())
    result = {n};
  else
    result = {shape[0], n / shape[0]};
  bind("reshape(" + use(src) + ", newshape=" + listText(result) + ")", result);
  return true;
}

bool Generator::concatenate() {
  int first = choose([](const Binding &b) { return !b.shape.empty(); });
  if (first < 0)
    return false;
  Shape shape = values[first].shape;
  int64_t axis = pick(0, shape.size() - 1);
  int second = choose([&](const Binding &b) {
    if (b.shape.size() != shape.size())
      return false;
    for (size_t i = 0; i < shape.size(); ++i)
      if (int64_t(i) != axis && b.shape[i] != shape[i])
        return false;
    return true;
  });
  Shape result = shape;
  result[axis] += values[second].shape[axis];
  bind("concatenate((" + use(first) + ", " + use(second) +
           "), axis=" + std::to_string(axis) + ")",
       result);
  return true;
}

/// An expression bound before, bound again: CSE's work.
bool Generator::repeat() {
  int src = choose([](const Binding &b) { return !b.expr.empty(); });
  if (src < 0)
    return false;
  Binding copy = values[src];
  bind(copy.expr, copy.shape);
  return true;
}

/// Operators of constants only (FoldConstant's), applied to a value.
bool Generator::constantExpression() {
  int src = choose([](const Binding &) { return true; });
  Shape shape = values[src].shape;
  std::string folded = std::string(coin() ? "add(" : "multiply(") +
                       constant(shape) + ", " + constant(shape) + ")";
  if (coin())
    folded = "nn.relu(" + folded + ")";
  bind("add(" + use(src) + ", " + folded + ")", shape);
  return true;
}

bool Generator::tupleProjection() {
  int a = choose([](const Binding &) { return true; });
  int b = choose([](const Binding &) { return true; });
  std::string tuple = bindOther("(" + use(a) + ", " + use(b) + ")");
  bool second = coin();
  bind(tuple + (second ? ".1" : ".0"), values[second ? b : a].shape);
  return true;
}

/// `if` on the boolean parameter between two expressions of one value.
bool Generator::conditional() {
  int src = choose([](const Binding &) { return true; });
  Shape shape = values[src].shape;
  if (!haveFlag) {
    haveFlag = true;
    Parameter flag;
    flag.isFlag = true;
    parameters.push_back({"%flag", flag});
  }
  std::string x = use(src);
  bind("if (%flag) { nn.relu(" + x + ") } else { multiply(" + x + ", " +
           constant({}, true) + ") }",
       shape);
  return true;
}

/// A closure over a constant, applied to one or two values.
bool Generator::closure() {
  int src = choose([](const Binding &) { return true; });
  Shape shape = values[src].shape;
  std::string p = fresh("%p");
  std::string fn = bindOther("fn (" + p + ": " + typeText(shape) + ") { " +
                             (coin() ? "nn.relu" : "tanh") + "(add(" + p +
                             ", " + constant(shape) + ")) }");
  bind(fn + "(" + use(src) + ")", shape);
  int other = choose([&](const Binding &b) { return b.shape == shape; });
  if (coin())
    bind(fn + "(" + use(other) + ")", shape);
  return true;
}

GraphProgram Generator::run() {
  Shape image = {pick(1, 2), pick(1, 6), pick(1, 9), pick(1, 9)};
  values.push_back({parameter(image), image, ""});
  if (coin()) {
    Shape matrix = {pick(1, 3), pick(1, 8)};
    values.push_back({parameter(matrix), matrix, ""});
  }

  using Step = bool (Generator::*)();
  static const Step steps[] = {
      &Generator::convolution,
      &Generator::convolution,
      &Generator::parallelConvolutions,
      &Generator::channelScale,
      &Generator::batchNorm,
      &Generator::unary,
      &Generator::binary,
      &Generator::pool,
      &Generator::dense,
      &Generator::softmax,
      &Generator::reduce,
      &Generator::transpose,
      &Generator::reshape,
      &Generator::concatenate,
      &Generator::repeat,
      &Generator::constantExpression,
      &Generator::tupleProjection,
      &Generator::conditional,
      &Generator::closure,
  };
  constexpr int numSteps = sizeof(steps) / sizeof(steps[0]);
  // Until the steps or the bytes run out (past the end, every decision
  // would be its first choice).
  for (int64_t i = 0, e = pick(1, 12); i < e && data.remaining_bytes(); ++i) {
    size_t before = values.size();
    if (!(this->*steps[pick(0, numSteps - 1)])())
      unary();
    // A result too large to be an operand is pooled or summed, so that
    // something uses it.
    for (size_t big = before, end = values.size(); big < end; ++big) {
      Shape shape = values[big].shape;
      if (numElements(shape) <= kMaxElements)
        continue;
      if (shape.size() == 4)
        bind("nn.global_avg_pool2d(" + use(big) + ")",
             {shape[0], shape[1], 1, 1});
      else
        bind("sum(" + use(big) + ", axis=[0])",
             Shape(shape.begin() + 1, shape.end()));
    }
  }

  // The result: the last value, and some of those nothing used (the
  // others are dead code).
  std::vector<std::string> results = {values.back().name};
  for (size_t i = 0; i + 1 < values.size(); ++i)
    if (!values[i].used && !values[i].expr.empty() && coin())
      results.push_back(values[i].name);
  std::string result = results[0];
  if (results.size() > 1) {
    result = "(";
    for (size_t i = 0; i < results.size(); ++i)
      result += (i ? ", " : "") + results[i];
    result += ")";
  }

  GraphProgram program;
  std::string header;
  for (auto &[name, p] : parameters) {
    header += (header.empty() ? "" : ", ") + name + ": " +
              (p.isFlag ? std::string("bool") : typeText(p.shape));
    program.parameters.push_back(p);
  }
  program.text = "#[version = \"0.0.5\"]\ndef @main(" + header + ") {\n" +
                 body + "  " + result + "\n}\n";
  return program;
}
} // namespace

GraphProgram relay_fuzz::generateGraphProgram(FuzzedDataProvider &data) {
  return Generator(data).run();
}
