// gql::Compiler end to end on the CPU: spec -> generated code -> host compiler -> dlopen -> calls,
// compared against reference code written here. Every test shares one cache, so the spec is
// compiled once per build folder.
#include <gtest/gtest.h>

#include "address_space_cap.hpp"
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gql/gql.hpp"
#include "gql/jit.hpp"
#include "jit_test_support.hpp"

namespace gql {
namespace {

const std::string spec = std::string(GQL_SOURCE_DIR) + "/test/unit/jit/specs/kernels.gql";

CompilerOptions test_options() {
  CompilerOptions o;
  o.cache_dir = test::shared_kernel_cache();
  return o;
}

// A random pattern graph without self loops, rows sorted.
Csr<bool> random_graph(int64_t n, int degree, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> pick(0, static_cast<int32_t>(n - 1));
  gql::Array<offset_t> offsets{0};
  gql::Array<index_t> cols;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<bool> row(static_cast<size_t>(n), false);
    for (int d = 0; d < degree; ++d) {
      const int32_t j = pick(rng);
      if (j != i) row[static_cast<size_t>(j)] = true;
    }
    for (int64_t j = 0; j < n; ++j)
      if (row[static_cast<size_t>(j)]) cols.push_back(static_cast<index_t>(j));
    offsets.push_back(static_cast<offset_t>(cols.size()));
  }
  return Csr<bool>(n, n, std::move(offsets), std::move(cols));
}

std::vector<std::vector<bool>> dense_pattern(const Csr<bool>& g) {
  std::vector<std::vector<bool>> a(static_cast<size_t>(g.n_rows()), std::vector<bool>(static_cast<size_t>(g.n_cols())));
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[i]; p < g.row_offsets()[i + 1]; ++p) a[i][g.col_indices()[p]] = true;
  return a;
}

TEST(JitApi, FriendsOfFriendsMatchesReference) {
  Compiler compiler(test_options());
  Module m = compiler.compile_file(spec);
  auto fof = m.kernel("fof").bind<Csr<uint64_t>(const Csr<bool>&)>();
  const Csr<bool> G = random_graph(60, 4, 1);
  const Csr<uint64_t> C = fof(G);
  C.validate();
  // C(i,j) = #k with G(i,k) and G(k,j), kept where G(i,j) is absent and the count is not zero.
  const auto a = dense_pattern(G);
  std::vector<std::vector<uint64_t>> got(60, std::vector<uint64_t>(60, 0));
  for (int64_t i = 0; i < 60; ++i)
    for (offset_t p = C.row_offsets()[i]; p < C.row_offsets()[i + 1]; ++p) got[i][C.col_indices()[p]] = C.values()[p];
  int64_t want_nvals = 0;
  for (int i = 0; i < 60; ++i)
    for (int j = 0; j < 60; ++j) {
      uint64_t count = 0;
      for (int k = 0; k < 60; ++k) count += a[i][k] && a[k][j];
      const uint64_t want = a[i][j] ? 0 : count;
      want_nvals += want != 0;
      EXPECT_EQ(got[i][j], want) << i << "," << j;
    }
  EXPECT_EQ(C.nvals(), want_nvals);
}

