// C = A * A on the GPU for directed Kronecker graphs (edge factor 16): gql's generalized SpGEMM for
// the paths semiring (u64 counts, value-free con) and for fp32 plus-times, against cuSPARSE SpGEMM
// (fp32 plus-times) on the same graph in the same run. Every time covers all phases (gql: bounds,
// both row classes, output assembly; cuSPARSE: work estimation, compute, copy and their buffer
// allocations), with the result left on the device. Then a sweep of gql's schedule values
// (large_row_products with the shared-memory classes reaching up to it, medium_row_products,
// large_chunk_bytes, medium_bitmap_columns, one at a time from the defaults; and the spilled rows'
// sort chunk, with rows of 8193..16383 products spilled to the hybrid sort), the product made in host memory in batches of rows (spgemm_to_host: one cold run,
// checked against the device result's checksum where the same run made one), and the
// device-to-device copy ceiling that the GB/s figures are measured against.
//
// The three results are compared by checksums computed on the device: the number of entries, the
// sum of the values and a sum of hashes of (row, column, value). Kronecker graphs here are
// unweighted, so plus-times gives the path counts too; fp32 sums are exact integers while every
// entry stays below 2^24, which the checksum also counts ("inexact" entries), so all three agree
// exactly when the products are right.
//
// Usage: bench_gpu_spgemm [--json FILE] [--graphs kron:16,kron:18] [--repeats 5]
//                         [--sweep kron:16,kron:18] [--thresholds 1024,2048,4096,8193,16384]
//                         [--medium 2048,4096] [--chunk-bytes 49152,65536,98304] [--bitmap-columns 0]
//                         [--sort-chunks 512,1024,2048]
//                         [--streamed kron:18,kron:20] [--variant-seconds 10]
// (an empty list, e.g. --graphs "", leaves that part out)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench_record.hpp"
#include "../common/bench_args.hpp"
#include "../common/gpu_context.hpp"
#include "cusparse_peer.hpp"
#include "device_checksum.cuh"
#include "gql/device/spgemm/spgemm.hpp"
#include "gql/io.hpp"
#include "reference_semirings.hpp"

