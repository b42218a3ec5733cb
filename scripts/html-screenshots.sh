#!/usr/bin/env bash
# Makes the HTML report screenshots in docs/images from the bundled samples, with headless Chromium (Debian's
# `chromium`; `bash scripts/setup.sh --with-chromium` installs it). A screenshot shows the top of a page, so for
# a later section the script keeps the report's head (its style) and that one section.
#   bash scripts/html-screenshots.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/bletrace}
command -v chromium >/dev/null 2>&1 || { echo "html-screenshots: chromium is not installed" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p docs/images

# section REPORT ID OUT: the report's head and the section whose heading has id ID.
section() {
  awk -v id="$2" '
    /^<body>/ { print; keep = 0; next }
    /^<h2 id="/ { keep = index($0, "<h2 id=\"" id "\"") == 1 }
    NR == 1 { keep = 1 }
    keep { print }
  ' "$1" > "$3"
}

# shot PAGE PNG HEIGHT
shot() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" \
    --window-size=1100,"$3" --screenshot="$2" "file://$1" >/dev/null 2>&1
  echo "html-screenshots: wrote $2" >&2
}

"$bin" analyze samples/gatt-session.btsnoop --format html > "$work/gatt.html"
"$bin" analyze samples/scan.btsnoop --format html > "$work/scan.html"
shot "$work/gatt.html" docs/images/html-report.png 1500
section "$work/gatt.html" charts "$work/charts.html"
shot "$work/charts.html" docs/images/html-charts.png 1150
section "$work/scan.html" devices "$work/devices.html"
shot "$work/devices.html" docs/images/html-rssi.png 1000
