// Running a vendor's command-line tool on a file (ptxas on PTX, ld.lld on
// an AMDGPU object): the input written to a temporary file, the tool's
// output file read back, what it printed kept for the error, every
// temporary file removed.
#ifndef TERRAZZO_BACKENDS_COMMON_EXTERNALTOOL_H
#define TERRAZZO_BACKENDS_COMMON_EXTERNALTOOL_H

#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace mlir::terrazzo {

/// Runs `tool` (named `name` in errors) with the arguments `arguments`
/// gives for the paths of its input (a temporary file holding `input`,
/// named *.`inputSuffix`) and of the file it is to write (*.`outputSuffix`),
/// and returns that file's contents in `output`. False with `error` set to
/// "`name` (`tool`) failed", why it could not run if so, and what it
/// printed.
bool runExternalTool(
    const std::string &tool, StringRef name, const std::string &input,
    StringRef inputSuffix, StringRef outputSuffix,
    function_ref<std::vector<std::string>(StringRef input, StringRef output)>
        arguments,
    std::string &output, std::string &error);

} // namespace mlir::terrazzo

#endif // TERRAZZO_BACKENDS_COMMON_EXTERNALTOOL_H
