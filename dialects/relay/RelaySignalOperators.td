//===- RelaySignalOperators.td - Fourier transforms --------*- tablegen -*-===//
//
// TVM's `dft` (the discrete Fourier transform along the last axis, real and
// imaginary parts apart) and `stft` (the short-time Fourier transform of a
// signal or a batch of them). Composites: their decompositions
// (transforms/Decompose/SignalRewrites.cpp) are products with constant
// cosine and sine matrices.
//
// Included by RelayOperators.td.
//
//===----------------------------------------------------------------------===//

#ifndef RELAY_SIGNAL_OPERATORS
#define RELAY_SIGNAL_OPERATORS

def Relay_DftOp : Relay_OperatorOp<"dft", "DFT", "Opaque", 2, 3> {
  let summary = "The discrete Fourier transform along the last axis: "
                "(real, imaginary) of (real, imaginary)";
  let description = [{
    TVM's: `re_data` and `im_data` of one floating-point type; the result
    is the tuple of the transform's real and imaginary parts, of that type.
    With `inverse` the exponent's sign is positive and the sums are divided
    by the axis' length.
  }];
  let arguments = (ins AnyType:$re_data, AnyType:$im_data,
                       DefaultValuedAttr<BoolAttr, "false">:$inverse);
}

def Relay_StftOp : Relay_OperatorOp<"stft", "STFT", "Opaque", 2, 3> {
  let summary = "The short-time Fourier transform: [batch, frequencies, "
                "frames, 2] (real and imaginary parts last)";
  let description = [{
    TVM's: `data` is a signal [L] or a batch of them [B, L] (floating
    point), `window` a 1-d tensor of at least `win_length` weights. Frame
    t starts at t * `hop_length`; there are (L - `n_fft`) / `hop_length` + 1
    of them. Frequency r sums window[w] * data[t * hop + w] * e^(-2 pi i r w
    / `win_length`) over w < `win_length` (TVM's topi kernel: the exponent
    is over win_length, which must not exceed n_fft); `onesided` keeps the
    n_fft / 2 + 1 first frequencies (else n_fft), `normalized` divides by
    sqrt(n_fft). A 1-d signal gives [frequencies, frames, 2].
  }];
  let arguments = (ins AnyType:$data, AnyType:$window, I64Attr:$n_fft,
                       I64Attr:$hop_length, I64Attr:$win_length,
                       DefaultValuedAttr<BoolAttr, "false">:$normalized,
                       DefaultValuedAttr<BoolAttr, "true">:$onesided);
}

#endif // RELAY_SIGNAL_OPERATORS
