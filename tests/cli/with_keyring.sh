#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with a real, unlocked Secret Service
# (gnome-keyring-daemon) in a scratch HOME, so keyring tests never touch a desktop's keyring.
#   dbus-run-session -- with_keyring.sh COMMAND...
set -euo pipefail
HOME=$(mktemp -d)
export HOME XDG_DATA_HOME=$HOME/.local/share XDG_CONFIG_HOME=$HOME/.config
trap 'rm -rf "$HOME"' EXIT
# The daemon prints the variables that point at it; the password creates and unlocks a new
# login keyring (the collection QtKeychain writes to).
eval "$(printf 'strata-test' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
"$@"
