#include "backends/common/ExternalTool.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

bool mlir::terrazzo::runExternalTool(
    const std::string &tool, StringRef name, const std::string &input,
    StringRef inputSuffix, StringRef outputSuffix,
    function_ref<std::vector<std::string>(StringRef input, StringRef output)>
        arguments,
    std::string &output, std::string &error) {
  llvm::SmallString<128> inputPath, outputPath, log;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("terrazzo", inputSuffix, fd,
                                         inputPath) ||
      llvm::sys::fs::createTemporaryFile("terrazzo", outputSuffix,
                                         outputPath) ||
      llvm::sys::fs::createTemporaryFile("terrazzo", "log", log)) {
    error = "cannot create temporary files for " + name.str();
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << input;
  }
  std::vector<std::string> words = arguments(inputPath, outputPath);
  llvm::SmallVector<llvm::StringRef> args = {tool};
  args.append(words.begin(), words.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, log.str(),
                                                log.str()};
  std::string executionError;
  int status = llvm::sys::ExecuteAndWait(tool, args, std::nullopt, redirects,
                                         0, 0, &executionError);
  bool ok = status == 0;
  if (ok) {
    auto buffer = llvm::MemoryBuffer::getFile(outputPath, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    ok = bool(buffer);
    if (ok)
      output = (*buffer)->getBuffer().str();
  }
  if (!ok) {
    auto buffer = llvm::MemoryBuffer::getFile(log);
    error = name.str() + " (" + tool + ") failed";
    if (!executionError.empty())
      error += ": " + executionError;
    if (buffer)
      error += ":\n" + (*buffer)->getBuffer().str();
  }
  llvm::sys::fs::remove(inputPath);
  llvm::sys::fs::remove(outputPath);
  llvm::sys::fs::remove(log);
  return ok;
}
