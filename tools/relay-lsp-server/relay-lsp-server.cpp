//===- relay-lsp-server.cpp - Language server for Relay text ----*- C++ -*-===//
//
// relay-lsp-server speaks the Language Server Protocol (LLVM's JSON-RPC
// transport, llvm/Support/LSP) for Relay text (.rly) files: each version of
// a document is imported and type-checked as relay-run would, and the
// errors are published where they are; hovering over an expression shows
// its operator and inferred type, over a definition its function type;
// go-to-definition finds the `def` of an @global, the `type` of an ADT or
// constructor, and the binding of a %variable. (relay-mlir-lsp-server is
// the one for .mlir files.)
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelayOps.h"
#include "frontends/RelayText/Importer.h"
#include "tools/init/InitAll.h"
#include "transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LSP/Logging.h"
#include "llvm/Support/LSP/Protocol.h"
#include "llvm/Support/LSP/Transport.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <regex>

using namespace mlir;
namespace lsp = llvm::lsp;

namespace {

/// Characters of a Relay name (with its sigil).
bool isNameChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '@' || c == '%';
}

/// The offset of `pos` in `text`, clamped to its end.
size_t offsetOf(StringRef text, lsp::Position pos) {
  size_t offset = 0;
  for (int line = 0; line < pos.line && offset < text.size(); ++line) {
    size_t next = text.find('\n', offset);
    if (next == StringRef::npos)
      return text.size();
    offset = next + 1;
  }
  return std::min(text.size(), offset + size_t(std::max(0, pos.character)));
}

lsp::Position positionOf(StringRef text, size_t offset) {
  StringRef before = text.take_front(offset);
  int line = before.count('\n');
  size_t start = before.rfind('\n');
  int column = start == StringRef::npos ? offset : offset - start - 1;
  return lsp::Position(line, column);
}

/// The name under `offset` (`@main`, `%x`, `Cons`), or "".
StringRef nameAt(StringRef text, size_t offset) {
  size_t begin = offset, end = offset;
  while (begin > 0 && isNameChar(text[begin - 1]))
    --begin;
  while (end < text.size() && isNameChar(text[end]))
    ++end;
  return text.slice(begin, end);
}

/// The file position in `loc`: let-bound values' locations are NameLocs
/// (`"y"(file:line:col)`) around it.
FileLineColLoc fileLoc(Location loc) {
  return loc->findInstanceOf<FileLineColLoc>();
}

/// The range of the token starting at (1-based) line:column of `loc`.
std::optional<lsp::Range> rangeOf(StringRef text, Location loc) {
  FileLineColLoc file = fileLoc(loc);
  if (!file)
    return std::nullopt;
  lsp::Position start(std::max(0, int(file.getLine()) - 1),
                      std::max(0, int(file.getColumn()) - 1));
  size_t offset = offsetOf(text, start), end = offset;
  while (end < text.size() && isNameChar(text[end]))
    ++end;
  if (end == offset && end < text.size())
    ++end;
  return lsp::Range(start, positionOf(text, end));
}

/// A document as the editor last sent it, imported and type-checked.
struct Document {
  std::string text;
  int64_t version = 0;
  OwningOpRef<ModuleOp> module;
};

