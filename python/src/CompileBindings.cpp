// terrazzo._C.compile, version, Diagnostic and CompileResult: the compiler
// API of include/terrazzo/Compiler.h.
#include "Common.h"

#include "terrazzo/Compiler.h"

#include <utility>

namespace terrazzo::python {
namespace {


/// What compile() returns: the C++ result converted once, so that repeated
/// attribute reads cost nothing.
struct PyCompileResult {
  bool success = false;
  py::bytes output;
  py::list diagnostics;
  py::dict metadata;
  std::string formatted;
};

py::dict metadataDict(const KernelMetadata &metadata) {
  py::dict dict;
  dict["name"] = metadata.name;
  dict["target"] = metadata.target;
  dict["num_warps"] = metadata.numWarps;
  dict["warp_size"] = metadata.warpSize;
  dict["threads_per_block"] = metadata.threadsPerBlock;
  dict["shared_memory_bytes"] = metadata.sharedMemoryBytes;
  dict["global_scratch_bytes"] = metadata.globalScratchBytes;
  dict["binary"] = metadata.binaryKind;
  dict["assembler"] = metadata.assembler;
  py::list arguments;
  for (const KernelArgument &argument : metadata.arguments) {
    py::dict entry;
    entry["type"] = argument.type;
    entry["divisibility"] = argument.divisibility;
    arguments.append(entry);
  }
  dict["arguments"] = arguments;
  py::list maps;
  for (const HostTensorMap &map : metadata.hostTensorMaps) {
    auto operands = [](const std::vector<TensorMapOperand> &list) {
      py::list out;
      for (const TensorMapOperand &operand : list) {
        py::dict entry;
        if (operand.argument >= 0)
          entry["argument"] = operand.argument;
        else
          entry["value"] = operand.value;
        out.append(entry);
      }
      return out;
    };
    py::dict entry;
    entry["parameter"] = map.parameter;
    entry["base"] = map.base;
    entry["element_bytes"] = map.elementBytes;
    entry["shape"] = operands(map.shape);
    entry["strides"] = operands(map.strides);
    py::list box;
    for (int extent : map.box)
      box.append(extent);
    entry["box"] = box;
    entry["swizzle_bytes"] = map.swizzleBytes;
    entry["stored"] = map.stored;
    maps.append(entry);
  }
  dict["host_tensormaps"] = maps;
  return dict;
}

PyCompileResult compile(const std::string &source, const std::string &name,
                        const std::string &target, int numWarps,
                        const std::string &stageName,
                        const std::string &assembler, bool optimize,
                        int numStages, bool enableFpFusion, int maxnreg,
                        bool hostTensorMaps) {
  CompileOptions options;
  if (!parseStage(stageName, options.stage))
    raise(PyExc_ValueError, "unknown stage '" + stageName +
                                "'; expected " + stageNames());
  options.target = target;
  options.numWarps = numWarps;
  options.assembler = assembler;
  options.optimize = optimize;
  options.numStages = numStages;
  options.fpFusion = enableFpFusion;
  options.maxnreg = maxnreg;
  options.hostTensorMaps = hostTensorMaps;

  CompileResult result;
  {
    py::gil_scoped_release release;
    result = compileTileIR(source, name, options);
  }
  PyCompileResult converted;
  converted.success = result.success;
  converted.output = py::bytes(result.output);
  converted.formatted = result.formatDiagnostics();
  for (Diagnostic &diagnostic : result.diagnostics)
    converted.diagnostics.append(py::cast(std::move(diagnostic)));
  converted.metadata = metadataDict(result.metadata);
  return converted;
}

} // namespace

void registerCompileBindings(py::module_ &m) {
  m.def("version", []() { return std::string(terrazzo::version()); },
        "The compiler's version, including its LLVM; part of every cache "
        "key.");

  py::class_<Diagnostic>(m, "Diagnostic")
      .def_property_readonly(
          "severity",
          [](const Diagnostic &d) { return severityName(d.severity); })
      .def_readonly("file", &Diagnostic::file)
      .def_readonly("line", &Diagnostic::line)
      .def_readonly("column", &Diagnostic::column)
      .def_readonly("message", &Diagnostic::message)
      .def("__str__", &Diagnostic::str)
      .def("__repr__", [](const Diagnostic &d) {
        return "<terrazzo._C.Diagnostic " + d.str() + ">";
      });

  py::class_<PyCompileResult>(m, "CompileResult")
      .def_readonly("success", &PyCompileResult::success)
      .def_readonly("output", &PyCompileResult::output)
      .def_readonly("diagnostics", &PyCompileResult::diagnostics)
      .def_readonly("metadata", &PyCompileResult::metadata)
      .def("format_diagnostics",
           [](const PyCompileResult &r) { return r.formatted; },
           "All diagnostics, one per line, as a compiler prints them.")
      .def("__repr__", [](const PyCompileResult &r) {
        return std::string("<terrazzo._C.CompileResult success=") +
               (r.success ? "True" : "False") +
               " diagnostics=" + std::to_string(py::len(r.diagnostics)) +
               " output=" + std::to_string(py::len(r.output)) + " bytes>";
      });

  m.def("default_num_warps", &terrazzo::defaultNumWarps,
        "Warps per program instance when a launch names none.");
  m.def("max_num_warps", &terrazzo::maxNumWarps,
        "The most warps per program instance.");
  m.def("maxnreg_range",
        [] { return py::make_tuple(terrazzo::minMaxnreg(), terrazzo::maxMaxnreg()); },
        "The range of the maxnreg compile option: (fewest, most) registers "
        "per thread.");
  m.def(
      "describe_target",
      [](const std::string &name) {
        TargetDescription description;
        std::string error;
        if (!describeTarget(name, description, error))
          throw py::value_error(error);
        py::dict out;
        out["name"] = description.name;
        out["vendor"] = description.vendor;
        out["processor"] = description.processor;
        out["warp_size"] = description.warpSize;
        out["max_shared_memory_bytes"] = description.maxSharedMemoryBytes;
        out["assembly_stage"] = description.assemblyStage;
        out["binary_stage"] = description.binaryStage;
        return out;
      },
      py::arg("name"),
      "What the compiler knows of the target `name` (\"cuda:90\", ...): a "
      "dict of name, vendor, processor, warp_size, "
      "max_shared_memory_bytes, assembly_stage (ptx, amdgcn) and "
      "binary_stage (cubin, hsaco); ValueError for an unknown target.");

  m.def("compile", &compile, py::arg("source"), py::arg("name"),
        py::arg("target"), py::arg("num_warps"), py::arg("stage"),
        py::arg("assembler") = "auto", py::kw_only(),
        py::arg("optimize") = true, py::arg("num_stages") = 3,
        py::arg("enable_fp_fusion") = true, py::arg("maxnreg") = 0,
        py::arg("host_tensormaps") = false,
        R"doc(
Compiles tile IR text `source` (named `name` in diagnostics) for `target`
("cuda:90", "hip:gfx942", ...) with `num_warps` up to `stage` (tile, tilegpu,
llvm, llvmir; ptx or cubin for cuda targets, amdgcn or hsaco for hip
targets), software-pipelining loads of dot operands over `num_stages`
shared buffers on cuda:80 and newer; `enable_fp_fusion` lets the code
generator contract float multiplies and adds into fma; `maxnreg` (0: none)
caps the registers per thread (NVIDIA targets); with `host_tensormaps` the
launcher builds the TMA tensor maps of the kernel's arguments (metadata
`host_tensormaps`: Kernel's argument of that name) and the kernel takes
them after its arguments. The GIL is released while compiling. Failures come back as
`success == False` with diagnostics, never as exceptions; an unknown stage
raises ValueError.)doc");
}

} // namespace terrazzo::python
