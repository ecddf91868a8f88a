// RUN: not relay-mlir-opt %s --relay-set-target-cpu=cpu=pentium9 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not relay-mlir-opt %s --split-input-file --relay-set-target-cpu=cpu=haswell 2>&1 | FileCheck %s --check-prefix=SPEC
// RUN: not relay-mlir-opt %s "--relay-set-target-cpu=cpu=haswell threads=-2" 2>&1 | FileCheck %s --check-prefix=THREADS

// Tests that an unknown CPU name is an error listing LLVM's x86-64 CPUs.
// Tests that a negative thread count is an error.
// THREADS: error: --relay-set-target-cpu: threads must be at least 0, got -2
// UNKNOWN: error: --relay-set-target-cpu: unknown CPU 'pentium9'; expected host or one of LLVM's x86-64 CPUs: {{.*}}haswell{{.*}}znver4
module {
}

// -----

// Tests that a spec the module brings naming a CPU LLVM does not know is an
// error, and one whose "cpu" is not a string.
// SPEC: error: the module's target spec: unknown CPU 'z80'; expected host or one of LLVM's x86-64 CPUs
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"cpu" = "z80">>} {
}

// -----

// SPEC: error: the module's target spec: its "cpu" is not a string
module attributes {dlti.target_system_spec = #dlti.target_system_spec<
    "CPU" = #dlti.target_device_spec<"cpu" = 4 : i64>>} {
}
