# SPDX-License-Identifier: MIT
# Sourced by the .ci/install-*.sh of Go programs: go_install NAME MODULE VERSION builds
# MODULE@VERSION from the Go module proxy into the Go bin directory (`go env GOBIN`, else
# GOPATH/bin) as NAME, and does nothing when NAME is already there at that version.
go_install() {
  local name=$1 module=$2 version=$3 bindir
  if ! command -v go >/dev/null; then
    echo "install-$name: go is not installed" >&2
    return 1
  fi
  bindir=$(go env GOBIN)
  [ -n "$bindir" ] || bindir=$(go env GOPATH)/bin
  if [ -x "$bindir/$name" ] && go version -m "$bindir/$name" 2>/dev/null |
      grep -Eq "^[[:space:]]+mod[[:space:]]+$module[[:space:]]+$version[[:space:]]"; then
    echo "install-$name: $bindir/$name is $module@$version already"
    return 0
  fi
  echo "install-$name: building $module@$version into $bindir"
  go install "$module@$version"
}
