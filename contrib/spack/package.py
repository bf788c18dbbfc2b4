# SPDX-License-Identifier: BSD-3-Clause
# contrib/spack/package.py - a Spack recipe for colltune.
#
# Copy it into a Spack repository as packages/colltune/package.py
# (`spack repo create`, then `spack repo add`), and:
#     spack install colltune@main +ucx
# Not tested by Spack here (no Spack on the build machine):
# tests/unit/spack_package.sh runs it against a stub of spack.package and
# checks that every configure option it passes is one configure knows.

from spack.package import *


class Colltune(AutotoolsPackage):
    """Collective-communication microbenchmark (collbench: MPI and NCCL) and
    autotuner (colltune) that emits Open MPI, UCX and NCCL configuration
    files, with an NCCL tuner plugin."""

    # PLACEHOLDERS: the project's public home and repository.
    homepage = "https://example.org/colltune"
    url = "https://example.org/colltune/colltune-0.1.0.tar.gz"
    git = "https://example.org/colltune.git"

    license("BSD-3-Clause")

    version("main", branch="main")

    # The NCCL backend and the tuner plugin are always built: NCCL and CUDA
    # are dlopen()ed at run time, never linked.  +cuda adds the compile-time
    # check of collbench's NCCL declarations against nccl.h and
    # cuda_runtime.h, and brings NCCL and CUDA into the run environment.
    variant(
        "cuda",
        default=False,
        description="Check the NCCL backend against CUDA/NCCL headers; NCCL and CUDA at run time",
    )
    # UCX is never linked either: +ucx records the header version (metadata).
    variant("ucx", default=False, description="Record the UCX header version")

    depends_on("c", type="build")
    depends_on("autoconf", type="build")
    depends_on("automake", type="build")
    depends_on("libtool", type="build")
    depends_on("pkgconfig", type="build")
    # A git checkout ships no man pages: they are made from --help.
    depends_on("help2man", type="build")

    depends_on("mpi")
    depends_on("jansson")
    # Spack's name for benhoyt/inih is libinih (a MesonPackage that installs
    # inih.pc, which configure asks pkg-config for).
    depends_on("libinih")
    depends_on("hwloc")
    # colltune plot and regress --plot; optional at run time.
    depends_on("gnuplot", type="run")

    depends_on("cuda", when="+cuda")
    depends_on("nccl", when="+cuda", type=("build", "run"))
    depends_on("ucx", when="+ucx")

    def autoreconf(self, spec, prefix):
        # autogen.sh makes build-aux/ and runs autoreconf --install --force.
        Executable("./autogen.sh")()

    def configure_args(self):
        spec = self.spec
        args = ["MPICC={0}".format(spec["mpi"].mpicc)]
        if spec.satisfies("+cuda"):
            # configure looks for nccl.h and cuda_runtime.h under
            # --with-cuda's include/; Spack's NCCL is a prefix of its own.
            args.append("--with-cuda={0}".format(spec["cuda"].prefix))
            args.append("CPPFLAGS=-I{0}".format(spec["nccl"].prefix.include))
        else:
            # Not a guess at /usr/local/cuda on the build host.
            args.append("--without-cuda")
        if spec.satisfies("+ucx"):
            args.append("--with-ucx={0}".format(spec["ucx"].prefix))
        else:
            args.append("--without-ucx")
        return args

    def setup_run_environment(self, env):
        # collbench's NCCL backend dlopen()s libnccl.so.2 and libcudart.so;
        # COLLTUNE_NCCL_LIB and COLLTUNE_CUDART_LIB name the ones to load.
        if self.spec.satisfies("+cuda"):
            spec = self.spec
            env.set("COLLTUNE_NCCL_LIB", join_path(spec["nccl"].prefix.lib, "libnccl.so.2"))
            env.set("COLLTUNE_CUDART_LIB", join_path(spec["cuda"].prefix.lib64, "libcudart.so"))
