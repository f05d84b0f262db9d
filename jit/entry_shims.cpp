#include "entry_shims.hpp"

#include "gql/compiler/types.hpp"

namespace gql::jit {
namespace {

using compiler::Type;
using compiler::TypeKind;

std::string cpp_type(const Type& t) {
  const std::string e(compiler::cpp_type(t.element));
  switch (t.kind) {
    case TypeKind::graph: return "gql::Csr<" + e + ">";
    case TypeKind::matrix: return "gql::Matrix<" + e + ">";
    case TypeKind::vector: return "gql::Vector<" + e + ">";
    case TypeKind::tuple: {
      std::string out = "std::tuple<";
      for (size_t n = 0; n < t.members.size(); ++n) out += (n ? ", " : "") + cpp_type(t.members[n]);
      return out + ">";
    }
    default: return e;
  }
}

Type result_of(const compiler::ir::Kernel& k) {
  return k.results.size() == 1 ? k.results[0] : Type::tuple(k.results);
}

}  // namespace

std::string entry_symbol(const std::string& kernel) { return "gql_entry_" + kernel; }

std::string generate_entry_shims(const compiler::ir::Module& module) {
  std::string out = "\n// Entry points for gql::Module (see gql/jit.hpp): type-erased arguments and result.\n";
  const bool cuda = module.target == compiler::ir::Target::cuda;
  out += "#include <exception>\n#include <gql/kernel_context.hpp>\n";
  out += cuda ? "#include <gql/device.hpp>\n#include <gql/device/placement.hpp>\n"
                "#include <gql/error.hpp>\n\n"
              : "\n";
  if (module.distributed)
    out += std::string("#include <gql/dist/program.hpp>\n") + (cuda ? "#include <gql/dist/device_world.hpp>\n" : "") +
           "\nextern \"C\" __attribute__((visibility(\"default\"))) void " + std::string(use_ranks_symbol) +
           "(const void* world, [[maybe_unused]] const void* devices) {\n"
           "  gql::dist::use_program_world(*static_cast<const gql::dist::World*>(world));\n" +
           (cuda ? "  gql::dist::use_program_devices(*static_cast<const gql::dist::DeviceWorld*>(devices));\n" : "") +
           "}\n";
  for (const compiler::ir::Kernel& k : module.kernels) {
    out += "extern \"C\" __attribute__((visibility(\"default\"))) void " + entry_symbol(k.name) +
           "(const void* const* args, void* result, gql::KernelContext* ctx, std::exception_ptr* error) {\n"
           "  try {\n";
    // Said before any CUDA call fails somewhere inside the kernel with a less telling message.
    if (cuda)
      out += "    if (gql::device_count() == 0)\n"
             "      throw gql::Error(gql::ErrorKind::cuda, \"kernel '" + k.name +
             "' was compiled for CUDA and this machine has no CUDA device (gql::Target::openmp runs it on the CPU)\");\n";
    const std::string result_type = cpp_type(result_of(k));
    if (cuda) {
      // Arguments borrowed where the caller keeps them (host or device, BoundKernel's types); the
      // result handed over from the side the caller asks for.
      out += "    const gql::CallStream call_stream(*ctx);\n    const gql::Stream stream = call_stream.stream();\n";
      std::string call = "    auto value = gqlgen::resident::" + k.name + "(";
      for (size_t n = 0; n < k.parameters.size(); ++n) {
        const Type& t = k.variables.at(static_cast<size_t>(k.parameters[n])).type;
        const std::string i = std::to_string(n);
        if (t.is_scalar()) {
          call += "*static_cast<const " + cpp_type(t) + "*>(args[" + i + "]), ";
        } else {
          out += "    auto a" + i + " = gql::gpu::argument<" + cpp_type(t) + ">(args[" + i + "], " + i + ", *ctx);\n";
          call += "a" + i + ", ";
        }
      }
      out += call + "*ctx);\n";
      out += "    if (ctx->result_on_device())\n"
             "      *static_cast<gql::on_device_t<" + result_type + ">*>(result) = gql::gpu::take_device(std::move(value), stream);\n"
             "    else\n"
             "      *static_cast<" + result_type + "*>(result) = gql::gpu::take_host(std::move(value), stream);\n";
    } else {
      std::string call = "    auto value = gqlgen::" + k.name + "(";
      for (size_t n = 0; n < k.parameters.size(); ++n) {
        const Type& t = k.variables.at(static_cast<size_t>(k.parameters[n])).type;
        call += "*static_cast<const " + cpp_type(t) + "*>(args[" + std::to_string(n) + "]), ";
      }
      out += call + "*ctx);\n";
      out += "    *static_cast<" + result_type + "*>(result) = std::move(value);\n";
    }
    out += "  } catch (...) {\n    *error = std::current_exception();\n  }\n}\n";
  }
  return out;
}

KernelSignature signature_of(const compiler::ir::Kernel& kernel, compiler::ir::Target target) {
  KernelSignature s;
  s.name = kernel.name;
  s.target = target;
  for (int id : kernel.parameters) {
    const compiler::ir::Variable& v = kernel.variables.at(static_cast<size_t>(id));
    s.parameter_names.push_back(v.name);
    s.parameter_types.push_back(compiler::to_string(v.type));
  }
  s.result_type = compiler::to_string(result_of(kernel));
  return s;
}

}  // namespace gql::jit
