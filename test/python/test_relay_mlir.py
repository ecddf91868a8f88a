"""Tests of the relay_mlir Python package (pytest, Debian's python3-pytest):
programs from Relay text, MLIR and ONNX compiled and called on numpy arrays
against numpy and PyTorch, passes, Relay text out, gradients, and every
kind of bad input raising a located error.

Run by ctest (python-package) with PYTHONPATH=build/python.
"""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import relay_mlir

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

ADD_SUM = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(3), float32]) {
  (add(%x, %y), sum(%x))
}
"""


def test_compile_relay_text_tuple_result():
    """Tests that Relay text compiles and returns its tuple as a tuple of
    arrays equal to numpy's."""
    f = relay_mlir.compile(ADD_SUM, threads=2)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = np.array([10, 20, 30], dtype=np.float32)
    added, s = f(x, y)
    np.testing.assert_array_equal(added, x + y)
    assert added.dtype == np.float32 and added.shape == (2, 3)
    assert s.shape == () and float(s) == 15.0
    assert "tuple<tensor<2x3xf32>, tensor<f32>>" in f.type


def test_tuple_parameters_and_integers():
    """Tests that a tuple parameter takes a Python tuple and that integer
    and boolean tensors map to numpy's dtypes."""
    f = relay_mlir.compile("""#[version = "0.0.5"]
def @main(%p: (Tensor[(4), int32], Tensor[(4), int32])) {
  (add(%p.0, %p.1), greater(%p.0, %p.1))
}""")
    a = np.array([1, 5, 3, 7], dtype=np.int32)
    b = np.array([4, 2, 3, 1], dtype=np.int32)
    total, greater = f((a, b))
    np.testing.assert_array_equal(total, a + b)
    assert greater.dtype == np.bool_
    np.testing.assert_array_equal(greater, a > b)