// The JIT runs the generated code of value masks as gqlc -o does: C<value(M)> keeps only M's nonzero
// entries' positions, w<value(keep)> only keep's nonzero indices (a dense 0/1 vector).
TEST(JitApi, ValueMasksSelectTrueEntries) {
  Compiler compiler(test_options());
  Module m = compiler.compile_file(std::string(GQL_SOURCE_DIR) + "/test/unit/jit/specs/value_masks.gql");
  auto odd_paths = m.kernel("odd_paths").bind<Csr<uint64_t>(const Csr<bool>&)>();
  const Csr<bool> G = random_graph(60, 4, 3);
  const Csr<uint64_t> C = odd_paths(G);
  C.validate();
  const auto a = dense_pattern(G);
  int64_t want_nvals = 0;
  for (int64_t i = 0; i < 60; ++i) {
    std::vector<uint64_t> got(60, 0);
    for (offset_t p = C.row_offsets()[i]; p < C.row_offsets()[i + 1]; ++p) got[C.col_indices()[p]] = C.values()[p];
    for (int j = 0; j < 60; ++j) {
      uint64_t count = 0;
      for (int k = 0; k < 60; ++k) count += a[i][k] && a[k][j];
      const uint64_t want = count % 2 ? count : 0;
      want_nvals += want != 0;
      EXPECT_EQ(got[j], want) << i << "," << j;
    }
  }
  EXPECT_EQ(C.nvals(), want_nvals);

  auto nonzero = m.kernel("nonzero").bind<Vector<int32_t>(const Vector<int32_t>&)>();
  gql::Array<int32_t> keep_values;
  for (int32_t k = 0; k < 20; ++k) keep_values.push_back(k % 3 == 0 ? 0 : k - 10);
  const Vector<int32_t> w = nonzero(Vector<int32_t>::dense(20, std::move(keep_values)));
  ASSERT_TRUE(w.is_dense());
  for (int32_t k = 0; k < 20; ++k) EXPECT_EQ(w.values()[static_cast<size_t>(k)], k % 3 == 0 || k == 10 ? 0 : 1) << k;
}

TEST(JitApi, BfsMatchesReference) {
  Compiler compiler(test_options());
  auto bfs = compiler.compile_file(spec).kernel("bfs").bind<Vector<int32_t>(const Csr<bool>&, int32_t)>();
  const Csr<bool> G = random_graph(200, 2, 2);
  const Vector<int32_t> depth = bfs(G, 5);
  depth.validate();
  std::vector<int32_t> want(200, -1);
  std::queue<int32_t> q;
  want[5] = 0;
  q.push(5);
  while (!q.empty()) {
    const int32_t u = q.front();
    q.pop();
    for (offset_t p = G.row_offsets()[u]; p < G.row_offsets()[u + 1]; ++p)
      if (const index_t v = G.col_indices()[p]; want[v] < 0) {
        want[v] = want[u] + 1;
        q.push(v);
      }
  }
  std::vector<int32_t> got(200, -1);
  if (depth.is_dense()) {
    for (size_t v = 0; v < 200; ++v) got[v] = depth.values()[v];
  } else {
    for (size_t p = 0; p < depth.indices().size(); ++p) got[depth.indices()[p]] = depth.values()[p];
  }
  EXPECT_EQ(got, want);
}

TEST(JitApi, ApspMatchesFloydWarshall) {
  Compiler compiler(test_options());
  auto apsp = compiler.compile_file(spec).kernel("apsp").bind<Matrix<float>(const Matrix<float>&)>();
  constexpr int n = 40;
  const float inf = std::numeric_limits<float>::infinity();
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> weight(1, 9), coin(0, 9);
  Matrix<float> D(n, n, inf);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (coin(rng) < 2) D(i, j) = static_cast<float>(weight(rng));
  Matrix<float> want = D.clone();
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) want(i, j) = std::min(want(i, j), want(i, k) + want(k, j));
  const Matrix<float> got = apsp(D);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) EXPECT_EQ(got(i, j), want(i, j)) << i << "," << j;
}

// Products with a dense operand and dense(G, fill = v) build and run through the JIT as they do ahead of
// time (test/e2e/test_dense_products.cpp checks every pairing there).
TEST(JitApi, DenseProductsMatchTheirDefinition) {
  Compiler compiler(test_options());
  const Module m = compiler.compile_source(R"(import "std/semirings.gql";
kernel mm(A: matrix<f64>, B: matrix<f64>) -> matrix<f64> { return A * B over plus_times; }
kernel two_hops(G: graph<f32>) -> matrix<f32> { let D = dense(G, fill = inf); return D * D over min_plus; }
)", "dense_products.gql");
  Matrix<double> A(2, 3), B(3, 2);
  for (int64_t e = 0; e < 6; ++e) {
    A.data()[static_cast<size_t>(e)] = static_cast<double>(e + 1);
    B.data()[static_cast<size_t>(e)] = static_cast<double>(6 - e);
  }
  const Matrix<double> C = m.kernel("mm").bind<Matrix<double>(const Matrix<double>&, const Matrix<double>&)>()(A, B);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      double want = 0;
      for (int64_t k = 0; k < 3; ++k) want += A(i, k) * B(k, j);
      EXPECT_EQ(C(i, j), want) << i << "," << j;
    }
  // A path 0 -> 1 -> 2: the only two-hop distance is from 0 to 2.
  Csr<float> G(3, 3);
  G.set_entry(0, 1, 2.f);
  G.set_entry(1, 2, 3.f);
  const Matrix<float> D = m.kernel("two_hops").bind<Matrix<float>(const Csr<float>&)>()(G);
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 3; ++j) EXPECT_EQ(D(i, j), i == 0 && j == 2 ? 5.f : inf) << i << "," << j;
}

