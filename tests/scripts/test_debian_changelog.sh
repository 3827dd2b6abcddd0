#!/usr/bin/env bash
# packaging/debian_changelog.cmake on a Keep-a-Changelog file with what trips CMake lists and
# Debian changelogs (";" and "[", nested bullets, prose, long lines, [Unreleased], link
# definitions, dates in January and on a leap day): the exact Debian changelog (right
# weekdays included), which dpkg-parsechangelog reads back; a file without a release is refused.
set -euo pipefail
src=${STRATA_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
convert() { cmake -DCHANGELOG="$1" -DOUTPUT="$2" -DSOURCE=strata "-DMAINTAINER=Ops Team <ops@example.org>" \
  -P "$src/packaging/debian_changelog.cmake"; }

cat >"$work/CHANGELOG.md" <<'MD'
# Changelog

Preamble, left out.

## [Unreleased]
- Not released yet; left out [until it is.

## [0.2.0] - 2024-02-29

Prose before the sections.

### Console (`strata`)
- One; two [three
  and a continuation line that makes this item far longer than seventy-nine columns in all.
  - A nested item
    continued.
- Short.

## [0.1.0] - 2026-01-01
- First.

[0.2.0]: https://example.org/compare/v0.1.0...v0.2.0
MD
cat >"$work/want" <<'TXT'
strata (0.2.0) unstable; urgency=medium

  * Prose before the sections.
  * Console (`strata`):
    - One; two [three and a continuation line that makes this item far longer
      than seventy-nine columns in all.
      + A nested item continued.
    - Short.

 -- Ops Team <ops@example.org>  Thu, 29 Feb 2024 00:00:00 +0000

strata (0.1.0) unstable; urgency=medium

  * First.

 -- Ops Team <ops@example.org>  Thu, 01 Jan 2026 00:00:00 +0000
TXT
convert "$work/CHANGELOG.md" "$work/got"
diff -u "$work/want" "$work/got" || fail "debian_changelog.cmake: output differs (above)"
# Any warning fails (a malformed line or date); the weekdays themselves are checked by the diff.
parsed=$(dpkg-parsechangelog -l "$work/got" --format rfc822 --all 2>"$work/parse-err")
[ ! -s "$work/parse-err" ] || fail "dpkg-parsechangelog: $(cat "$work/parse-err")"
entries=$(sed -nE 's/^(Version|Date): //p' <<<"$parsed" | paste -sd '|')
[ "$entries" = "0.2.0|Thu, 29 Feb 2024 00:00:00 +0000|0.1.0|Thu, 01 Jan 2026 00:00:00 +0000" ] ||
  fail "dpkg-parsechangelog read: $entries"

printf '# Changelog\n\n## [Unreleased]\n- Only this.\n' >"$work/unreleased.md"
if convert "$work/unreleased.md" "$work/none" 2>"$work/err"; then fail "a changelog without a release was accepted"; fi
grep -q "has no released version" "$work/err" || fail "refusal: $(cat "$work/err")"
echo "debian_changelog.cmake: exact output, read back by dpkg-parsechangelog; no release refused"
