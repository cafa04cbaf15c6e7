# C++ unit tests (GoogleTest), run by lit beside the FileCheck tests.
import lit.formats

config.name = "Terrazzo-Unit"
config.suffixes = []
config.test_source_root = config.terrazzo_unit_test_dir
config.test_exec_root = config.terrazzo_unit_test_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