class RelayLanguageServer {
public:
  RelayLanguageServer(MLIRContext &context, lsp::MessageHandler &handler)
      : context(context) {
    handler.method("initialize", this, &RelayLanguageServer::onInitialize);
    handler.notification("initialized", this,
                         &RelayLanguageServer::onInitialized);
    handler.method("shutdown", this, &RelayLanguageServer::onShutdown);
    handler.notification("textDocument/didOpen", this,
                         &RelayLanguageServer::onOpen);
    handler.notification("textDocument/didChange", this,
                         &RelayLanguageServer::onChange);
    handler.notification("textDocument/didClose", this,
                         &RelayLanguageServer::onClose);
    handler.method("textDocument/hover", this, &RelayLanguageServer::onHover);
    handler.method("textDocument/definition", this,
                   &RelayLanguageServer::onDefinition);
    publishDiagnostics =
        handler.outgoingNotification<lsp::PublishDiagnosticsParams>(
            "textDocument/publishDiagnostics");
  }

private:
  void onInitialize(const lsp::InitializeParams &,
                    lsp::Callback<llvm::json::Value> reply) {
    llvm::json::Object capabilities{
        {"textDocumentSync",
         llvm::json::Object{{"openClose", true},
                            {"change", int(lsp::TextDocumentSyncKind::Full)},
                            {"save", true}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
    };
    reply(llvm::json::Object{
        {"serverInfo", llvm::json::Object{{"name", "relay-lsp-server"},
                                          {"version", "0.1.0"}}},
        {"capabilities", std::move(capabilities)}});
  }
  void onInitialized(const lsp::InitializedParams &) {}
  void onShutdown(const lsp::NoParams &, lsp::Callback<std::nullptr_t> reply) {
    reply(nullptr);
  }

  void onOpen(const lsp::DidOpenTextDocumentParams &params) {
    update(params.textDocument.uri, params.textDocument.text,
           params.textDocument.version);
  }
  void onChange(const lsp::DidChangeTextDocumentParams &params) {
    auto it = documents.find(params.textDocument.uri.uri());
    if (it == documents.end())
      return;
    std::string text = it->second.text;
    if (failed(lsp::TextDocumentContentChangeEvent::applyTo(
            params.contentChanges, text)))
      return;
    update(params.textDocument.uri, text, params.textDocument.version);
  }
  void onClose(const lsp::DidCloseTextDocumentParams &params) {
    documents.erase(params.textDocument.uri.uri());
    // The closed file's errors leave the editor with it.
    publishDiagnostics(lsp::PublishDiagnosticsParams(params.textDocument.uri,
                                                     /*version=*/0));
  }

  /// Imports and type-checks the new text; publishes what is wrong.
  void update(const lsp::URIForFile &uri, const std::string &text,
              int64_t version) {
    Document &doc = documents[uri.uri()];
    doc.text = text;
    doc.version = version;
    lsp::PublishDiagnosticsParams published(uri, version);
    ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
      lsp::Diagnostic d;
      d.source = "relay";
      d.severity = diag.getSeverity() == DiagnosticSeverity::Error
                       ? lsp::DiagnosticSeverity::Error
                   : diag.getSeverity() == DiagnosticSeverity::Warning
                       ? lsp::DiagnosticSeverity::Warning
                       : lsp::DiagnosticSeverity::Information;
      d.message = diag.str();
      for (Diagnostic &note : diag.getNotes())
        d.message += "\nnote: " + note.str();
      d.range = rangeOf(text, diag.getLocation())
                    .value_or(lsp::Range(lsp::Position(0, 0)));
      published.diagnostics.push_back(std::move(d));
      return success();
    });
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, uri.file()), SMLoc());
    doc.module = relay::text::importRelayText(sourceMgr, &context);
    if (doc.module) {
      PassManager pm(&context);
      pm.addPass(relay::createInferTypes());
      if (failed(pm.run(*doc.module)))
        doc.module = nullptr;
    }
    publishDiagnostics(published);
  }

  void onHover(const lsp::TextDocumentPositionParams &params,
               lsp::Callback<std::optional<lsp::Hover>> reply) {
    auto it = documents.find(params.textDocument.uri.uri());
    if (it == documents.end() || !it->second.module)
      return reply(std::nullopt);
    Document &doc = it->second;
    // The innermost op that starts last on the cursor's line, before it.
    Operation *best = nullptr;
    std::pair<int, int> bestAt{-1, -1};
    doc.module->walk<WalkOrder::PreOrder>([&](Operation *op) {
      FileLineColLoc loc = fileLoc(op->getLoc());
      if (!loc || int(loc.getLine()) - 1 != params.position.line ||
          int(loc.getColumn()) - 1 > params.position.character ||
          (op->getNumResults() == 0 && !isa<relay::FuncOp>(op)))
        return;
      std::pair<int, int> at{int(loc.getColumn()), 0};
      if (at >= bestAt) {
        best = op;
        bestAt = at;
      }
    });
    if (!best)
      return reply(std::nullopt);
    std::string text;
    llvm::raw_string_ostream os(text);
    if (auto func = dyn_cast<relay::FuncOp>(best)) {
      os << "def @" << func.getSymName() << ": " << func.getFunctionType();
    } else if (auto call = dyn_cast<relay::CallOp>(best)) {
      os << "call `@" << call.getCallee() << "`: ";
      llvm::interleaveComma(call->getResultTypes(), os);
    } else {
      os << "`" << best->getName() << "`: ";
      llvm::interleaveComma(best->getResultTypes(), os);
    }
    lsp::Hover hover(*rangeOf(doc.text, best->getLoc()));
    hover.contents.value = text;
    reply(hover);
  }

  void onDefinition(const lsp::TextDocumentPositionParams &params,
                    lsp::Callback<std::vector<lsp::Location>> reply) {
    std::vector<lsp::Location> found;
    auto it = documents.find(params.textDocument.uri.uri());
    if (it == documents.end())
      return reply(found);
    Document &doc = it->second;
    StringRef text = doc.text;
    size_t offset = offsetOf(text, params.position);
    StringRef name = nameAt(text, offset);
    if (name.empty())
      return reply(found);
    // The definition's text: `def @f`, `type T`, a constructor in a type's
    // braces, or a variable's binding, the last before the use: a
    // parameter or annotated pattern variable `%x:`, `let %x`, a graph
    // binding `%x =` (not `%x ==`). Uses (`f(%x)`) are not bindings, so an
    // unannotated pattern variable is not found.
    std::string pattern;
    std::string escaped = std::regex_replace(
        name.str(), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
    bool backwards = name.starts_with("%");
    if (name.starts_with("@"))
      pattern = "def\\s+" + escaped + "\\b";
    else if (backwards)
      pattern = "(let\\s+" + escaped + "\\b|" + escaped + "\\s*(:|=(?!=)))";
    else
      pattern = "(type\\s+" + escaped + "\\b|[{,]\\s*" + escaped + "\\s*[(,}])";
    std::regex re(pattern);
    std::string haystack = backwards ? text.take_front(offset).str() : doc.text;
    std::optional<size_t> at;
    for (auto m = std::sregex_iterator(haystack.begin(), haystack.end(), re);
         m != std::sregex_iterator(); ++m) {
      at = m->position() + m->str().find(name.str());
      if (!backwards)
        break;
    }
    if (at) {
      lsp::Position start = positionOf(text, *at);
      found.push_back(lsp::Location{
          params.textDocument.uri,
          lsp::Range(start, positionOf(text, *at + name.size()))});
    }
    reply(found);
  }

  MLIRContext &context;
  llvm::StringMap<Document> documents;
  lsp::OutgoingNotification<lsp::PublishDiagnosticsParams> publishDiagnostics;
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::opt<bool> litTest(
      "lit-test",
      llvm::cl::desc("Read '// -----'-delimited messages and print them "
                     "pretty (for lit tests)"));
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "relay-lsp-server: Relay text (.rly)");
  lsp::Logger::setLogLevel(lsp::Logger::Level::Error);

  DialectRegistry registry;
  relay::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);

  lsp::JSONTransport transport(stdin, llvm::outs(),
                               litTest ? lsp::JSONStreamStyle::Delimited
                                       : lsp::JSONStreamStyle::Standard,
                               /*PrettyOutput=*/litTest);
  lsp::MessageHandler handler(transport);
  RelayLanguageServer server(context, handler);
  if (llvm::Error error = transport.run(handler)) {
    lsp::Logger::error("transport: {0}", llvm::toString(std::move(error)));
    return 1;
  }
  return 0;
}
