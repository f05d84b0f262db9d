#include "gql/compiler/types.hpp"

namespace gql::compiler {

bool is_integer(Scalar s) noexcept { return s != Scalar::bool_ && s != Scalar::f32 && s != Scalar::f64; }
bool is_float(Scalar s) noexcept { return s == Scalar::f32 || s == Scalar::f64; }
bool is_numeric(Scalar s) noexcept { return s != Scalar::bool_; }
bool is_signed(Scalar s) noexcept {
  switch (s) {
    case Scalar::i8: case Scalar::i16: case Scalar::i32: case Scalar::i64:
    case Scalar::f32: case Scalar::f64: case Scalar::vertex: return true;
    default: return false;
  }
}

int bit_width(Scalar s) noexcept {
  switch (s) {
    case Scalar::bool_: case Scalar::i8: case Scalar::u8: return 8;
    case Scalar::i16: case Scalar::u16: return 16;
    case Scalar::i32: case Scalar::u32: case Scalar::f32: case Scalar::vertex: return 32;
    default: return 64;
  }
}
int byte_size(Scalar s) noexcept { return bit_width(s) / 8; }

std::string_view to_string(Scalar s) noexcept {
  switch (s) {
    case Scalar::bool_: return "bool";
    case Scalar::i8: return "i8";
    case Scalar::i16: return "i16";
    case Scalar::i32: return "i32";
    case Scalar::i64: return "i64";
    case Scalar::u8: return "u8";
    case Scalar::u16: return "u16";
    case Scalar::u32: return "u32";
    case Scalar::u64: return "u64";
    case Scalar::f32: return "f32";
    case Scalar::f64: return "f64";
    case Scalar::vertex: return "vertex";
  }
  return "bool";
}

std::string_view cpp_type(Scalar s) noexcept {
  switch (s) {
    case Scalar::bool_: return "bool";
    case Scalar::i8: return "int8_t";
    case Scalar::i16: return "int16_t";
    case Scalar::i32: return "int32_t";
    case Scalar::i64: return "int64_t";
    case Scalar::u8: return "uint8_t";
    case Scalar::u16: return "uint16_t";
    case Scalar::u32: return "uint32_t";
    case Scalar::u64: return "uint64_t";
    case Scalar::f32: return "float";
    case Scalar::f64: return "double";
    case Scalar::vertex: return "int32_t";
  }
  return "bool";
}

std::optional<Scalar> scalar_from_name(std::string_view name) noexcept {
  static constexpr Scalar all[] = {Scalar::bool_, Scalar::i8,  Scalar::i16, Scalar::i32,
                                   Scalar::i64,   Scalar::u8,  Scalar::u16, Scalar::u32,
                                   Scalar::u64,   Scalar::f32, Scalar::f64, Scalar::vertex};
  for (Scalar s : all) {
    if (to_string(s) == name) return s;
  }
  return std::nullopt;
}

std::string to_string(const Type& t) {
  switch (t.kind) {
    case TypeKind::invalid: return "<invalid>";
    case TypeKind::void_: return "void";
    case TypeKind::scalar: return std::string(to_string(t.element));
    case TypeKind::graph: return "graph<" + std::string(to_string(t.element)) + ">";
    case TypeKind::matrix: return "matrix<" + std::string(to_string(t.element)) + ">";
    case TypeKind::vector: return "vector<" + std::string(to_string(t.element)) + ">";
    case TypeKind::tuple: {
      std::string s = "(";
      for (size_t i = 0; i < t.members.size(); ++i) s += (i ? ", " : "") + to_string(t.members[i]);
      return s + ")";
    }
  }
  return "<invalid>";
}

}  // namespace gql::compiler
