#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the MinIO server that tests/stages/55-objectstore.sh starts, at a pinned version,
# from the Go module proxy, into the Go bin directory (`go env GOBIN`, else GOPATH/bin);
# does nothing when that binary is already there at this version.  About 5 minutes on
# 2 cores.
set -euo pipefail
module=github.com/minio/minio
version=v0.0.0-20260212201848-7aac2a2c5b7c # what @latest resolved to on 2026-11-23

if ! command -v go >/dev/null; then
  echo "install-minio: go is not installed (Go 1.24 or later builds MinIO)" >&2
  exit 1
fi
bindir=$(go env GOBIN)
[ -n "$bindir" ] || bindir=$(go env GOPATH)/bin
if [ -x "$bindir/minio" ] && go version -m "$bindir/minio" 2>/dev/null |
    grep -Eq "^[[:space:]]+mod[[:space:]]+$module[[:space:]]+$version[[:space:]]"; then
  echo "install-minio: $bindir/minio is $module@$version already"
  exit 0
fi
echo "install-minio: building $module@$version into $bindir"
go install "$module@$version"
"$bindir/minio" --version | head -n 1
