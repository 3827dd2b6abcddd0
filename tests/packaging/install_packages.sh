#!/usr/bin/env bash
# Fixture of the packaging tests: builds the packages (scripts/build-packages) and unpacks them
# into a fresh scratch root with dpkg-deb -x (no chroot, no root needed), as dpkg would
# install them, so the checks run the installed files.
#   install_packages.sh DEB_DIR ROOT
set -euo pipefail
debs=$1 root=$2
"$(dirname "$0")/../../scripts/build-packages" "$debs"
rm -rf "$root"
mkdir -p "$root"
for deb in "$debs"/strata_*.deb "$debs"/strata-burn_*.deb; do
  dpkg-deb -x "$deb" "$root"
  echo "unpacked $(basename "$deb")"
done
