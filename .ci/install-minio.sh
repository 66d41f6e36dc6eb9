#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the MinIO server that tests/stages/55-objectstore.sh starts, at a pinned version,
# from the Go module proxy, into the Go bin directory (Go 1.24 or later builds it);
# nothing when that binary is already there at this version.  About 5 minutes on 2 cores.
set -euo pipefail
. "$(dirname "$0")/lib/go-install.sh"
# what @latest resolved to on 2026-11-23
go_install minio github.com/minio/minio v0.0.0-20260212201848-7aac2a2c5b7c
