#!/usr/bin/env bash
# One BFS search at kron:20 and kron:21: the CUDA program (streaming stores into the staging buffers,
# and memcpy with GQL_PROBE_MEMCPY=1) against the OpenMP program, alternating.
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
lim=${LIM:-575}
GQL_GPU_TARGETS="gqlc gql_runtime gpu_test_bfs gpu_test_vxm gpu_test_sssp gpu_test_device_runtime gpu_test_components" GQL_GPU_SKIP_CPU_TESTS=1 GQL_GPU_SKIP_BENCH=1 \
  GQL_GPU_SKIP_SANITIZER=1 GQL_GPU_BUILD_ONLY=1 GQL_GPU_RUN_BUDGET=300 test/gpu/run "$out/build" > "$out/build-log.txt" 2>&1
tail -2 "$out/build-log.txt"; echo "built at ${SECONDS}s"
G=build-gpu/compiler/gqlc; B=build-gpu/progs; mkdir -p $B
$G stdlib/std/bfs.gql --target cuda -o $B/bfs_cuda > $out/build-cuda.txt 2>&1 &
$G stdlib/std/bfs.gql --target openmp -o $B/bfs_openmp > $out/build-openmp.txt 2>&1 &
(cd build-gpu && GQL_REQUIRE_GPU=1 timeout 100 ctest -R "gpu_test_(bfs|vxm|sssp|device_runtime|components)$" --timeout 90 --output-on-failure > "$out/ctest.txt" 2>&1); grep -E "Test +#|tests passed|FAIL" "$out/ctest.txt"
wait; echo "programs at ${SECONDS}s"
$B/bfs_cuda bfs --G kron:20 --symmetrize --src 1 --out $out/lc.mtx > /dev/null 2>&1
$B/bfs_openmp bfs --G kron:20 --symmetrize --src 1 --out $out/lo.mtx > /dev/null 2>&1
cmp $out/lc.mtx $out/lo.mtx && echo "kron:20 levels equal ($(wc -l < $out/lc.mtx) lines)"; rm -f $out/lc.mtx $out/lo.mtx
f=$out/bfs-one-search.txt
run() { echo "== $1 $2 $3 $4 $(env ${3//,/ } timeout 30 $B/bfs_$2 bfs --G kron:$1 --symmetrize --src 1 --stats 2>&1 | grep -E '^upload|^time|^download|^compute' | tr -s ' \n' ' ')"; }
{ echo "$(cat .gpudata/commit) + GQL_PROBE_NO_RECYCLE and GQL_PROBE_EAGER_SCAN switches; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(nproc) host cores $(date -u +%FT%TZ)"
for i in 1 2 3 4 5 6 7 8 9 10; do
  [ $SECONDS -gt $((lim - 90)) ] && break
  run 20 cuda BASE=1 "round $i"; run 20 cuda GQL_PROBE_NO_RECYCLE=1,GQL_PROBE_EAGER_SCAN=1 "round $i"; run 20 openmp BASE=1 "round $i"
done
for i in 1 2 3; do
  [ $SECONDS -gt $((lim - 30)) ] && break
  run 21 cuda BASE=1 "round $i"; run 21 openmp BASE=1 "round $i"
done
echo "== kron:20, four searches on one upload"; timeout 30 $B/bfs_cuda bfs --G kron:20 --symmetrize --src 1,1,1,1 --stats 2>&1 | grep -E '^upload|^run |^median'
echo "end $(date -u +%FT%TZ)"; } > $f 2>&1
cat $f; echo "done at ${SECONDS}s"
