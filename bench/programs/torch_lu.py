"""PyTorch's LU factorization (torch.linalg.lu_factor, cuSOLVER's getrf) of a random n x n fp64 matrix
with entries in [-1, 1], the peer of the stdlib's lu_factor through the JIT: with the matrix and factors
on the device, and with them in host memory (the matrix copied in, the factors and pivots copied out,
as a user with a NumPy array does). Prints one JSON line per variant (median of 3 after a warm-up).
    torch_lu.py N MACHINE COMMIT
"""
import json
import sys
import time

import torch


def main():
    n, machine, commit = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    torch.backends.cuda.preferred_linalg_library("cusolver")
    generator = torch.Generator(device="cuda").manual_seed(17)
    a = torch.rand((n, n), dtype=torch.float64, device="cuda", generator=generator) * 2 - 1
    torch.linalg.lu_factor(a)
    times = []
    for _ in range(3):
        torch.cuda.synchronize()
        start = time.perf_counter()
        lu, pivots = torch.linalg.lu_factor(a)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    report(n, "matrix and factors on the device", times, machine, commit)
    host = a.cpu().numpy()
    times = []
    for _ in range(4):
        start = time.perf_counter()
        lu, pivots = torch.linalg.lu_factor(torch.from_numpy(host).cuda())
        lu_host, pivots_host = lu.cpu().numpy(), pivots.cpu().numpy()
        times.append(time.perf_counter() - start)
    report(n, "matrix and factors in host memory", times[1:], machine, commit)


def report(n, variant, times, machine, commit):
    seconds = sorted(times)[len(times) // 2]
    print(json.dumps({"workload": "peer", "case": "torch.linalg.lu_factor (cuSOLVER getrf)", "n": n,
                      "variant": variant, "time_s": seconds,
                      "tflops": 2.0 / 3.0 * n ** 3 / seconds / 1e12, "machine": machine, "commit": commit,
                      "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}))


if __name__ == "__main__":
    main()
