#!/bin/sh
# The window reaches a cluster only through the session's sources (issue 24): no file under ui/
# includes a header of core/ssh (shells, channels, ssh_config) or core/net (HTTP, TLS). The
# sources offer what the window needs (follow a job's output or a pod's log, a metric's
# history, the hosts of ~/.ssh/config) as capabilities and plain values.
#
# app/ wires the session and runs the CLI, and may not talk to a cluster around it either, with
# one exception: the CLI prints commands for a person to paste (`strata profile hosts`) and
# checks --remote-env names, so app/ may include ssh/shell_quote.h (quoting words is how a
# command is written, not a conversation with the cluster). Nothing else from ssh/ or net/.
#
# Includes are matched as written ("ssh/x.h", "net/x.h") and by bare name: core/ssh and core/net
# put their own folders on the include path, so "remote_shell.h" would reach them too.
# Fails listing every offending file:line. STRATA_SOURCE_DIR (or the first argument): the tree.
root=${1:-${STRATA_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
cd "$root" || exit 2
[ -d core/ssh ] && [ -d core/net ] && [ -d ui ] || { echo "not a Strata tree: $root" >&2; exit 2; }

# Bare names of core/ssh's and core/net's headers, as an alternation for grep -E.
bare=$(ls core/ssh core/net | grep -E '\.h$' | sed 's/\./\\./g' | paste -sd '|' -)
pattern="^[[:space:]]*#[[:space:]]*include[[:space:]]*\"((ssh|net)/[^\"]+|($bare))\""

found=$(grep -rnE "$pattern" ui --include='*.cpp' --include='*.h')
app=$(grep -rnE "$pattern" app --include='*.cpp' --include='*.h' | grep -vE ':[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*"ssh/shell_quote\.h"')
[ -n "$app" ] && found=$(printf '%s\n%s' "$found" "$app" | sed '/^$/d')

if [ -n "$found" ]; then
    echo "ui/ or app/ includes core/ssh or core/net (ask the session's sources instead):"
    echo "$found" | sed -E 's/^([^:]+:[0-9]+):[[:space:]]*/\1: /' | sort -t: -k1,1 -k2,2n
    exit 1
fi
echo "no include of core/ssh or core/net under ui/; under app/ only ssh/shell_quote.h"
