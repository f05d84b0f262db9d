// Everything a host program needs: containers, file formats, generators, errors and the JIT.
#pragma once

#include "gql/error.hpp"
#include "gql/generate.hpp"
#include "gql/graph.hpp"
#include "gql/io.hpp"
#include "gql/jit.hpp"
#include "gql/kernel_context.hpp"
