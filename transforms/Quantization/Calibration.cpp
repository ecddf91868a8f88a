//===- Calibration.cpp - Ranges of values from calibration data -----------===//

#include "transforms/Quantization/Calibration.h"

#include "runtime/Interpreter/Interpreter.h"
#include "runtime/Interpreter/Samples.h"

#include "mlir/IR/IRMapping.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;
using interp::Tensor;
using interp::ValuePtr;

namespace {
std::mutex runnerMutex;
CalibrationRunner &runnerSlot() {
  static CalibrationRunner runner;
  return runner;
}

/// The interpreter's calls.
FailureOr<std::vector<ValuePtr>>
interpret(ModuleOp module, StringRef entry,
          ArrayRef<std::vector<ValuePtr>> samples) {
  interp::Interpreter interpreter(module);
  std::vector<ValuePtr> results;
  for (const std::vector<ValuePtr> &args : samples) {
    FailureOr<ValuePtr> r = interpreter.call(entry, args);
    if (failed(r))
      return failure();
    results.push_back(*r);
  }
  return results;
}
} // namespace

void quant::setCalibrationRunner(CalibrationRunner runner) {
  std::lock_guard<std::mutex> lock(runnerMutex);
  runnerSlot() = std::move(runner);
}

FailureOr<std::vector<std::vector<ValuePtr>>>
quant::readCalibrationData(StringRef dir, FuncOp func) {
  FailureOr<std::vector<interp::Sample>> samples = interp::readSampleDirectory(
      dir, func.getFunctionType().getInputs(),
      func->getParentOfType<ModuleOp>(), func.getLoc(), "calibration-data");
  if (failed(samples))
    return failure();
  std::vector<std::vector<ValuePtr>> args;
  for (interp::Sample &sample : *samples)
    args.push_back(std::move(sample.args));
  return args;
}

FailureOr<std::vector<std::vector<float>>>
quant::collectCalibrationValues(ModuleOp module, FuncOp func,
                                ArrayRef<SimulatedQuantizeOp> ops,
                                ArrayRef<std::vector<ValuePtr>> samples) {
  // A copy whose function returns every quantized point, the simulated
  // quantizations removed (the float program).
  IRMapping mapping;
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->clone(mapping));
  auto copied = cast<FuncOp>(mapping.lookup(func.getOperation()));
  SmallVector<Value> points;
  for (SimulatedQuantizeOp op : ops)
    points.push_back(mapping.lookup(op.getData()));
  SmallVector<SimulatedQuantizeOp> all;
  copied.walk([&](SimulatedQuantizeOp op) { all.push_back(op); });
  for (SimulatedQuantizeOp op : all) {
    Value data = op.getData();
    op.getResult().replaceAllUsesWith(data);
    for (Value &p : points)
      if (p == op.getResult())
        p = data;
    op->erase();
  }
  auto ret = cast<ReturnOp>(copied.getBody().front().getTerminator());
  OpBuilder b(ret);
  Value tuple = TupleOp::create(b, ret.getLoc(), points);
  ret->setOperands(tuple);
  copied.setFunctionType(FunctionType::get(module.getContext(),
                                           copied.getFunctionType().getInputs(),
                                           {tuple.getType()}));

  CalibrationRunner runner;
  {
    std::lock_guard<std::mutex> lock(runnerMutex);
    runner = runnerSlot();
  }
  if (!runner)
    runner = interpret;
  FailureOr<std::vector<ValuePtr>> results =
      runner(*copy, copied.getSymName(), samples);
  if (failed(results))
    return failure();
  std::vector<std::vector<float>> values(ops.size());
  for (const ValuePtr &r : *results) {
    const std::vector<ValuePtr> &fields = r->getFields();
    for (size_t i = 0; i < ops.size(); ++i) {
      const Tensor &t = fields[i]->getTensor();
      for (int64_t k = 0; k < t.getNumElements(); ++k)
        values[i].push_back(static_cast<float>(t.getF(k)));
    }
  }
  return values;
}

