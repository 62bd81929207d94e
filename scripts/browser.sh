#!/usr/bin/env bash
# Headless Chromium and its WebDriver from Debian's packages, for the browser
# tests (tests/web/test_browser*.py), and the Noto CJK fonts, so the pages in
# Japanese, Korean and Chinese are drawn in their own glyphs, not boxes
# (tests/web/test_browser_languages.py). Nothing is downloaded from elsewhere:
# the browser tests skip, saying why, when these packages cannot be installed.
#
#   scripts/browser.sh install   install chromium + chromium-driver + fonts-noto-cjk when missing (apt-get, as root)
#   scripts/browser.sh status    print where they are
set -euo pipefail

log() { printf '[browser] %s\n' "$*" >&2; }
have() { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }
have_fonts() { [ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto/NotoSansCJK-* >/dev/null 2>&1; }

case "${1:-status}" in
  install)
    packages=()
    have || packages+=(chromium chromium-driver)
    have_fonts || packages+=(fonts-noto-cjk)
    if [ ${#packages[@]} = 0 ]; then exit 0; fi
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      log "${packages[*]} missing and cannot apt-get them here (not root or no apt-get): browser tests will skip (or, without the fonts, fail on CJK pages)"
      exit 0
    fi
    log "apt-get install -y ${packages[*]} (one-time; takes a minute)"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >&2; }; then
      log "apt-get install failed: browser tests will skip"
    fi
    ;;
  status)
    have && { command -v chromium; command -v chromedriver; } || { echo "not installed"; exit 1; }
    have_fonts && echo "fonts-noto-cjk" || { echo "fonts-noto-cjk not installed"; exit 1; }
    ;;
  *) echo "usage: $0 install|status" >&2; exit 2 ;;
esac
