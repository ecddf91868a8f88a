#!/usr/bin/env python3
"""Runs relay-mlir-translate over TVM's Relay text tests.

usage: run_conformance.py CONFORMANCE_DIR TOOLS_DIR

CONFORMANCE_DIR is ../shared/conformance/tvm-relay-text (INDEX.tsv says
which snippets must parse and which must fail; std/ and other/ hold whole
programs). Prints a summary with counts and exits non-zero on any result
that differs from the expectations below or on a crash.

Each step runs once over all the files it applies to, as chunks of one
input (`--split-input-file`): a process costs about 0.1 s to start (the
dynamic linking of libLLVM and libMLIR), and one per file and step took
some 700 of them. A chunk that gives no output is run again alone, for
its own exit status and diagnostics.
"""
import os
import subprocess
import sys

# Snippets TVM's parser accepts that relay-mlir rejects, and why. TVM parses
# without checking types; relay-mlir's ops are typed as they are built, so an
# ill-typed program is rejected at import, at the offending line.
ILL_TYPED = {
    "054_op_assoc_1_1_plus_1_1_1.rly": "compares a bool with an int32",
    "055_op_assoc_1_1_plus_1_1_1.rly": "compares a bool with an int32",
    "056_op_assoc_1_1_1_plus_1_1.rly": "compares an int32 with a bool",
    "057_op_assoc_1_1_1_plus_1_1.rly": "compares an int32 with a bool",
    "075_tuple_proj.rly": "calls a float32",
}
for name in ["093_builtin_types_int8", "094_builtin_types_int16",
             "095_builtin_types_int32", "096_builtin_types_int64",
             "097_builtin_types_uint8", "098_builtin_types_uint16",
             "099_builtin_types_uint32", "100_builtin_types_uint64",
             "101_builtin_types_float16", "102_builtin_types_float32",
             "103_builtin_types_float64", "104_builtin_types_bool",
             "105_builtin_types_int8x4", "106_builtin_types_uint1x4",
             "107_builtin_types_float16x4", "108_tensor_type",
             "109_tensor_type", "110_tensor_type", "111_tensor_type"]:
    ILL_TYPED[name + ".rly"] = "annotates () with a tensor type"
# Snippets that need what TVM's test harness passes to the parser.
HARNESS = {
    "059_vars_foo.rly": "refers to @foo, which only an API-built module defines",
    "136_init_module_and_metatable.rly": "needs init_module and a metatable",
}
# Whole programs using operators outside relay-mlir's operator set.
OTHER_OPS = {"memory.alloc_storage", "memory.kill", "call_lowered"}


# Separates the chunks of a batch, in and out (a Relay and MLIR comment).
MARK = "// conformance-chunk"


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def run_each(cmd, inputs):
    """(exit status, output, errors) of `cmd` on each input (bytes, read
    from stdin): one process for all as chunks; a chunk without output (or
    every chunk, if the process crashed) again alone."""
    if not inputs:
        return []
    joined = ("\n" + MARK + "\n").join(i.decode() for i in inputs).encode()
    rc, out, _ = run(cmd + ["--split-input-file=" + MARK,
                            "--output-split-marker=" + MARK, "-"], joined)
    chunks = out.decode().split(MARK + "\n")
    if rc not in (0, 1) or len(chunks) != len(inputs):
        chunks = [""] * len(inputs)
    results = []
    for i, chunk in zip(inputs, chunks):
        if chunk.strip():
            results.append((0, chunk.encode(), ""))
        else:
            results.append(run(cmd + ["-"], i))
    return results


