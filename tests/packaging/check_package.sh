#!/usr/bin/env bash
# One check of the installed packages (unpacked by install_packages.sh into ROOT):
#   check_package.sh ROOT DEB_DIR VERSION CHECK
# Every check runs the installed files, never the build tree's.
set -euo pipefail
root=$1 debs=$2 version=$3 check=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
strata=$root/usr/bin/strata
burn=$root/usr/bin/strata-burn
[ -x "$strata" ] || fail "no $strata: did the packaging_install fixture run?"

case "$check" in
desktop-file)
  desktop-file-validate "$root/usr/share/applications/org.strata.Strata.desktop"
  icon=$(sed -n 's/^Icon=//p' "$root/usr/share/applications/org.strata.Strata.desktop")
  for size in 16 22 24 32 48 64 128 256 512; do
    png=$root/usr/share/icons/hicolor/${size}x${size}/apps/$icon.png
    [ -f "$png" ] || fail "no $size px icon $png"
    file "$png" | grep -q "PNG image data, $size x $size" || fail "$png is not $size x $size: $(file "$png")"
  done
  [ -f "$root/usr/share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "no scalable icon"
  echo "desktop file valid, icon $icon in 9 sizes and SVG"
  ;;
metainfo)
  metainfo=$root/usr/share/metainfo/org.strata.Strata.metainfo.xml
  appstreamcli validate --no-net --pedantic "$metainfo"
  grep -q "<project_license>Apache-2.0</project_license>" "$metainfo" || fail "licence id"
  grep -q "<release version=\"$version\"" "$metainfo" || fail "release $version missing"
  [ "$(grep -c '<screenshot' "$metainfo")" -ge 3 ] || fail "screenshots missing"
  ! grep -q "example\.org" "$metainfo" || fail "example.org in the metainfo"
  ;;
version)
  out=$("$strata" --version)
  [ "$out" = "strata $version" ] || fail "strata --version: '$out', want 'strata $version'"
  out=$("$burn" --version)
  case "$out" in "strata-burn $version "*) ;; *) fail "strata-burn --version: '$out'" ;; esac
  for deb in strata strata-burn; do
    v=$(dpkg-deb -f "$debs/${deb}_${version}_$(dpkg --print-architecture).deb" Version)
    [ "$v" = "$version" ] || fail "$deb package version $v"
  done
  echo "strata, strata-burn and both packages are $version"
  ;;
snapshot-help)
  out=$("$strata" snapshot --help)
  grep -q -- "--cluster <name>" <<<"$out" || fail "snapshot --help: $out"
  grep -q -- "--format <text|json>" <<<"$out" || fail "snapshot --help has no --format: $out"
  set +e
  err=$("$strata" snapshto 2>&1 >/dev/null); rc=$?
  set -e
  [ $rc -eq 2 ] || fail "strata snapshto exited $rc"
  grep -q 'did you mean "snapshot"' <<<"$err" || fail "no suggestion: $err"
  echo "snapshot --help ok; snapshto suggests snapshot"
  ;;
window)
  # The installed window starts, paints once and quits (20 s limit inside strata).
  HOME=$(mktemp -d) QT_QPA_PLATFORM=offscreen "$strata" --quit-after-first-paint
  echo "window painted offscreen"
  ;;
dependencies)
  arch=$(dpkg --print-architecture)
  deps=$(dpkg-deb -f "$debs/strata_${version}_$arch.deb" Depends)
  for lib in libqt6widgets6 libqt6charts6 libssh-4 libqt6keychain1 libqt6sql6-sqlite qt6-qpa-plugins; do
    grep -q "$lib" <<<"$deps" || fail "strata Depends lacks $lib: $deps"
  done
  burn_deps=$(dpkg-deb -f "$debs/strata-burn_${version}_$arch.deb" Depends)
  ! grep -qi "qt" <<<"$burn_deps" || fail "strata-burn depends on Qt: $burn_deps"
  ! ldd "$burn" | grep -qi "libqt" || fail "strata-burn links Qt"
  # Every library the installed programs load is found (a Depends gap shows here).
  ! ldd "$strata" "$burn" | grep -q "not found" || fail "missing libraries: $(ldd "$strata" "$burn" | grep 'not found')"
  echo "strata: $deps"
  echo "strata-burn: $burn_deps"
  ;;
