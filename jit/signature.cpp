// Kernel signatures as the language spells them, and the check behind Kernel::bind.
#include <string>
#include <vector>

#include "gql/jit.hpp"

namespace gql {
namespace {

std::string parameters_text(const std::vector<std::string>& types, const std::vector<std::string>* names) {
  std::string out = "(";
  for (size_t n = 0; n < types.size(); ++n) {
    out += n ? ", " : "";
    if (names && n < names->size()) out += (*names)[n] + ": ";
    out += types[n];
  }
  return out + ")";
}

// A vertex id is an index_t (int32_t) in C++.
bool parameter_matches(const std::string& kernel, const std::string& requested) {
  return kernel == requested || (kernel == "vertex" && requested == "i32");
}

}  // namespace

std::string KernelSignature::to_string() const {
  return name + parameters_text(parameter_types, &parameter_names) + " -> " + result_type;
}

namespace jit_detail {

void check_signature(const KernelSignature& kernel, const std::vector<std::string>& parameter_types,
                     const std::string& result_type) {
  bool ok = parameter_types.size() == kernel.parameter_types.size() && result_type == kernel.result_type;
  for (size_t n = 0; ok && n < parameter_types.size(); ++n)
    ok = parameter_matches(kernel.parameter_types[n], parameter_types[n]);
  if (ok) return;
  throw Error(ErrorKind::usage, "kernel '" + kernel.name + "' cannot be bound as " + kernel.name +
                                    parameters_text(parameter_types, nullptr) + " -> " + result_type +
                                    ": its signature is " + kernel.to_string(),
              {kernel.name});
}

void check_placement(const KernelSignature& kernel, bool result_on_device, uint64_t device_arguments) {
  if ((!result_on_device && device_arguments == 0) || kernel.target == Target::cuda) return;
  throw Error(ErrorKind::usage, "kernel '" + kernel.name +
                                    "' was compiled for the CPU (Target::openmp), so its arguments and result are "
                                    "on the host: bind it with the host containers of " + kernel.to_string() +
                                    ", or compile the spec for Target::cuda",
              {kernel.name});
}

}  // namespace jit_detail
}  // namespace gql
