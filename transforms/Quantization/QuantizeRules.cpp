//===- QuantizeRules.cpp - Which operators quantize, and how --------------===//

#include "transforms/Quantization/QuantizeRules.h"

#include "dialects/relay/OperatorRegistry.h"

#include "mlir/IR/Location.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::quant;

std::optional<QRule> quant::parseRule(StringRef name) {
  return llvm::StringSwitch<std::optional<QRule>>(name)
      .Case("identity", QRule::Identity)
      .Case("pool", QRule::Pool)
      .Case("product", QRule::Product)
      .Case("add", QRule::Add)
      .Case("multiply", QRule::Multiply)
      .Case("clip", QRule::Clip)
      .Case("concatenate", QRule::Concatenate)
      .Case("stop", QRule::Stop)
      .Case("float", QRule::Float)
      .Default(std::nullopt);
}

QuantizeRules::QuantizeRules() {
  // TVM's annotate and realize rules (python/tvm/relay/quantize).
  std::pair<const char *, QRule> builtin[] = {
      {"nn.conv2d", QRule::Product},
      {"nn.dense", QRule::Product},
      {"add", QRule::Add},
      {"multiply", QRule::Multiply},
      {"nn.relu", QRule::Identity},
      {"strided_slice", QRule::Identity},
      {"transpose", QRule::Identity},
      {"reshape", QRule::Identity},
      {"nn.batch_flatten", QRule::Identity},
      {"clip", QRule::Clip},
      {"concatenate", QRule::Concatenate},
      {"nn.max_pool2d", QRule::Pool},
      {"nn.global_avg_pool2d", QRule::Stop},
      {"nn.adaptive_avg_pool2d", QRule::Stop},
  };
  for (auto [name, rule] : builtin)
    rules[(Twine("relay.") + name).str()] = rule;
  forEachOperator([&](const OperatorInfo &info) {
    auto it = info.columns.find(kQuantizeColumn);
    if (it != info.columns.end())
      if (const QRule *rule = std::any_cast<QRule>(&it->second))
        rules[info.name] = *rule;
  });
}

LogicalResult QuantizeRules::load(StringRef path, MLIRContext *ctx) {
  auto fail = [&](unsigned line, const Twine &message) {
    emitError(FileLineColLoc::get(ctx, path, line, 1)) << message;
    return failure();
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fail(0, "cannot read the quantization rules file '" + path +
                       "': " + buffer.getError().message());
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (auto [i, text] : llvm::enumerate(lines)) {
    unsigned line = i + 1;
    StringRef content = text.split('#').first.trim();
    if (content.empty())
      continue;
    SmallVector<StringRef> words;
    content.split(words, ' ', -1, /*KeepEmpty=*/false);
    if (words.size() != 2)
      return fail(line, "expected '<operator> <rule>', got '" + content + "'");
    std::string opName = ("relay." + words[0]).str();
    if (!lookupOperator(opName))
      return fail(line, "unknown operator '" + words[0] + "'");
    std::optional<QRule> rule = parseRule(words[1]);
    if (!rule)
      return fail(line, "unknown rule '" + words[1] +
                            "' (expected identity, pool, product, add, "
                            "multiply, clip, concatenate, stop or float)");
    rules[opName] = *rule;
  }
  return success();
}

QRule QuantizeRules::lookup(StringRef opName) const {
  auto it = rules.find(opName);
  return it == rules.end() ? QRule::Float : it->second;
}
