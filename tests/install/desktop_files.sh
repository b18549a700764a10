#!/usr/bin/env bash
# The desktop entry, the AppStream metadata and the lesson MIME type, checked by the validators
# the desktops themselves use (the set-up installs them for the tests; exit 77, a skip, where one
# is missing), and against each other: the entry opens the lesson type, names the installed icon
# and runs an installed program; the MIME database built from the type claims *.lesson.json.
# Usage: desktop_files.sh SOURCE_DIR BUILD_DIR VERSION
set -u
source_dir=$1 build=$2 version=$3
fail() { echo "FAIL: $*"; exit 1; }
for tool in desktop-file-validate appstreamcli update-mime-database; do
  command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool is not installed (desktop-file-utils, appstream, shared-mime-info)"; exit 77; }
done
id=org.aarenstudio.AarenStudio
desktop="$source_dir/packaging/$id.desktop" mime="$source_dir/packaging/aaren-studio-mime.xml"
metainfo="$build/packaging/$id.metainfo.xml"

out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
grep -q "error" <<<"$out" && fail "desktop-file-validate: $out"
out=$(appstreamcli validate --no-net "$metainfo" 2>&1) || fail "appstreamcli validate: $out"

grep -qx "Exec=aaren-studio %f" "$desktop" || fail "the entry does not start aaren-studio with the file opened"
grep -qx "Icon=$id" "$desktop" || fail "the entry's icon is not $id"
grep -q "^MimeType=.*application/x-aaren-lesson;" "$desktop" || fail "the entry does not open lessons"
grep -q "^Categories=Education;Science;" "$desktop" || fail "the entry is not in Education and Science"
grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" || fail "the metainfo names another entry"
grep -q "<release version=\"$version\"" "$metainfo" ||
  fail "the metainfo's release is not the app's version"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/mime/packages"
cp "$mime" "$scratch/mime/packages/$id.xml"
out=$(update-mime-database "$scratch/mime" 2>&1) || fail "update-mime-database: $out"
grep -q "application/x-aaren-lesson:\*\.lesson\.json" "$scratch/mime/globs2" || fail "no *.lesson.json glob: $(cat "$scratch/mime/globs2")"
[ -f "$scratch/mime/application/x-aaren-lesson.xml" ] || fail "the lesson type was not built"
echo "desktop files: ok"
