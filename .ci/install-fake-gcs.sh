#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds fake-gcs-server (a Google Cloud Storage emulator) that
# tests/stages/55-objectstore.sh starts, at a pinned version, from the Go module proxy,
# into the Go bin directory (Go 1.25 or later builds it); nothing when that binary is
# already there at this version.  About 2 minutes on one core.
set -euo pipefail
. "$(dirname "$0")/lib/go-install.sh"
# v1.55.1: the first to refuse (HTTP 400) an upload whose declared crc32c is wrong.
go_install fake-gcs-server github.com/fsouza/fake-gcs-server v1.55.1
