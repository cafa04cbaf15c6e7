import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "Terrazzo"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.terrazzo_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.terrazzo_tools_dir, config.llvm_tools_dir]
tools = [ToolSubst("terrazzo-opt", unresolved="fatal"),
         ToolSubst("terrazzo-compile", unresolved="fatal")]
llvm_config.add_tool_substitutions(tools, tool_dirs)
