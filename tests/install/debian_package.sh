#!/usr/bin/env bash
# `cpack -G DEB` on this build: aaren-studio_VERSION_ARCH.deb, whose control file lists the shared
# libraries the programs link (dpkg-shlibdeps), which holds every file the install rules name, and
# in which lintian (where installed) finds no error. Exit 77, a skip, without dpkg-deb.
# Usage: debian_package.sh BUILD_DIR VERSION
set -u
build=$1 version=$2
fail() { echo "FAIL: $*"; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps cpack; do
  command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool is not installed (dpkg-dev)"; exit 77; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$(cpack --config "$build/CPackConfig.cmake" -B "$scratch/package" 2>&1) || fail "cpack: $out"
deb="$scratch/package/aaren-studio_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || fail "no $(basename "$deb"): $(ls "$scratch/package")"

depends=$(dpkg-deb -f "$deb" Depends)
for library in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6; do
  grep -q "\b$library\b" <<<"$depends" || fail "Depends does not name $library: $depends"
done
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package's version is not $version"

# Every file `cmake --install` writes is in the package, at the same place.
DESTDIR="$scratch/root" cmake --install "$build" --prefix /usr >/dev/null 2>&1 || fail "cmake --install failed"
(cd "$scratch/root" && find . -type f | sed 's|^\./|/|' | sort) >"$scratch/installed"
dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./|/|' | sort >"$scratch/packaged"
missing=$(comm -23 "$scratch/installed" "$scratch/packaged")
[ -z "$missing" ] || fail "installed but not in the package: $missing"

if command -v lintian >/dev/null 2>&1; then
  out=$(lintian --no-tag-display-limit "$deb" 2>&1 | grep -v "running with root privileges")
  grep -q "^E:" <<<"$out" && fail "lintian: $out"
  echo "lintian: $(grep -c "^[WI]:" <<<"$out") warnings or notes, no error"
else
  echo "lintian is not installed: its check was left out"
fi
echo "debian package: ok"
