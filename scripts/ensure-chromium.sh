#!/usr/bin/env bash
# Finds a Chromium for the end-to-end tests. Playwright's own browser download does not work on these
# machines, so we use Debian's package: installed here when running as root on Debian, else we stop
# with a clear message.
set -euo pipefail
candidate="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$candidate" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && [ -f /etc/debian_version ] && command -v apt-get >/dev/null; then
  echo "Chromium not found; installing Debian's chromium package (about 30 s)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] && exit 0
fi
echo "No Chromium found for the end-to-end tests. Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH." >&2
exit 1
