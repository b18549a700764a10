# Shared by scripts/run and scripts/test (sourced, not run): install what is missing on a
# Debian 12 machine, then configure and build Aaren Studio in Release.

AAREN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
AAREN_BUILD="${AAREN_BUILD:-$AAREN_ROOT/build}"

# Debian 12 packages the build and the tests need. CUDA is optional and never installed here:
# when a CUDA toolkit is present (nvcc on PATH), the CUDA backend is built as well.
AAREN_PACKAGES=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev qt6-qpa-plugins libgl-dev
  libeigen3-dev nlohmann-json3-dev libcli11-dev
  fonts-dejavu-core
)

# Building the Debian package (scripts/package): dpkg-shlibdeps, and `file`, with which CPack
# finds the programs whose libraries to read.
AAREN_PACKAGING_PACKAGES=(dpkg-dev file)

# Only the tests need these: the PyTorch twin's parity and DDP suites (tests/python) and its wheel
# (pip, setuptools, wheel), the report
# read back as pictures (pdftoppm, pdftotext) and by OCR (tests/ui/tst_report_reading.cpp), and the
# install checks (tests/install: the package, lintian, the desktop entry's, AppStream's and the
# MIME database's own validators, groff for the man pages). scripts/run does not install them.
AAREN_TEST_PACKAGES=(python3-torch python3-numpy python3-pip python3-setuptools python3-wheel
  poppler-utils tesseract-ocr tesseract-ocr-eng
  "${AAREN_PACKAGING_PACKAGES[@]}" lintian desktop-file-utils appstream shared-mime-info groff-base)

aaren_install_missing() { aaren_install_packages "${AAREN_PACKAGES[@]}"; }
aaren_install_missing_for_tests() { aaren_install_packages "${AAREN_PACKAGES[@]}" "${AAREN_TEST_PACKAGES[@]}"; }

# Installs those of the given Debian packages that are missing.
aaren_install_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "Not a Debian system: install the equivalents of: $*" >&2
    return 0
  fi
  local missing=() pkg
  for pkg in "$@"; do
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

# What the build needs, each with the Debian package that provides it: a command on the PATH, or a
# file (a CMake package's config, a Qt plugin, a font) under one of AAREN_REQUIREMENT_DIRS. Checked
# before configuring, so that a missing piece is named with its package instead of forty lines of
# CMake errors. The setup installs all of these; the check catches a failed or skipped install
# (no root, another distribution) and a package list that fell behind the build.
AAREN_REQUIREMENT_DIRS="${AAREN_REQUIREMENT_DIRS:-/usr/lib /usr/share /usr/local/lib /usr/local/share}"
AAREN_REQUIRED_COMMANDS=(
  "cmake:cmake" "ninja:ninja-build" "g++:g++" "pkg-config:pkg-config"
)
AAREN_REQUIRED_FILES=(
  "Qt6Config.cmake:qt6-base-dev" "Qt6WidgetsConfig.cmake:qt6-base-dev" "Qt6PrintSupportConfig.cmake:qt6-base-dev"
  "Qt6TestConfig.cmake:qt6-base-dev" "Qt6OpenGLConfig.cmake:libqt6opengl6-dev" "Qt6ChartsConfig.cmake:qt6-charts-dev"
  "Qt6SvgConfig.cmake:qt6-svg-dev" "libqoffscreen.so:qt6-qpa-plugins" "Eigen3Config.cmake:libeigen3-dev"
  "nlohmann_jsonConfig.cmake:nlohmann-json3-dev" "CLI11Config.cmake:libcli11-dev" "DejaVuSans.ttf:fonts-dejavu-core"
)

# Prints "  WHAT (Debian package PACKAGE)" for each requirement that is missing; returns 1 if any is.
aaren_missing_requirements() {
  local entry what package dirs=() dir names=() found="" missing=0
  for dir in $AAREN_REQUIREMENT_DIRS; do [ -d "$dir" ] && dirs+=("$dir"); done
  for entry in "${AAREN_REQUIRED_COMMANDS[@]}"; do
    what=${entry%%:*} package=${entry#*:}
    command -v "$what" >/dev/null 2>&1 && continue
    echo "  the command $what (Debian package $package)"
    missing=1
  done
  # One walk of the folders for every file.
  for entry in "${AAREN_REQUIRED_FILES[@]}"; do names+=(-o -name "${entry%%:*}"); done
  [ ${#dirs[@]} -gt 0 ] && found=$(find "${dirs[@]}" \( "${names[@]:1}" \) -printf '%f\n' 2>/dev/null | sort -u)
  for entry in "${AAREN_REQUIRED_FILES[@]}"; do
    what=${entry%%:*} package=${entry#*:}
    grep -qxF "$what" <<<"$found" && continue
    echo "  $what (Debian package $package)"
    missing=1
  done
  return $missing
}

aaren_check_requirements() {
  local report
  if ! report=$(aaren_missing_requirements); then
    echo "Aaren Studio cannot be built yet; missing:" >&2
    echo "$report" >&2
    echo "Install them (as root): apt-get install -y --no-install-recommends $(echo "$report" | sed 's/.*package \(.*\))/\1/' | sort -u | tr '\n' ' ')" >&2
    exit 1
  fi
}

aaren_build() {
  local jobs
  jobs="$(nproc 2>/dev/null || echo 2)"
  aaren_check_requirements
  cmake -S "$AAREN_ROOT" -B "$AAREN_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$AAREN_BUILD" -j "$jobs"
}

# The core, GPU and command-line suites built again with AddressSanitizer and
# UndefinedBehaviorSanitizer (AAREN_SANITIZE), in their own folder: -O1 keeps the build and the
# tests quick enough for CI and the stack traces readable, -g1 (line tables) gives those traces their
# files and lines at less cost than full debug information; Eigen's own checks stay on (no NDEBUG).
# The GUI, its suites and CUDA are left out (the GPU suites link the backend's CPU-only fallback and
# skip): the CUDA runtime and AddressSanitizer's memory layout do not mix. So is `aaren bench stream
# --chart` (AAREN_CLI_CHARTS=OFF), the one thing that would link the user interface into `aaren`.
# No -march=native: at -O1 GCC 12 warns "used uninitialized" inside its own AVX-512 intrinsics (GCC
# bug 105593).
AAREN_BUILD_SANITIZED="${AAREN_BUILD_SANITIZED:-$AAREN_ROOT/build-asan}"

aaren_build_sanitized() {
  local jobs
  jobs="$(nproc 2>/dev/null || echo 2)"
  aaren_check_requirements
  cmake -S "$AAREN_ROOT" -B "$AAREN_BUILD_SANITIZED" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DAAREN_SANITIZE=ON -DAAREN_ENABLE_CUDA=OFF -DAAREN_NATIVE_CPU=OFF \
    -DAAREN_CLI_CHARTS=OFF "$@"
  cmake --build "$AAREN_BUILD_SANITIZED" -j "$jobs" --target aaren aaren_core_tests aaren_gpu_tests aaren_cli_tests
}
