#!/usr/bin/env bash
# Regenerates docs/images/heatmap.png: the heatmap of n = 8 (`queens-sat count 8 --heatmap`)
# as chromium renders it. Needs cargo and chromium (Debian's package); run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo run --quiet --release -- count 8 --heatmap "$tmp/heatmap.svg" > /dev/null
# The SVG is 742 x 588 pixels.
chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=742,588 \
  --screenshot="$PWD/docs/images/heatmap.png" "file://$tmp/heatmap.svg" 2> "$tmp/log" ||
  { cat "$tmp/log" >&2; exit 1; }
ls -l docs/images/heatmap.png
