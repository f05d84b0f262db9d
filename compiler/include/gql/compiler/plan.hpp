// The plan: per operation and target, the decisions the generated code will make and why (row
// classes and accumulators, traversal direction, tiles, early exits, atomics). `gqlc --emit plan`
// prints it; generated programs repeat the same lines under --explain.
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::plan {

struct OpPlan {
  std::string kernel;
  std::string op;                  // "mxm -> C", "@expand"
  std::vector<std::string> lines;  // one decision per line
};

// Replaces the loops that compute a whole traversal (the BFS-levels and Bellman-Ford shapes of
// std/bfs.gql and std/sssp.gql) by one bfs_levels / single_source_paths op each; every other loop
// stays as written. Run on a checked module before planning and code generation.
void recognize_traversals(ir::Module& module);

// Fuses element-wise work of the OpenMP target into the op that reads its result, where nothing
// else reads it: an `apply` into the vector op right after it (its function read inside that op),
// and a vxm into the `union` right after it (a pull step writes the union's result as it gathers).
// The values are those of the ops run apart; `gqlc --no-fusion` keeps every op.
void fuse_elementwise(ir::Module& module);

// Where a CUDA kernel's ops run and where they read and write the kernel's values (plan/placement.cpp):
// one table for the code generator and the printed plan.
enum class Placement {
  host,              // runs on the host (gql::cpu): reads and writes host containers
  device,            // runs on the GPU over the values where they are: reads on the device, leaves its result there
};
Placement placement(const ir::Op& op, const ir::Kernel& kernel, ir::Target target);
// Whether `op` is a product (mxm, vxm, mxv) with a dense matrix operand: a GEMM or a row-parallel
// loop over the dense operand (gql/cpu/dense_products.hpp), never the sparse kernels.
bool is_dense_product(const ir::Op& op, const ir::Kernel& kernel);
// Whether `op` is one of the value ops placed on the device: the vectors' element-wise ops,
// assignments, reductions and constructors (gql/device/values/vector_ops.hpp, whose kernels nvcc builds;
// host code built without nvcc, the JIT's NVRTC path, runs them on the host) and the dense matrices'
// copies and element stores (gql/device/values/matrix_ops.hpp). They take the kernel's stream last.
bool is_value_op_on_device(const ir::Op& op, const ir::Kernel& kernel, ir::Target target);
// Whether a CUDA kernel calls cuBLAS (LU, products of dense matrices): its program starts the device
// with cuBLAS ready and the kernels loaded lazily (gql::DeviceStart).
bool calls_cublas(const ir::Kernel& kernel);

// Whether `op` of an OpenMP kernel built for several processes runs over the MPI ranks (gql/dist/):
// a product of graphs into a graph, a vector product over a graph (and a union holding a fused one),
// the BFS-levels traversal, the closure of a dense matrix (plan/distribution.cpp). Every other op runs whole on every rank, over
// the values every rank holds.
bool distributed(const ir::Op& op, const ir::Kernel& kernel, const ir::Module& module);
// How a distributed op divides its work and what the ranks exchange, for the plan.
std::string distribution_text(const ir::Op& op, const ir::Kernel& kernel, const ir::Module& module);
// Whether parameter `variable` of such a kernel is held split across the ranks, each rank its block
// of rows, read by rank 0 and sent out: a graph (gql/dist/split_graph.hpp) that every op touching it
// reads through a split twin (the BFS-levels traversal) and the kernel neither writes nor returns, or
// a split matrix (split_matrix); rows, cols and nvals are read from any rank.
bool split_parameter(const ir::Kernel& kernel, int variable, const ir::Module& module);
// Whether graph or matrix parameter `variable` of a CUDA kernel built with --mpi is uploaded in parts:
// every op that touches it takes each rank's part from the host when it runs over the ranks' GPUs (the
// BFS, the closure), and the kernel neither writes nor returns it. On several ranks the program keeps
// it on the host (gql::dist::uploaded_in_parts); on one it is uploaded whole before the runs.
bool uploaded_in_parts(const ir::Kernel& kernel, int variable, const ir::Module& module);
// Whether matrix `variable` of such a kernel is held split across the ranks (gql/dist/split_matrix.hpp,
// gql/dist/split_matrix_ops.hpp): it is one of a group of matrices joined by copies and distributed
// closures, one of which the group holds, and no other op, mask or element read touches any of them;
// element stores go to the rank holding the row, and a returned one is gathered on rank 0, which
// writes the results. So no rank holds more than its rows of the closure's input and output.
bool split_matrix(const ir::Kernel& kernel, int variable, const ir::Module& module);
// Whether such a kernel's distributed product is joined on rank 0 only (gql::dist::mxm_on): its
// output is only returned (no op, mask or rows/cols/nvals reads it, and what it held before does not
// matter: no mask, or replace), so only rank 0, which writes the results, needs its entries; the
// other ranks keep its shape without entries.
bool joined_on_root(const ir::Op& op, const ir::Kernel& kernel, const ir::Module& module);

std::vector<OpPlan> plan_module(const ir::Module& module);
std::string print_plan(const std::vector<OpPlan>& plans);

}  // namespace gql::compiler::plan
