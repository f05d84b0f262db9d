# lit configuration for gqlc's tests: each .gql file under test/lit is a test whose RUN lines
# call gqlc and check its output with FileCheck.
import os
import lit.formats

config.name = "gql"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".gql", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gql_binary_dir, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.gql_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%gqlc", config.gqlc))
config.substitutions.append(("%stdlib", os.path.join(config.gql_source_dir, "stdlib")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
if config.gql_have_cuda:
    config.available_features.add("cuda")
# Programs for several processes (gqlc --mpi) run under mpiexec: one OpenMP thread per rank, and Open
# MPI told to allow root and more ranks than cores (CI's containers).
if config.gql_have_mpi:
    config.available_features.add("mpi")
    config.substitutions.append(("%mpiexec", "env OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 "
                                 "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 " +
                                 config.mpiexec))
    # The same without OMP_NUM_THREADS and unbound: the ranks share the CPUs they may all run on.
    config.substitutions.append(("%ranks-sharing-cpus", "env -u OMP_NUM_THREADS OMPI_ALLOW_RUN_AS_ROOT=1 "
                                 "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 " +
                                 config.mpiexec + " --bind-to none"))
# A device whose writes fail as on a full disk.
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")
