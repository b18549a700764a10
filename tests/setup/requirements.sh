#!/usr/bin/env bash
# The set-up's check before configuring: on this machine (set up by scripts/test) nothing is
# missing; where nothing is installed, every requirement is named with its Debian package; and
# every package it can name is one the set-up installs.
set -u
source "$1/scripts/lib/setup.sh"
fail() { echo "FAIL: $*"; exit 1; }

report=$(aaren_missing_requirements) || fail "missing on a machine the set-up prepared: $report"

report=$(AAREN_REQUIREMENT_DIRS=/nonexistent aaren_missing_requirements) && fail "nothing reported missing without any folder"
for entry in "${AAREN_REQUIRED_FILES[@]}"; do
  grep -qF "  ${entry%%:*} (Debian package ${entry#*:})" <<<"$report" || fail "'${entry%%:*}' not named with its package: $report"
done

for entry in "${AAREN_REQUIRED_COMMANDS[@]}" "${AAREN_REQUIRED_FILES[@]}"; do
  package=${entry#*:}
  printf '%s\n' "${AAREN_PACKAGES[@]}" | grep -qxF "$package" || fail "'$package' is checked for but not installed by the set-up"
done

message=$( (AAREN_REQUIREMENT_DIRS=/nonexistent aaren_check_requirements) 2>&1) && fail "the check passed without any folder"
grep -q "apt-get install -y --no-install-recommends .*qt6-charts-dev" <<<"$message" || fail "no install command: $message"
echo "requirements: ok (${#AAREN_REQUIRED_COMMANDS[@]} commands, ${#AAREN_REQUIRED_FILES[@]} files)"
