import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "Terrazzo"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.terrazzo_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "kernels",
                   "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.terrazzo_tools_dir, config.llvm_tools_dir]
tools = [ToolSubst("terrazzo-opt", unresolved="fatal"),
         ToolSubst("terrazzo-compile", unresolved="fatal"),
         ToolSubst("terrazzo-lsp-server", unresolved="fatal")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# AMD code objects are read, assembled and linked with LLVM 22's tools:
# Debian's unversioned llvm-mc, llvm-readelf and ld.lld may be another
# LLVM's.
llvm_config.add_tool_substitutions(
    [ToolSubst(name, unresolved="fatal")
     for name in ("llvm-mc", "llvm-readelf", "llvm-objdump", "llvm-nm",
                 "ld.lld")],
    [config.llvm_tools_dir])

# Tests that launch kernels need a CUDA GPU (and its driver).
import shutil, subprocess
if shutil.which("nvidia-smi") and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True).returncode == 0:
    config.available_features.add("cuda-gpu")
llvm_config.add_tool_substitutions(
    [ToolSubst("run-gpu-kernels", unresolved="ignore")],
    [config.terrazzo_tools_dir, os.path.join(config.terrazzo_obj_root, "test", "GPU")])

# PTX tests assemble their output with ptxas where one exists (REQUIRES:
# ptxas); found like the compiler finds it: $PTXAS, PATH, the CUDA install.
def find_ptxas():
    candidates = [os.environ.get("PTXAS"), shutil.which("ptxas")]
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
                 "/usr/local/cuda"):
        if root:
            candidates.append(os.path.join(root, "bin", "ptxas"))
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None

ptxas = find_ptxas()
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
