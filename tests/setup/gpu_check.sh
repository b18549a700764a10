#!/usr/bin/env bash
# scripts/gpu-check where no GPU can be seen (nvidia-smi missing, or listing no GPU): it stops at
# once with exit code 1 and a message saying why, builds nothing and writes no results file.
set -u
root=$1
fail() { echo "FAIL: $*"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
results="$scratch/gpu-results.md"

out=$(AAREN_NVIDIA_SMI=/nonexistent/nvidia-smi AAREN_GPU_RESULTS="$results" AAREN_GPU_BUILD="$scratch/build" \
  "$root/scripts/gpu-check" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "exit code $rc without nvidia-smi: $out"
grep -q "no NVIDIA GPU here (/nonexistent/nvidia-smi not found)" <<<"$out" || fail "no reason given: $out"

# An nvidia-smi that lists no GPU (a driver without a device).
printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$scratch/nvidia-smi"
chmod +x "$scratch/nvidia-smi"
out=$(AAREN_NVIDIA_SMI="$scratch/nvidia-smi" AAREN_GPU_RESULTS="$results" AAREN_GPU_BUILD="$scratch/build" \
  "$root/scripts/gpu-check" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "exit code $rc with no GPU listed: $out"
grep -q "lists no GPU (No devices were found)" <<<"$out" || fail "no reason given: $out"

[ ! -e "$results" ] || fail "a results file was written without a GPU"
[ ! -e "$scratch/build" ] || fail "a build was started without a GPU"
echo "gpu-check without a GPU: ok"
