#!/usr/bin/env python3
"""Checks that every source file of gql's libraries is named in its CMakeLists.txt.

The libraries list their sources (runtime/, compiler/, jit/) instead of globbing them, so a build sees
a new file only when it is added to the list; a file left out would be silently not built (a file of
registrations, or one whose functions nothing calls yet). Each file missing from its list, and each
listed file that does not exist, is printed with the list it belongs to.

usage: check_source_lists.py [ROOT]   (ROOT: the source tree, default: this script's parent folder)
"""
import os
import re
import sys

# Library folder -> the folders (relative to it) whose .cpp and .cu files it builds.
LIBRARIES = {
    "runtime": ["src", "src/cuda", "src/dist"],
    "compiler": ["parse", "sema", "ir", "plan", "codegen", "codegen/openmp", "codegen/cuda", "driver", "tools/gqlc"],
    "jit": ["."],
}


def listed_sources(cmake_text):
    """The source files a CMakeLists.txt names: its comments (and those of C++ text it writes) dropped,
    ${CMAKE_CURRENT_SOURCE_DIR}/ cut, files of the build tree (generated) left out."""
    text = "\n".join(line.split("#", 1)[0].split("//", 1)[0] for line in cmake_text.splitlines())
    text = text.replace("${CMAKE_CURRENT_SOURCE_DIR}/", "")
    text = re.sub(r"\$\{[A-Z_]*BINARY_DIR\}/\S+", "", text)
    return set(re.findall(r"[\w./-]+\.(?:cpp|cu)\b", text))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = []
    for library, folders in LIBRARIES.items():
        cmake = os.path.join(root, library, "CMakeLists.txt")
        with open(cmake, encoding="utf-8") as f:
            listed = listed_sources(f.read())
        present = set()
        for folder in folders:
            for name in sorted(os.listdir(os.path.join(root, library, folder))):
                if name.endswith((".cpp", ".cu")):
                    present.add(os.path.normpath(os.path.join(folder, name)))
        for source in sorted(present - listed):
            problems.append(f"{library}/{source}: not in {library}/CMakeLists.txt's source list")
        for source in sorted(listed - present):
            problems.append(f"{library}/CMakeLists.txt lists {source}, which does not exist")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
