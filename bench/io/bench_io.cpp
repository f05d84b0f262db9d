// File loading benchmark. Writes a Kronecker graph as a SNAP edge list and as Matrix Market (each
// >= 500 MB by default) plus a .gqlb into a scratch folder, then times: reading the bytes, the parallel
// parse alone, parse + CSR build (read_graph), and the binary reload against a plain read of its bytes.
//
//   bench_io [--scale 21] [--edge-factor 16] [--dir /tmp] [--keep]
#include <omp.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "file_bytes.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "readers.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class F>
double best_of(int runs, F f) {
  double best = 1e300;
  for (int k = 0; k < runs; ++k) {
    const auto t = std::chrono::steady_clock::now();
    f();
    best = std::min(best, seconds_since(t));
  }
  return best;
}

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
  int scale = 21;
  int64_t edge_factor = 16;
  std::string dir = "/tmp";
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--scale" && i + 1 < argc) scale = std::stoi(argv[++i]);
    else if (a == "--edge-factor" && i + 1 < argc) edge_factor = std::stoll(argv[++i]);
    else if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--keep") keep = true;
    else {
      std::fprintf(stderr, "usage: bench_io [--scale N] [--edge-factor N] [--dir DIR] [--keep]\n");
      return 2;
    }
  }
  try {
    const std::string el = dir + "/gql_bench_io.el", mtx = dir + "/gql_bench_io.mtx", bin = dir + "/gql_bench_io.gqlb";
    std::printf("bench_io: kron scale %d edge factor %lld, %d threads\n", scale, static_cast<long long>(edge_factor),
                omp_get_max_threads());
    {
      auto edges = gql::kronecker_edges<int>({.scale = scale, .edge_factor = edge_factor, .weighted = true});
      write_edge_list(el, edges);
      auto g = gql::build_csr<int>(std::move(edges), {}, "kron");
      gql::write_matrix_market(mtx, g);
      gql::write_binary(bin, g);
    }
    std::printf("%-34s %10s %10s %10s\n", "step", "MB", "seconds", "MB/s");
    const auto row = [](const char* step, double size, double s) {
      std::printf("%-34s %10.1f %10.3f %10.1f\n", step, size, s, size / s);
    };
    for (const auto& [name, path, format] : {std::tuple{"edge list", el, gql::Format::edge_list},
                                            std::tuple{"matrix market", mtx, gql::Format::matrix_market}}) {
      const double size = mb(path);
      std::string bytes;
      const double t_read = best_of(3, [&] { bytes = gql::detail::read_file(path); });
      const double t_parse = best_of(3, [&] {
        if (format == gql::Format::edge_list) gql::detail::read_edge_list_entries<int>(bytes, path, false);
        else gql::detail::read_matrix_market_entries<int>(bytes, path, false);
      });
      int64_t nvals = 0;
      const double t_all = best_of(3, [&] { nvals = gql::read_graph<int>(path).nvals(); });
      std::printf("%s: %s, %lld entries after combining duplicates\n", name, path.c_str(), static_cast<long long>(nvals));
      row("  read bytes (page cache)", size, t_read);
      row("  parse (parallel, from memory)", size, t_parse);
      row("  read_graph (read+parse+CSR)", size, t_all);
    }
    const double size = mb(bin);
    const double t_raw = best_of(3, [&] {
      // A fresh buffer each time, as the reader gets: page faults are part of loading.
      std::string raw(static_cast<size_t>(std::filesystem::file_size(bin)), '\0');
      std::FILE* f = std::fopen(bin.c_str(), "rb");
      if (!f || std::fread(raw.data(), 1, raw.size(), f) != raw.size()) throw std::runtime_error("read failed");
      std::fclose(f);
    });
    const double t_bin = best_of(3, [&] { gql::read_graph<int>(bin); });
    std::printf("binary: %s\n", bin.c_str());
    row("  plain fread of the file", size, t_raw);
    row("  read_graph (.gqlb, checked)", size, t_bin);
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
