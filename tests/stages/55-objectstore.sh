#!/usr/bin/env bash
# Object-store checksums against real servers started on 127.0.0.1 by the tests
# themselves (tests/objectstore): a MinIO server (.ci/install-minio.sh builds it) for
# single-part and multipart uploads of every algorithm and checksum type, the fault tests
# and the CLI's URLs and `verify`; a Dask LocalCluster with worker processes.  The package
# is built from this tree into a temporary directory for the python3 on PATH, which must
# have the test packages of .ci/requirements.txt; the C tool is build/'s.
# Exit 77, naming what is missing, without minio or those packages.
set -euo pipefail
missing=()
command -v python3 >/dev/null || missing+=("python3 (Debian package python3)")
minio=
if command -v python3 >/dev/null; then
  minio=$(python3 -c 'import sys; sys.path.insert(0, "tests/objectstore")
from minio_server import find_minio; print(find_minio() or "")')
  for module in pytest boto3 s3fs fsspec dask distributed awscrt; do
    python3 -c "import $module" 2>/dev/null ||
      missing+=("Python module $module (pip package from .ci/requirements.txt)")
  done
fi
[ -n "$minio" ] || missing+=("minio (bash .ci/install-minio.sh builds it into the Go bin directory; or set MINIO_BIN)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "55-objectstore skipped: missing"
  printf '  %s\n' "${missing[@]}"
  exit 77
fi
export MINIO_BIN=$minio

build=${CRCFORGE_BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCRCFORGE_WERROR=ON >/dev/null
cmake --build "$build" -j "$(nproc)" --target crcforge >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip install -q --disable-pip-version-check --no-deps --target "$tmp/site" . \
  >"$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log"; exit 1; }
echo "55-objectstore: $("$minio" --version | head -n 1), crcforge built into $tmp/site"

# PYTHONPATH reaches the Dask worker processes and `python -m crcforge` too; run from the
# temporary directory so that nothing imports the source tree's package instead.
root=$PWD
cd "$tmp"
CRCFORGE_BUILD=$build PYTHONPATH=$tmp/site timeout 1800 \
  python3 -m pytest -q -p no:cacheprovider "$root/tests/objectstore"
