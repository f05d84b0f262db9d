// w<mask> = v * G and w<mask> = G * v over a semiring S, by push or pull.
//
//   push  every frontier entry v(k) scatters con(v(k), G(k, j)) over row k of G into a per-thread
//         dense accumulator; the threads' accumulators are then merged column block by block.
//   pull  every open column j gathers over row j of the transpose (the in-edges of j) from the
//         frontier, stopping early once the entry is settled (any / terminal): gql/cpu/vxm_pull.hpp.
//
// The direction comes from a DirectionChooser (push, pull, or Beamer's alpha/beta rule); pull
// needs the transpose, without it the product pushes. The result holds entries only where the
// mask allows; composing with an existing output (replace or merge) is vector_masked_assign's job.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <omp.h>

#include "gql/cpu/accumulator_dense.hpp"
#include "gql/cpu/direction.hpp"
#include "gql/cpu/elementwise.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/cpu/sparse_parts.hpp"
#include "gql/cpu/vxm_pull.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/semiring.hpp"
#include "gql/swapped_operands.hpp"
#include "gql/cpu/parallel.hpp"

namespace gql::cpu {

namespace detail {

// Out-edges of the vector's entries: the edges a push step reads (the traversal's work measure).
template <class TV, class TG>
int64_t frontier_edges(const Vector<TV>& v, const Csr<TG>& G) {
  if (v.is_dense()) return G.nvals();
  const auto idx = v.indices();
  const auto entries = static_cast<int64_t>(idx.size());
  const CsrView gv(G);
  int64_t edges = 0;
#pragma omp parallel for reduction(+ : edges) schedule(static) if (worth_threads(entries))
  for (int64_t p = 0; p < entries; ++p) edges += gv.degree(idx[static_cast<size_t>(p)]);
  return edges;
}

template <class T, class F>
void for_each_entry(const Vector<T>& v, F&& f) {
  const auto values = v.values();
  if (v.is_dense()) {
    for (int64_t k = 0; k < v.size(); ++k) f(static_cast<index_t>(k), values[static_cast<size_t>(k)]);
  } else {
    const auto indices = v.indices();
    for (size_t p = 0; p < indices.size(); ++p) f(indices[p], values[p]);
  }
}

}  // namespace detail

namespace detail {

// Where a pull gathers its columns, and how the gathered part becomes the whole result: here, every
// column in one process. The distributed ops give each rank a range of columns and join the ranges
// over the ranks (gql/dist/vxm.hpp, PullOverRanks); a push always makes the whole result.
struct WholePull {
  template <class TG>
  ColumnRange columns(const Csr<TG>& GT) const noexcept {
    return ColumnRange::all(GT.n_rows());
  }
  template <class V>
  Vector<V> joined(Vector<V>&& part) const {
    return std::move(part);
  }
  template <class T>
  Array<T> joined(Array<T>&& part) const {
    return std::move(part);
  }
  const char* text() const noexcept { return ""; }  // what the --explain line adds
};

// Checks v * G's shapes and picks its direction (pull needs GT, push G's rows), recording it in step.
template <class TV, class TG>
bool choose_pull(const Vector<TV>& v, const Csr<TG>* out_edges, const Csr<TG>* GT, const VectorMask& mask,
                 DirectionChooser& chooser, VectorStep* step, int64_t& edges) {
  const int64_t rows = out_edges ? out_edges->n_rows() : GT->n_cols();
  const int64_t n = out_edges ? out_edges->n_cols() : GT->n_rows();
  if (v.size() != rows)
    throw Error(ErrorKind::usage, "vxm: the vector has " + std::to_string(v.size()) + " entries, the graph " +
                                      std::to_string(rows) + " rows");
  if (out_edges && GT && (GT->n_rows() != n || GT->n_cols() != rows))
    throw Error(ErrorKind::usage, "vxm: the transpose's shape does not match the graph");
  check_mask_size(mask, n, "vxm");
  bool use_pull = !out_edges;
  edges = -1;  // counted here only when the direction rule reads them
  if (GT && out_edges) {
    int64_t open_edges = 0;
    if (chooser.weighs_edges()) {
      edges = frontier_edges(v, *out_edges);
      open_edges = mask.active() ? 0 : GT->nvals();  // without a mask every column is open
      if (mask.active()) {
        const CsrView gt(*GT);
#pragma omp parallel for reduction(+ : open_edges) schedule(static, 4096) if (worth_threads(n))
        for (int64_t j = 0; j < n; ++j)
          if (mask.allows(j)) open_edges += gt.degree(j);
      }
    }
    use_pull = chooser.pull(std::max<int64_t>(edges, 0), open_edges, v.nvals(), n);
  }
  if (step) step->pulled = use_pull;
  return use_pull;
}

// v * G over S by push along G's rows (out-edges).
template <class S, class TV, class TG>
Vector<typename S::value_type> push_product(const Vector<TV>& v, const Csr<TG>& G, const VectorMask& mask,
                                            VectorStep* step) {
  using V = typename S::value_type;
  using a_type = typename S::a_type;
  using b_type = typename S::b_type;
  const int64_t n = G.n_cols();
  const CsrView gv(G);
  // Push: per-thread accumulators over the frontier, then a merge by column blocks.
  const int64_t blocks = (n + detail::column_block - 1) / detail::column_block;
  detail::SparseParts<V> parts(blocks);
  const int n_threads = omp_get_max_threads();
  std::vector<ThreadPart<std::optional<DenseAccumulator<S>>>> accs(static_cast<size_t>(n_threads));
  std::vector<index_t> ks;
  std::vector<storage_t<TV>> kv;
  int64_t push_edges = 0;
  detail::for_each_entry(v, [&](index_t k, const storage_t<TV>& x) {
    if (gv.degree(k) == 0) return;
    push_edges += gv.degree(k);
    ks.push_back(k);
    kv.push_back(x);
  });
  if (step) step->frontier_edges = push_edges;
#pragma omp parallel num_threads(n_threads) if (worth_threads(n + static_cast<int64_t>(ks.size())))
  {
    auto& acc = accs[static_cast<size_t>(omp_get_thread_num())].value;
    acc.emplace(n);
    acc->begin_row();
#pragma omp for schedule(dynamic, 64)
    for (size_t f = 0; f < ks.size(); ++f) {
      const index_t k = ks[f];
      const a_type a = S::reads_values ? convert_element<a_type>(static_cast<TV>(kv[f])) : a_type{};
      for (offset_t p = gv.begin(k); p < gv.end(k); ++p) {
        const index_t j = gv.column(p);
        if (!mask.allows(j)) continue;
        acc->template add<MaskMode::none, false>(j, [&] {
          b_type g{};
          if constexpr (S::reads_values) g = convert_element<b_type>(G.value_at(p));
          return S::con(a, g, 0, k, j);
        });
      }
    }
#pragma omp for schedule(dynamic, 1)
    for (int64_t b = 0; b < blocks; ++b) {
      auto& idx = parts.indices[static_cast<size_t>(b)];
      auto& val = parts.values[static_cast<size_t>(b)];
      for (int64_t j = b * detail::column_block; j < std::min(n, (b + 1) * detail::column_block); ++j) {
        bool found = false;
        V x{};
        for (const auto& part : accs) {
          const auto& other = part.value;
          const auto* e = other ? other->find(static_cast<index_t>(j)) : nullptr;
          if (!e) continue;
          x = found ? S::agg(x, static_cast<V>(*e)) : static_cast<V>(*e);
          found = true;
        }
        if (found) {
          idx.push_back(static_cast<index_t>(j));
          val.push_back(x);
        }
      }
    }
  }
  return parts.concatenate(n);
}

// v * G over S in the direction chosen (choose_pull), with the frontier's edges in step; a pull
// gathers where `where` says.
template <class S, class TV, class TG, class Pull>
Vector<typename S::value_type> directed_product(bool pull, const Vector<TV>& v, const Csr<TG>* out_edges,
                                                const Csr<TG>* GT, const VectorMask& mask, VectorStep* step,
                                                int64_t edges, const Pull& where) {
  if (!pull) return push_product<S>(v, *out_edges, mask, step);
  const PullFrontier<TV> frontier(v, out_edges);
  if (step) step->frontier_edges = edges >= 0 ? edges : frontier.edges();
  return where.joined(pull_product<S>(frontier, *GT, mask, where.columns(*GT)));
}

// v * G over S where G is given by its rows (out-edges, for push) and/or the rows of its
// transpose (in-edges, for pull); at least one of them.
template <class S, class TV, class TG, class Pull = WholePull>
Vector<typename S::value_type> vxm_core(const Vector<TV>& v, const Csr<TG>* out_edges, const Csr<TG>* GT,
                                        const VectorMask& mask, DirectionChooser& chooser, VectorStep* step,
                                        const Pull& where = {}) {
  int64_t edges = -1;
  const bool pull = choose_pull(v, out_edges, GT, mask, chooser, step, edges);
  return directed_product<S>(pull, v, out_edges, GT, mask, step, edges, where);
}

// union(d, v * G over S, fn), or union(v * G, d, fn) when ProductFirst, for a product nothing else
// reads (the compiler fused the two ops: compiler/plan/fuse_elementwise.cpp). A pull step over a
// dense d writes the union's dense result as it gathers, without the product's vector and the pass
// over it; otherwise the product is made and then the union. The values are those of the two ops.
template <class R, bool ProductFirst, class S, class TD, class TV, class TG, class F, class ReadD, class ReadP,
          class Pull = WholePull>
Vector<R> union_with_vxm(const Vector<TD>& d, const Vector<TV>& v, const Csr<TG>& G, const Csr<TG>* GT,
                         DirectionChooser& chooser, VectorStep* step, F fn, ReadD rd, ReadP rp,
                         const Pull& where = {}) {
  using V = typename S::value_type;
  const VectorMask none;
  check_same_size(d.size(), G.n_cols(), "union");
  int64_t edges = -1;
  const bool pull = choose_pull(v, &G, GT, none, chooser, step, edges);
  if (!pull || !d.is_dense()) {
    Vector<V> product = directed_product<S>(pull, v, &G, GT, none, step, edges, where);
    if constexpr (ProductFirst) return ewise_union<R>(product, d, fn, rp, rd);
    else return ewise_union<R>(d, product, fn, rd, rp);
  }
  const PullFrontier<TV> frontier(v, &G);
  if (step) step->frontier_edges = edges >= 0 ? edges : frontier.edges();
  const auto dv = d.values();
  const auto both = [&](size_t j, const V& acc) {
    const storage_t<V> stored = acc;  // as the product's vector would hold it
    if constexpr (ProductFirst) return detail::cast_value<R>(fn(rp(stored), rd(dv[j])));
    else return detail::cast_value<R>(fn(rd(dv[j]), rp(stored)));
  };
  const auto only = [&](size_t j) { return detail::cast_value<R>(rd(dv[j])); };
  return Vector<R>::dense(d.size(), where.joined(pull_into_dense<S, R>(frontier, *GT, where.columns(*GT), both, only)));
}

}  // namespace detail

// v * G over S. GT (the transpose of G, or G itself when G is symmetric) enables pull; may be null.
template <class S, class TV, class TG, class Pull = detail::WholePull>
Vector<typename S::value_type> vxm(const Vector<TV>& v, const Csr<TG>& G, const Csr<TG>* GT, const VectorMask& mask,
                                   DirectionChooser& chooser, VectorStep* step = nullptr, const Pull& where = {}) {
  return detail::vxm_core<S>(v, &G, GT, mask, chooser, step, where);
}

template <class S, class TV, class TG>
Vector<typename S::value_type> vxm(const Vector<TV>& v, const Csr<TG>& G, const Csr<TG>* GT = nullptr,
                                   const VectorMask& mask = {}, const DirectionOptions& options = {}) {
  DirectionChooser chooser(options);
  return vxm<S>(v, G, GT, mask, chooser);
}

// G * v over S: w(i) = agg over k of con(G(i, k), v(k)): pulls over the rows of G; GT (the
// transpose of G) enables push.
template <class S, class TG, class TV, class Pull = detail::WholePull>
Vector<typename S::value_type> mxv(const Csr<TG>& G, const Csr<TG>* GT, const Vector<TV>& v, const VectorMask& mask,
                                   DirectionChooser& chooser, VectorStep* step = nullptr, const Pull& where = {}) {
  return detail::vxm_core<SwappedOperands<S>>(v, GT, &G, mask, chooser, step, where);
}

template <class S, class TG, class TV>
Vector<typename S::value_type> mxv(const Csr<TG>& G, const Vector<TV>& v, const Csr<TG>* GT = nullptr,
                                   const VectorMask& mask = {}, const DirectionOptions& options = {}) {
  DirectionChooser chooser(options);
  return mxv<S>(G, GT, v, mask, chooser);
}

}  // namespace gql::cpu
