#!/usr/bin/env python3
"""Checks that every #include of gql's libraries goes down the layers, never up or sideways.

Layers, from the bottom (docs/architecture.md, "Layers"):
  core      core/include/gql             errors, limits, the semiring contract; includes only the standard library
  runtime   runtime/include, runtime/src above core
  compiler  compiler/                    above core; independent of the runtime
  jit       jit/                         above the compiler (its public headers only) and the runtime

Inside the runtime's headers, the two targets' ops stay apart: gql/cpu/ (OpenMP) and gql/device/
(CUDA) never include each other; what both use lives in gql/common/ (target-neutral), which includes
neither. The distributed ops (gql/dist/) run the OpenMP ops, or the CUDA ops over the ranks' GPUs,
on each rank: above gql/cpu/ and gql/device/, which, like gql/common/, never include them.

Only real #include directives count: a line that starts with #include, outside comments and raw
string literals (the compiler writes #include lines of generated code as strings; those are not its
own includes). Each violation is printed as FILE:LINE and the rule it breaks; an exception is allowed
only through ALLOWED below, with its reason, and an entry that no longer matches is an error too.

usage: check_layers.py [ROOT]   (ROOT: the source tree, default: this script's parent folder)
"""
import os
import re
import sys

# Layer -> the layers it may include.
MAY_INCLUDE = {
    "core": {"core"},
    "runtime": {"core", "runtime"},
    "compiler": {"core", "compiler"},
    "jit": {"core", "runtime", "compiler", "jit"},
}

# Public include roots (what another layer may include, as <gql/...>) and private source roots.
PUBLIC_ROOTS = [("core", "core/include"), ("runtime", "runtime/include"), ("compiler", "compiler/include"),
                ("jit", "jit/include")]
PRIVATE_ROOTS = [("compiler", "compiler"), ("runtime", "runtime/src"), ("jit", "jit")]

# Folders of the runtime's headers that must not include each other (and the neutral one, neither).
RUNTIME_TARGETS = {"gql/cpu/": {"gql/device/", "gql/dist/"}, "gql/device/": {"gql/cpu/", "gql/dist/"},
                   "gql/common/": {"gql/cpu/", "gql/device/", "gql/dist/"}, "gql/dist/": set()}

# (including file, included header) -> why the exception stands. Each is a GPU op that runs the
# OpenMP op itself on the host copies, by design: the one entry of generated CUDA code, and the
# fallbacks of code a host compiler builds alone (the JIT's NVRTC path) or of values that are current
# on the host. What both targets only share (masks, direction, statistics, options) is in gql/common/.
ALLOWED = {
    ("runtime/include/gql/device/ops.hpp", "gql/cpu/ops.hpp"):
        "the entry of generated CUDA code: the ops the plan places on the host run through gql::cpu",
    ("runtime/include/gql/device/values/vector_ops.hpp", "gql/cpu/ops.hpp"):
        "built by a host compiler alone (no nvcc), the vectors' element-wise ops run the OpenMP ops",
    ("runtime/include/gql/device/values/graph_ops.hpp", "gql/cpu/ops.hpp"):
        "built by a host compiler alone, graphs' apply/union/intersect, conversions and scalar assignments run the OpenMP ops",
    ("runtime/include/gql/device/values/graph_ops.hpp", "gql/cpu/elementwise.hpp"):
        "built by a host compiler alone, apply/union/intersect/reduce of graphs run the OpenMP ops",
    ("runtime/include/gql/device/dense/dense_products.hpp", "gql/cpu/dense_products.hpp"):
        "built by a host compiler alone, a dense product runs the OpenMP register-tiled GEMM",
    ("runtime/include/gql/device/dense/dense_products.hpp", "gql/cpu/ops.hpp"):
        "built by a host compiler alone, vxm and mxv with a dense matrix run the OpenMP ops (through their masks)",
    ("runtime/include/gql/device/values/matrix_ops.hpp", "gql/cpu/ops.hpp"):
        "a dense matrix current on the host is copied by the OpenMP op; built by a host compiler alone, the dense "
        "matrices' other ops run the OpenMP ops",
    ("runtime/include/gql/device/values/element_ops.hpp", "gql/cpu/ops.hpp"):
        "a value current on the host is read and stored into by the OpenMP ops (the same checks and errors)",
    ("runtime/include/gql/device/spgemm/product_on_device.hpp", "gql/cpu/assign.hpp"):
        "a product into a host-resident output is merged under the mask by the OpenMP assignment",
    ("runtime/include/gql/device/values/graph_mask.hpp", "gql/cpu/value_mask.hpp"):
        "an op on the host reads a graph's value mask as the OpenMP ops make it (as_host_mask)",
    ("runtime/include/gql/device/values/vector_mask.hpp", "gql/cpu/value_mask.hpp"):
        "an op on the host reads a vector's value mask as the OpenMP ops make it (as_host_mask)",
}

