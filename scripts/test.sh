#!/usr/bin/env bash
# The one test command (`npm test`): typecheck, lint, format + file/function sizes and the build side by
# side, then unit + integration + component tests, then the end-to-end journeys in Chromium against the
# built app. Set TEST_DATABASE_URL to also run the integration tests against PostgreSQL.
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

# The type check as two jobs (the server side ~35 s of CPU, web and journeys ~28 s), so that both
# cores stay busy until lint, the longest single job, ends. (Run on into vitest's start instead, lint
# saved 11 s here and cost vitest ~40 s: every step is CPU-bound.)
side_by_side \
  "typecheck: packages, server, bench::npm run --silent typecheck:server" \
  "typecheck: web, journeys::npm run --silent typecheck:web" \
  "lint, format and sizes::npm run --silent lint && npm run --silent format:check && node scripts/check-sizes.mjs" \
  "build the web app and the server::npm run --silent build"
step "unit, integration and component tests (vitest)"
# A test worker that dies prints how and while doing what (apps/server/test/setup/worker-exits.ts),
# repeated here at the end; one that crashes in native code (a segfault says nothing, and Node's own
# handler keeps it out of the kernel log) leaves a core, whose backtrace names the crashing code.
deaths="${TMPDIR:-/tmp}/solterm-vitest-workers/deaths.log"
rm -f "$deaths" core core.[0-9]*
status=0
(ulimit -c unlimited 2>/dev/null || true; exec npx vitest run) || status=$?
if [ "$status" != 0 ]; then
  [ -f "$deaths" ] && cat "$deaths" >&2
  for core in core core.[0-9]*; do
    [ -f "$core" ] || continue
    kept="$(mktemp -d)/$core"
    mv "$core" "$kept"
    echo "a process crashed: its core is $kept" >&2
    if command -v gdb >/dev/null; then
      gdb -batch -q -ex 'bt 40' "$(command -v node)" "$kept" 2>&1 | grep -E '^(#|Program terminated|Core was)' >&2
    fi
  done
  exit "$status"
fi
step "end-to-end journeys (Playwright + Chromium)"
bash scripts/ensure-chromium.sh
npx playwright test --project=journeys
