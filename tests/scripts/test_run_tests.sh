#!/usr/bin/env bash
# scripts/run-tests and scripts/sanitize's time box, with every stage a stand-in (install-deps,
# build, fuzz; cmake and ctest on PATH): the wall time per stage printed at the end, also when
# a stage fails (the checking stages beside the suite then stopped, not left running), and an
# ASan/UBSan stage that runs out of budget naming the tests that did not run, whether the build
# or the tests ran out. Nothing is built; about 15 s.
set -euo pipefail
src=${STRATA_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# A scratch tree: the real run-tests and sanitize, stand-ins for the scripts they call.
mkdir -p "$work/repo/scripts" "$work/bin" "$work/build"
cp "$src/scripts/run-tests" "$src/scripts/sanitize" "$work/repo/scripts/"
for stage in install-deps build; do
  printf '#!/bin/sh\necho "stand-in %s"\n' "$stage" >"$work/repo/scripts/$stage"
done
# fuzz: takes STUB_FUZZ_SECONDS (it runs beside the suite, in the background).
printf '#!/bin/sh\necho "stand-in fuzz"\nsleep "${STUB_FUZZ_SECONDS:-0}"\n' >"$work/repo/scripts/fuzz"
# cmake: configuring makes the build directory, building takes STUB_BUILD_SECONDS.
cat >"$work/bin/cmake" <<'STUB'
#!/bin/bash
for a in "$@"; do [ "$a" = --build ] && { sleep "${STUB_BUILD_SECONDS:-0}" >/dev/null; exit 0; }; done
while [ $# -gt 0 ]; do [ "$1" = -B ] && mkdir -p "$2"; shift; done
exit 0
STUB
# ctest: three tests labelled asan; the suite's run exits STUB_CTEST_RC; the asan run prints a
# result line per test, STUB_TEST_SECONDS apart.
cat >"$work/bin/ctest" <<'STUB'
#!/bin/bash
tests=(tst_alpha tst_beta tst_gamma)
case " $* " in
*" --show-only=json-v1 "*)
  printf '{"tests":['
  sep=""
  for t in "${tests[@]}"; do
    printf '%s{"name":"%s","properties":[{"name":"LABELS","value":["asan"]}]}' "$sep" "$t"; sep=,
  done
  printf ']}\n'
  ;;
*" -N "*)
  for i in "${!tests[@]}"; do echo "  Test  #$((i + 1)): ${tests[i]}"; done
  echo "Total Tests: ${#tests[@]}"
  ;;
*" -L "*)
  for i in "${!tests[@]}"; do
    echo "$((i + 1))/${#tests[@]} Test  #$((i + 1)): ${tests[i]} ..........   Passed    0.01 sec"
    [ $((i + 1)) -lt ${#tests[@]} ] && sleep "${STUB_TEST_SECONDS:-0}" >/dev/null
  done
  echo "100% tests passed, 0 tests failed out of ${#tests[@]}"
  ;;
*)
  echo "stand-in suite"
  exit "${STUB_CTEST_RC:-0}"
  ;;
esac
STUB
chmod +x "$work/repo/scripts/"* "$work/bin/"*

# run NAME [VAR=VALUE...]: run-tests with the stand-ins; sets rc and err (its stderr).
run() {
  local name=$1
  shift
  set +e
  env PATH="$work/bin:$PATH" STRATA_BUILD_DIR="$work/build" STRATA_SANITIZE_BUILD_DIR="$work/build-asan" \
    "$@" "$work/repo/scripts/run-tests" >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  set -e
  err=$(cat "$work/$name.err")
  out=$(cat "$work/$name.out")  # the checking stages' own output, printed after the suite's
}
# stage_line NAME: the line of the summary for that stage.
stage_line() { sed -n '/^run-tests: wall time per stage$/,$p' <<<"$err" | grep -E "^  $1 " || true; }

# 1. Every stage runs and passes: rc 0, one line per stage with its seconds, and the total.
run all-pass
[ $rc -eq 0 ] || fail "all-pass: rc $rc: $err"
for stage in install build ctest fuzz sanitizer total; do
  grep -qE "^  $stage +[0-9]+s" <<<"$(stage_line "$stage")" || fail "all-pass: no time for $stage in: $err"
done

# 2. Fuzz and sanitizer left out: said so, not timed.
run left-out STRATA_FUZZ=0 STRATA_ASAN=0
[ $rc -eq 0 ] || fail "left-out: rc $rc"
grep -q "left out (STRATA_FUZZ=0)" <<<"$(stage_line fuzz)" || fail "left-out: fuzz line: $err"
grep -q "left out (STRATA_ASAN=0)" <<<"$(stage_line sanitizer)" || fail "left-out: sanitizer line: $err"

# 3. The suite fails while the checking stages still run beside it: run-tests exits with
# ctest's status, stops them (their stage lines say so), the times still print.
run ctest-fails STUB_CTEST_RC=8 STUB_FUZZ_SECONDS=37
[ $rc -eq 8 ] || fail "ctest-fails: rc $rc, want 8"
grep -q "stopped: exit 8" <<<"$(stage_line ctest)" || fail "ctest-fails: ctest line: $err"
grep -q "stopped: the suite failed" <<<"$(stage_line fuzz)" || fail "ctest-fails: fuzz line: $err"
grep -q "stopped: the suite failed" <<<"$(stage_line sanitizer)" || fail "ctest-fails: sanitizer line: $err"
pgrep -fx "sleep 37" >/dev/null && fail "ctest-fails: the fuzz stand-in still runs after run-tests ended"
grep -qE "^  total +[0-9]+s" <<<"$err" || fail "ctest-fails: no total: $err"

# 4. The ASan/UBSan build runs out of budget: a warning (rc 0) naming all three tests.
run build-over STRATA_SANITIZE_BUDGET=2 STUB_BUILD_SECONDS=8
[ $rc -eq 0 ] || fail "build-over: rc $rc: $err"
grep -q "3 of 3 tests did not run: tst_alpha tst_beta tst_gamma" <<<"$out" || fail "build-over: sanitize: $out"
grep -q "WARNING.*3 tests did not run under ASan/UBSan: tst_alpha tst_beta tst_gamma" <<<"$err" ||
  fail "build-over: run-tests warning: $err"
grep -q "over its 2s budget: 3 tests did not run: tst_alpha tst_beta tst_gamma" <<<"$(stage_line sanitizer)" ||
  fail "build-over: sanitizer line: $err"

# 5. The tests run out of budget after the first: the other two are named, the first is not.
run tests-over STRATA_SANITIZE_BUDGET=5 STUB_TEST_SECONDS=10
[ $rc -eq 0 ] || fail "tests-over: rc $rc: $err"
grep -q "2 of 3 tests did not run: tst_beta tst_gamma" <<<"$out" || fail "tests-over: sanitize: $out"
grep -q "over its 5s budget: 2 tests did not run: tst_beta tst_gamma" <<<"$(stage_line sanitizer)" ||
  fail "tests-over: sanitizer line: $err"

echo "run-tests: stage times printed (also after a failure); an over-budget sanitizer stage names what did not run"
