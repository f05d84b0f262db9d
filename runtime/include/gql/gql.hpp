// Everything a host program of the runtime needs: containers, file formats, generators and errors.
// The JIT is a layer above the runtime: include gql/jit.hpp and link gql::gql for it.
#pragma once

#include "gql/error.hpp"
#include "gql/generate.hpp"
#include "gql/graph.hpp"
#include "gql/io.hpp"
#include "gql/kernel_context.hpp"