// The stdlib's sssp through the JIT: shortest distances, and a negative cycle reachable from the source
// is its requirement's error, naming the statement.
TEST(JitApi, SsspReportsANegativeCycle) {
  Compiler compiler(test_options());
  auto sssp = compiler.compile_file(std::string(GQL_SOURCE_DIR) + "/stdlib/std/sssp.gql")
                  .kernel("sssp")
                  .bind<Vector<float>(const Csr<float>&, int32_t)>();
  const Csr<float> path(3, 3, {0, 2, 3, 3}, {1, 2, 2}, {1.0f, 5.0f, 2.0f});  // 0 -> 1 -> 2 is shorter than 0 -> 2
  const Vector<float> dist = sssp(path, 0);
  ASSERT_EQ(dist.nvals(), 3);
  EXPECT_EQ(dist.values()[2], 3.0f);
  const Csr<float> cycle(3, 3, {0, 1, 2, 3}, {1, 2, 1}, {1.0f, -3.0f, 1.0f});  // 1 -> 2 -> 1 weighs -2
  try {
    (void)sssp(cycle, 0);
    FAIL() << "a negative cycle gave distances";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::requirement);
    EXPECT_EQ(e.where().file, "sssp.gql");
    EXPECT_EQ(e.where().line, 20);
    EXPECT_NE(e.reason().find("a negative cycle is reachable from src"), std::string::npos) << e.what();
  }
}

TEST(JitApi, SignatureMismatchNamesBothSignatures) {
  Compiler compiler(test_options());
  const Kernel fof = compiler.compile_file(spec).kernel("fof");
  EXPECT_EQ(fof.signature().to_string(), "fof(G: graph<bool>) -> graph<u64>");
  try {
    (void)fof.bind<Csr<double>(const Csr<bool>&)>();
    FAIL() << "bind accepted a wrong result type";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(e.reason().find("fof(graph<bool>) -> graph<f64>"), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find("fof(G: graph<bool>) -> graph<u64>"), std::string::npos) << e.reason();
  }
  EXPECT_THROW((void)fof.bind<Csr<uint64_t>(const Csr<bool>&, int32_t)>(), Error);
  EXPECT_THROW((void)fof.bind<Csr<uint64_t>(const Matrix<bool>&)>(), Error);
  // A vertex parameter is passed as an int32_t; an int64_t is refused.
  const Kernel bfs = compiler.compile_file(spec).kernel("bfs");
  EXPECT_NO_THROW((void)bfs.bind<Vector<int32_t>(const Csr<bool>&, int32_t)>());
  EXPECT_THROW((void)bfs.bind<Vector<int32_t>(const Csr<bool>&, int64_t)>(), Error);
}

template <class T>
std::vector<storage_t<T>> values_of(const Vector<T>& v) {
  return {v.values().begin(), v.values().end()};
}

TEST(JitApi, AsyncCallsGiveTheResultsOfDirectCalls) {
  Compiler compiler(test_options());
  const Module m = compiler.compile_file(spec);
  auto fof = m.kernel("fof").bind<Csr<uint64_t>(const Csr<bool>&)>();
  auto bfs = m.kernel("bfs").bind<Vector<int32_t>(const Csr<bool>&, int32_t)>();
  const Csr<bool> G = random_graph(80, 3, 7);
  std::vector<std::future<Vector<int32_t>>> searches;
  for (int32_t source = 0; source < 8; ++source) searches.push_back(bfs.async(G, source));
  std::future<Csr<uint64_t>> product = fof.async(G);
  for (int32_t source = 0; source < 8; ++source) {
    const Vector<int32_t> got = searches[static_cast<size_t>(source)].get();
    const Vector<int32_t> want = bfs(G, source);
    EXPECT_EQ(got.size(), want.size());
    EXPECT_EQ(values_of(got), values_of(want)) << "source " << source;
  }
  const Csr<uint64_t> got = product.get();
  const Csr<uint64_t> want = fof(G);
  EXPECT_TRUE(std::ranges::equal(got.row_offsets(), want.row_offsets()));
  EXPECT_TRUE(std::ranges::equal(got.col_indices(), want.col_indices()));
  EXPECT_TRUE(std::ranges::equal(got.values(), want.values()));
}