def test_inputs_are_checked_and_converted():
    """Tests that float64 arrays are converted to float32, lists too, and
    that a wrong shape, a wrong kind of dtype or a wrong count raise."""
    f = relay_mlir.compile(ADD_SUM)
    x = np.ones((2, 3))  # float64
    added, _ = f(x, [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(added, x + [1, 2, 3])
    with pytest.raises(ValueError, match=r"input 1 of @main: expected shape "
                       r"\(3,\) \(tensor<3xf32>\), got \(4,\)"):
        f(x, np.zeros(4, np.float32))
    with pytest.raises(TypeError, match=r"input 1 of @main: expected "
                       r"float32 \(tensor<3xf32>\), got an array of <U1"):
        f(x, np.array(["a", "b", "c"]))
    with pytest.raises(TypeError, match="input 0 of @main: expected float32 "
                       r"\(tensor<2x3xf32>\), got None"):
        f(None, x)
    with pytest.raises(TypeError, match="@main takes 2 inputs, got 1"):
        f(x)
    # Non-contiguous views are copied, not misread.
    big = np.arange(12, dtype=np.float32).reshape(2, 6)
    added, _ = f(big[:, ::2], np.zeros(3, np.float32))
    np.testing.assert_array_equal(added, big[:, ::2])


def test_bfloat16_parameters_and_results():
    """Tests that bfloat16 tensors, which numpy has no dtype for, take
    float arrays rounded to the nearest bfloat16 (ties to even) and come
    back as float32 arrays of their exact values."""
    f = relay_mlir.compile("""#[version = "0.0.5"]
def @main(%x: Tensor[(4), bfloat16], %y: Tensor[(4), bfloat16]) {
  (add(%x, %y), cast(%x, dtype="float32"))
}""")
    # 1 + 2^-8 is a tie between 1 and 1 + 2^-7: even is 1. 1 + 3 * 2^-8
    # rounds up to 1 + 2^-6.
    x = np.array([1.0, 1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -8, -2.5])
    added, widened = f(x, np.array([0.5, 0.0, 0.0, 0.25], np.float32))
    assert added.dtype == np.float32 and widened.dtype == np.float32
    np.testing.assert_array_equal(widened, [1.0, 1.0, 1.0 + 2.0 ** -6, -2.5])
    np.testing.assert_array_equal(added, [1.5, 1.0, 1.0 + 2.0 ** -6, -2.25])
    with pytest.raises(TypeError, match="expected floats for "
                       r"tensor<4xbf16> \(rounded to bfloat16\)"):
        f(np.arange(4), x)


def test_any_dimensions_compile_per_input_sizes():
    """Tests that an entry whose parameter types leave dimensions `?` is
    compiled for each call's array sizes (a global function called with
    them too), once per set of sizes, that sizes the fixed dimensions do
    not allow raise, and that a program one set of sizes does not make
    static (a closure applied at two shapes) raises saying so."""
    f = relay_mlir.compile("""#[version = "0.0.5"]
def @main(%x: Tensor[(?, 3), float32], %y: Tensor[(?), float32]) {
  (@scale(%x), sum(%y), shape_of(%x))
}
def @scale(%z: Tensor[(?, ?), float32]) {
  multiply(%z, 2f)
}""")
    for rows in (2, 5, 2):
        x = np.arange(3 * rows, dtype=np.float32).reshape(rows, 3)
        y = np.ones(rows + 1, dtype=np.float32)
        scaled, total, shape = f(x, y)
        np.testing.assert_array_equal(scaled, 2 * x)
        assert float(total) == rows + 1
        np.testing.assert_array_equal(shape, [rows, 3])
    assert len(f._compiled) == 2
    with pytest.raises(ValueError, match=r"expected shape \(-1, 3\)"):
        f(np.ones((2, 4), np.float32), np.ones(2, np.float32))
    # Not an array at all: said before its shape is compared.
    with pytest.raises(TypeError, match="input 1 of @main: expected a "
                       "numeric array, got a value of Python type str"):
        f(np.ones((2, 3), np.float32), "a")
    g = relay_mlir.compile("""#[version = "0.0.5"]
def @main(%x: Tensor[(?), float32]) {
  %f = fn (%v: Tensor[(?), float32]) { add(%v, %v) };
  (%f(%x), %f(concatenate((%x, %x))))
}""")
    # A closure applied at two shapes: native code does not cover it, the
    # interpreter runs it, saying so (as relay-run does).
    with pytest.warns(RuntimeWarning, match=r"@main runs on the reference "
                      r"interpreter: .*cannot lower @main"):
        once, twice = g(np.ones(3, np.float32))
    np.testing.assert_array_equal(once, np.full(3, 2, np.float32))
    np.testing.assert_array_equal(twice, np.full(6, 2, np.float32))


def test_polymorphic_entry_compiles_per_input_types():
    """Tests that an entry polymorphic over a ShapeVar and a type is
    compiled for each call's array shapes and dtypes (its fixed dtype
    converting the arrays, the type variable taking theirs, a tuple
    included), and that inputs its signature does not take raise."""
    f = relay_mlir.compile("""#[version = "0.0.5"]
def @main[n : ShapeVar, A](%x: Tensor[(n, 2), float32], %y: Tensor[(n, 2), float32], %a: A) {
  (add(%x, %y), %a)
}""")
    for rows in (3, 1, 3):
        x = np.arange(2 * rows, dtype=np.float64).reshape(rows, 2)
        total, a = f(x, np.ones((rows, 2), np.float32), np.arange(rows))
        assert total.dtype == np.float32
        np.testing.assert_array_equal(total, x + 1)
        np.testing.assert_array_equal(a, np.arange(rows))
    assert len(f._compiled) == 2
    pair = (np.ones(2, np.int8), np.zeros((), np.float32))
    _, (b, c) = f(np.ones((1, 2)), np.ones((1, 2)), pair)
    assert b.dtype == np.int8 and c.shape == ()
    with pytest.raises(relay_mlir.Error,
                       match=r"argument #1 has type 'tensor<4x2xf32>', "
                       r"expected 'tensor<3x2xf32>'"):
        f(np.ones((3, 2)), np.ones((4, 2)), 0)
    with pytest.raises(TypeError, match="@main takes 3 inputs, got 2"):
        f(np.ones((3, 2)), np.ones((3, 2)))


def test_data_dependent_sizes_run_on_the_interpreter():
    """Tests that a program whose sizes depend on the data (argwhere, the
    dyn operators) compiles to a function that runs on the interpreter with
    a RuntimeWarning saying why, that Module.interpret runs any program so,
    tuples in and out, and that bad compile options still raise."""
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3), float32], %p: (float32, int64)) {
  let %rows = argwhere(greater(%x, %p.0));
  (%rows, dyn.topk(%x, %p.1, axis=1, ret_type="values"))
}"""
    x = np.array([[1, -2, 3], [0, 5, -6]], np.float32)
    with pytest.warns(RuntimeWarning, match="runs on the reference "
                      "interpreter: native compilation does not cover"):
        f = relay_mlir.compile(text)
    rows, top = f(x, (0.0, 2))
    np.testing.assert_array_equal(rows, np.argwhere(x > 0).astype(np.int32))
    np.testing.assert_array_equal(top, -np.sort(-x, axis=1)[:, :2])
    rows, top = relay_mlir.load(text).interpret()(x, (0.5, 1))
    np.testing.assert_array_equal(top, [[3], [5]])
    with pytest.raises(TypeError, match="@main takes 2 inputs, got 1"):
        f(x)
    with pytest.raises(relay_mlir.Error, match="dyn.topk: k = 4 exceeds "
                       "the axis size 3"):
        f(x, (0.0, 4))
    with pytest.raises(relay_mlir.Error, match="threads 0: at least one"):
        relay_mlir.compile(text, threads=0)


def test_lists_and_options_cross_as_python_lists_and_none():
    """Tests that a List parameter takes a Python list of arrays and an
    Option one an array or None, that results come back as lists, None and
    values (the interpreter, which compile() uses for such entries, calling
    compiled code for the regions native code covers), and that a list
    given as something else or of the wrong dtype raises."""
    text = """#[version = "0.0.5"]
