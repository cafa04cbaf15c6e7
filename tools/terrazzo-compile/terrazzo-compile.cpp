// terrazzo-compile: ahead-of-time compilation of a tile IR kernel.
//
//   terrazzo-compile kernel.mlir --target=cuda:90 --num-warps=4 \
//       --emit=cubin -o kernel.cubin
//   terrazzo-compile kernel.mlir --target=hip:gfx942 --emit=hsaco \
//       -o kernel.hsaco
//
// writes the binary (by default the target's: a cubin, an hsaco) and, for
// ptx, cubin, amdgcn and hsaco, kernel.cubin.json with what a launcher
// needs (kernel name, arguments, threads per block, warp size, shared
// memory).
// Built on the public API only (include/terrazzo/Compiler.h).
#include "terrazzo/Compiler.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

const std::string kUsage =
    "usage: terrazzo-compile <input.mlir> [--target=cuda:90] [--num-warps=" +
    std::to_string(terrazzo::defaultNumWarps()) +
    "]\n"
    "                        [--num-stages=3] [--maxnreg=N] "
    "[--host-tensormaps]\n"
    "                        [--emit=tile|tilegpu|llvm|llvmir|ptx|cubin|"
    "amdgcn|hsaco]\n"
    "                        [--assembler=auto|ptxas|nvJitLink|driver|"
    "ld.lld]\n"
    "                        [-o <output>|-]\n";

bool startsWith(const std::string &text, const std::string &prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

int fail(const std::string &message) {
  std::cerr << "terrazzo-compile: error: " << message << "\n";
  return 1;
}

bool writeFile(const std::string &path, const std::string &contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
  return bool(out);
}

/// The integer after `prefix` in `arg` ("--num-warps=8"); false when the
/// rest is not a number.
bool parseNumber(const std::string &arg, const std::string &prefix, int &out) {
  const char *start = arg.c_str() + prefix.size();
  char *end = nullptr;
  long value = std::strtol(start, &end, 10);
  if (*end || end == start)
    return false;
  out = int(value);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string input, output, emit;
  terrazzo::CompileOptions options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      return 0;
    } else if (startsWith(arg, "--target=")) {
      options.target = arg.substr(9);
    } else if (startsWith(arg, "--num-warps=")) {
      if (!parseNumber(arg, "--num-warps=", options.numWarps))
        return fail("--num-warps needs a number, got '" + arg.substr(12) + "'");
    } else if (startsWith(arg, "--num-stages=")) {
      if (!parseNumber(arg, "--num-stages=", options.numStages))
        return fail("--num-stages needs a number, got '" + arg.substr(13) + "'");
    } else if (startsWith(arg, "--maxnreg=")) {
      if (!parseNumber(arg, "--maxnreg=", options.maxnreg))
        return fail("--maxnreg needs a number, got '" + arg.substr(10) + "'");
    } else if (arg == "--host-tensormaps") {
      // The launcher builds the tensor maps of arguments (the JSON's
      // host_tensormaps) and passes them after the arguments.
      options.hostTensorMaps = true;
    } else if (startsWith(arg, "--assembler=")) {
      options.assembler = arg.substr(12);
    } else if (startsWith(arg, "--emit=")) {
      emit = arg.substr(7);
    } else if (arg == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (startsWith(arg, "-o") && arg.size() > 2) {
      output = arg.substr(2);
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return fail("unknown option '" + arg + "'\n" + kUsage);
    } else if (input.empty()) {
      input = arg;
    } else {
      return fail("more than one input file\n" + kUsage);
    }
  }
  if (input.empty())
    return fail(std::string("no input file\n") + kUsage);
  if (emit.empty()) {
    // The target's binary; an unknown target is reported by the compiler.
    terrazzo::TargetDescription description;
    std::string error;
    emit = terrazzo::describeTarget(options.target, description, error)
               ? description.binaryStage
               : "cubin";
  }
  if (!terrazzo::parseStage(emit, options.stage))
    return fail("unknown --emit kind '" + emit + "'; expected " +
                terrazzo::stageNames());

  std::stringstream source;
  if (input == "-") {
    source << std::cin.rdbuf();
  } else {
    std::ifstream file(input, std::ios::binary);
    if (!file)
      return fail("cannot read '" + input + "'");
    source << file.rdbuf();
  }

  terrazzo::CompileResult result =
      terrazzo::compileTileIR(source.str(), input == "-" ? "<stdin>" : input,
                              options);
  std::cerr << result.formatDiagnostics();
  if (!result.success)
    return 1;

  if (output.empty() || output == "-") {
    std::cout << result.output;
    return 0;
  }
  if (!writeFile(output, result.output))
    return fail("cannot write '" + output + "'");
  if (options.stage == terrazzo::Stage::PTX ||
      options.stage == terrazzo::Stage::Cubin ||
      options.stage == terrazzo::Stage::AMDGCN ||
      options.stage == terrazzo::Stage::HSACO)
    if (!writeFile(output + ".json", result.metadata.toJSON()))
      return fail("cannot write '" + output + ".json'");
  return 0;
}
