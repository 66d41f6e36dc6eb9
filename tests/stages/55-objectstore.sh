#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Object-store checksums against real servers started on 127.0.0.1 by the tests
# themselves (tests/objectstore): a MinIO server (.ci/install-minio.sh builds it) for
# single-part and multipart uploads of every algorithm and checksum type, the fault tests
# and the CLI's URLs and `verify`; a fake-gcs-server (.ci/install-fake-gcs.sh) for GCS's
# crc32c of single and composed objects, `verify` and the faults of gs:// URLs; Azurite
# (.ci/install-azurite.sh) for Azure's x-ms-content-crc64 of blocks; a Dask
# LocalCluster with worker processes.  The package is built from this tree into a
# temporary directory for the python3 on PATH (the test environment's); the C tool is the
# build directory's.  The GCS and Azure tests say what is missing when their server is
# not installed (a failure in CI), the others still run.
# needs: build venv install-minio install-fake-gcs install-azurite
# weight: 190
# time limit: 20m
set -euo pipefail
. "$(dirname "$0")/lib/require.sh"
need_cmd python3 python3
need_cmd cmake cmake
need_cmd cc build-essential
minio=
if command -v python3 >/dev/null; then
  # (dask and distributed: asked for by the Dask tests alone.)
  for module in pytest setuptools boto3 awscrt fsspec s3fs; do
    need_python_module "$module" "$module"
  done
  minio=$(python3 -c 'import sys; sys.path.insert(0, "tests/objectstore")
from minio_server import find_minio; print(find_minio() or "")')
fi
need_executable "$minio" "minio (bash .ci/install-minio.sh builds it into the Go bin directory; or set MINIO_BIN)"
require_met
export MINIO_BIN=$minio

build=${CRCFORGE_BUILD:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
CRCFORGE_BUILD=$build bash "$(dirname "$0")/steps/build.sh" crcforge >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 setup.py -q egg_info --egg-base "$tmp" build --build-base "$tmp/build" --build-lib "$tmp/site" \
  >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; exit 1; }
gcs=$(python3 -c 'import sys; sys.path.insert(0, "tests/objectstore")
from gcs_server import find_fake_gcs; print(find_fake_gcs() or "")')
azurite=$(command -v "${AZURITE_BIN:-azurite-blob}" || true)
echo "55-objectstore: $("$minio" --version | head -n 1), crcforge built into $tmp/site"
echo "55-objectstore: fake-gcs-server ${gcs:-not installed}," \
  "azurite-blob ${azurite:+$("$azurite" --version) }${azurite:-not installed}"

# PYTHONPATH reaches the Dask worker processes and `python -m crcforge` too; run from the
# temporary directory so that nothing imports the source tree's package instead.
root=$PWD
cd "$tmp"
CRCFORGE_BUILD=$build PYTHONPATH=$tmp/site \
  python3 -m pytest -q -rs -p no:cacheprovider "$root/tests/objectstore"
