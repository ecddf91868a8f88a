//===- ReplayMain.cpp - Runs a fuzz target without libFuzzer --------------===//
//
// A main() for a fuzz target's LLVMFuzzerTestOneInput, linked with the
// project's ordinary (uninstrumented) libraries: it feeds the target every
// file named on the command line (folders: every file in them, sorted) and,
// with --random=COUNT:LENGTH:SEED, COUNT byte strings of LENGTH bytes from a
// fixed generator. The test suite replays each fuzzer's seeds and the
// inputs that once crashed it this way, which costs one ordinary compile of
// the target instead of an instrumented build of everything it fuzzes
// (scripts/fuzz.sh builds and runs the real fuzzers). A crash or abort is
// the failure, as under libFuzzer.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace {
/// The files `path` names: itself, or a folder's regular files, sorted.
std::vector<std::string> filesOf(llvm::StringRef path) {
  if (!llvm::sys::fs::is_directory(path))
    return {path.str()};
  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::fs::is_regular_file(it->path()))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

/// Parses COUNT:LENGTH:SEED.
bool parseRandom(llvm::StringRef spec, uint64_t &count, uint64_t &length,
                 uint64_t &seed) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  spec.split(parts, ':');
  return parts.size() == 3 && !parts[0].getAsInteger(10, count) &&
         !parts[1].getAsInteger(10, length) &&
         !parts[2].getAsInteger(10, seed) && length <= (1u << 24);
}
} // namespace

int main(int argc, char **argv) {
  size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("--random=")) {
      uint64_t count, length, state;
      if (!parseRandom(arg, count, length, state)) {
        llvm::errs() << argv[0] << ": error: expected --random=COUNT:LENGTH:"
                     << "SEED (LENGTH at most 2^24), got '" << argv[i] << "'\n";
        return 2;
      }
      std::vector<uint8_t> bytes(length);
      for (uint64_t n = 0; n < count; ++n, ++inputs) {
        for (uint8_t &byte : bytes) {
          state = state * 6364136223846793005ull + 1442695040888963407ull;
          byte = uint8_t(state >> 56);
        }
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
      }
      continue;
    }
    if (!llvm::sys::fs::exists(arg)) {
      llvm::errs() << argv[0] << ": error: no such file or folder '" << arg
                   << "'\n";
      return 2;
    }
    for (const std::string &file : filesOf(arg)) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
          llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
      if (!buffer) {
        llvm::errs() << argv[0] << ": error: cannot read '" << file
                     << "': " << buffer.getError().message() << "\n";
        return 2;
      }
      LLVMFuzzerTestOneInput(
          reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
          (*buffer)->getBufferSize());
      ++inputs;
    }
  }
  llvm::outs() << "replayed " << inputs << " inputs\n";
  return 0;
}