def @main(%xs: List[Tensor[(?), float32]], %o: Option[Tensor[(2), float32]]) {
  let %first = match? (%xs) { Cons(%x, _) => %x };
  let %more = match (%o) {
    Some(%v) => Some(%v * 2f),
    None => None,
  };
  (Cons(%first + 1f, %xs), %more, @length(%xs))
}"""
    xs = [np.array([1, 2, 3], np.float32), np.array([4], np.float32)]
    for f in (relay_mlir.compile(text), relay_mlir.load(text).interpret()):
        grown, more, n = f(xs, np.array([1, 2], np.float32))
        assert isinstance(grown, list) and len(grown) == 3
        np.testing.assert_array_equal(grown[0], [2, 3, 4])
        np.testing.assert_array_equal(grown[2], [4])
        np.testing.assert_array_equal(more, [2, 4])
        assert int(n) == 2
        grown, more, n = f(xs[1:], None)
        assert more is None and len(grown) == 2 and int(n) == 1
    f = relay_mlir.compile(text)
    with pytest.raises(TypeError, match="give a Python list of its elements"):
        f(np.ones(3, np.float32), None)
    with pytest.raises(TypeError, match="expected float32"):
        f([np.ones(3, np.complex64)], None)
    with pytest.raises(relay_mlir.Error, match="no case of the match"):
        f([], None)


def test_polymorphic_entries_take_python_lists():
    """Tests that an entry polymorphic in its List's and Option's element
    type is instantiated from the Python values of each call (elements
    whose sizes differ: `?`), once per set of shapes, and that an empty
    list, which says nothing of its elements, raises."""
    text = """#[version = "0.0.5"]
def @main[A](%xs: List[A], %o: Option[A]) -> (int32, List[A]) {
  let %grown = match (%o) {
    Some(%v) => Cons(%v, %xs),
    None => %xs,
  };
  (@length(%xs), %grown)
}"""
    f = relay_mlir.compile(text)
    a, b = np.arange(3, dtype=np.float32), np.ones(3, np.float32)
    n, grown = f([a, b], None)
    assert int(n) == 2 and len(grown) == 2
    np.testing.assert_array_equal(grown[0], a)
    c = np.arange(4, dtype=np.int32).reshape(2, 2)
    n, grown = f([c], c + 1)
    assert int(n) == 1 and len(grown) == 2
    np.testing.assert_array_equal(grown[0], c + 1)
    assert grown[1].dtype == np.int32
    n, grown = f([a, np.ones(5, np.float32)], np.zeros(2, np.float32))
    assert int(n) == 2 and [g.shape for g in grown] == [(2,), (3,), (5,)]
    with pytest.raises(TypeError, match="differs from the elements"):
        f([a, c], None)
    with pytest.raises(relay_mlir.Error, match="says nothing of its elements"):
        f([], None)


def test_interpreted_programs_compile_their_native_regions():
    """Tests that a program native code does not cover as a whole (a
    convolution, then argwhere) runs on the interpreter calling compiled
    code for the convolution's region, with the interpreter's values, and
    keeps that code for the next call."""
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 64, 64), float32], %w: Tensor[(16, 16, 3, 3), float32]) {
  %0 = nn.relu(nn.conv2d(%x, %w, padding=[1, 1, 1, 1]));
  argwhere(greater(mean(%0, axis=[2, 3]), 0.4f))
}"""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 16, 64, 64)).astype(np.float32)
    w = (0.2 * rng.standard_normal((16, 16, 3, 3))).astype(np.float32)
    with pytest.warns(RuntimeWarning, match="the regions it covers run "
                      "compiled"):
        f = relay_mlir.compile(text)
    rows = f(x, w)
    expected = relay_mlir.load(text).interpret()(x, w)
    np.testing.assert_array_equal(rows, expected)
    assert f.regions_compiled == 1
    f.start_profile()
    f(x, w)
    f(x, w)
    assert f.regions_compiled == 1
    profile = f.profile()
    assert "operator or native region" in profile
    assert re.search(r"[0-9.]+ +[0-9.]+ +1\.0  native region @main_native",
                     profile), profile
    assert re.search(r"[0-9.]+ +[0-9.]+ +1\.0  argwhere", profile), profile
    assert profile.rstrip().endswith("total")
    f.stop_profile()