namespace {
/// `p` with the zero entries raised by eps and the others lowered to keep
/// the sum (so that KL(p || q) is finite); empty when it cannot be done.
std::vector<double> smooth(const std::vector<double> &p, double eps = 1e-4) {
  size_t zeros = std::count(p.begin(), p.end(), 0.0);
  size_t nonzeros = p.size() - zeros;
  if (!nonzeros)
    return {};
  double lower = eps * double(zeros) / double(nonzeros);
  if (lower >= 1.0)
    return {};
  std::vector<double> out(p);
  for (double &v : out)
    v += v == 0 ? eps : -lower;
  return out;
}

/// KL(p || q) of two unnormalised distributions.
double divergence(const std::vector<double> &p, const std::vector<double> &q) {
  double ps = std::accumulate(p.begin(), p.end(), 0.0);
  double qs = std::accumulate(q.begin(), q.end(), 0.0);
  double d = 0;
  for (size_t i = 0; i < p.size(); ++i) {
    double a = p[i] / ps, c = q[i] / qs;
    if (a > 0 && c > 0)
      d += a * std::log(a / c);
  }
  return d;
}
} // namespace

double quant::klDivergenceRange(ArrayRef<float> values) {
  constexpr int kBins = 8001, kLevels = 255;
  double bound = 0;
  for (float v : values)
    bound = std::max(bound, double(std::fabs(v)));
  if (bound == 0)
    return 1.0;
  std::vector<double> hist(kBins, 0);
  for (float v : values) {
    auto bin = static_cast<int>((double(v) + bound) / (2 * bound) * kBins);
    hist[std::min(std::max(bin, 0), kBins - 1)] += 1;
  }
  int zero = kBins / 2, half = kLevels / 2;
  double best = INFINITY, threshold = bound;
  // Thresholds at the bin edges from `half` bins around zero out to all.
  for (int i = half; i <= zero; ++i) {
    int start = zero - i, stop = zero + i + 1;
    // p: the histogram inside [start, stop), the outliers in its ends.
    std::vector<double> p(hist.begin() + start, hist.begin() + stop);
    p.front() += std::accumulate(hist.begin(), hist.begin() + start, 0.0);
    p.back() += std::accumulate(hist.begin() + stop, hist.end(), 0.0);
    // q: the inside merged into kLevels levels, spread back over the bins
    // that were not empty.
    size_t width = p.size(), merged = width / kLevels;
    std::vector<double> q(width, 0);
    for (int j = 0; j < kLevels; ++j) {
      size_t from = j * merged, to = j == kLevels - 1 ? width : from + merged;
      double sum = 0;
      size_t used = 0;
      for (size_t k = from; k < to; ++k) {
        sum += hist[start + k];
        used += hist[start + k] != 0;
      }
      if (used)
        for (size_t k = from; k < to; ++k)
          if (p[k] != 0)
            q[k] = sum / double(used);
    }
    std::vector<double> ps = smooth(p), qs = smooth(q);
    double d = qs.empty() || ps.empty() ? INFINITY : divergence(ps, qs);
    if (d < best) {
      best = d;
      threshold = bound * (2.0 * stop / kBins - 1.0);
    }
  }
  return threshold;
}

double quant::percentileRange(ArrayRef<float> values, double percent) {
  if (values.empty())
    return 1.0;
  std::vector<double> m;
  m.reserve(values.size());
  for (float v : values)
    m.push_back(std::fabs(double(v)));
  double pos = percent / 100.0 * double(m.size() - 1);
  auto lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, m.size() - 1);
  std::nth_element(m.begin(), m.begin() + lo, m.end());
  double a = m[lo];
  double c = hi == lo ? a : *std::min_element(m.begin() + lo + 1, m.end());
  double range = a + (pos - double(lo)) * (c - a);
  return range > 0 ? range : 1.0;
}
