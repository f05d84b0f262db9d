#!/usr/bin/env bash
# Sets gql up on a fresh Debian 12 machine and runs every test: GoogleTest (under CTest) for the
# libraries and lit + FileCheck for the compiler. Ends with one summary line: "gql: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "gql: 0 passed, 1 failed (build)"; exit 1; }

log=build/test-logs
mkdir -p "$log"
(cd build && ctest --output-on-failure -j"$(nproc)" --timeout 900) 2>&1 | tee "$log/ctest.txt"
cmake --build build --target check-lit 2>&1 | tee "$log/lit.txt"

ctest_total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log/ctest.txt" | tail -1)
ctest_failed=$(sed -n 's/.* \([0-9]*\) tests failed out of.*/\1/p' "$log/ctest.txt" | tail -1)
lit_passed=$(grep -hoE '^ *Passed *: *[0-9]+' "$log/lit.txt" | grep -oE '[0-9]+' | tail -1)
lit_expected_fail=$(grep -hoE '^ *Expectedly Failed *: *[0-9]+' "$log/lit.txt" | grep -oE '[0-9]+' | tail -1)
lit_unsupported=$(grep -hoE '^ *Unsupported *: *[0-9]+' "$log/lit.txt" | grep -oE '[0-9]+' | tail -1)
lit_failed=$(grep -hoE '^ *(Failed|Unexpectedly Passed|Unresolved|Timed Out) *: *[0-9]+' "$log/lit.txt" \
             | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}')
ctest_total=${ctest_total:-0}; ctest_failed=${ctest_failed:-1}
passed=$(( ctest_total - ctest_failed + ${lit_passed:-0} + ${lit_expected_fail:-0} ))
failed=$(( ctest_failed + ${lit_failed:-0} ))
[ -n "${lit_passed}" ] || failed=$((failed + 1))   # lit did not run at all
echo "gql: ${passed} passed, ${failed} failed, ${lit_unsupported:-0} skipped"
[ "$failed" -eq 0 ]
