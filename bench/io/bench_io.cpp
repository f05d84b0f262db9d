// File loading benchmark. Writes a Kronecker graph as a SNAP edge list and as Matrix Market (each
// >= 500 MB by default) plus a .gqlb into a scratch folder, then times: reading the bytes, the parallel
// parse alone, parse + CSR build (read_graph), and the binary reload against a plain read of its bytes.
//
//   bench_io [--scale 21] [--edge-factor 16] [--dir /tmp] [--keep 0] [--warmup 1] [--repeats 3] [--json FILE]
// One record per step (workload "io"): read_graph is gql's, reading the bytes alone is the baseline.
#include <omp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "bench_args.hpp"
#include "file_bytes.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "host_context.hpp"
#include "measure.hpp"
#include "readers.hpp"

namespace {

void write_edge_list(const std::string& path, const gql::EdgeList<int>& e) {
  const int64_t m = static_cast<int64_t>(e.rows.size());
  const int blocks = 64;
  std::vector<std::string> parts(blocks);
#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < blocks; ++b) {
    char buf[32];
    for (int64_t k = m * b / blocks; k < m * (b + 1) / blocks; ++k) {
      parts[b].append(buf, std::to_chars(buf, buf + 16, e.rows[k]).ptr);
      parts[b] += '\t';
      parts[b].append(buf, std::to_chars(buf, buf + 16, e.cols[k]).ptr);
      parts[b] += '\n';
    }
  }
  std::string all = "# Kronecker graph for bench_io\n";
  for (auto& p : parts) all += p;
  gql::detail::write_file(path, all);
}

double mb(const std::string& path) { return static_cast<double>(std::filesystem::file_size(path)) / 1e6; }

}  // namespace

int main(int argc, char** argv) {
  using namespace gql::bench;
  try {
    Args args(argc, argv, "usage: bench_io [--scale N] [--edge-factor N] [--dir DIR] [--keep 0|1] [--warmup 1] [--repeats 3] [--json FILE]");
    const int scale = static_cast<int>(args.integer("scale", 21));
    const int64_t edge_factor = args.integer("edge-factor", 16);
    const std::string dir = args.text("dir", "/tmp");
    const bool keep = args.integer("keep", 0) != 0;
    const Repeat repeat{static_cast<int>(args.integer("warmup", 1)), static_cast<int>(args.integer("repeats", 3))};
    JsonLines out(args.text("json", ""));
    args.check_all_used();
    const RunContext context = host_context();
    const std::string graph = "kron:" + std::to_string(scale) + ":" + std::to_string(edge_factor);
    const std::string el = dir + "/gql_bench_io.el", mtx = dir + "/gql_bench_io.mtx", bin = dir + "/gql_bench_io.gqlb";
    std::fprintf(stderr, "bench_io: kron scale %d edge factor %lld, %d threads\n", scale, static_cast<long long>(edge_factor),
                omp_get_max_threads());
    {
      auto edges = gql::kronecker_edges<int>({.scale = scale, .edge_factor = edge_factor, .weighted = true});
      write_edge_list(el, edges);
      auto g = gql::build_csr<int>(std::move(edges), {}, "kron");
      gql::write_matrix_market(mtx, g);
      gql::write_binary(bin, g);
    }
    std::fprintf(stderr, "%-34s %10s %10s %10s\n", "step", "MB", "seconds", "MB/s");
    const auto row = [&](const char* format, const char* step, const char* role, double size, const Measurement& m,
                         int64_t nvals) {
      Record r;
      r.text("workload", "io").text("case", format).text("graph", graph).integer("nvals", nvals).text("variant", step)
          .text("role", role);
      measured(r, m);
      r.number("rate", size * 1e6 / m.time.median).text("rate_unit", "B/s").number("file_mb", size);
      out.write(stamp_host(r, context));
      std::fprintf(stderr, "%-34s %10.1f %10.3f %10.1f\n", step, size, m.time.median, size / m.time.median);
    };
    for (const auto& [name, path, format] : {std::tuple{"edge list", el, gql::Format::edge_list},
                                            std::tuple{"matrix market", mtx, gql::Format::matrix_market}}) {
      const double size = mb(path);
      gql::detail::FileBytes bytes;
      const Measurement t_read = measure(repeat, [&] { bytes = gql::detail::read_file(path); });
      const std::string_view text = gql::detail::text_of(bytes);
      const Measurement t_parse = measure(repeat, [&] {
        if (format == gql::Format::edge_list) gql::detail::read_edge_list_entries<int>(text, path, false);
        else gql::detail::read_matrix_market_entries<int>(text, path, false);
      });
      int64_t nvals = 0;
      const Measurement t_all = measure(repeat, [&] { nvals = gql::read_graph<int>(path).nvals(); });
      std::fprintf(stderr, "%s: %s, %lld entries after combining duplicates\n", name, path.c_str(), static_cast<long long>(nvals));
      row(name, "read_graph (read+parse+CSR)", "gql", size, t_all, nvals);
      row(name, "parse (parallel, from memory)", "gql-variant", size, t_parse, nvals);
      row(name, "read bytes (page cache)", "peer", size, t_read, nvals);
    }
    const double size = mb(bin);
    const Measurement t_raw = measure(repeat, [&] {
      // A fresh buffer each time, as the reader gets: page faults are part of loading.
      std::string raw(static_cast<size_t>(std::filesystem::file_size(bin)), '\0');
      std::FILE* f = std::fopen(bin.c_str(), "rb");
      if (!f || std::fread(raw.data(), 1, raw.size(), f) != raw.size()) throw std::runtime_error("read failed");
      std::fclose(f);
    });
    int64_t bin_nvals = 0;
    const Measurement t_bin = measure(repeat, [&] { bin_nvals = gql::read_graph<int>(bin).nvals(); });
    std::fprintf(stderr, "binary: %s\n", bin.c_str());
    row("gqlb", "read_graph (.gqlb, checked)", "gql", size, t_bin, bin_nvals);
    row("gqlb", "plain fread of the file", "peer", size, t_raw, bin_nvals);
    if (!keep) {
      std::filesystem::remove(el);
      std::filesystem::remove(mtx);
      std::filesystem::remove(bin);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_io: %s\n", e.what());
    return 1;
  }
  return 0;
}
