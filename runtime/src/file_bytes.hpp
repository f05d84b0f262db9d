// Whole-file input and output for the readers and writers; gzip is transparent both ways.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "gql/array.hpp"

namespace gql::detail {

// A file's bytes: uninitialized until read, in huge pages when large (gql/array.hpp).
using FileBytes = Array<char>;

inline std::string_view text_of(const FileBytes& bytes) noexcept { return {bytes.data(), bytes.size()}; }

// The bytes of a file, decompressed when they start with the gzip magic bytes (whatever the name).
// A large file is read by all threads, each its own slices (a parser reads gigabytes faster than
// one thread copies them out of the page cache).
FileBytes read_file(const std::string& path);

// True when `bytes` start with the gzip magic bytes 1f 8b.
bool is_gzip(std::string_view bytes) noexcept;

// Inflates every gzip member of `bytes`; `name` is used in error messages.
FileBytes gunzip(std::string_view bytes, const std::string& name);

// Writes `bytes` to `path`, gzip-compressed when the path ends in ".gz".
void write_file(const std::string& path, std::string_view bytes);

// The file name without a trailing ".gz", lower-cased extension included (for format detection).
std::string extension_without_gz(const std::string& path);

}  // namespace gql::detail
