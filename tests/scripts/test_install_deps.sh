#!/usr/bin/env bash
# scripts/install-deps, every path through it, with apt-get, dpkg-query, id and kubectl
# replaced by stand-ins on PATH (no package is installed, nothing outside a scratch dir is
# written). What this cannot show: a real apt-get on a bare Debian 12 (no mirror here).
set -euo pipefail
src=${STRATA_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
script=$src/scripts/install-deps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Stand-ins. STUB_MISSING: packages dpkg-query calls not installed; STUB_UID: what id -u says;
# STUB_APT_FAIL: "update" or "install" fails with 100; STUB_KUBECTL=1 puts a kubectl on PATH.
# apt-get logs its arguments and what policy-rc.d says while it runs.
make_stubs() {
  local bin=$1
  mkdir -p "$bin"
  cat >"$bin/dpkg-query" <<'STUB'
#!/bin/bash
p=${!#}
for m in $STUB_MISSING; do [ "$m" = "$p" ] && { echo "dpkg-query: no packages found matching $p" >&2; exit 1; }; done
printf 'install ok installed'
STUB
  cat >"$bin/id" <<'STUB'
#!/bin/bash
[ "$1" = -u ] && { echo "$STUB_UID"; exit 0; }
exec /usr/bin/id "$@"
STUB
  cat >"$bin/apt-get" <<'STUB'
#!/bin/bash
verb=update; for a in "$@"; do [ "$a" = install ] && verb=install; done
if [ -x "$STRATA_POLICY_RC_D" ]; then "$STRATA_POLICY_RC_D" x start; policy="policy-rc.d exit $?"; else policy="no policy-rc.d"; fi
echo "apt-get $* [$policy]" >>"$STUB_LOG"
[ "${STUB_APT_FAIL:-}" = "$verb" ] && exit 100
exit 0
STUB
  chmod +x "$bin"/*
  # Only these from the machine: a kubectl installed here must not be seen.
  local tool
  for tool in bash env grep chmod rm cat; do ln -s "$(command -v "$tool")" "$bin/$tool"; done
}

# run NAME: runs install-deps with the stand-ins; sets rc, out, err, log.
run() {
  local case_dir=$work/$1
  mkdir -p "$case_dir"
  make_stubs "$case_dir/bin"
  [ "${STUB_KUBECTL:-0}" = 1 ] && { printf '#!/bin/sh\n' >"$case_dir/bin/kubectl"; chmod +x "$case_dir/bin/kubectl"; }
  : >"$case_dir/apt.log"
  set +e
  PATH="$case_dir/bin" STUB_LOG="$case_dir/apt.log" STRATA_POLICY_RC_D="$case_dir/policy-rc.d" \
    "$script" >"$case_dir/out" 2>"$case_dir/err"
  rc=$?
  set -e
  out=$(cat "$case_dir/out"); err=$(cat "$case_dir/err"); log=$(cat "$case_dir/apt.log")
  policy=$case_dir/policy-rc.d
}

# 1. Everything there: silent, 0, apt-get never runs.
STUB_MISSING="" STUB_UID=0 STUB_KUBECTL=1 run all-present
[ $rc -eq 0 ] && [ -z "$out$err$log" ] || fail "all present: rc=$rc out=$out err=$err log=$log"

# 2. Missing packages, not root: 1, the list, no apt-get.
STUB_MISSING="cmake libssh-dev" STUB_UID=1000 STUB_KUBECTL=1 run not-root
[ $rc -eq 1 ] || fail "not root: rc=$rc"
grep -q "missing packages (cmake libssh-dev); run as root" <<<"$err" || fail "not root: $err"
[ -z "$log" ] || fail "not root ran apt-get: $log"

# 3. Root on a plain Debian 12 (no policy-rc.d): one is created for the install, says 101,
#    and is gone afterwards; a message for each step; 0.
STUB_MISSING="cmake" STUB_UID=0 STUB_KUBECTL=1 run plain
[ $rc -eq 0 ] || fail "plain: rc=$rc err=$err"
[ ! -e "$policy" ] || fail "plain: policy-rc.d left behind"
grep -q "apt-get update -qq \[policy-rc.d exit 101\]" <<<"$log" || fail "plain: $log"
grep -q "apt-get install -y -qq --no-install-recommends cmake \[policy-rc.d exit 101\]" <<<"$log" || fail "plain: $log"
[ "$out" = $'install-deps: updating the package lists\ninstall-deps: installing 1 packages: cmake\ninstall-deps: done' ] ||
  fail "plain: messages: $out"

# 4. Root in a Docker-built image (policy-rc.d there): left exactly as it was, and 0 (the
#    first run used to exit 1 here: `[ created = 1 ] && rm` was the script's last status).
mkdir -p "$work/docker"
printf '#!/bin/sh\nexit 101\n# docker\n' >"$work/docker/policy-rc.d"; chmod 755 "$work/docker/policy-rc.d"
before=$(sha256sum <"$work/docker/policy-rc.d")
STUB_MISSING="cmake" STUB_UID=0 STUB_KUBECTL=1 run docker
[ $rc -eq 0 ] || fail "docker: rc=$rc err=$err"
[ -x "$policy" ] && [ "$(sha256sum <"$policy")" = "$before" ] || fail "docker: policy-rc.d changed or removed"

# 5. apt-get install fails: its status is the script's, and the policy it made is removed.
STUB_MISSING="cmake" STUB_UID=0 STUB_KUBECTL=1 STUB_APT_FAIL=install run install-fails
[ $rc -eq 100 ] || fail "install fails: rc=$rc"
[ ! -e "$policy" ] || fail "install fails: policy-rc.d left behind"

# 6. apt-get update fails: same.
STUB_MISSING="cmake" STUB_UID=0 STUB_KUBECTL=1 STUB_APT_FAIL=update run update-fails
[ $rc -eq 100 ] || fail "update fails: rc=$rc"
[ ! -e "$policy" ] || fail "update fails: policy-rc.d left behind"
grep -q install <<<"$log" && fail "update fails: install ran anyway: $log"

# 7. No kubectl anywhere: Debian's kubernetes-client is installed; with one, it is not.
STUB_MISSING="" STUB_UID=0 STUB_KUBECTL=0 run no-kubectl
[ $rc -eq 0 ] || fail "no kubectl: rc=$rc"
grep -q "install .* kubernetes-client " <<<"$log" || fail "no kubectl: $log"
STUB_MISSING="cmake" STUB_UID=0 STUB_KUBECTL=1 run kubectl-present
grep -q kubernetes-client <<<"$log" && fail "kubectl present: $log"

echo "install-deps: 8 paths checked (all present, not root, plain, Docker policy-rc.d, install and update failures, kubectl or kubernetes-client)"
