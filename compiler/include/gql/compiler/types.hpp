// The types of the .gql language: scalars, containers of scalars (graph, matrix, vector) and tuples.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gql::compiler {

// Element types. `vertex` is a 0-based vertex id (an index_t, 32-bit, in the runtime).
enum class Scalar : uint8_t { bool_, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, vertex };

// graph: sparse (CSR), matrix: dense (row-major), vector: sparse or dense storage (see ir::Construct).
enum class TypeKind : uint8_t { invalid, void_, scalar, graph, matrix, vector, tuple };

struct Type {
  TypeKind kind = TypeKind::invalid;
  Scalar element = Scalar::bool_;  // the scalar itself, or a container's element type
  std::vector<Type> members;       // tuple members

  static Type invalid() { return {}; }
  static Type scalar(Scalar s) { return {TypeKind::scalar, s, {}}; }
  static Type graph(Scalar s) { return {TypeKind::graph, s, {}}; }
  static Type matrix(Scalar s) { return {TypeKind::matrix, s, {}}; }
  static Type vector(Scalar s) { return {TypeKind::vector, s, {}}; }
  static Type tuple(std::vector<Type> members) { return {TypeKind::tuple, Scalar::bool_, std::move(members)}; }

  bool is_valid() const noexcept { return kind != TypeKind::invalid; }
  bool is_scalar() const noexcept { return kind == TypeKind::scalar; }
  bool is_container() const noexcept {
    return kind == TypeKind::graph || kind == TypeKind::matrix || kind == TypeKind::vector;
  }
  bool is_two_dimensional() const noexcept { return kind == TypeKind::graph || kind == TypeKind::matrix; }

  friend bool operator==(const Type&, const Type&) = default;
};

bool is_integer(Scalar s) noexcept;   // i*, u*, vertex
bool is_signed(Scalar s) noexcept;    // i*, f*
bool is_float(Scalar s) noexcept;     // f32, f64
bool is_numeric(Scalar s) noexcept;   // everything but bool
int bit_width(Scalar s) noexcept;     // bool: 8 (stored as a byte)
int byte_size(Scalar s) noexcept;

std::string_view to_string(Scalar s) noexcept;      // "u64"
std::string_view cpp_type(Scalar s) noexcept;       // "uint64_t", "bool", "int32_t" for vertex
std::optional<Scalar> scalar_from_name(std::string_view name) noexcept;
std::string to_string(const Type& t);               // "graph<u64>", "(matrix<f64>, vector<i32>)"

}  // namespace gql::compiler