man-pages)
  for page in strata strata-burn; do
    gz=$root/usr/share/man/man1/$page.1.gz
    [ -f "$gz" ] || fail "no $gz"
    warnings=$(zcat "$gz" | groff -man -Tutf8 -ww -z 2>&1)
    [ -z "$warnings" ] || fail "$page(1): $warnings"
  done
  # groff justifies lines ("strata  submit"): compare with blanks squeezed to one space.
  text=$(zcat "$root/usr/share/man/man1/strata.1.gz" | groff -man -Tutf8 2>/dev/null | col -b | tr -s ' \t' '  ')
  # One command a line: a subcommand's name has a blank ("burnin history").
  while IFS= read -r command; do
    grep -q "strata $command" <<<"$text" || fail "strata(1) has no section for $command"
  done < <("$strata" help --format json | python3 -c 'import json,sys; print("\n".join(c["name"] for c in json.load(sys.stdin)["commands"]))')
  # strata-burn(1) is written by hand: every option the agent knows must be in it.
  burn_text=$(zcat "$root/usr/share/man/man1/strata-burn.1.gz" | groff -man -Tutf8 2>/dev/null | col -b)
  for option in $("$burn" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
    grep -q -- "$option" <<<"$burn_text" || fail "strata-burn(1) does not document $option"
  done
  echo "man pages render without warnings; strata(1) names every command, strata-burn(1) every option"
  ;;
completions)
  bash -n "$root/usr/share/bash-completion/completions/strata"
  zsh -n "$root/usr/share/zsh/vendor-completions/_strata"
  fish -n "$root/usr/share/fish/vendor_completions.d/strata.fish"
  out=$(PATH=$root/usr/bin:$PATH bash -c "source '$root/usr/share/bash-completion/completions/strata'
    COMP_WORDS=(strata snaps); COMP_CWORD=1; _strata; echo \"\${COMPREPLY[*]}\"")
  [ "$out" = "snapshot" ] || fail "bash completes 'snaps' to '$out'"
  echo "bash, zsh and fish completions parse; bash completes snaps -> snapshot"
  ;;
burnin-agent)
  # The installed strata finds the installed strata-burn beside it: the run gets past the
  # agent lookup and fails only at the (closed) SSH port.
  set +e
  err=$(HOME=$(mktemp -d) "$strata" burnin --nodes gpu-node01 --ssh 127.0.0.1:9 --connect-timeout 2 2>&1 >/dev/null); rc=$?
  set -e
  [ $rc -ne 0 ] || fail "burnin against a closed port succeeded"
  ! grep -q "no local strata-burn" <<<"$err" || fail "installed strata does not find strata-burn: $err"
  grep -qi "connect\|refused" <<<"$err" || fail "unexpected burnin failure: $err"
  echo "strata burnin found $burn; stopped at: $err"
  ;;