TEST(JitApi, CallsOnOneQueueRunInOrderAndQueuesRunAtOnce) {
  // One queue: 200 calls, each appending its number; none overlaps another, so no lock is needed.
  std::vector<int> ran;
  std::promise<void> done;
  const int queue_one = 0, queue_two = 0;  // any two addresses
  for (int n = 0; n < 200; ++n)
    jit_detail::run_in_order(&queue_one, [&ran, &done, n] {
      ran.push_back(n);
      if (n == 199) done.set_value();
    });
  ASSERT_EQ(done.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  std::vector<int> want(200);
  std::iota(want.begin(), want.end(), 0);
  EXPECT_EQ(ran, want);
  // Two queues at once: the first queue's call waits for the second queue's.
  std::promise<void> second_ran, first_saw_it;
  jit_detail::run_in_order(&queue_one, [&] {
    if (second_ran.get_future().wait_for(std::chrono::seconds(30)) == std::future_status::ready) first_saw_it.set_value();
  });
  jit_detail::run_in_order(&queue_two, [&] { second_ran.set_value(); });
  EXPECT_EQ(first_saw_it.get_future().wait_for(std::chrono::seconds(60)), std::future_status::ready);
}

TEST(JitApi, AsyncErrorsReachTheFuture) {
  Compiler compiler(test_options());
  auto bfs = compiler.compile_file(spec).kernel("bfs").bind<Vector<int32_t>(const Csr<bool>&, int32_t)>();
  const Csr<bool> G = random_graph(10, 2, 3);
  std::future<Vector<int32_t>> search = bfs.async(G, 99);  // no vertex 99: the kernel throws
  EXPECT_THROW((void)search.get(), Error);
}

TEST(JitApi, DeviceResultsAndStreamsNeedACudaKernel) {
  Compiler compiler(test_options());
  const Kernel fof = compiler.compile_file(spec).kernel("fof");
  EXPECT_EQ(fof.signature().target, Target::openmp);
  try {
    (void)fof.bind<DeviceCsr<uint64_t>(const Csr<bool>&)>();
    FAIL() << "a CPU kernel's result was bound on the device";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(e.reason().find("Target::cuda"), std::string::npos) << e.reason();
  }
  EXPECT_THROW((void)fof.bind<Csr<uint64_t>(const DeviceCsr<bool>&)>(), Error);  // nor its arguments
  auto host_fof = fof.bind<Csr<uint64_t>(const Csr<bool>&)>();
  const Csr<bool> G = random_graph(10, 2, 5);
  int not_a_stream = 0;  // never used as one: the call is refused first
  EXPECT_THROW((void)host_fof.async_on(reinterpret_cast<CUstream_st*>(&not_a_stream), G), Error);
}

TEST(JitApi, UnknownKernelListsTheModulesKernels) {
  Compiler compiler(test_options());
  const Module m = compiler.compile_file(spec);
  EXPECT_EQ(m.kernel_names(), (std::vector<std::string>{"fof", "bfs", "apsp"}));
  try {
    (void)m.kernel("sssp");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(e.reason().find("fof, bfs, apsp"), std::string::npos) << e.reason();
  }
}

TEST(JitApi, SpecErrorsCarryTheDiagnostics) {
  Compiler compiler(test_options());
  try {
    (void)compiler.compile_source("kernel f(G: graph<bool>) -> graph<bool> { return G * ; }", "bad.gql");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::parse);
    EXPECT_EQ(std::string(e.what()).rfind("bad.gql:1:54: parse error: expected an expression, found ';' [syntax]\n", 0),
              0u)
        << e.what();
  }
  try {
    (void)compiler.compile_source("kernel f(G: graph<bool>) -> graph<bool> { return H; }", "typo.gql");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::type);
    EXPECT_EQ(e.where().file, "typo.gql");
    EXPECT_EQ(e.where().line, 1);
    EXPECT_EQ(e.where().column, 50);
    // The position and the word "error" once each, then the source line and the caret.
    EXPECT_EQ(std::string(e.what()), "typo.gql:1:50: type error: unknown name 'H'; did you mean 'G'? [unknown-name]\n"
                                     "kernel f(G: graph<bool>) -> graph<bool> { return H; }\n"
                                     "                                                 ^")
        << e.what();
  }
}