SOURCE_SUFFIXES = (".hpp", ".cpp", ".cu", ".cuh", ".h", ".inc")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^">]+)[">]')


def layer_of(rel):
    for layer, root in (("core", "core/"), ("runtime", "runtime/"), ("compiler", "compiler/"), ("jit", "jit/")):
        if rel.startswith(root):
            return layer
    return None


def blank_comments_and_raw_strings(text):
    """The text with comments, string and character literals blanked (newlines kept), except that an
    #include's own "name" stays: a raw string R"d(...)d" or a /* */ comment may span lines."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            i += 1
            line_start = True
            continue
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a directive: keep the line as it is (its "name" is no string)
            end = text.find("\n", i)
            end = n if end < 0 else end
            line = text[i:end]
            cut = line.find("//")
            out.append(line if cut < 0 else line[:cut])
            out.append(" " * (0 if cut < 0 else len(line) - cut))
            i = end
            continue
        line_start = False
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^ ()\\\t\n]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(" " * (j - i))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out)


def resolve(root, including_rel, name):
    """(layer, path relative to root, public) of the file an include names, or None (the standard
    library, a system or toolkit header)."""
    here = os.path.dirname(including_rel)
    candidate = os.path.normpath(os.path.join(here, name))
    if os.path.isfile(os.path.join(root, candidate)):
        rel = candidate
        public = any(rel.startswith(r + "/") for _, r in PUBLIC_ROOTS)
        return layer_of(rel), rel, public
    for layer, r in PUBLIC_ROOTS:
        if os.path.isfile(os.path.join(root, r, name)):
            return layer, os.path.join(r, name), True
    for layer, r in PRIVATE_ROOTS:
        if os.path.isfile(os.path.join(root, r, name)):
            return layer, os.path.join(r, name), False
    return None


def runtime_folder(rel):
    prefix = "runtime/include/"
    if not rel.startswith(prefix):
        return None
    inner = rel[len(prefix):]
    for folder in RUNTIME_TARGETS:
        if inner.startswith(folder):
            return folder
    return None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems = []
    used = set()
    checked = 0
    for top in ("core", "runtime", "compiler", "jit"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith(SOURCE_SUFFIXES):
                    continue
                rel = os.path.relpath(os.path.join(folder, f), root)
                layer = layer_of(rel)
                with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as stream:
                    text = blank_comments_and_raw_strings(stream.read())
                checked += 1
                for number, line in enumerate(text.split("\n"), 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    name = m.group(2)
                    found = resolve(root, rel, name)
                    if found is None:
                        continue
                    to_layer, to_rel, public = found
                    why = None
                    if to_layer not in MAY_INCLUDE[layer]:
                        why = f"{layer} must not include {to_layer} ({to_rel})"
                    elif to_layer != layer and not public:
                        why = f"{layer} includes a private source of {to_layer} ({to_rel}); use its public headers"
                    else:
                        mine, theirs = runtime_folder(rel), runtime_folder(to_rel)
                        if mine and theirs and theirs in RUNTIME_TARGETS[mine]:
                            why = f"gql/{mine[4:]} must not include gql/{theirs[4:]} ({name})"
                    if why is None:
                        continue
                    if (rel, name) in ALLOWED:
                        used.add((rel, name))
                        continue
                    problems.append(f"{rel}:{number}: {why}")
    for key in sorted(set(ALLOWED) - used):
        problems.append(f"scripts/check_layers.py: the exception {key[0]} -> {key[1]} no longer applies; remove it")
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} problem(s) in {checked} files")
        return 1
    print(f"check_layers: {checked} files follow the layers ({len(ALLOWED)} allowed exception(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
