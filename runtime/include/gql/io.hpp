// Reading and writing graphs, dense matrices and vectors. Formats, policies and spec strings are
// described in docs/runtime.md. Every failure is gql::Error(io) naming the file and the line (text)
// or byte offset (binary) and the reason; no reader ever returns a silently changed graph.
//
// Element types: bool (pattern: structure only), the signed and unsigned integers of 8 to 64 bits,
// float and double. Integer values must be exact and fit the type; floats round to nearest.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "gql/graph.hpp"
#include "gql/read_options.hpp"

namespace gql {

// A graph from a file (format from the name unless options.format says; gzip detected by its magic
// bytes) or from a generator spec: "kron:SCALE[:EDGEFACTOR[:SEED]]", "urand:SCALE[:EDGEFACTOR[:SEED]]",
// "grid:ROWSxCOLS". The policies in `options` apply to both.
template <class T>
Csr<T> read_graph(const std::string& path_or_spec, const ReadOptions& options = {});

// A graph from bytes already in memory; `source` names them in errors. `format` must not be automatic
// unless `source` has a file name's extension.
template <class T>
Csr<T> parse_graph(std::string_view contents, Format format, const std::string& source,
                   const ReadOptions& options = {});

// A dense matrix: a Matrix Market array, or any graph file or spec densified, its absent entries
// `fill` (required for those: Error(usage) without it).
template <class T>
Matrix<T> read_matrix(const std::string& path_or_spec, const ReadOptions& options = {},
                      const std::optional<T>& fill = std::nullopt);

// A vector from a Matrix Market file of one column (or one row): an array gives a dense vector,
// coordinate a sparse one (duplicates combine by options.duplicates).
template <class T>
Vector<T> read_vector(const std::string& path, const ReadOptions& options = {});

// Matrix Market coordinate, general, sorted by row then column, 1-based; pattern for bool, integer for
// integer types, real for floats (shortest round-trip digits). A ".gz" path is compressed.
template <class T>
void write_matrix_market(const std::string& path, const Csr<T>& graph);

// Matrix Market array, general, column-major as the format says.
template <class T>
void write_matrix_market(const std::string& path, const Matrix<T>& matrix);

// An n x 1 Matrix Market file: array for a dense vector, coordinate for a sparse one.
template <class T>
void write_matrix_market(const std::string& path, const Vector<T>& vector);

// The same texts, as strings (what the writers put in the file).
template <class T>
std::string format_matrix_market(const Csr<T>& graph);
template <class T>
std::string format_matrix_market(const Matrix<T>& matrix);
template <class T>
std::string format_matrix_market(const Vector<T>& vector);

// A square graph as a SNAP edge list (`# Nodes: N Edges: M`, then `src dst [weight]`, 0-based) and
// as DIMACS arcs (`p sp N M`, then `a u v w`, 1-based; a pattern's weights are 1).
template <class T>
std::string format_edge_list(const Csr<T>& graph);
template <class T>
std::string format_dimacs(const Csr<T>& graph);

// A graph in the format `format` names, or (automatic) the file name's extension names
// (output_format); every one reads back to the same graph. Error(io) for a format without a writer.
template <class T>
void write_graph(const std::string& path, const Csr<T>& graph, Format format = Format::automatic);

// The format a file is written in, from its name: .mtx .mm -> matrix_market; .txt .el .csv .tsv .dat
// .edges -> edge_list; .gr -> dimacs; .gqlb -> binary; text formats optionally .gz. Error(io) for
// any other name (.lg and .jlg are read only; the binary format is not compressed).
Format output_format(const std::string& path);

// The project's binary CSR file (.gqlb): reloads at disk speed, checksummed.
template <class T>
void write_binary(const std::string& path, const Csr<T>& graph);

// The format a file name implies (after removing ".gz"): .mtx .mm -> matrix_market; .txt .el .csv
// .tsv .dat .edges -> edge_list; .gr -> dimacs; .jlg .lg -> lg; .gqlb -> binary. Error(io) otherwise.
Format format_from_name(const std::string& path);

// True when `text` names a generator ("kron:", "urand:" or "grid:").
bool is_generator_spec(std::string_view text);

}  // namespace gql
