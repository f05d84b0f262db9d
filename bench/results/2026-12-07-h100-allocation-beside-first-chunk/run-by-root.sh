#!/usr/bin/env bash
# One BFS search per process from each of 8 random roots, kron:20, 21, 22: the CUDA program against the
# OpenMP program, alternating; then the 8 searches in one process of each.
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/out}
GQL_GPU_TARGETS="gqlc gql_runtime" GQL_GPU_SKIP_CPU_TESTS=1 GQL_GPU_SKIP_BENCH=1 \
  GQL_GPU_SKIP_SANITIZER=1 GQL_GPU_BUILD_ONLY=1 GQL_GPU_RUN_BUDGET=420 test/gpu/run "$out/build" > "$out/build-log.txt" 2>&1
tail -2 "$out/build-log.txt"; echo "built at ${SECONDS}s"
G=build-gpu/compiler/gqlc; B=build-gpu/progs; mkdir -p $B
$G stdlib/std/bfs.gql --target cuda -o $B/bfs_cuda > $out/build-cuda.txt 2>&1 &
$G stdlib/std/bfs.gql --target openmp -o $B/bfs_openmp > $out/build-openmp.txt 2>&1 &
wait; echo "programs at ${SECONDS}s"
f=$out/bfs-one-search-by-root.txt
{ echo "$(cat .gpudata/commit); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader) $(nproc) host cores $(date -u +%FT%TZ)"
for s in 20 21 22; do
  $B/bfs_openmp bfs --G kron:$s --symmetrize --src random:8 --stats > $out/omp-random8-kron$s.txt 2>&1
  $B/bfs_cuda bfs --G kron:$s --symmetrize --src random:8 --stats > $out/cuda-random8-kron$s.txt 2>&1
  roots=$(grep -o -- '--src [0-9]*' $out/omp-random8-kron$s.txt | awk '{print $2}')
  for r in $roots; do
    for t in cuda openmp; do
      echo "== kron:$s root $r $t $(timeout 30 $B/bfs_$t bfs --G kron:$s --symmetrize --src $r --stats 2>&1 | grep -E '^upload|^time|^download|^compute|^searched' | tr -s ' \n' ' ')"
    done
  done
  echo "-- kron:$s, 8 searches in one process:"; grep -E "^run|^median" $out/omp-random8-kron$s.txt $out/cuda-random8-kron$s.txt | sed "s|$out/||"
done
echo "end $(date -u +%FT%TZ)"; } > $f 2>&1
cat $f; echo "done at ${SECONDS}s"
