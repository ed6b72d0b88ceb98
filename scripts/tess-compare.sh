#!/usr/bin/env bash
# Compares the tessellation output of two dxso binaries byte for byte: the OBJ and JSON of
# `dxso tessellate --teapot` at several segment counts, and JSON patches of every basis and
# degree 1 to 5 (the forbidden ones compare their errors), both edge styles, uniform (grid)
# and per-edge (stitched) segments, with and without degenerate rows (poles).
#
#   scripts/tess-compare.sh BEFORE_DXSO AFTER_DXSO
#
# Exit status 0 when every output matches, 1 when one differs (it is named), 2 on usage.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 BEFORE_DXSO AFTER_DXSO" >&2
    exit 2
fi
before=$1 after=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=0 differ=0

# Runs one case with both binaries and compares standard output, standard error (minus the
# program name) and the exit status.
compare() {
    local name=$1
    shift
    local side
    for side in before after; do
        local bin=$before
        [ $side = after ] && bin=$after
        "$bin" "$@" >"$work/$side.out" 2>"$work/$side.err"
        echo "exit $?" >>"$work/$side.out"
    done
    cases=$((cases + 1))
    if ! cmp -s "$work/before.out" "$work/after.out" || ! cmp -s "$work/before.err" "$work/after.err"; then
        echo "DIFFERS: $name ($*)"
        differ=$((differ + 1))
    fi
}

for segs in 1 3 5.5 8 16 64; do
    compare "teapot obj $segs" tessellate --teapot --segments "$segs" -o -
    compare "teapot json $segs" tessellate --teapot --segments "$segs" --json
done

# One control point: a deterministic, irregular surface over the grid (x along the row, y
# down the rows, z a bumpy height); `pole` collapses the first and last rows to one point.
patch() {
    local basis=$1 degree=$2 width=$3 height=$4 segments=$5 style=$6 pole=$7
    awk -v b="$basis" -v d="$degree" -v w="$width" -v h="$height" -v s="$segments" \
        -v e="$style" -v pole="$pole" 'BEGIN {
        printf "{\"basis\": \"%s\", \"degree\": %d, \"width\": %d, \"height\": %d, ", b, d, w, h
        printf "\"segments\": [%s], \"edge_style\": \"%s\", \"control_points\": [", s, e
        for (r = 0; r < h; r++) for (c = 0; c < w; c++) {
            x = c + 0.37 * sin(3.1 * r + 1.7 * c); y = r + 0.29 * cos(2.3 * c - r)
            z = 0.8 * sin(0.9 * c * r + c) - 0.35 * r
            if (pole == 1 && (r == 0 || r == h - 1)) { x = 0.5 * w; y = r; z = 1.25 }
            printf "%s[%.6f, %.6f, %.6f]", (r || c) ? ", " : "", x, y, z
        }
        print "]}"
    }'
}

for basis in bezier bspline catmull_rom; do
    for degree in 1 2 3 4 5; do
        case $basis in
        bezier) width=$((2 * degree + 1)) height=$((degree + 1)) ;;
        bspline) width=$((degree + 3)) height=$((degree + 2)) ;;
        catmull_rom) width=6 height=5 ;;
        esac
        for style in discrete continuous; do
            for segments in "8, 8, 8, 8" "16, 16, 16, 16" "3.5, 3.5, 3.5, 3.5" "2, 3, 4.5, 5" "1, 1, 1, 1"; do
                for pole in 0 1; do
                    f="$work/patch.json"
                    patch $basis $degree $width $height "$segments" $style $pole >"$f"
                    name="$basis d$degree $style [$segments] pole=$pole"
                    compare "$name obj" tessellate "$f" -o -
                    compare "$name json" tessellate "$f" --json
                done
            done
        done
    done
done

echo "$((cases - differ))/$cases outputs identical"
[ $differ -eq 0 ]
