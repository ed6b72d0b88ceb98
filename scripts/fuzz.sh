#!/usr/bin/env bash
# Runs every cargo-fuzz target (or the ones named) for SECONDS each, one after the other, from
# its seeds in fuzz/corpus/<target>/ with its dictionary fuzz/dict/<target>.dict. New inputs
# go to fuzz/work/<target>/ (the seeds stay as they are), findings to fuzz/artifacts/<target>/,
# libFuzzer's log to fuzz/work/<target>.log; the summary line of each run is printed (execs per
# second, coverage, corpus size).
#
#   scripts/fuzz.sh [-f FORKS] [SECONDS] [TARGET...]    (default: 60 seconds, every target)
#
# cargo-fuzz needs nightly features: with a nightly toolchain installed it is used, else (or
# with FUZZ_TOOLCHAIN=stable) the stable one with RUSTC_BOOTSTRAP=1. FUZZ_SANITIZER picks the sanitizer (default none: the
# crates have no unsafe code outside the JIT, whose generated code no sanitizer instruments).
# The seeds and fuzz/regressions/ replay on stable with `cargo test -p dxso-fuzz --test smoke`;
# a finding, once fixed, belongs in fuzz/regressions/<target>/.
set -uo pipefail

forks=0
if [[ "${1:-}" == "-f" ]]; then
    forks="$2"
    shift 2
fi
seconds="${1:-60}"
[[ $# -gt 0 ]] && shift
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz" || exit 2
fuzz=(cargo fuzz)
if [[ "${FUZZ_TOOLCHAIN:-}" != stable ]] && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    fuzz=(cargo +nightly fuzz)
else
    export RUSTC_BOOTSTRAP=1
fi
sanitizer="${FUZZ_SANITIZER:-none}"
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    mapfile -t targets < <("${fuzz[@]}" list)
fi
"${fuzz[@]}" build -s "$sanitizer" || exit 2

status=0
for t in "${targets[@]}"; do
    mkdir -p "work/$t" "artifacts/$t"
    extra=()
    [[ -f "dict/$t.dict" ]] && extra+=("-dict=dict/$t.dict")
    [[ "$forks" -gt 0 ]] && extra+=("-fork=$forks")
    echo "== $t: ${seconds}s from $(find "corpus/$t" -type f 2>/dev/null | wc -l) seeds"
    "${fuzz[@]}" run -s "$sanitizer" "$t" "work/$t" "corpus/$t" -- \
        -max_total_time="$seconds" -artifact_prefix="artifacts/$t/" -print_final_stats=1 \
        "${extra[@]}" >"work/$t.log" 2>&1
    grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|average_exec_per_sec)" \
        "work/$t.log" | tail -4
    if compgen -G "artifacts/$t/*" >/dev/null; then
        echo "!! $t: findings in fuzz/artifacts/$t/ (log: fuzz/work/$t.log)"
        status=1
    fi
done
exit $status
