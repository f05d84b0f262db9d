// The benchmarks' JSON-lines record now lives in bench/common (shared by every bench folder).
#pragma once

#include "../common/bench_record.hpp"
