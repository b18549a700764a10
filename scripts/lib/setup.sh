# Shared by scripts/run and scripts/test (sourced, not run): install what is missing on a
# Debian 12 machine, then configure and build Aaren Studio in Release.

AAREN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
AAREN_BUILD="${AAREN_BUILD:-$AAREN_ROOT/build}"

# Debian 12 packages the build and the tests need. CUDA is optional and never installed here:
# when a CUDA toolkit is present (nvcc on PATH), the CUDA backend is built as well.
AAREN_PACKAGES=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-qpa-plugins libgl-dev
  libeigen3-dev nlohmann-json3-dev
  fonts-dejavu-core
)

aaren_install_missing() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "Not a Debian system: install the equivalents of: ${AAREN_PACKAGES[*]}" >&2
    return 0
  fi
  local missing=() pkg
  for pkg in "${AAREN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing: ${missing[*]}"
  local install=(apt-get install -y --no-install-recommends "${missing[@]}")
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${install[@]}"
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive "${install[@]}"
  else
    echo "Missing packages and no way to install them (not root, no sudo). Run as root:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
}

aaren_build() {
  local jobs
  jobs="$(nproc 2>/dev/null || echo 2)"
  cmake -S "$AAREN_ROOT" -B "$AAREN_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$AAREN_BUILD" -j "$jobs"
}
