#!/bin/sh
# gqlc_links.sh GQLC: fails when gqlc needs a library of the runtime's (the CUDA runtime, cuBLAS,
# OpenMP, OpenBLAS). The compiler links gql::core only; the runtime library it names for the
# programs it builds is a path it passes to the toolchain, not a library it loads.
set -u
gqlc=${1:?usage: gqlc_links.sh GQLC}
if command -v ldd >/dev/null 2>&1; then
  needed=$(ldd "$gqlc") || { echo "gqlc_links: ldd $gqlc failed"; exit 1; }
else
  needed=$(readelf -d "$gqlc") || { echo "gqlc_links: readelf -d $gqlc failed"; exit 1; }
fi
bad=$(printf '%s\n' "$needed" | grep -E 'libcudart|libcublas|libgomp|libopenblas|libblas|libgql_runtime' || true)
if [ -n "$bad" ]; then
  echo "gqlc_links: $gqlc needs libraries of the runtime:"
  printf '%s\n' "$bad"
  exit 1
fi
echo "gqlc_links: $gqlc needs none of libcudart, libcublas, libgomp, libopenblas"
printf '%s\n' "$needed"