def main():
    root, tools = sys.argv[1], sys.argv[2]
    translate = os.path.join(tools, "relay-mlir-translate")
    opt = os.path.join(tools, "relay-mlir-opt")
    unexpected = []

    def import_all(paths):
        """(imported, MLIR, errors) of each Relay file."""
        texts = []
        for path in paths:
            with open(path, "rb") as f:
                texts.append(f.read())
        results = []
        for path, (rc, out, err) in zip(
                paths, run_each([translate, "--import-relay"], texts)):
            if rc not in (0, 1):
                unexpected.append(f"{path}: crashed ({rc}): {err[-300:]}")
            results.append((rc == 0, out, err))
        return results

    def round_trips_stable(modules):
        """Whether each module exports, re-imports and exports to the same
        Relay text."""
        a = run_each([translate, "--export-relay"], modules)
        ok = [i for i, r in enumerate(a) if r[0] == 0]
        m2 = run_each([translate, "--import-relay"], [a[i][1] for i in ok])
        ok2 = [(i, m[1]) for i, m in zip(ok, m2) if m[0] == 0]
        b = run_each([translate, "--export-relay"], [m for _, m in ok2])
        stable = [False] * len(modules)
        for (i, _), r in zip(ok2, b):
            stable[i] = r[0] == 0 and r[1] == a[i][1]
        return stable

    rows = []
    with open(os.path.join(root, "INDEX.tsv")) as index:
        header = index.readline().rstrip("\n").split("\t")
        for line in index:
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))

    parsed = ill_typed = harness = rejected = 0
    stable = checked_stable = 0
    expected_ok = [r for r in rows if r["expect"] == "ok"]
    expected_fail = [r for r in rows if r["expect"] == "fail"]
    imported = import_all([os.path.join(root, r["file"]) for r in rows])
    to_check = []
    for r, (ok, out, err) in zip(rows, imported):
        name = r["file"]
        if r["expect"] == "ok":
            if ok:
                parsed += 1
                checked_stable += 1
                to_check.append(out)
            elif name in ILL_TYPED and "error:" in err:
                ill_typed += 1
            elif name in HARNESS and "error:" in err:
                harness += 1
            else:
                unexpected.append(f"{name}: expected to parse: {err[:300]}")
        else:
            if ok:
                unexpected.append(f"{name}: expected an error, imported")
            else:
                rejected += 1
    stable = sum(round_trips_stable(to_check))

    def programs(folder):
        files = sorted(f for f in os.listdir(os.path.join(root, folder))
                       if f.endswith(".rly"))
        imported = typed = 0
        other_ops = 0
        nonlocal_stable = [0, 0]
        failures = []
        results = import_all([os.path.join(root, folder, f) for f in files])
        modules = []
        for f, (ok, out, err) in zip(files, results):
            if not ok:
                if any(f"'{op}'" in err for op in OTHER_OPS):
                    other_ops += 1
                else:
                    failures.append(f)
                continue
            imported += 1
            modules.append((f, out))
        inferred = run_each([opt, "--relay-infer-types", "-mlir-print-debuginfo"],
                            [m for _, m in modules])
        typed_modules = []
        for (f, _), (rc, typed_out, terr) in zip(modules, inferred):
            if rc == 0:
                typed += 1
                typed_modules.append(typed_out)
            else:
                unexpected.append(f"{folder}/{f}: type inference: "
                                  f"{terr[:300]}")
        nonlocal_stable[1] += len(typed_modules)
        nonlocal_stable[0] += sum(round_trips_stable(typed_modules))
        return files, imported, typed, other_ops, failures, nonlocal_stable

    print(f"tvm-relay-text: {len(rows)} snippets")
    print(f"expected to parse: {len(expected_ok)}; imported: {parsed}; "
          f"rejected as ill-typed: {ill_typed}; "
          f"need the test harness's module: {harness}")
    print(f"expected to fail: {len(expected_fail)}; rejected: {rejected}")
    print(f"snippets that round-trip stably: {stable} of {checked_stable}")
    for folder in ("std", "other"):
        files, imported, typed, other_ops, failures, st = programs(folder)
        print(f"{folder}: {len(files)} programs; imported: {imported}; "
              f"type-checked: {typed}; use operators outside the set: "
              f"{other_ops}; round-trip stably after inference: "
              f"{st[0]} of {st[1]}")
        for f in failures:
            print(f"{folder}: not imported: {f}")
    print(f"unexpected: {len(unexpected)}")
    for u in unexpected:
        print("  " + u)
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