metadata)
  # The control fields of both packages, read back from the .debs: who ships them and where the
  # project lives are what the product build was configured with (STRATA_PACKAGE_CONTACT,
  # STRATA_HOMEPAGE_URL; CMakeCache.txt of the build beside it), in the form Debian wants.
  cache=${STRATA_PACKAGE_BUILD_DIR:?}/CMakeCache.txt
  [ -f "$cache" ] || fail "no $cache: did the packaging_install fixture run?"
  want_contact=$(sed -n 's/^STRATA_PACKAGE_CONTACT:STRING=//p' "$cache")
  want_homepage=$(sed -n 's/^STRATA_HOMEPAGE_URL:STRING=//p' "$cache")
  [ -n "$want_contact" ] && [ -n "$want_homepage" ] || fail "$cache lacks STRATA_PACKAGE_CONTACT or STRATA_HOMEPAGE_URL"
  arch=$(dpkg --print-architecture)
  for deb in strata strata-burn; do
    file=$debs/${deb}_${version}_$arch.deb
    field() { dpkg-deb -f "$file" "$1"; }
    [ "$(field Package)" = "$deb" ] || fail "$deb: Package $(field Package)"
    [ "$(field Version)" = "$version" ] || fail "$deb: Version $(field Version)"
    [ "$(field Architecture)" = "$arch" ] || fail "$deb: Architecture $(field Architecture)"
    [ "$(field Maintainer)" = "$want_contact" ] || fail "$deb: Maintainer '$(field Maintainer)', configured '$want_contact'"
    grep -qE '^[^<>]+ <[^<> @]+@[^<> @]+\.[^<> @]+>$' <<<"$(field Maintainer)" || fail "$deb: Maintainer not 'Name <address>'"
    [ "$(field Homepage)" = "$want_homepage" ] || fail "$deb: Homepage '$(field Homepage)', configured '$want_homepage'"
    [[ "$(field Homepage)" == https://* ]] || fail "$deb: Homepage not https"
    [ "$(field Section)" = admin ] || fail "$deb: Section $(field Section)"
    [ "$(field Priority)" = optional ] || fail "$deb: Priority $(field Priority)"
    # sed reads to the end: head would stop early, and pipefail would end the script on dpkg-deb's SIGPIPE
    summary=$(field Description | sed -n 1p)
    [ -n "$summary" ] && ! grep -qi "built using CMake" <<<"$summary" || fail "$deb: Description '$summary'"
    [ "$(field Description | wc -l)" -ge 3 ] || fail "$deb: Description has no long text"
    [ -n "$(field Installed-Size)" ] || fail "$deb: no Installed-Size"
    echo "$deb: $(field Maintainer) | $(field Homepage) | $summary"
  done
  [ "$(dpkg-deb -f "$debs/strata_${version}_$arch.deb" Recommends)" = "strata-burn (= $version)" ] || fail "strata: Recommends"
  grep -q "<url type=\"homepage\">$want_homepage</url>" "$root/usr/share/metainfo/org.strata.Strata.metainfo.xml" ||
    fail "metainfo homepage is not $want_homepage"
  ;;
lintian)
  # Debian's package checker on both .debs and their -dbgsym packages: an error (E:) or a
  # warning (W:) fails. --allow-root: CI runs the suite as root.
  arch=$(dpkg --print-architecture)
  packages=("$debs/strata_${version}_$arch.deb" "$debs/strata-burn_${version}_$arch.deb"
    "$debs/strata-dbgsym_${version}_$arch.ddeb" "$debs/strata-burn-dbgsym_${version}_$arch.ddeb")
  # A Release build has no -g: its debug files hold the symbol tables but no DWARF, which lintian
  # wants there (debug-file-with-no-debug-symbols, a -dbgsym tag only). Suppressed then, and
  # only then: STRATA_PACKAGE_DEBUG_INFO=1 builds have DWARF and get the tag checked.
  scratch=$(mktemp -d)
  dpkg-deb -x "$debs/strata-burn-dbgsym_${version}_$arch.ddeb" "$scratch"
  debug_file=$(find "$scratch/usr/lib/debug" -name '*.debug' -print -quit)
  [ -n "$debug_file" ] || fail "strata-burn-dbgsym holds no debug file"
  suppress=()
  if ! readelf -S "$debug_file" 2>/dev/null | grep -q '\.debug_info'; then
    suppress=(--suppress-tags debug-file-with-no-debug-symbols)
    echo "debug files without DWARF (no -g): debug-file-with-no-debug-symbols not checked"
  fi
  rm -rf "$scratch"
  set +e
  out=$(lintian --allow-root --fail-on error,warning "${suppress[@]}" "${packages[@]}" 2>&1); rc=$?
  set -e
  [ -z "$out" ] || echo "$out"
  ! grep -qE '^[EW]: ' <<<"$out" || fail "lintian: $(grep -cE '^[EW]: ' <<<"$out") errors and warnings (above)"
  [ $rc -eq 0 ] || fail "lintian exited $rc"
  # The changelog lintian parsed (generated from CHANGELOG.md) has this version on top.
  for deb in strata strata-burn; do
    top=$(zcat "$root/usr/share/doc/$deb/changelog.gz" | dpkg-parsechangelog -l - -S Version)
    [ "$top" = "$version" ] || fail "$deb changelog.gz: top entry $top, package $version"
  done
  echo "lintian: no error or warning on strata, strata-burn and their -dbgsym; changelog.gz tops at $version"
  ;;
debug-symbols)
  # The installed programs are stripped; what was stripped is in the -dbgsym package, under
  # the build id that gdb looks it up by.
  arch=$(dpkg --print-architecture)
  for program in strata strata-burn; do
    file "$root/usr/bin/$program" | grep -q ", stripped" || fail "$program is not stripped: $(file "$root/usr/bin/$program")"
    id=$(readelf -n "$root/usr/bin/$program" | sed -n 's/.*Build ID: //p')
    [ -n "$id" ] || fail "$program has no build id"
    ddeb=$debs/$program-dbgsym_${version}_$arch.ddeb
    [ -f "$ddeb" ] || fail "no $ddeb"
    # read whole first: grep -q stopping early would end dpkg-deb with SIGPIPE (pipefail)
    contents=$(dpkg-deb -c "$ddeb")
    grep -q "usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug$" <<<"$contents" ||
      fail "$ddeb has no debug file for build id $id"
    grep -qE "usr/share/doc/$program-dbgsym -> $program$" <<<"$contents" || fail "$ddeb: no doc link to $program"
    [ "$(dpkg-deb -f "$ddeb" Depends)" = "$program (= $version)" ] || fail "$ddeb: Depends $(dpkg-deb -f "$ddeb" Depends)"
    # md5sums names the files as installed (relative), not where CPack built them
    sums=$(dpkg-deb --ctrl-tarfile "$ddeb" | tar -xO ./md5sums)
    grep -q "  usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug$" <<<"$sums" || fail "$ddeb: md5sums: $sums"
    echo "$program: stripped, build id $id, debug file in $(basename "$ddeb")"
  done
  ;;
*)
  fail "unknown check $check"
  ;;
esac
