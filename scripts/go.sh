#!/usr/bin/env bash
# Prints the path of a Go >= 1.26 toolchain, installing one if the machine has none.
# Debian 12's golang package is too old (1.19), so the toolchain comes from the Go module
# proxy (golang.org/toolchain), the same source `go` itself uses for GOTOOLCHAIN switching.
set -euo pipefail
want_minor=26
version=1.26.8
dest=${GO_INSTALL_DIR:-/usr/local/go-$version}

ok() {
	local g=$1 v
	[ -x "$g" ] || return 1
	v=$("$g" env GOVERSION 2>/dev/null) || return 1
	v=${v#go}
	local major=${v%%.*} rest=${v#*.}
	local minor=${rest%%.*}
	[ "$major" -gt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -ge "$want_minor" ]; }
}

for g in "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go "$dest/bin/go"; do
	if [ -n "$g" ] && ok "$g"; then
		echo "$g"
		exit 0
	fi
done

case "$(uname -m)" in
x86_64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "no Go toolchain for $(uname -m)" >&2; exit 1 ;;
esac
mod="v0.0.1-go$version.linux-$arch"
url="${GOPROXY_URL:-https://proxy.golang.org}/golang.org/toolchain/@v/$mod.zip"
echo "installing Go $version from $url into $dest" >&2
command -v unzip >/dev/null && command -v curl >/dev/null || {
	SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends curl unzip ca-certificates >&2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL -o "$tmp/go.zip" "$url"
unzip -q "$tmp/go.zip" -d "$tmp"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$tmp/golang.org/toolchain@$mod" "$dest"
chmod +x "$dest/bin/"* "$dest/pkg/tool/"*/* 2>/dev/null || true
ok "$dest/bin/go" || { echo "installed Go at $dest does not run" >&2; exit 1; }
echo "$dest/bin/go"
