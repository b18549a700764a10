#!/usr/bin/env bash
# The installed programs (cmake --install into a scratch DESTDIR), run from another folder as a
# user would (as the unprivileged user nobody where the suite runs as root): HOME and the XDG
# folders point at scratch ones. They find their data through the
# install prefix, do their work, and write nothing outside those folders (the current folder and
# the installed tree stay exactly as they were).
# Usage: installed_programs.sh BUILD_DIR VERSION
set -u
build=$1 version=$2
fail() { echo "FAIL: $*"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
root="$scratch/root" prefix=/usr
DESTDIR="$root" cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" 2>&1 ||
  fail "cmake --install: $(tail -5 "$scratch/install.log")"
installed="$root$prefix"
for file in bin/aaren bin/aaren-studio share/aaren-studio/datasets/R_AirPassengers.csv \
  share/aaren-studio/datasets/README.md share/aaren-studio/lessons/section3.lesson.json \
  share/aaren-studio/lessons/three-rnns.lesson.json share/aaren-studio/lessons/agent-memory.lesson.json \
  share/applications/org.aarenstudio.AarenStudio.desktop \
  share/metainfo/org.aarenstudio.AarenStudio.metainfo.xml share/mime/packages/org.aarenstudio.AarenStudio.xml \
  share/icons/hicolor/scalable/apps/org.aarenstudio.AarenStudio.svg \
  share/icons/hicolor/48x48/apps/org.aarenstudio.AarenStudio.png share/man/man1/aaren.1.gz \
  share/man/man1/aaren-studio.1.gz share/bash-completion/completions/aaren share/doc/aaren-studio/copyright \
  share/doc/aaren-studio/README.md; do
  [ -f "$installed/$file" ] || fail "not installed: $prefix/$file"
done

home="$scratch/home" work="$scratch/work"
mkdir -p "$home" "$work" "$scratch/tmp" "$scratch/runtime"
chmod 700 "$scratch/runtime"
# Root runs the programs as nobody, who owns only the scratch home, work and temporary folders.
switch_user=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
  chmod 755 "$scratch"
  chown -R nobody "$home" "$work" "$scratch/tmp" "$scratch/runtime"
  switch_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
fi
snapshot() { (cd "$root" && find . -printf '%p %s %T@\n' | sort); }
before=$(snapshot)
# Only what a desktop session gives; no variable of the build or of this machine's user.
as_user() {
  (cd "$work" && "${switch_user[@]}" env -i PATH=/usr/bin:/bin HOME="$home" XDG_CONFIG_HOME="$home/.config" \
    XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache" XDG_STATE_HOME="$home/.local/state" \
    XDG_RUNTIME_DIR="$scratch/runtime" TMPDIR="$scratch/tmp" QT_QPA_PLATFORM=offscreen "$@")
}

[ ${#switch_user[@]} -eq 0 ] || [ "$(as_user id -un)" = nobody ] || fail "the programs do not run as nobody"
out=$(as_user "$installed/bin/aaren" --version 2>&1) || fail "aaren --version: $out"
[ "$(head -1 <<<"$out")" = "aaren $version (Aaren Studio)" ] || fail "aaren --version says: $out"
out=$(as_user "$installed/bin/aaren" demo 2>&1) || fail "aaren demo: $(tail -20 <<<"$out")"
grep -q "." <<<"$out" || fail "aaren demo printed nothing"

# A run trained with a bundled dataset records the version that wrote it.
out=$(as_user "$installed/bin/aaren" train --data "$installed/share/aaren-studio/datasets/R_AirPassengers.csv" \
  --model aaren --out "$home/runs/air" --seq-len 24 --horizon 12 --d-model 16 --heads 2 --layers 1 --d-ff 32 \
  --epochs 1 --batch 8 --seed 1 2>&1) || fail "aaren train: $(tail -5 <<<"$out")"
head -c 8192 "$home/runs/air/model.safetensors" | grep -aq "\"written_by\":\"Aaren Studio $version\"" ||
  fail "the run's checkpoint does not record Aaren Studio $version"

out=$(as_user "$installed/bin/aaren-studio" --version 2>&1) || fail "aaren-studio --version: $out"
[ "$(head -1 <<<"$out")" = "aaren-studio $version" ] || fail "aaren-studio --version says: $out"
grep -qxF "Bundled datasets: $installed/share/aaren-studio/datasets" <<<"$out" ||
  fail "the installed app does not find its datasets under the prefix: $out"
out=$(as_user "$installed/bin/aaren-studio" --screenshot welcome "$home/welcome.png" --size 1280x720 2>&1) ||
  fail "aaren-studio --screenshot welcome: $out"
[ -s "$home/welcome.png" ] || fail "no screenshot written"
# An installed lesson file opens (its id is the name without .lesson.json).
out=$(as_user "$installed/bin/aaren-studio" --lesson "$installed/share/aaren-studio/lessons/three-rnns.lesson.json" \
  --screenshot explore "$home/lesson.png" 2>&1) || fail "the installed lesson does not open: $out"

# The app's man page documents every option its --help lists (aaren's: tst_cli_declarations).
help=$(as_user "$installed/bin/aaren-studio" --help 2>&1 | grep -o '^  --[a-z-]*' | grep -v -- --help | tr -d ' ' | sort)
page=$(zcat "$installed/share/man/man1/aaren-studio.1.gz" | sed 's/\\-/-/g' | grep -o '^\\fB--[a-z-]*' | sed 's/^\\fB//' |
  grep -v -- --help | sort)
[ -n "$help" ] && [ "$help" = "$page" ] || fail "aaren-studio --help lists $(echo $help), its man page $(echo $page)"
if command -v groff >/dev/null 2>&1; then
  for program in aaren aaren-studio; do
    out=$(zcat "$installed/share/man/man1/$program.1.gz" | groff -man -Tutf8 -ww -z 2>&1)
    [ -z "$out" ] || fail "groff warns about $program.1: $out"
  done
fi

[ -z "$(ls -A "$work")" ] || fail "files were written into the current folder: $(ls -A "$work")"
[ "$(snapshot)" = "$before" ] || fail "the installed tree changed: $(diff <(echo "$before") <(snapshot) | head)"
echo "installed programs: ok"
