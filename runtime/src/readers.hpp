// The text and binary readers behind read_graph, read_matrix and read_vector. Each parses bytes already
// in memory; `source` names them in errors. `record_lines` keeps each entry's line for later messages.
#pragma once

#include <string>
#include <string_view>

#include "gql/edge_list.hpp"
#include "gql/graph.hpp"

namespace gql::detail {

// Matrix Market coordinate (banner present) or a headerless body of 1-based `row col [value]` lines.
template <class T>
EdgeList<T> read_matrix_market_entries(std::string_view text, const std::string& source, bool record_lines);

// True when `text` starts with a Matrix Market banner of the array (dense) kind.
bool is_matrix_market_array(std::string_view text);

// Matrix Market array (dense, column-major on disk) into a row-major Matrix.
template <class T>
Matrix<T> read_matrix_market_array(std::string_view text, const std::string& source);

template <class T>
EdgeList<T> read_edge_list_entries(std::string_view text, const std::string& source, bool record_lines);

template <class T>
EdgeList<T> read_dimacs_entries(std::string_view text, const std::string& source, bool record_lines);

template <class T>
EdgeList<T> read_lg_entries(std::string_view text, const std::string& source, bool record_lines);

// The project's binary CSR file; stored values convert to T under the text readers' rules.
template <class T>
Csr<T> read_binary_csr(std::string_view bytes, const std::string& source);

// The same, read from a file straight into the arrays (no intermediate copy).
template <class T>
Csr<T> read_binary_csr_file(const std::string& path);

}  // namespace gql::detail