def test_opt_levels_and_targets_agree():
    """Tests that -O0..-O3 and the generic target compute the same
    convolution network."""
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32],
          %g: Tensor[(4), float32], %b: Tensor[(4), float32],
          %m: Tensor[(4), float32], %v: Tensor[(4), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);
  %1 = nn.batch_norm(%0, %g, %b, %m, %v);
  nn.relu(%1.0)
}"""
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s).astype(np.float32)
            for s in [(1, 3, 8, 8), (4, 3, 3, 3), (4,), (4,), (4,)]]
    args.append(rng.uniform(0.5, 1.5, 4).astype(np.float32))
    results = [relay_mlir.compile(text, opt_level=level)(*args)
               for level in range(4)]
    results.append(relay_mlir.compile(text, target="generic")(*args))
    for r in results[1:]:
        np.testing.assert_allclose(r, results[0], rtol=1e-5, atol=1e-5)


def test_files_by_extension(tmp_path):
    """Tests that .rly and .mlir files load by path (os.PathLike too) and
    that a missing file or an unknown extension raise."""
    rly = tmp_path / "prog.rly"
    rly.write_text(ADD_SUM)
    module = relay_mlir.load(rly)
    mlir = tmp_path / "prog.mlir"
    mlir.write_text(module.to_mlir())
    f = relay_mlir.compile(str(mlir))
    np.testing.assert_array_equal(
        f(np.zeros((2, 3), np.float32), np.ones(3, np.float32))[0],
        np.ones((2, 3), np.float32))
    with pytest.raises(FileNotFoundError, match="missing.rly"):
        relay_mlir.load(str(tmp_path / "missing.rly"))
    other = tmp_path / "prog.txt"
    other.write_text(ADD_SUM)
    with pytest.raises(relay_mlir.Error, match="neither a .rly, a .mlir"):
        relay_mlir.load(str(other))


def test_loads_mlir_bytecode(tmp_path):
    """Tests that an ONNX import written as MLIR bytecode
    (relay-mlir-translate --emit-bytecode, next to the package in the build
    tree), its weight a resource blob, loads and computes what the model
    does; and that corrupt bytecode raises."""
    pytest.importorskip("onnx")
    from onnx import helper, numpy_helper, TensorProto
    rng = np.random.default_rng(3)
    w = rng.standard_normal((64, 32)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "mm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 32])],
        [numpy_helper.from_array(w, "w")])
    onnx_path = tmp_path / "mm.onnx"
    onnx_path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)])
        .SerializeToString())
    build = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(relay_mlir.__file__))))
    bytecode = tmp_path / "mm.mlirbc"
    subprocess.run([os.path.join(build, "bin", "relay-mlir-translate"),
                    "--import-onnx", str(onnx_path), "--emit-bytecode",
                    "-o", str(bytecode)], check=True)
    assert bytecode.read_bytes().startswith(b"ML\xefR")
    f = relay_mlir.compile(str(bytecode))
    x = rng.standard_normal((2, 64)).astype(np.float32)
    np.testing.assert_allclose(f(x), x @ w, rtol=1e-5, atol=1e-5)
    corrupt = tmp_path / "corrupt.mlirbc"
    corrupt.write_bytes(bytecode.read_bytes()[:40])
    with pytest.raises(relay_mlir.Error, match="corrupt.mlirbc"):
        relay_mlir.load(str(corrupt))


def test_errors_are_located(tmp_path):
    """Tests that malformed text, an ill-typed program, an unknown entry,
    bad options and closures at the boundary raise relay_mlir.Error with
    file:line:col."""
    bad = tmp_path / "bad.rly"
    bad.write_text('#[version = "0.0.5"]\ndef @main(%x: ) { %x }\n')
    with pytest.raises(relay_mlir.Error, match=r"bad\.rly:2:\d+: error: "):
        relay_mlir.load(bad)
    illtyped = """#[version = "0.0.5"]
