# -*- Python -*-
# lit configuration for the obs regression tests.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "OBS"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lib", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.obs_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%obs_src_root", config.obs_src_root))
config.substitutions.append(("%examples", os.path.join(config.obs_src_root, "examples")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])

# Every test is bounded: a hang is a failure, not a stuck suite (lit kills
# a test's processes through psutil, which ./build.sh installs). The
# slowest test takes about three minutes on the 2-core machine.
try:
    import psutil  # noqa: F401
    lit_config.maxIndividualTestTime = 900
except ImportError:
    lit_config.warning("python3-psutil is missing: tests run without a time bound")

# obs-run keeps what it compiles for ref and cpu in a cache keyed by the
# program, its options and the build of obs (include/Obs/Runner/
# CompileCache.h): tests that run one program on many inputs compile it
# once, and a rebuilt obs never reads another build's entries. The tests'
# cache is the build tree's, never the user's.
config.environment["OBS_CACHE_DIR"] = os.path.join(
    config.obs_obj_root, "test", "obs-cache")
llvm_config.use_default_substitutions()

tool_dirs = [config.obs_tools_dir, config.llvm_tools_dir]
tools = ["obs-opt", "obs-run", "obs-lsp-server", "obs-fuzz"]
# `lit -Dcross_check_proofs=1` runs the tools with --obs-cross-check-proofs:
# every kernel simulation's races in shared memory are checked against the
# symbolic proof (lib/Analysis/SymbolicHazards.cpp) wherever it decides, so
# the two engines must agree on every kernel the suite compiles.
if lit_config.params.get("cross_check_proofs"):
    tools = [ToolSubst(tool, extra_args=["--obs-cross-check-proofs"])
             for tool in tools]
    # The cross-check needs every compilation: the compile cache is off.
    config.available_features.add("cross_check_proofs")
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.obs_tools_dir, append_path=True)

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
    config.substitutions.append(
        ("%cuda_toolkit", os.path.dirname(os.path.dirname(config.ptxas))))

# obs-libfuzzer is built where clang's libFuzzer runtime is installed.
if os.path.exists(os.path.join(config.obs_tools_dir, "obs-libfuzzer")):
    config.available_features.add("libfuzzer")
    llvm_config.add_tool_substitutions(["obs-libfuzzer"], [config.obs_tools_dir])

# valgrind sees what ASan cannot: accesses libMLIR, which is not
# instrumented, makes to freed memory. It does not run under ASan.
if shutil.which("valgrind") and not config.sanitizer_flags:
    config.available_features.add("valgrind")
    config.substitutions.append(
        ("%valgrind", "valgrind --error-exitcode=99 --freelist-vol=1000000000"
                      " --num-callers=30"))

# util-linux's script runs a command on a terminal (obs-run's progress line
# shows only there); Debian's bsdutils, which every system has, holds it.
# It needs a pseudo-terminal, which a container may lack.
def pseudo_terminal_works():
    try:
        return subprocess.run(
            ["script", "-qc", "true", "/dev/null"], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False

if shutil.which("script") and pseudo_terminal_works():
    config.available_features.add("script")

# The format of the C++ sources (.clang-format: LLVM style) is checked
# with the clang-format of the LLVM obs is built with; ./build.sh installs it.
clang_format = shutil.which("clang-format-22")
if clang_format:
    config.available_features.add("clang-format")
    config.substitutions.append(("%clang-format", clang_format))

# `%exit-code CMD ARGS`: CMD's output and stderr, then "exit code: N".
config.substitutions.append(
    ("%exit-code", "sh " + os.path.join(config.test_source_root, "Inputs", "exit-code.sh")))

# The recording test double of the CUDA driver (test/lib/FakeCuda): the
# cuda target's host wiring, checked without a GPU. `%fake-cuda` runs a
# command with the double first on the library path.
config.substitutions.append(
    ("%fake-cuda", "env LD_LIBRARY_PATH=" +
     os.path.join(config.obs_obj_root, "test", "fake-cuda")))

# A full disk under one directory (test/lib/FullDisk), preloaded by
# `%full-disk`: a command's writes into files under $OBS_FULL_DISK_UNDER
# fail with ENOSPC past $OBS_FULL_DISK_BYTES bytes each. A sanitizer's
# runtime must come first among the libraries, so a sanitized build has no
# such feature.
if not config.sanitizer_flags:
    config.available_features.add("full-disk")
    config.substitutions.append(
        ("%full-disk", "env LD_PRELOAD=" +
         os.path.join(config.obs_obj_root, "test", "full-disk",
                      "libobs-full-disk.so")))

# A GPU that the CUDA driver can use: only then do the cuda execution tests run.
import subprocess
if shutil.which("nvidia-smi"):
    try:
        if subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=30).returncode == 0:
            config.available_features.add("cuda-device")
    except (OSError, subprocess.TimeoutExpired):
        pass

# Configuring and building an out-of-tree project against the installed
# package (examples/embed): %cmake-configure SRC BUILD [ARGS] uses the same
# generator, compiler and launcher as this build.
config.substitutions.append(("%obs_obj_root", config.obs_obj_root))
config.substitutions.append(("%cmake_exe", config.cmake))
configure = [config.cmake, "-G", '"' + config.cmake_generator + '"',
             "-DCMAKE_MAKE_PROGRAM=" + config.make_program,
             "-DCMAKE_CXX_COMPILER=" + config.cxx_compiler]
if config.cxx_launcher:
    configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=" + config.cxx_launcher)
if config.linker_flags.strip():
    configure.append('"-DCMAKE_EXE_LINKER_FLAGS=' + config.linker_flags.strip() + '"')
if config.sanitizer_flags:
    configure.append('"-DCMAKE_CXX_FLAGS=' + config.sanitizer_flags + '"')
config.substitutions.append(("%cmake-configure", " ".join(configure)))
config.substitutions.append(("%cmake-build", config.cmake + " --build"))
