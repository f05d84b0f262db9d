"""CuPy's sparse product (cuSPARSE SpGEMM) A*A of a pattern graph, the peer of gql's fof: with host
arrays in and out (upload, product, download, as a user holding SciPy matrices runs it) and with the
operands and result on the device. Prints one JSON line per variant (median of 5 after a warm-up).
    cupy_spgemm.py GRAPH.mtx MACHINE COMMIT
"""
import json
import sys
import time

import cupy
import cupyx.scipy.sparse as cusparse
import numpy
import scipy.io
import scipy.sparse


def median_seconds(call, runs=5):
    call()
    times = []
    for _ in range(runs):
        cupy.cuda.Device().synchronize()
        start = time.perf_counter()
        call()
        cupy.cuda.Device().synchronize()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def main():
    path, machine, commit = sys.argv[1:4]
    a = scipy.sparse.csr_matrix(scipy.io.mmread(path), dtype=numpy.float64)
    a.data[:] = 1.0
    on_device = cusparse.csr_matrix(a)
    entries = int((on_device @ on_device).nnz)
    host = median_seconds(lambda: (lambda c: (c.indptr.get(), c.indices.get(), c.data.get()))(
        cusparse.csr_matrix(a) @ cusparse.csr_matrix(a)))
    device = median_seconds(lambda: on_device @ on_device)
    for variant, seconds in (("graph and result on the host", host), ("graph and result on the device", device)):
        print(json.dumps({"workload": "peer", "case": "cupyx.scipy.sparse A @ A (cuSPARSE)", "graph": path.split("/")[-1],
                          "variant": variant, "entries": entries, "time_s": seconds, "machine": machine,
                          "commit": commit, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))


if __name__ == "__main__":
    main()