// Running out of memory in the front end (a child whose address space is capped 128 MiB above what it
// maps, and 1 MiB of statements, which take the front end about 500 MB) is an oom error naming the
// spec, as gqlc reports it; it was a std::bad_alloc.
TEST(JitApi, AFrontEndOutOfMemoryIsAnOomError) {
  Compiler compiler(test_options());
  std::string text = "kernel k(G: graph<f64>, x: f64) -> f64 { var a = x;";
  while (text.size() < (size_t{1} << 20) - 100) text += "a=a+a;";
  text += " return a; }\n";
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!test_support::cap_address_space(rlim_t{128} << 20)) _exit(10);
    try {
      (void)compiler.compile_source(text, "big.gql");
      _exit(11);
    } catch (const Error& e) {
      _exit(e.kind() == ErrorKind::oom && e.where().file == "big.gql" ? 0 : 12);
    } catch (const std::bad_alloc&) {
      _exit(13);
    }
  }
  int status = -1;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "11: compiled; 12: another error; 13: std::bad_alloc";
}

TEST(JitApi, LawWarningsReachTheLogWithoutVerbose) {
  std::vector<std::string> lines;
  CompilerOptions o = test_options();
  o.log = [&](const std::string& line) { lines.push_back(line); };
  Compiler compiler(o);
  (void)compiler.compile_source("semiring minus(a: i64, b: i64) -> i64 { con(a, b) = a; agg(x, y) = x - y; zero = 0; }\n"
                                "kernel k(G: graph<i64>) -> graph<i64> { return G * G over minus; }",
                                "laws.gql");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("laws.gql:1:"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("warning: agg of semiring 'minus' (at i64) is not associative"), std::string::npos) << lines[0];
}

TEST(JitApi, SecondCompileIsAnInProcessHit) {
  std::vector<std::string> lines;
  CompilerOptions o = test_options();
  o.verbose = true;
  o.log = [&](const std::string& line) { lines.push_back(line); };
  Compiler compiler(o);
  const Module first = compiler.compile_file(spec);
  const size_t logged = lines.size();
  ASSERT_GT(logged, 0u);
  EXPECT_NE(lines[0].find("kernels.gql: 3 kernel(s)"), std::string::npos) << lines[0];
  const Module second = compiler.compile_file(spec);
  EXPECT_EQ(lines.size(), logged);  // memoized: no front end, nothing to report
  EXPECT_EQ(&first.source(), &second.source());
  // Another Compiler finds the library already loaded in this process.
  Compiler other(o);
  (void)other.compile_file(spec);
  ASSERT_GT(lines.size(), logged);
  EXPECT_NE(lines[logged].find("already loaded in this process"), std::string::npos) << lines[logged];
}

TEST(JitApi, ThreadsShareOneModule) {
  Compiler compiler(test_options());
  std::vector<std::thread> threads;
  std::vector<std::string> sources(8);
  const Csr<bool> G = random_graph(30, 3, 4);
  std::vector<int64_t> nvals(8);
  for (size_t t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      const Module m = compiler.compile_file(spec);
      nvals[t] = m.kernel("fof").bind<Csr<uint64_t>(const Csr<bool>&)>()(G).nvals();
    });
  for (auto& t : threads) t.join();
  for (int64_t v : nvals) EXPECT_EQ(v, nvals[0]);
}

}  // namespace
}  // namespace gql