def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(4), float32]) {
  add(%x, %y)
}"""
    with pytest.raises(relay_mlir.Error,
                       match=r"<string>:3:\d+: error: .*"):
        relay_mlir.compile(illtyped)
    with pytest.raises(relay_mlir.Error, match="no relay.func @nope"):
        relay_mlir.compile(ADD_SUM, entry="nope")
    with pytest.raises(relay_mlir.Error, match="optLevel 9: the levels are"):
        relay_mlir.compile(ADD_SUM, opt_level=9)
    with pytest.raises(relay_mlir.Error, match="unknown target 'tpu'"):
        relay_mlir.compile(ADD_SUM, target="tpu")
    with pytest.raises(relay_mlir.Error, match="precision 'fp8'"):
        relay_mlir.compile(ADD_SUM, precision="fp8")
    closure = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  fn (%y: Tensor[(2), float32]) { add(%x, %y) }
}"""
    with pytest.raises(relay_mlir.Error,
                       match=r"<string>:2:1: error: @main takes or returns"):
        relay_mlir.compile(closure)
    with pytest.raises(TypeError, match="not int"):
        relay_mlir.load(3)


def test_unmatched_cases_warning():
    """Tests that type inference of a match missing cases gives a
    UserWarning listing them (TVM's InferType warns), and that the module
    stays usable."""
    text = """#[version = "0.0.5"]
type List[A] {
  Cons(A, List[A]),
  Nil,
}
def @main(%l: List[Tensor[(2), float32]]) -> Tensor[(2), float32] {
  match (%l) {
    Cons(%h, _) => %h,
  }
}"""
    with pytest.warns(UserWarning, match=r"warning: match expression does "
                      r"not handle the following cases: Nil"):
        typed = relay_mlir.infer_types(text)
    assert "match (%l)" in typed


def test_text_and_types():
    """Tests Relay text out, type inference, passes by flag and a bad
    pipeline."""
    text = """#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = add(ones(shape=[2], dtype="float32"), ones(shape=[2], dtype="float32"));
  multiply(%x, %0)
}"""
    typed = relay_mlir.infer_types(text)
    assert "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32]" \
        in typed
    module = relay_mlir.load(text).infer_types().run_passes(
        "relay-fold-constant")
    folded = module.to_text()
    assert "ones(" not in folded and "add(" not in folded
    assert "multiply(" in folded
    # The text it prints reads back.
    again = relay_mlir.compile(folded)
    np.testing.assert_array_equal(again(np.ones(2, np.float32)),
                                  np.full(2, 2, np.float32))
    with pytest.raises(relay_mlir.Error, match="relay-no-such-pass"):
        module.run_passes("relay-no-such-pass")
    with pytest.raises(relay_mlir.Error, match="invalid pass pipeline"):
        module.run_passes("relay-fuse-ops{fuse-opt-level=banana}")


def test_gradient():
    """Tests that gradient() compiles (value, (grads...)) equal to the
    analytic derivative, for a first-order program and one with a local
    closure (higher order, made first order by the partial evaluator)."""
    f = relay_mlir.gradient("""#[version = "0.0.5"]
def @main(%x: Tensor[(3), float32], %w: Tensor[(3), float32]) {
  sum(multiply(multiply(%x, %x), %w))
}""")
    x = np.array([1, 2, 3], np.float32)
    w = np.array([0.5, -1, 2], np.float32)
    value, (dx, dw) = f(x, w)
    assert float(value) == pytest.approx(float((x * x * w).sum()))
    np.testing.assert_allclose(dx, 2 * x * w)
    np.testing.assert_allclose(dw, x * x)
    g = relay_mlir.gradient("""#[version = "0.0.5"]
def @main(%x: Tensor[(3), float32]) {
  let %sq = fn (%y: Tensor[(3), float32]) { multiply(%y, %y) };
  sum(%sq(%sq(%x)))
}""")
    value, (dx,) = g(x)
    np.testing.assert_allclose(dx, 4 * x ** 3, rtol=1e-6)


