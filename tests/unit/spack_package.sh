#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# contrib/spack/package.py, without Spack: it byte-compiles; loaded against
# a stub of spack.package, it declares the variants (cuda, ucx) and the
# dependencies the recipe promises (with the right types, and every when=
# naming a declared variant); and every option its configure_args() passes,
# for each variant combination, is one `configure --help` lists (--with-X,
# --without-X as --with-X, VAR=value as an influential variable).
set -u
: "${top_srcdir:?run through make check}"
P=$top_srcdir/contrib/spack/package.py
T=$(mktemp -d "${TMPDIR:-/tmp}/colltune-spack.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
command -v python3 >/dev/null 2>&1 || {
    echo "SKIP: no python3"
    exit 77
}

python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)' \
    "$P" "$T/package.pyc" || fail "py_compile $P"

# The stub: Spack's directives record what they are given; the names a
# recipe uses beyond these are an error (NameError) when the class is made.
mkdir -p "$T/stub/spack"
: >"$T/stub/spack/__init__.py"
cat >"$T/stub/spack/package.py" <<'PY'
import os

DIRECTIVES = []


def _record(kind):
    def directive(*args, **kwargs):
        DIRECTIVES.append((kind, args, kwargs))

    return directive


version = _record("version")
variant = _record("variant")
depends_on = _record("depends_on")
conflicts = _record("conflicts")
license = _record("license")
join_path = os.path.join


class Executable:
    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        raise RuntimeError("the stub runs nothing")


class AutotoolsPackage:
    def __init__(self, spec):
        self.spec = spec
PY

python3 - "$P" "$T/stub" >"$T/args" 2>"$T/err" <<'PY' || fail "package.py against the stub: $(cat "$T/err")"
import importlib.util, itertools, os, sys

sys.path.insert(0, sys.argv[2])
import spack.package as sp

spec_ = importlib.util.spec_from_file_location("colltune_package", sys.argv[1])
mod = importlib.util.module_from_spec(spec_)
spec_.loader.exec_module(mod)
cls = mod.Colltune
assert issubclass(cls, sp.AutotoolsPackage), "Colltune is not an AutotoolsPackage"


def die(msg):
    sys.exit(msg)


variants = {a[0] for k, a, kw in sp.DIRECTIVES if k == "variant"}
if variants != {"cuda", "ucx"}:
    die("variants %s, want cuda and ucx" % sorted(variants))
deps = {}
for k, a, kw in sp.DIRECTIVES:
    if k != "depends_on":
        continue
    t = kw.get("type", ("build", "link"))
    t = (t,) if isinstance(t, str) else tuple(t)
    for x in t:
        if x not in ("build", "link", "run", "test"):
            die("depends_on(%r): type %r" % (a[0], x))
    when = kw.get("when", "")
    for w in when.replace("~", " +").split("+")[1:]:
        if w.strip() not in variants:
            die("depends_on(%r, when=%r): no such variant" % (a[0], when))
    deps[a[0]] = (set(t), when)
want = {
    "mpi": None, "jansson": None, "libinih": None, "hwloc": None,
    "gnuplot": {"run"}, "autoconf": {"build"}, "automake": {"build"},
    "libtool": {"build"}, "help2man": {"build"},
    "cuda": None, "nccl": None, "ucx": None,
}
for name, types in want.items():
    if name not in deps:
        die("no depends_on(%r)" % name)
    if types is not None and deps[name][0] != types:
        die("depends_on(%r): type %s, want %s" % (name, sorted(deps[name][0]), sorted(types)))
for name in ("cuda", "nccl"):
    if deps[name][1] != "+cuda":
        die("depends_on(%r) not when=+cuda" % name)
if deps["ucx"][1] != "+ucx":
    die("depends_on('ucx') not when=+ucx")
if not any(k == "version" and a[0] == "main" and kw.get("branch") == "main" for k, a, kw in sp.DIRECTIVES):
    die('no version("main", branch="main")')


class Prefix(str):
    def __getattr__(self, name):
        return Prefix(os.path.join(self, name))


class Dep:
    def __init__(self, name):
        self.prefix = Prefix("/opt/spack/" + name)
        self.mpicc = os.path.join(self.prefix, "bin", "mpicc")


class Spec:
    def __init__(self, on):
        self.on = on

    def satisfies(self, s):
        return s.startswith("+") and s[1:] in self.on or s.startswith("~") and s[1:] not in self.on

    def __getitem__(self, name):
        return Dep(name)


for on in itertools.product(*[[(), (v,)] for v in sorted(variants)]):
    on = {v for t in on for v in t}
    args = cls(Spec(on)).configure_args()
    for v in sorted(variants):
        flag = "--with-%s" % v if v in on else "--without-%s" % v
        if not any(x == flag or x.startswith(flag + "=") for x in args):
            die("%s: no %s in %s" % (sorted(on), flag, args))
    for x in args:
        print(x)
PY

"$top_srcdir/configure" --help >"$T/help" || fail "configure --help"
sort -u "$T/args" >"$T/uargs"
n=0
while IFS= read -r a; do
    n=$((n + 1))
    case $a in
    --without-*) o=--with-${a#--without-} ;;
    --*) o=${a%%=*} ;;
    [A-Z]*=*) o=${a%%=*} ;;
    *) fail "package.py passes '$a', neither an option nor VAR=value" ;;
    esac
    case $o in
    --*) grep -Eq -- "^  $o(\[|=| )" "$T/help" || fail "package.py passes $a: configure --help has no $o" ;;
    *) grep -q "^  $o  " "$T/help" || fail "package.py passes $a: configure --help has no variable $o" ;;
    esac
done <"$T/uargs"
[ "$n" -ge 5 ] || fail "only $n distinct configure arguments: $(cat "$T/args")"
echo "ok: $n configure arguments, all known to configure"
