// The GraphBLAS program that the stdlib's fof program is compared with as whole processes:
// C = A * A over GxB_PLUS_PAIR_UINT64 (friends of friends, counted), A read by gql's reader from the
// same file (so both processes load alike), one GrB_mxm timed until C is materialized, as the fof
// program's --stats `time:` is its kernel's. Prints the time, C's entry count and the sum of its
// counts, which the fof program's result must match (bench/programs/fof-vs-graphblas).
//
//   graphblas_fof FILE [--threads N]
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "graphblas_peer.hpp"
#include "gql/io.hpp"

int main(int argc, char** argv) {
  using namespace gql;
  using namespace gql::bench;
  if (argc != 2 && !(argc == 4 && std::string(argv[2]) == "--threads")) {
    std::fprintf(stderr, "usage: graphblas_fof FILE [--threads N]\n");
    return 2;
  }
  try {
    const int threads = argc == 4 ? std::atoi(argv[3]) : omp_get_max_threads();
    const Csr<bool> A = read_graph<bool>(argv[1]);
    GraphblasSession session(threads);
    GrB_Matrix a = to_graphblas(A);
    GrB_Matrix c = nullptr;
    grb_check(GrB_Matrix_new(&c, GrB_UINT64, static_cast<GrB_Index>(A.n_rows()), static_cast<GrB_Index>(A.n_cols())),
              "GrB_Matrix_new");
    const auto start = std::chrono::steady_clock::now();
    grb_check(GrB_mxm(c, nullptr, nullptr, GxB_PLUS_PAIR_UINT64, a, a, nullptr), "GrB_mxm");
    grb_check(GrB_Matrix_wait(c, GrB_MATERIALIZE), "GrB_Matrix_wait");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    GrB_Index nvals = 0;
    uint64_t sum = 0;
    grb_check(GrB_Matrix_nvals(&nvals, c), "GrB_Matrix_nvals");
    grb_check(GrB_Matrix_reduce_UINT64(&sum, nullptr, GrB_PLUS_MONOID_UINT64, c, nullptr), "GrB_reduce");
    std::printf("time:    %.6f s\nentries: %llu\nsum:     %llu\nthreads: %d\n", seconds,
                static_cast<unsigned long long>(nvals), static_cast<unsigned long long>(sum), threads);
    GrB_Matrix_free(&a);
    GrB_Matrix_free(&c);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "graphblas_fof: %s\n", e.what());
    return 1;
  }
}
