#!/usr/bin/env bash
# The one test command (`npm test`): lint, format + file/function sizes, the type check and the build side
# by side, then unit + integration + component tests (lint may still be running), then the end-to-end
# journeys in Chromium against the built app. Set TEST_DATABASE_URL to also run the integration tests
# against PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m▶ %s\033[0m\n' "$1"; }

# Runs each "name::command" at once (each is one single-threaded tool), prints each one's output
# under its name with its time, and fails if any failed.
side_by_side() {
  local dir names=() pids=() failed=()
  dir="$(mktemp -d)"
  for job in "$@"; do
    local name="${job%%::*}" command="${job#*::}"
    names+=("$name")
    (
      start=$SECONDS
      status=0
      bash -c "$command" >"$dir/${#names[@]}.log" 2>&1 || status=$?
      echo "$((SECONDS - start))" >"$dir/${#names[@]}.time"
      exit "$status"
    ) &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    local status=0
    wait "${pids[$i]}" || status=$?
    step "${names[$i]} ($(cat "$dir/$((i + 1)).time") s)"
    cat "$dir/$((i + 1)).log"
    [ "$status" = 0 ] || failed+=("${names[$i]}")
  done
  rm -rf "$dir"
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "failed: ${failed[*]}" >&2
    return 1
  fi
}

# Lint (with format and sizes) is the longest single-threaded job: it starts first and runs on past
# the type check and the build into vitest's start, whose global setup leaves a core partly idle.
# Its output and verdict are printed after vitest, and a failure stops the run before the journeys.
lint_log="$(mktemp)"
lint_start=$SECONDS
(npm run --silent lint && npm run --silent format:check && node scripts/check-sizes.mjs) >"$lint_log" 2>&1 &
lint_pid=$!
trap 'kill "$lint_pid" 2>/dev/null || true' EXIT

# The type check as two jobs (the server side ~35 s of CPU, web and journeys ~28 s), beside the build.
side_by_side \
  "typecheck: packages, server, bench::npm run --silent typecheck:server" \
  "typecheck: web, journeys::npm run --silent typecheck:web" \
  "build the web app and the server::npm run --silent build"
step "unit, integration and component tests (vitest)"
vitest_status=0
npx vitest run || vitest_status=$?
lint_status=0
wait "$lint_pid" || lint_status=$?
step "lint, format and sizes (ended $((SECONDS - lint_start)) s after it started, beside the steps above)"
cat "$lint_log"
rm -f "$lint_log"
[ "$lint_status" = 0 ] || { echo "failed: lint, format and sizes" >&2; exit 1; }
[ "$vitest_status" = 0 ] || exit "$vitest_status"
step "end-to-end journeys (Playwright + Chromium)"
bash scripts/ensure-chromium.sh
npx playwright test --project=journeys
