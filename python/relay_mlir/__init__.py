"""relay_mlir: Relay, the functional IR for deep learning, compiled by MLIR.

Load a program (Relay text, MLIR or an ONNX model), type-check, optimise,
differentiate and compile it, and call the result on numpy arrays::

    import numpy as np, relay_mlir
    resnet = relay_mlir.compile("resnet18.onnx", opt_level=3, threads=2)
    logits = resnet(np.random.rand(1, 3, 224, 224).astype(np.float32))

Errors (malformed text, an ill-typed program, a bad option, wrong input
shapes) raise relay_mlir.Error with the compiler's diagnostics,
``file:line:col: error: ...``.
"""

import os
import warnings

import numpy as np

from ._relay_mlir import Error
from ._relay_mlir import Module as _NativeModule

__all__ = ["Error", "Function", "Module", "compile", "gradient",
           "infer_types", "load", "to_text"]

_EXTENSIONS = (".rly", ".mlir", ".mlirbc", ".onnx")
_MLIR_STARTS = ("module", "builtin.module", "relay.func", "relay.data",
                "func.func", "#loc", "{-#")


def _default_threads():
    """The cores this process may run on, as relay-run counts them."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _looks_like_mlir(text):
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("//"):
            return line.startswith(_MLIR_STARTS)
    return False


class Module:
    """A Relay module: functions and ADT declarations in the relay
    dialect."""

    def __init__(self, native):
        self._native = native
        self._typed = False

    def infer_types(self):
        """Type-checks the module in place (filling in omitted types) and
        decomposes composite operators; returns the module."""
        if not self._typed:
            self._native.infer_types()
            self._typed = True
        return self

    def run_passes(self, pipeline):
        """Runs relay-mlir-opt passes on the module, by their flags without
        dashes: ``"relay-fold-constant,relay-fuse-ops{fuse-opt-level=2}"``;
        returns the module."""
        self._native.run_passes(pipeline)
        return self

    def optimize(self, opt_level=3):
        """Type-checks, then runs Relay's optimisations of `opt_level`
        (--relay-optimize); returns the module."""
        self.infer_types()
        return self.run_passes("relay-optimize{opt-level=%d}" % opt_level)

    def gradient(self, entry="main"):
        """Adds ``@<entry>_grad``, returning ``(entry(x...), (d/dx1,
        ...))`` with the result seeded by ones; returns the module."""
        self.infer_types()
        self._native.differentiate(entry)
        return self

    def to_text(self):
        """The module as Relay text (TVM's text format)."""
        return self._native.to_relay_text()

    def to_mlir(self):
        """The module as MLIR (the relay dialect)."""
        return self._native.to_mlir()

    def compile(self, entry="main", opt_level=3, threads=None, target="cpu",
                cpu="host", precision="fp32"):
        """Compiles `entry` to native code (relay-run's options of the same
        names; `threads` defaults to the cores this process may run on) and
        returns it as a Function. Where the entry's parameter types leave
        dimensions `?`, the Function is compiled for the sizes of the
        arrays of each call, once per set of sizes. What native code does
        not cover (sizes that depend on the data: NonZero, NMS, the dyn
        operators) runs on the reference interpreter, as relay-run runs
        it, calling compiled code for the regions native code covers,
        with a RuntimeWarning saying why (not for target "cuda": the GPU
        was asked for)."""
        self.infer_types()
        if threads is None:
            threads = _default_threads()
        options = (int(opt_level), int(threads), target, cpu, precision)
        self._native.verify_options(*options)
        if self._native.parameter_shapes(entry) is None:
            raise Error("the module has no relay.func @%s" % entry)
        return _entry_function(self._native, entry, options)

    def interpret(self, entry="main"):
        """`entry` on the reference interpreter, as a callable on numpy
        arrays (tuples of them for tuple parameters) returning arrays:
        relay-run --interp. It runs every program native code runs and
        those it does not cover (sizes that depend on the data), slowly."""
        self.infer_types()
        if self._native.parameter_shapes(entry) is None:
            raise Error("the module has no relay.func @%s" % entry)
        return _InterpretedFunction(self._native, entry)

    def __str__(self):
        return self.to_text()


def _flatten(structure, value, where, out):
    """Flattens `value` (an array or nested tuples of them) along the
    parameter's `structure`, into `out` by index."""
    if isinstance(structure, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(structure):
            raise ValueError("%s: expected a tuple of %d values, got %r"
                             % (where, len(structure), type(value).__name__))
        for i, (s, v) in enumerate(zip(structure, value)):
            _flatten(s, v, "%s[%d]" % (where, i), out)
    else:
        out[structure] = (value, where)


def _rebuild(structure, arrays):
    """The value `structure` describes: a tuple of fields, a list of
    elements, None (an empty Option), {"some": element}, or an array's
    index."""
    if isinstance(structure, tuple):
        return tuple(_rebuild(s, arrays) for s in structure)
    if isinstance(structure, list):
        return [_rebuild(s, arrays) for s in structure]
    if structure is None:
        return None
    if isinstance(structure, dict):
        return _rebuild(structure["some"], arrays)
    return arrays[structure]


def _to_bfloat16_bits(array):
    """`array`'s values rounded to the nearest bfloat16 (ties to even, NaN
    kept), as the uint16 bits a bf16 tensor stores."""
    bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) >> 16
    rounded = np.where(np.isnan(array), np.uint32(0x7FC0), rounded)
    return rounded.astype(np.uint16)


def _from_bfloat16_bits(bits):
    """The float32 values of bfloat16 bits (exact)."""
    return (bits.astype(np.uint32) << 16).view(np.float32)


def _check_numeric(value, where, expected):
    """A TypeError naming what `value` is when it cannot be a tensor (None,
    a string, an object array), before its shape is compared."""
    if isinstance(value, np.ndarray):
        kind = value.dtype.kind
    elif value is None or isinstance(value, (str, bytes, dict)):
        kind = None
    else:
        try:
            kind = np.asarray(value).dtype.kind
        except (TypeError, ValueError):
            kind = None
    if kind not in ("b", "i", "u", "f"):
        got = ("an array of %s" % value.dtype
               if isinstance(value, np.ndarray) else
               "None" if value is None else
               "a value of Python type %s" % type(value).__name__)
        raise TypeError("%s: expected %s, got %s" % (where, expected, got))


class Function:
    """A compiled entry function: call it on numpy arrays (tuples of them
    for tuple parameters); it returns an array or a tuple."""

    def __init__(self, native, entry):
        self._native = native
        self.entry = entry
        self._inputs = native.input_specs
        self._result_specs = native.result_specs
        self._params = native.parameter_structure
        self._results = native.result_structure

    @property
    def type(self):
        """The entry's type, as MLIR prints it."""
        return self._native.type

    def _convert(self, value, spec, where):
        shape, dtype, type_text, bfloat16 = spec
        _check_numeric(value, where, type_text if bfloat16 else
                       "%s (%s)" % (dtype, type_text))
        array = np.asarray(value)
        if bfloat16:
            if array.dtype.kind != "f":
                raise TypeError("%s: expected floats for %s (rounded to "
                                "bfloat16), got an array of %s"
                                % (where, type_text, array.dtype))
            array = _to_bfloat16_bits(array)
        elif array.dtype != dtype:
            if not np.can_cast(array.dtype, dtype, casting="same_kind"):
                raise TypeError("%s: expected %s (%s), got an array of %s"
                                % (where, dtype, type_text, array.dtype))
            array = array.astype(dtype)
        if array.shape != shape:
            raise ValueError("%s: expected shape %s (%s), got %s"
                             % (where, shape, type_text, array.shape))
        return np.ascontiguousarray(array)

    def __call__(self, *args):
        if len(args) != len(self._params):
            raise TypeError("@%s takes %d inputs, got %d"
                            % (self.entry, len(self._params), len(args)))
        flat = [None] * len(self._inputs)
        for i, (structure, value) in enumerate(zip(self._params, args)):
            _flatten(structure, value, "input %d of @%s" % (i, self.entry),
                     flat)
        arrays = [self._convert(value, spec, where)
                  for (value, where), spec in zip(flat, self._inputs)]
        results = [_from_bfloat16_bits(r) if spec[3] else r for r, spec in
                   zip(self._native.call(arrays), self._result_specs)]
        return _rebuild(self._results, results)


class _InterpretedFunction:
    """An entry function run by the reference interpreter on each call."""

    def __init__(self, native, entry):
        self._native = native
        self.entry = entry

    def __call__(self, *args):
        structure, arrays, bfloat16 = self._native.interpret(self.entry, args)
        arrays = [_from_bfloat16_bits(a) if bf else a
                  for a, bf in zip(arrays, bfloat16)]
        return _rebuild(structure, arrays)


class _HybridFunction:
    """An entry run as relay-run runs what native code does not cover as a
    whole: the interpreter, calling compiled code for the regions native
    code covers (each compiled for the sizes it is called with, where
    interpreting it over the calls expected would take longer than
    compiling it), the code kept for later calls."""

    # The calls a compiled Function is expected to make: what the
    # compile-or-interpret estimate of each region weighs.
    EXPECTED_CALLS = 10

    def __init__(self, native, entry, options):
        self.entry = entry
        self._hybrid = native.hybrid(entry, *options,
                                     expected_calls=self.EXPECTED_CALLS)

    @property
    def regions_compiled(self):
        """How many region instances calls have compiled so far."""
        return self._hybrid.num_compiled

    def start_profile(self):
        """Times the calls from now on (what was timed before is dropped):
        each operator the interpreter runs and each native region it calls,
        as `relay-run --profile` does."""
        self._hybrid.set_profiling(True)

    def stop_profile(self):
        """Stops timing calls (what was timed stays for profile())."""
        self._hybrid.set_profiling(False)

    def profile(self):
        """The calls timed since start_profile(), as text: time and calls
        of each operator and native region per call, most time first."""
        return self._hybrid.profile()

    def __call__(self, *args):
        structure, arrays, bfloat16 = self._hybrid.call(args)
        arrays = [_from_bfloat16_bits(a) if bf else a
                  for a, bf in zip(arrays, bfloat16)]
        return _rebuild(structure, arrays)


def _entry_function(native, entry, options):
    """The callable Module.compile returns for `entry` of the type-checked
    `native` module compiled with `options`."""
    if native.passes_objects(entry):
        # Closures, ADT values and references do not cross into Python
        # (the compiler says so, located).
        return Function(native.compile(entry, *options), entry)
    if native.is_polymorphic(entry):
        return _PolymorphicFunction(native, entry, options)
    if native.passes_sequences(entry) and options[2] != "cuda":
        # Lists and options cross into Python on the interpreter, which
        # calls compiled code for the regions native code covers.
        return _HybridFunction(native, entry, options)
    shapes = native.parameter_shapes(entry)
    if shapes and any(s is not None and -1 in s for s in shapes):
        return _ShapedFunction(native, entry, shapes, options)
    return _compile_or_interpret(native, entry, options)


def _compile_or_interpret(native, entry, options):
    """`entry` compiled with `options`; what native code does not cover
    runs on the interpreter, calling compiled code for the regions native
    code covers, with a RuntimeWarning saying why (on the CPU targets: a
    GPU asked for is an error)."""
    try:
        return Function(native.compile(entry, *options), entry)
    except Error as e:
        if options[2] == "cuda":
            raise
        warnings.warn("@%s runs on the reference interpreter: native "
                      "compilation does not cover this program yet (%s); "
                      "the regions it covers run compiled"
                      % (entry, str(e).strip()), RuntimeWarning, stacklevel=3)
        return _HybridFunction(native, entry, options)


class _ShapedFunction:
    """A Function of an entry whose parameter types leave dimensions `?`
    (Relay's Any): each call's array sizes are bound to them
    (relay-run does this with its --input files: native code is for static
    shapes) and the program compiled for them, kept for the next call with
    the same sizes."""

    def __init__(self, native, entry, shapes, options):
        self._native = native
        self.entry = entry
        self._shapes = shapes
        self._options = options
        self._compiled = {}

    def __call__(self, *args):
        if len(args) != len(self._shapes):
            raise TypeError("@%s takes %d inputs, got %d"
                            % (self.entry, len(self._shapes), len(args)))
        for i, (want, value) in enumerate(zip(self._shapes, args)):
            if want is not None:
                _check_numeric(value, "input %d of @%s" % (i, self.entry),
                               "a numeric array")
        sizes = tuple(None if s is None else tuple(np.shape(a))
                      for s, a in zip(self._shapes, args))
        function = self._compiled.get(sizes)
        if function is None:
            for i, (want, got) in enumerate(zip(self._shapes, sizes)):
                if want is not None and (
                        len(want) != len(got) or
                        any(w not in (-1, g) for w, g in zip(want, got))):
                    raise ValueError(
                        "input %d of @%s: expected shape %s (-1: any size), "
                        "got %s" % (i, self.entry, tuple(want), got))
            bound = self._native.bind_input_shapes(
                self.entry, [None if s is None else list(s) for s in sizes])
            if bound is None:
                # A closure applied at two shapes, recursion whose shapes
                # grow: the program as written, on the interpreter.
                warnings.warn("@%s runs on the reference interpreter: it "
                              "does not type for inputs of sizes %s alone"
                              % (self.entry, list(sizes)), RuntimeWarning,
                              stacklevel=2)
                function = _InterpretedFunction(self._native, self.entry)
            else:
                # Sizes that leave a shape open (a closure typed `?` applied
                # at two shapes) or one that depends on data: interpreted.
                function = _compile_or_interpret(bound, self.entry,
                                                 self._options)
                # The bound module lives as long as its function.
                function._module = bound
            self._compiled[sizes] = function
        return function(*args)


class _PolymorphicFunction:
    """A Function of a polymorphic entry (`def @main[n : ShapeVar](%x:
    Tensor[(n, 4), float32])`, `def @id[A](%x: A)`): each call's array
    types instantiate it (a monomorphic entry taking them calls it, as
    relay-run does with its --input files), compiled once per set of
    array shapes and dtypes."""

    def __init__(self, native, entry, options):
        self._native = native
        self.entry = entry
        self._options = options
        self._compiled = {}

    @staticmethod
    def _key(value):
        if isinstance(value, (tuple, list)):
            return tuple(_PolymorphicFunction._key(v) for v in value)
        array = np.asarray(value)
        return (array.shape, array.dtype.str)

    def __call__(self, *args):
        key = tuple(self._key(a) for a in args)
        function = self._compiled.get(key)
        if function is None:
            instance = self._native.instantiate_entry(self.entry, args)
            function = _entry_function(instance, self.entry, self._options)
            # The instance lives as long as its compiled function.
            function._module = instance
            self._compiled[key] = function
        return function(*args)


def load(source, name=None, input_shapes=None):
    """A Module from `source`: the path of a .rly, .mlir or .onnx file,
    Relay text or MLIR text, or the bytes of an ONNX model. `name` names the
    text in diagnostics; an ONNX model's tensors kept in files beside it
    (external data) are found in the directory of its path, or of `name`
    for bytes (else the current directory). `input_shapes` ({input name: shape}) gives an ONNX
    model's inputs the sizes of the dimensions it leaves symbolic (a batch
    size), as TVM's from_onnx takes its `shape`."""
    shapes = {k: [int(d) for d in v] for k, v in (input_shapes or {}).items()}
    if isinstance(source, (bytes, bytearray)):
        return Module(_NativeModule.from_onnx(bytes(source),
                                              name or "<bytes>", shapes))
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str):
        raise TypeError("load() takes a path, Relay or MLIR text, or ONNX "
                        "bytes, not %s" % type(source).__name__)
    is_path = "\n" not in source and source.endswith(_EXTENSIONS)
    if is_path or (os.path.isfile(source) and "\n" not in source):
        if not os.path.isfile(source):
            raise FileNotFoundError("no such file: '%s'" % source)
        if source.endswith(".onnx"):
            with open(source, "rb") as f:
                return Module(_NativeModule.from_onnx(f.read(), source,
                                                      shapes))
        if shapes:
            raise Error("input_shapes is for ONNX models, not '%s'" % source)
        if source.endswith((".mlir", ".mlirbc")):
            return Module(_NativeModule.from_mlir_file(source))
        if source.endswith(".rly"):
            with open(source, encoding="utf-8") as f:
                return Module(_NativeModule.from_relay_text(f.read(), source))
        raise Error("'%s' is neither a .rly, a .mlir (.mlirbc) nor a .onnx "
                    "program"
                    % source)
    if shapes:
        raise Error("input_shapes is for ONNX models, not text")
    if _looks_like_mlir(source):
        return Module(_NativeModule.from_mlir(source))
    return Module(_NativeModule.from_relay_text(source, name or "<string>"))


def compile(source, opt_level=3, threads=None, entry="main", target="cpu",
            cpu="host", precision="fp32", input_shapes=None):
    """Loads `source` (see load; `input_shapes` for an ONNX model's symbolic
    dimensions) and compiles `entry`: a Function to call on numpy arrays."""
    module = (source if isinstance(source, Module)
              else load(source, input_shapes=input_shapes))
    return module.compile(entry, opt_level=opt_level, threads=threads,
                          target=target, cpu=cpu, precision=precision)


def infer_types(source):
    """`source` type-checked, as Relay text with every type filled in."""
    module = source if isinstance(source, Module) else load(source)
    return module.infer_types().to_text()


def to_text(source):
    """`source` (a path, text, ONNX bytes or a Module) as Relay text."""
    module = source if isinstance(source, Module) else load(source)
    return module.to_text()


def gradient(source, entry="main", **compile_options):
    """Compiles the gradient of `entry`: a Function returning
    ``(entry(x...), (d/dx1, ...))``, the result seeded by ones."""
    module = source if isinstance(source, Module) else load(source)
    return module.gradient(entry).compile(entry + "_grad", **compile_options)
