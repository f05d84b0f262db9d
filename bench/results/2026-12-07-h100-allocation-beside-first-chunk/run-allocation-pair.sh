#!/usr/bin/env bash
# Build everything the GPU tests need; one BFS search at kron:20 and kron:21: the CUDA program with the
# graph's allocation beside the first chunk's copy, the same with it before (GQL_PROBE_SERIAL_ALLOC=1),
# the OpenMP program, alternating; then the GPU tests as time allows.
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
lim=${LIM:-575}
GQL_GPU_TARGETS="gqlc gql_runtime gpu_tests" GQL_GPU_SKIP_CPU_TESTS=1 GQL_GPU_SKIP_BENCH=1 \
  GQL_GPU_SKIP_SANITIZER=1 GQL_GPU_BUILD_ONLY=1 GQL_GPU_RUN_BUDGET=420 test/gpu/run "$out/build" > "$out/build-log.txt" 2>&1
tail -3 "$out/build-log.txt"; echo "built at ${SECONDS}s"
G=build-gpu/compiler/gqlc; B=build-gpu/progs; mkdir -p $B
$G stdlib/std/bfs.gql --target cuda -o $B/bfs_cuda > $out/build-cuda.txt 2>&1 &
$G stdlib/std/bfs.gql --target openmp -o $B/bfs_openmp > $out/build-openmp.txt 2>&1 &
wait; echo "programs at ${SECONDS}s"; tail -2 $out/build-*.txt
$B/bfs_cuda bfs --G kron:20 --symmetrize --src 1 --out $out/levels-cuda.mtx > /dev/null 2>&1
$B/bfs_openmp bfs --G kron:20 --symmetrize --src 1 --out $out/levels-openmp.mtx > /dev/null 2>&1
cmp $out/levels-cuda.mtx $out/levels-openmp.mtx && echo "kron:20 levels equal ($(wc -l < $out/levels-cuda.mtx) lines)"
rm -f $out/levels-*.mtx
f=$out/bfs-one-search.txt
run() { echo "== kron:$1 $2 $3 $4 $(env $3 timeout 30 $B/bfs_$2 bfs --G kron:$1 --symmetrize --src 1 --stats 2>&1 | grep -E '^upload|^time|^download|^compute' | tr -s ' \n' ' ')"; }
{ echo "$(cat .gpudata/commit) + worktree; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(nproc) host cores $(date -u +%FT%TZ)"
for i in 1 2 3 4 5 6 7 8 9 10; do run 20 cuda BESIDE=1 "round $i"; run 20 cuda GQL_PROBE_SERIAL_ALLOC=1 "round $i"; run 20 openmp OMP=1 "round $i"; done
for i in 1 2 3; do run 21 cuda BESIDE=1 "round $i"; run 21 cuda GQL_PROBE_SERIAL_ALLOC=1 "round $i"; run 21 openmp OMP=1 "round $i"; done
echo "end $(date -u +%FT%TZ)"; } > $f 2>&1
cat $f; echo "bfs done at ${SECONDS}s"
left=$((lim - SECONDS - 10))
(cd build-gpu && GQL_REQUIRE_GPU=1 timeout $left ctest -L gpu -E "dist_jit" --timeout 200 --output-on-failure > "$out/ctest-part1.txt" 2>&1)
grep -E "Test +#|tests passed|FAIL|differ" "$out/ctest-part1.txt" | tail -40
echo "done at ${SECONDS}s"
