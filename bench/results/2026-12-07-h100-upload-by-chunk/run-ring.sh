#!/usr/bin/env bash
# One BFS search at kron:20, CUDA program against OpenMP program, by phase: probes (GQL_PROBE=1,
# --src 1,1) then plain alternating rounds.
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
lim=${LIM:-560}
GQL_GPU_TARGETS="${TARGETS:-gqlc gql_runtime}" GQL_GPU_SKIP_CPU_TESTS=1 GQL_GPU_SKIP_BENCH=1 \
  GQL_GPU_SKIP_SANITIZER=1 GQL_GPU_BUILD_ONLY=1 GQL_GPU_RUN_BUDGET=$((lim - 150)) test/gpu/run "$out/build" > "$out/build-log.txt" 2>&1
tail -2 "$out/build-log.txt"; echo "built at ${SECONDS}s"
G=build-gpu/compiler/gqlc; B=$out/bin; mkdir -p $B
$G stdlib/std/bfs.gql --target cuda -o $B/bfs_cuda > $B/build-cuda.txt 2>&1 &
$G stdlib/std/bfs.gql --target openmp -o $B/bfs_openmp > $B/build-openmp.txt 2>&1 &
wait; echo "programs at ${SECONDS}s"; tail -3 $B/build-*.txt
$B/bfs_cuda bfs --G kron:20 --symmetrize --src 1 --out $out/levels-cuda.txt --stats 2>&1 | tail -2
$B/bfs_openmp bfs --G kron:20 --symmetrize --src 1 --out $out/levels-openmp.txt --stats 2>&1 | tail -2
cmp $out/levels-cuda.txt $out/levels-openmp.txt && echo "kron:20 levels equal ($(wc -l < $out/levels-cuda.txt) lines)"
f=$out/bfs-one-search.txt
{ echo "$(cat .gpudata/commit) + worktree; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(nproc) host cores $(date -u +%FT%TZ)"
for i in 1 2; do for e in GQL_PROBE_RING=1 GQL_PROBE_THREE_SLOTS=1; do echo "== probe run $i $e, --src 1,1"; env $e GQL_PROBE=1 timeout 20 $B/bfs_cuda bfs --G kron:20 --symmetrize --src 1,1 --stats 2>&1; done; done
for i in 1 2 3 4 5 6; do
  [ $SECONDS -gt $((lim - 30)) ] && break
  for t in cuda:GQL_PROBE_RING=1 cuda:GQL_PROBE_THREE_SLOTS=1 openmp:GQL_PROBE_RING=1; do e=${t#*:}; t=${t%%:*}; echo "== bfs kron:20 $t run $i $e"; env $e timeout 20 $B/bfs_$t bfs --G kron:20 --symmetrize --src 1 --stats 2>&1 | grep -E "upload|compute|download|time"; done
done; } > $f 2>&1
cat $f
echo "done at ${SECONDS}s"
