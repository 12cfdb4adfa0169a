#!/usr/bin/env bash
# The one test command (`npm test`): typecheck, lint, unit + integration + component tests, then the
# end-to-end journeys in Chromium against the built app. Set TEST_DATABASE_URL to also run the
# integration tests against PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m▶ %s\033[0m\n' "$1"; }

step "typecheck"
npm run --silent typecheck
step "lint"
npm run --silent lint
step "format"
npm run --silent format:check
step "unit, integration and component tests (vitest)"
npx vitest run
step "build the web app and the server"
npm run --silent build
step "end-to-end journeys (Playwright + Chromium)"
bash scripts/ensure-chromium.sh
npx playwright test --project=journeys
