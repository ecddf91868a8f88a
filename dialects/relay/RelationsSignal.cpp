//===- RelationsSignal.cpp - Relations of Fourier transforms ----*- C++ -*-===//
//
// TVM's `dft` and `stft`.
//
//===----------------------------------------------------------------------===//

#include "dialects/relay/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;

/// dft: real and imaginary parts of one floating-point type (the imaginary
/// part's inferred from the real one's); the result is a tuple of two of
/// it.
static RelationStatus dftRelation(RelationArgs &args) {
  TensorInfo re;
  READ_TENSOR_OR_RETURN(args, 0, re);
  if (!isFloatLike(re.dtype) || re.getRank() == 0)
    return args.fail("expected a floating-point tensor of at least one axis, "
                     "got " +
                     typeStr(args.getInput(0)));
  if (failed(expectInputType(args, 1, args.getInput(0), "the imaginary part")))
    return RelationStatus::Failed;
  return args.solve(
      TupleType::get(args.getContext(), {args.getInput(0), args.getInput(0)}));
}

/// stft: a floating-point signal [L] or batch [B, L], a 1-d window of at
/// least win_length weights; [B,] frequencies, frames, 2.
static RelationStatus stftRelation(RelationArgs &args) {
  TensorInfo data, window;
  READ_TENSOR_OR_RETURN(args, 0, data);
  READ_TENSOR_OR_RETURN(args, 1, window);
  if (!isFloatLike(data.dtype) || data.getRank() < 1 || data.getRank() > 2)
    return args.fail("expected a floating-point signal [L] or batch of "
                     "signals [B, L], got " +
                     typeStr(args.getInput(0)));
  if (window.getRank() != 1)
    return args.fail("expected a 1-d window, got " + typeStr(args.getInput(1)));
  int64_t nfft = args.getInt("n_fft", 0), hop = args.getInt("hop_length", 0),
          width = args.getInt("win_length", 0);
  if (nfft <= 0 || hop <= 0 || width <= 0)
    return args.fail("n_fft, hop_length and win_length must be positive, "
                     "got " +
                     Twine(nfft) + ", " + Twine(hop) + " and " + Twine(width));
  if (width > nfft)
    return args.fail("win_length " + Twine(width) + " exceeds n_fft " +
                     Twine(nfft) + " (a frame would read past the signal)");
  Dim taps = window.dims[0];
  if (taps.isStatic() && taps.size < width)
    return args.fail("the window " + typeStr(args.getInput(1)) +
                     " is shorter than win_length " + Twine(width));
  Dim length = data.dims.back();
  Dim frames = Dim::any();
  if (length.isStatic()) {
    if (length.size < nfft)
      return args.fail("the signal of " + Twine(length.size) +
                       " samples is shorter than n_fft " + Twine(nfft));
    frames = Dim::of((length.size - nfft) / hop + 1);
  }
  SmallVector<Dim> result;
  if (data.getRank() == 2)
    result.push_back(data.dims[0]);
  result.push_back(
      Dim::of(args.getBool("onesided", true) ? nfft / 2 + 1 : nfft));
  result.push_back(frames);
  result.push_back(Dim::of(2));
  return args.solve(makeTensor(args.getContext(), result, data.dtype));
}

void mlir::relay::registerSignalRelations() {
  registerTypeRelation("DFT", dftRelation);
  registerTypeRelation("STFT", stftRelation);
}