namespace {

using namespace gql;
using namespace gql::bench;
using Paths = reference_semirings::Paths<unsigned long long>;
using PlusTimesF32 = reference_semirings::PlusTimes<float>;

struct Options {
  std::string json;
  std::vector<std::string> graphs{"kron:16", "kron:18"};
  std::vector<std::string> sweep{"kron:16", "kron:18"};
  std::vector<int64_t> thresholds{1024, 2048, 4096, 8193, 16384};
  std::vector<int64_t> medium{2048, 4096};
  std::vector<int64_t> chunk_bytes{48 * 1024, 64 * 1024, 96 * 1024};
  std::vector<int64_t> bitmap_columns{0};
  std::vector<int64_t> sort_chunks{512, 1024, 2048};
  std::vector<std::string> streamed{"kron:18", "kron:20"};
  int repeats = 5;
  double variant_seconds = 10;  // repeats are cut so one variant takes about this long
};

std::vector<int64_t> integers(const std::string& list) {
  std::vector<int64_t> out;
  for (const auto& t : bench::split_list(list)) out.push_back(std::atoll(t.c_str()));
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw Error(ErrorKind::usage, "missing value after " + flag);
    const std::string value = argv[++i];
    if (flag == "--json") o.json = value;
    else if (flag == "--graphs") o.graphs = bench::split_list(value);
    else if (flag == "--sweep") o.sweep = bench::split_list(value);
    else if (flag == "--streamed") o.streamed = bench::split_list(value);
    else if (flag == "--repeats") o.repeats = std::max(1, std::atoi(value.c_str()));
    else if (flag == "--variant-seconds") o.variant_seconds = std::atof(value.c_str());
    else if (flag == "--thresholds") o.thresholds = integers(value);
    else if (flag == "--medium") o.medium = integers(value);
    else if (flag == "--chunk-bytes") o.chunk_bytes = integers(value);
    else if (flag == "--bitmap-columns") o.bitmap_columns = integers(value);
    else if (flag == "--sort-chunks") o.sort_chunks = integers(value);
    else {
      throw Error(ErrorKind::usage, "unknown option " + flag);
    }
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One timed variant: a warm-up, then up to `repeats` timed runs (fewer when a run is slow).
struct Outcome {
  std::string error;  // empty when every run succeeded
  std::vector<double> seconds;
  std::optional<Checksum> checksum;  // of the last run's result
  DeviceSpgemmStats stats;
};

// `run(keep)` performs one multiplication and returns its time; when keep is set it also
// checksums the result (outside the time).
Outcome repeat(const Options& o, const std::function<double(bool, Outcome&)>& run) {
  Outcome out;
  try {
    const double warm = run(false, out);
    int repeats = o.repeats;
    if (warm > 0 && warm * repeats > o.variant_seconds)
      repeats = std::max(1, static_cast<int>(o.variant_seconds / warm));
    for (int r = 0; r < repeats; ++r) out.seconds.push_back(run(r == repeats - 1, out));
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

template <class S>
Outcome time_gql(const Options& o, const DeviceCsr<typename S::a_type>& A, const SpgemmPlan& plan, Stream& stream) {
  return repeat(o, [&](bool keep, Outcome& out) {
    const auto t0 = std::chrono::steady_clock::now();
    DeviceCsr<typename S::value_type> C = spgemm<S>(A, A, plan, stream, &out.stats);
    stream.synchronize();
    const double seconds = seconds_since(t0);
    if (keep)
      out.checksum = checksum(C.n_rows(), C.row_offsets().data(), C.col_indices().data(), C.values().data(), stream);
    return seconds;
  });
}

Outcome time_cusparse(const Options& o, CusparsePeer& peer, Stream& stream) {
  return repeat(o, [&](bool keep, Outcome& out) {
    const auto t0 = std::chrono::steady_clock::now();
    CusparseProduct C = peer.multiply(stream);
    const double seconds = seconds_since(t0);
    if (!C.error.empty()) throw Error(ErrorKind::cuda, C.error);
    if (keep)
      out.checksum = checksum(C.n_rows, static_cast<const int*>(C.offsets.get()), static_cast<const int*>(C.columns.get()),
                              static_cast<const float*>(C.values.get()), stream);
    return seconds;
  });
}

// Bytes a product must at least move: A once, each product's second-hop (column, value) once, and
// the result written once. The GB/s figures divide these by the time.
double traffic_bytes(int64_t n, int64_t a_nvals, int64_t products, int64_t c_nvals, size_t offset_bytes,
                     size_t input_value_bytes, size_t output_value_bytes) {
  const double index = sizeof(index_t);
  return static_cast<double>(n + 1) * static_cast<double>(offset_bytes) * 2 +
         static_cast<double>(a_nvals) * (index + static_cast<double>(input_value_bytes)) +
         static_cast<double>(products) * (index + static_cast<double>(input_value_bytes)) +
         static_cast<double>(c_nvals) * (index + static_cast<double>(output_value_bytes));
}

std::string hex(unsigned long long x) {
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", x);
  return text;
}

struct Context {
  RunContext run;
  double copy_gb_per_s = 0;  // the device-to-device copy ceiling measured in this run
};

// The row classes and memory plan of a gql run.
void add_classes(Record& record, const DeviceSpgemmStats& s) {
  record.integer("tiny_rows", s.tiny_rows).integer("small_rows", s.small_rows).integer("medium_rows", s.medium_rows)
      .integer("spilled_rows", s.sorted_rows).integer("large_rows", s.large_rows)
      .integer("large_chunks", s.large_chunks).integer("chunk_columns", s.chunk_columns)
      .integer("sorted_chunk_items", s.sorted_chunk_items)
      .integer("batches", s.batches).integer("scratch_bytes", s.scratch_bytes)
      .integer("result_bytes", s.result_bytes).boolean("medium_bitmap", s.medium_bitmap)
      .number("classify_ms", s.classify_ms).number("accumulate_ms", s.accumulate_ms)
      .number("assemble_ms", s.assemble_ms).text("explain", describe(s));
}

// Writes one record for an outcome (its times, rates and checksums, or why it failed).
void report(JsonLines& out, const Context& ctx, Record record, const Outcome& r, int64_t n, int64_t a_nvals,
            size_t offset_bytes, size_t input_value_bytes, size_t output_value_bytes) {
  record.integer("n", n).integer("edges", a_nvals).integer("products", r.stats.products);
  if (!r.error.empty() || !r.checksum) {
    record.text("status", "failed").text("detail", r.error.empty() ? "no result" : r.error);
    if (!r.seconds.empty()) record.times(summarize(r.seconds));
    out.write(stamp(record, ctx.run));
    return;
  }
  const TimeSummary t = summarize(r.seconds);
  const Checksum& c = *r.checksum;
  const double bytes = traffic_bytes(n, a_nvals, r.stats.products, static_cast<int64_t>(c.nvals), offset_bytes,
                                     input_value_bytes, output_value_bytes);
  const double gb_per_s = bytes / t.median * 1e-9;
  record.text("status", "ok")
      .times(t)
      .integer("nvals", static_cast<long long>(c.nvals))
      .number("value_sum", static_cast<double>(c.value_sum))
      .text("checksum", hex(c.hash))
      .integer("inexact_fp32_entries", static_cast<long long>(c.inexact))
      .number("products_per_s", static_cast<double>(r.stats.products) / t.median)
      .number("gb_per_s", gb_per_s)
      .number("copy_ceiling_gb_per_s", ctx.copy_gb_per_s)
      .number("percent_of_copy_ceiling", ctx.copy_gb_per_s > 0 ? 100 * gb_per_s / ctx.copy_gb_per_s : 0);
  out.write(stamp(record, ctx.run));
}

// Device-to-device copy bandwidth (bytes read + bytes written per second) of a 2 GiB buffer.
double measure_copy_ceiling(JsonLines& out, const Context& ctx, Stream& stream) {
  const size_t bytes = size_t{2} << 30;
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  src.fill_zero(stream);
  std::vector<double> seconds;
  Event start, stop;
  for (int r = 0; r <= 10; ++r) {
    start.record(stream);
    GQL_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
    stop.record(stream);
    stop.synchronize();
    if (r > 0) seconds.push_back(Event::elapsed_ms(start, stop) * 1e-3);
  }
  const TimeSummary t = summarize(seconds);
  const double gb_per_s = 2.0 * static_cast<double>(bytes) / t.min * 1e-9;
  Record record;
  record.text("workload", "ceiling").text("graph", "-").text("variant", "device-to-device copy (2 GiB)").text("status", "ok")
      .times(t).integer("bytes", static_cast<long long>(bytes)).number("gb_per_s", gb_per_s);
  out.write(stamp(record, ctx.run));
  return gb_per_s;
}

// Returns false when two results that both exist differ.
bool compare_graph(const Options& o, JsonLines& out, const Context& ctx, const std::string& spec, Stream& stream,
                   std::map<std::string, Checksum>& device_results) {
  const auto t0 = std::chrono::steady_clock::now();
  const Csr<bool> G = read_graph<bool>(spec);
  const Csr<float> Gf = read_graph<float>(spec);
  std::printf("# %s: n = %lld, edges = %lld (generated in %.2f s)\n", spec.c_str(), static_cast<long long>(G.n_rows()),
              static_cast<long long>(G.nvals()), seconds_since(t0));
  const DeviceCsr<bool> A = to_device(G, stream);
  const DeviceCsr<float> Af = to_device(Gf, stream);
  stream.synchronize();
  const int64_t n = G.n_rows(), edges = G.nvals();
  const SpgemmPlan plan;

  const Outcome paths = time_gql<Paths>(o, A, plan, stream);
  Record r1;
  r1.text("workload", "spgemm").text("graph", spec).text("variant", "gql paths u64").text("semiring", "paths (value-free)")
      ;
  add_classes(r1, paths.stats);
  report(out, ctx, r1, paths, n, edges, sizeof(offset_t), 0, sizeof(unsigned long long));
  if (paths.checksum) device_results[spec] = *paths.checksum;

  const Outcome plus_times = time_gql<PlusTimesF32>(o, Af, plan, stream);
  Record r2;
  r2.text("workload", "spgemm").text("graph", spec).text("variant", "gql plus-times fp32").text("semiring", "plus-times fp32")
      ;
  add_classes(r2, plus_times.stats);
  bool agree = true;
  if (paths.checksum && plus_times.checksum) {
    agree = agree && *paths.checksum == *plus_times.checksum;
    r2.boolean("same_as_gql_paths", *paths.checksum == *plus_times.checksum);
  }
  report(out, ctx, r2, plus_times, n, edges, sizeof(offset_t), sizeof(float), sizeof(float));

  Outcome peer;
  try {
    CusparsePeer cusparse(Gf, stream);
    peer = time_cusparse(o, cusparse, stream);
  } catch (const std::exception& e) {
    peer.error = e.what();
  }
  peer.stats.products = paths.stats.products;  // the same multiplication (cuSPARSE does not report it)
  Record r3;
  r3.text("workload", "spgemm").text("graph", spec).text("variant", "cuSPARSE plus-times fp32").text("semiring", "plus-times fp32");
  if (paths.checksum && peer.checksum) {
    agree = agree && *paths.checksum == *peer.checksum;
    r3.boolean("same_as_gql_paths", *paths.checksum == *peer.checksum);
  }
  if (paths.error.empty() && peer.error.empty() && !paths.seconds.empty() && !peer.seconds.empty())
    r3.number("gql_paths_speedup", summarize(peer.seconds).median / summarize(paths.seconds).median);
  report(out, ctx, r3, peer, n, edges, sizeof(int), sizeof(float), sizeof(float));
  std::printf("# %s: results %s\n", spec.c_str(), agree ? "agree" : "DIFFER");
  return agree;
}

// One point of the schedule sweep: a plan and what it varies.
struct SweepPoint {
  std::string parameter;
  int64_t value;
  SpgemmPlan plan;
};

std::vector<SweepPoint> sweep_points(const Options& o) {
  std::vector<SweepPoint> points;
  for (const int64_t t : o.thresholds) {  // the shared-memory classes reach up to the large class
    SpgemmPlan plan;
    plan.large_row_products = t;
    plan.small_row_products = std::min<int64_t>(plan.small_row_products, t - 1);
    plan.tiny_row_products = std::min<int64_t>(plan.tiny_row_products, plan.small_row_products);
    plan.medium_row_products = std::clamp<int64_t>(t - 1, plan.small_row_products, SpgemmShapes::medium_slots);
    points.push_back({"large_row_products", t, plan});
  }
  for (const int64_t c : o.bitmap_columns) {
    SpgemmPlan plan;
    plan.medium_bitmap_columns = c;
    points.push_back({"medium_bitmap_columns", c, plan});
  }
  for (const int64_t m : o.medium) {
    SpgemmPlan plan;
    plan.medium_row_products = m;
    plan.small_row_products = std::min<int64_t>(plan.small_row_products, m);
    plan.tiny_row_products = std::min<int64_t>(plan.tiny_row_products, m);
    points.push_back({"medium_row_products", m, plan});
  }
  for (const int64_t bytes : o.chunk_bytes) {
    SpgemmPlan plan;
    plan.large_chunk_bytes = static_cast<int>(bytes);
    points.push_back({"large_chunk_bytes", bytes, plan});
  }
  for (const int64_t chunk : o.sort_chunks) {  // the default plan spills no row: spill the 8193..16383
    SpgemmPlan plan;
    plan.large_row_products = 16384;
    plan.medium_row_products = SpgemmShapes::medium_slots;
    plan.sorted_chunk_items = static_cast<int>(chunk);
    points.push_back({"sorted_chunk_items", chunk, plan});
  }
  return points;
}

void sweep_schedule(const Options& o, JsonLines& out, const Context& ctx, const std::string& spec, Stream& stream) {
  const Csr<bool> G = read_graph<bool>(spec);
  const DeviceCsr<bool> A = to_device(G, stream);
  stream.synchronize();
  Options quick = o;
  quick.repeats = std::min(o.repeats, 3);
  quick.variant_seconds = o.variant_seconds / 2;
  for (const SweepPoint& point : sweep_points(o)) {
    const Outcome r = time_gql<Paths>(quick, A, point.plan, stream);
    Record record;
    record.text("workload", "spgemm_schedule_sweep").text("graph", spec)
        .text("variant", "gql paths u64, " + point.parameter + " = " + std::to_string(point.value))
        .text("parameter", point.parameter).integer("value", point.value)
        .integer("large_row_products", point.plan.large_row_products)
        .integer("medium_row_products", point.plan.medium_row_products)
        .integer("large_chunk_bytes", point.plan.large_chunk_bytes);
    add_classes(record, r.stats);
    report(out, ctx, record, r, G.n_rows(), G.nvals(), sizeof(offset_t), 0, sizeof(unsigned long long));
  }
}

// The checksum of a result in host memory, over all host threads.
Checksum host_checksum(const Csr<unsigned long long>& result) {
  const offset_t* offsets = result.row_offsets().data();
  const index_t* columns = result.col_indices().data();
  const unsigned long long* values = result.values().data();
  const int64_t n = result.n_rows();
  Checksum total;
#pragma omp parallel
  {
    Checksum local;
#pragma omp for schedule(dynamic, 4096) nowait
    for (int64_t r = 0; r < n; ++r)
      for (offset_t p = offsets[r]; p < offsets[r + 1]; ++p) {
        const unsigned long long x = values[p];
        ++local.nvals;
        local.value_sum += x;
        local.hash += checksum_mix(static_cast<unsigned long long>(r), static_cast<unsigned long long>(columns[p]), x);
      }
#pragma omp critical
    {
      total.nvals += local.nvals;
      total.value_sum += local.value_sum;
      total.hash += local.hash;
    }
  }
  return total;
}

// One cold run (a kron:20 product takes long enough that a warm-up would double the benchmark):
// C = A * A with the result streamed to host memory, all phases until the last block is in host
// memory. Returns false when its checksum differs from the device result's.
bool stream_to_host(JsonLines& out, const Context& ctx, const std::string& spec, Stream& stream,
                    const std::map<std::string, Checksum>& device_results) {
  Record record;
  record.text("workload", "spgemm").text("graph", spec).text("variant", "gql paths u64, result streamed to host")
      .text("semiring", "paths (value-free)");
  Outcome r;
  int64_t n = 0, edges = 0;
  bool agree = true;
  try {
    const Csr<bool> G = read_graph<bool>(spec);
    n = G.n_rows();
    edges = G.nvals();
    const DeviceCsr<bool> A = to_device(G, stream);
    stream.synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    const Csr<unsigned long long> C = spgemm_to_host<Paths>(A, A, {}, &r.stats);
    r.seconds.push_back(seconds_since(t0));
    r.checksum = host_checksum(C);
    record.integer("batches", static_cast<long long>(r.stats.batches))
        .integer("host_result_bytes", C.nvals() * static_cast<long long>(sizeof(index_t) + sizeof(unsigned long long)));
    const auto device = device_results.find(spec);
    if (device != device_results.end()) {
      agree = device->second == *r.checksum;
      record.boolean("same_as_device_result", agree);
    }
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  report(out, ctx, record, r, n, edges, sizeof(offset_t), 0, sizeof(unsigned long long));
  return agree;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    if (device_count() == 0) {
      std::fprintf(stderr, "bench_gpu_spgemm: no CUDA device\n");
      return 1;
    }
    JsonLines out(o.json);
    if (!o.json.empty() && !out.ok()) throw Error(ErrorKind::io, "cannot open " + o.json);
    Context ctx;
    ctx.run = gpu_context();
    Stream stream;
    ctx.copy_gb_per_s = measure_copy_ceiling(out, ctx, stream);
    bool agree = true;
    std::map<std::string, Checksum> device_results;  // gql paths u64 per graph, to check the streamed runs
    for (const auto& spec : o.graphs) agree = compare_graph(o, out, ctx, spec, stream, device_results) && agree;
    for (const auto& spec : o.sweep) sweep_schedule(o, out, ctx, spec, stream);
    for (const auto& spec : o.streamed) agree = stream_to_host(out, ctx, spec, stream, device_results) && agree;
    if (!agree) {
      std::fprintf(stderr, "bench_gpu_spgemm: checksums of the products differ\n");
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_spgemm: %s\n", e.what());
    return 1;
  }
  return 0;
}
