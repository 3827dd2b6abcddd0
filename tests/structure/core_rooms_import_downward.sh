#!/bin/sh
# The rooms of core/ import downward only (issue 24): a room includes its own headers and those of
# the rooms it is built on, never a header of a room above it or beside it. The order is the one
# the CMake targets link in (core/*/CMakeLists.txt, target_link_libraries):
#
#   0 model       Qt Core only
#   1 profile     model
#   2 ssh         model, profile
#   3 net         ssh            (HTTP and TLS over an SSH tunnel)
#   3 slurm       model, ssh
#   3 prometheus  model, profile (HTTP through Qt Network: no ssh)
#   4 kubernetes  model, ssh, net
#   5 session     profile, ssh, slurm, kubernetes, prometheus
#   6 burnin      model (strata_burnin); session, ssh, slurm, kubernetes (strata_burnin_launch)
#   6 fabric      model, ssh, slurm, kubernetes (strata_fabric); session (strata_fabric_launch)
#   7 repair      model, prometheus (strata_repair); session, burnin, ssh, slurm (strata_repair_run)
#
# A room may include a room of a lower rank; rooms of one rank do not know each other. Includes
# are matched as written ("ssh/x.h") and by bare name: ssh, net, slurm, kubernetes and burnin put
# their own folders on the include path, so "remote_shell.h" written in kubernetes/ reaches ssh/.
# A bare name is the including file's own room's when that room has it.
# Fails listing every offending file:line. STRATA_SOURCE_DIR (or the first argument): the tree.
root=${1:-${STRATA_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
cd "$root" || exit 2
[ -d core/model ] && [ -d core/profile ] && [ -d core/session ] || { echo "not a Strata tree: $root" >&2; exit 2; }

ranks='model 0
profile 1
ssh 2
net 3
slurm 3
prometheus 3
kubernetes 4
session 5
burnin 6
fabric 6
repair 7'
# Rooms whose folder is on the include path (a bare name can reach them).
bare_rooms='ssh net slurm kubernetes burnin fabric'

# Every room under core/ must have a rank: a new room is placed in the order on purpose.
for dir in core/*/; do
    room=$(basename "$dir")
    echo "$ranks" | grep -q "^$room " || { echo "core/$room has no rank in $0: place it in the order" >&2; exit 2; }
done

# Every header of a room, as "room header" pairs, for bare names; then one awk over every include.
headers=$(for dir in core/*/; do r=$(basename "$dir"); ls "$dir" | grep -E '\.h$' | sed "s/^/$r /"; done)
found=$(
    grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' core --include='*.cpp' --include='*.h' |
    awk -v ranks="$ranks" -v headers="$headers" -v bare="$bare_rooms" '
        BEGIN {
            n = split(ranks, lines, "\n")
            for (i = 1; i <= n; i++) { split(lines[i], f, " "); rank[f[1]] = f[2] }
            n = split(bare, f, " ")
            for (i = 1; i <= n; i++) onPath[f[i]] = 1
            n = split(headers, lines, "\n")
            for (i = 1; i <= n; i++) {
                split(lines[i], f, " ")
                if ((f[1] in onPath) && !(f[2] in home)) home[f[2]] = f[1]
                own[f[1] "/" f[2]] = 1
            }
        }
        {
            split($0, parts, ":"); file = parts[1]; line = parts[2]
            header = $0; sub(/^[^"]*"/, "", header); sub(/".*$/, "", header)
            split(file, path, "/"); room = path[2]
            if (index(header, "/")) {
                target = substr(header, 1, index(header, "/") - 1)
                if (!(target in rank)) next # a path of Qt or of a library
            } else {
                if ((room "/" header) in own) next
                if (!(header in home)) next
                target = home[header]
            }
            if (target == room) next
            if (rank[target] >= rank[room])
                printf "%s:%s: %s (rank %s) includes %s of %s (rank %s)\n", file, line, room, rank[room], header, target, rank[target]
        }'
)

if [ -n "$found" ]; then
    echo "a core room includes a header of a room above or beside it (move the code down, or ask through an interface):"
    echo "$found" | sort -t: -k1,1 -k2,2n
    exit 1
fi
echo "every core room includes only its own headers and those of the rooms below it"
