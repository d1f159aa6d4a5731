#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (no browser download from elsewhere): install it when it
# is missing and this machine can (root with apt-get); otherwise say that those tests will be skipped.
if command -v chromium >/dev/null; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null && exit 0
fi
echo "no Chromium here: the browser tests of the web page will be skipped" >&2