def test_onnx_model_bytes_and_corrupt():
    """Tests an ONNX model from bytes (Gemm + Relu, built with the onnx
    package) against numpy, and that corrupt bytes raise."""
    onnx = pytest.importorskip("onnx")
    from onnx import helper, numpy_helper, TensorProto
    rng = np.random.default_rng(1)
    w = rng.standard_normal((5, 4)).astype(np.float32)
    b = rng.standard_normal(5).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w", "b"], ["h"], transB=1),
         helper.make_node("Relu", ["h"], ["y"])],
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    f = relay_mlir.compile(model.SerializeToString())
    x = rng.standard_normal((2, 4)).astype(np.float32)
    np.testing.assert_allclose(f(x), np.maximum(x @ w.T + b, 0), rtol=1e-5,
                               atol=1e-6)
    with pytest.raises(relay_mlir.Error, match="model.onnx"):
        relay_mlir.load(b"\x08\x07garbage", name="model.onnx")


def test_onnx_external_data(tmp_path, monkeypatch):
    """Tests a model saved with its weights in a file beside it (ONNX
    external data, onnx.save_model's save_as_external_data), loaded by path
    from another directory and as bytes named by its path, against numpy;
    and that a missing data file raises naming it."""
    onnx = pytest.importorskip("onnx")
    from onnx import helper, numpy_helper, TensorProto
    rng = np.random.default_rng(3)
    w = rng.standard_normal((4, 6)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "mm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 6])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    (tmp_path / "m").mkdir()
    path = tmp_path / "m" / "model.onnx"
    onnx.save_model(model, str(path), save_as_external_data=True,
                    location="weights.bin", size_threshold=0)
    monkeypatch.chdir(tmp_path)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    np.testing.assert_allclose(relay_mlir.compile(str(path))(x), x @ w,
                               rtol=1e-5, atol=1e-6)
    f = relay_mlir.load(path.read_bytes(), name=str(path)).compile()
    np.testing.assert_allclose(f(x), x @ w, rtol=1e-5, atol=1e-6)
    (tmp_path / "m" / "weights.bin").unlink()
    with pytest.raises(relay_mlir.Error, match="weights.bin"):
        relay_mlir.load(str(path))


def test_onnx_symbolic_batch():
    """Tests an ONNX model whose batch size is symbolic, given one by
    input_shapes, against numpy; and that a shape that does not fit, an
    input the model lacks and shapes for text are errors."""
    pytest.importorskip("onnx")
    from onnx import helper, numpy_helper, TensorProto
    rng = np.random.default_rng(2)
    w = rng.standard_normal((5, 4)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"])], "mm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])],
        [numpy_helper.from_array(w, "w")])
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)]).SerializeToString()
    f = relay_mlir.compile(model, input_shapes={"x": (3, 5)})
    x = rng.standard_normal((3, 5)).astype(np.float32)
    np.testing.assert_allclose(f(x), x @ w, rtol=1e-5, atol=1e-6)
    with pytest.raises(relay_mlir.Error, match="does not fit"):
        relay_mlir.load(model, input_shapes={"x": (3, 6)})
    with pytest.raises(relay_mlir.Error, match="no such input"):
        relay_mlir.load(model, input_shapes={"image": (3, 5)})
    with pytest.raises(relay_mlir.Error, match="dynamic shape"):
        relay_mlir.load(model)
    with pytest.raises(relay_mlir.Error, match="for ONNX models"):
        relay_mlir.load("def @main() { 1f }", input_shapes={"x": (1,)})


def test_resnet18_matches_pytorch(tmp_path):
    """Tests torchvision's ResNet-18 (random weights) exported to ONNX,
    compiled at -O3 on two threads, against PyTorch: the README's five
    lines."""
    pytest.importorskip("torchvision")
    subprocess.run([sys.executable,
                    os.path.join(ROOT, "examples/models/export_torchvision.py"),
                    str(tmp_path), "resnet18"], check=True,
                   stdout=subprocess.DEVNULL)
    resnet = relay_mlir.compile(str(tmp_path / "resnet18.onnx"), opt_level=3,
                                threads=2)
    image = np.load(tmp_path / "resnet18.input.npy")
    logits = resnet(image)
    expected = np.load(tmp_path / "resnet18.torch.npy")
    assert logits.shape == (1, 1000)
    scale = np.abs(expected).max()
    assert np.abs(logits - expected).max() <= 1e-4 * scale
