#!/usr/bin/env bash
# The staged upload of one BFS search at kron:20 by chunk (GQL_PROBE=1), under chunking variants;
# then plain alternating rounds, CUDA against OpenMP.
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
lim=${LIM:-560}
GQL_GPU_TARGETS="${TARGETS:-gqlc gql_runtime gpu_test_device_runtime}" GQL_GPU_SKIP_CPU_TESTS=1 GQL_GPU_SKIP_BENCH=1 \
  GQL_GPU_SKIP_SANITIZER=1 GQL_GPU_BUILD_ONLY=1 GQL_GPU_RUN_BUDGET=$((lim - 150)) test/gpu/run "$out/build" > "$out/build-log.txt" 2>&1
tail -2 "$out/build-log.txt"; echo "built at ${SECONDS}s"
G=build-gpu/compiler/gqlc; B=$out/bin; mkdir -p $B
$G stdlib/std/bfs.gql --target cuda -o $B/bfs_cuda > $B/build-cuda.txt 2>&1 &
$G stdlib/std/bfs.gql --target openmp -o $B/bfs_openmp > $B/build-openmp.txt 2>&1 &
wait; echo "programs at ${SECONDS}s"; tail -3 $B/build-*.txt
$B/bfs_cuda bfs --G kron:20 --symmetrize --src 1 --out $out/levels-cuda.txt --stats 2>&1 | tail -2
$B/bfs_openmp bfs --G kron:20 --symmetrize --src 1 --out $out/levels-openmp.txt --stats 2>&1 | tail -2
cmp $out/levels-cuda.txt $out/levels-openmp.txt && echo "kron:20 levels equal ($(wc -l < $out/levels-cuda.txt) lines)"
GQL_PROBE_GROW=1 GQL_PROBE_COPY_THREADS=8 $B/bfs_cuda bfs --G kron:20 --symmetrize --src 1 --out $out/levels-cuda-grow.txt 2>&1 | tail -1
cmp $out/levels-cuda-grow.txt $out/levels-openmp.txt && echo "kron:20 levels equal with GROW, 8 threads"
(cd build-gpu && GQL_PROBE_GROW=1 GQL_PROBE_COPY_THREADS=8 GQL_REQUIRE_GPU=1 timeout 100 ctest -R "gpu_test_device_runtime" --timeout 90 --output-on-failure > "$out/ctest.txt" 2>&1)
grep -E "tests passed|FAIL|differ" "$out/ctest.txt" | head -10
V="BASE=1 GQL_PROBE_GROW=1 GQL_PROBE_CHUNK_MIB=4 GQL_PROBE_CHUNK_MIB=4,GQL_PROBE_GROW=1 GQL_PROBE_COPY_THREADS=8 GQL_PROBE_COPY_THREADS=8,GQL_PROBE_GROW=1 GQL_PROBE_COPY_THREADS=4 GQL_PROBE_COPY_THREADS=12,GQL_PROBE_GROW=1 OMP_WAIT_POLICY=active OMP_WAIT_POLICY=active,GQL_PROBE_GROW=1"
f=$out/upload-by-chunk.txt
{ echo "$(cat .gpudata/commit) + worktree; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(nproc) host cores $(date -u +%FT%TZ)"
for i in 1 2 3; do for v in $V; do echo "== probe run $i $v"; env ${v//,/ } GQL_PROBE=1 timeout 20 $B/bfs_cuda bfs --G kron:20 --symmetrize --src 1 --stats 2>&1 | grep -E "staged upload|^upload|^time|compute:|download:|probe prepare|state made"; done; done
for i in 1 2 3 4 5; do
  [ $SECONDS -gt $((lim - 30)) ] && break
  for t in cuda:BASE=1 cuda:GQL_PROBE_GROW=1 cuda:OMP_WAIT_POLICY=active,GQL_PROBE_GROW=1 openmp:BASE=1 openmp:OMP_WAIT_POLICY=active; do e=${t#*:}; t=${t%%:*}; echo "== bfs kron:20 $t run $i $e"; env ${e//,/ } timeout 20 $B/bfs_$t bfs --G kron:20 --symmetrize --src 1 --stats 2>&1 | grep -E "upload|compute|download|time"; done
done; } > $f 2>&1
cat $f
echo "done at ${SECONDS}s"
