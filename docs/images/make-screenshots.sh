#!/bin/sh
# Regenerates the screenshots in docs/images from the current source:
#   trace.png    `queens-sat trace 6 --learning --format html`, opened at its first learned clause
#   heatmap.png  `queens-sat count 8 --heatmap` (the SVG is 742 x 588 pixels)
# Needs cargo and Debian's chromium (headless). Run from anywhere: sh docs/images/make-screenshots.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
images="$root/docs/images"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cargo build --release --quiet --manifest-path "$root/Cargo.toml"
target=$(cargo metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" |
    sed 's/.*"target_directory":"\([^"]*\)".*/\1/')
qs="$target/release/queens-sat"

# shot PAGE FRAGMENT OUTPUT [SIZE]: a screenshot (default 1200 x 800) of PAGE opened at
# #FRAGMENT.
shot() {
    chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --user-data-dir="$tmp/profile" --hide-scrollbars --window-size="${4:-1200,800}" \
        --screenshot="$3" "file://$1#$2" 2>/dev/null
}

"$qs" trace 6 --learning --format html -o "$tmp/trace.html"
step=$("$qs" trace 6 --learning | grep -m1 ' learn ' | awk '{print $1}')
shot "$tmp/trace.html" "step=$step" "$images/trace.png"
echo "wrote $images/trace.png (step $step)"

"$qs" count 8 --heatmap "$tmp/heatmap.svg" >/dev/null
shot "$tmp/heatmap.svg" "" "$images/heatmap.png" 742,588
echo "wrote $images/heatmap.png"
