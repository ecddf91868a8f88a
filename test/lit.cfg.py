# -*- Python -*-
# lit configuration of relay-mlir's test suite.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "RELAY_MLIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".rly", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.relay_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "unittests", "install", "Inputs", "fuzz", "python"]

config.substitutions.append(("%relay_src_root", config.relay_src_root))
config.substitutions.append(("%relay_tools", config.relay_tools_dir))
config.substitutions.append(("%relay_obj_root", config.relay_obj_root))
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["relay-mlir-opt", "relay-mlir-translate", "relay-run",
     "relay-mlir-lsp-server", "relay-lsp-server", "relay-mlir-reduce",
     "relay-capi-types",
     "relay-capi-executor"], [config.relay_tools_dir])

# Debian's python3 with numpy (python3-numpy) produces reference results.
import subprocess
if os.path.exists("/usr/bin/python3") and subprocess.run(
        ["/usr/bin/python3", "-c", "import numpy"],
        capture_output=True).returncode == 0:
    config.available_features.add("numpy")

# Debian's python3-onnx writes ONNX models for the importer's tests.
if os.path.exists("/usr/bin/python3") and subprocess.run(
        ["/usr/bin/python3", "-c", "import onnx, numpy"],
        capture_output=True).returncode == 0:
    config.available_features.add("onnx")
# Debian's python3-torch: autograd checks the gradients.
if os.path.exists("/usr/bin/python3") and subprocess.run(
        ["/usr/bin/python3", "-c", "import torch, numpy"],
        capture_output=True).returncode == 0:
    config.available_features.add("torch")
# Debian's python3-sklearn ships the digits data set examples/training uses.
if os.path.exists("/usr/bin/python3") and subprocess.run(
        ["/usr/bin/python3", "-c", "import sklearn.datasets"],
        capture_output=True).returncode == 0:
    config.available_features.add("sklearn")
config.substitutions.append(("%debian_python", "/usr/bin/python3"))

# The host's AVX-512 VNNI, which the CPU target's int8 convolutions use
# (llvm::sys::getHostCPUFeatures reads the same CPUID bits as
# /proc/cpuinfo's flags).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = cpuinfo.read()
    if " avx512_vnni" in flags and " avx512bw" in flags:
        config.available_features.add("avx512vnni")
except OSError:
    pass

# TVM's Relay text tests, shared beside the project (not copied into it).
conformance = os.path.join(config.relay_src_root, "..", "shared",
                           "conformance", "tvm-relay-text")
if os.path.isdir(conformance):
    config.available_features.add("tvm-conformance")
    config.substitutions.append(("%tvm_conformance",
                                 os.path.realpath(conformance)))

# The sanitizer build (scripts/test.sh --sanitize, clang's ASan and UBSan):
# LLVM's allocators poison memory the uninstrumented libMLIR.so does not
# unpoison, so user poisoning is ignored; LeakSanitizer checks every tool and
# the compiled code it runs in-process; every UBSan report fails the test.
if config.relay_sanitize:
    config.available_features.add("sanitize")
    config.environment["ASAN_OPTIONS"] = "allow_user_poisoning=0"
    config.environment["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"

# LeakSanitizer checks that compiled programs free what they allocate: ASan's
# in the sanitizer build, elsewhere gcc's liblsan preloaded into the
# uninstrumented tools.
lsan = "/usr/lib/x86_64-linux-gnu/liblsan.so.0"
if config.relay_sanitize:
    config.available_features.add("lsan")
    config.substitutions.append(("%lsan_env", "env LSAN_OPTIONS=exitcode=23 "))
elif os.path.exists(lsan):
    config.available_features.add("lsan")
    config.substitutions.append(("%lsan_env", "env LD_PRELOAD=%s "
                                 "LSAN_OPTIONS=exitcode=23" % lsan))

# A C compiler links `relay-run --emit-object` output into plain C programs,
# with the C runtime.
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%relay_c_runtime", config.relay_c_runtime))

# MLIR's runner and its utility libraries run lowered loops on the CPU
# (the GPU mapping's results checked without a GPU).
config.substitutions.append(("%mlir_runner_utils", os.path.join(
    config.llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%mlir_c_runner_utils", os.path.join(
    config.llvm_lib_dir, "libmlir_c_runner_utils.so")))

# The CUDA toolkit (found by CMake): its ptxas checks the PTX of
# --relay-to-nvvm, and `--target cuda` is built. A CUDA device (the NVIDIA
# driver's libcuda.so.1 and a device it finds) runs GPU code.
if config.relay_enable_cuda:
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%ptxas", os.path.join(config.cuda_bin_dir,
                                                         "ptxas")))
    config.substitutions.append(("%relay_cuda_runtime",
                                 config.relay_cuda_runtime))
try:
    import ctypes
    cuda = ctypes.CDLL("libcuda.so.1")
    count = ctypes.c_int(0)
    if cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 \
            and count.value > 0:
        config.available_features.add("cuda-device")
except OSError:
    pass
