#!/bin/sh
# Installs Debian's chromium for the browser tests (playwright-core drives it). Idempotent: does nothing
# when /usr/bin/chromium is already there. Needs root (or sudo) and apt; prints why when it cannot.
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "chromium present: $("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM")"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium and make it $CHROMIUM" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "ensure-chromium: $CHROMIUM is missing; run as root: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi

echo "installing chromium with apt-get (about half a minute)"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends chromium
"$CHROMIUM" --version
