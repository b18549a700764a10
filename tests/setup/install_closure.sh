#!/usr/bin/env bash
# Would a fresh machine have every system package this build used? Runs the closure check that
# comes with the project's shared tools (../shared/tools beside the repository) on this configured
# build, with the set-up's package list. Skips (exit 77) where the tool or Debian's package lists
# are not there.
set -u
root=$1 build=$2
tool="$root/../shared/tools/check-install-closure"
if [ ! -x "$tool" ]; then
  echo "SKIP: no closure check at ../shared/tools/check-install-closure beside the repository"
  exit 77
fi
source "$root/scripts/lib/setup.sh"
out=$("$tool" "$build" "${AAREN_PACKAGES[@]}" "${AAREN_TEST_PACKAGES[@]}" 2>&1)
rc=$?
echo "$out"
if [ $rc -ge 2 ]; then
  echo "SKIP: the closure check could not run here (it needs a configured build and apt-get update)"
  exit 77
fi
[ $rc -eq 0 ] || exit 1
# The check can fail: the list without the package that once went missing (Qt6Charts needs
# Qt6OpenGL's CMake package, which qt6-base-dev only recommends) must be caught.
without=()
for package in "${AAREN_PACKAGES[@]}"; do [ "$package" = libqt6opengl6-dev ] || without+=("$package"); done
out=$("$tool" "$build" "${without[@]}" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
  echo "this machine's base image has libqt6opengl6-dev: nothing more to check"
elif [ $rc -ne 1 ] || ! grep -q libqt6opengl6-dev <<<"$out"; then
  echo "FAIL: without libqt6opengl6-dev the closure check should name it; it printed: $out"
  exit 1
else
  echo "without libqt6opengl6-dev it is named, as it should be"
fi
