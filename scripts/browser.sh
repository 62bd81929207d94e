#!/usr/bin/env bash
# Headless Chromium and its WebDriver from Debian's packages, for the browser
# tests (tests/web/test_browser.py). Nothing is downloaded from elsewhere: the
# browser tests skip, saying why, when these packages cannot be installed.
#
#   scripts/browser.sh install   install chromium + chromium-driver when missing (apt-get, as root)
#   scripts/browser.sh status    print where they are
set -euo pipefail

log() { printf '[browser] %s\n' "$*" >&2; }
have() { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }

case "${1:-status}" in
  install)
    if have; then exit 0; fi
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      log "chromium/chromium-driver missing and cannot apt-get them here (not root or no apt-get): browser tests will skip"
      exit 0
    fi
    log "apt-get install -y chromium chromium-driver (one-time; takes a minute)"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >&2; }; then
      log "apt-get install failed: browser tests will skip"
    fi
    ;;
  status)
    have && { command -v chromium; command -v chromedriver; } || { echo "not installed"; exit 1; }
    ;;
  *) echo "usage: $0 install|status" >&2; exit 2 ;;
esac
