#!/bin/sh
# Kinds are enums (issue 24): a word such as "kubernetes", "RUNNING" or "drain" is read once,
# where it enters (a parser, the profile loader, a CLI option), into an enum (SourceKind,
# OrchestratorKind, KubeApiRoute, JobState, ActionKind, AlertState, SilenceState); everything
# else compares the enum. This fails listing file:line wherever a field or variable named like a
# kind is compared with == or != to a string literal outside the files that read those words.
#
# Usage: kinds_are_compared_as_enums.sh [TREE]    check TREE (STRATA_SOURCE_DIR, or this tree)
#        kinds_are_compared_as_enums.sh --self-check
#            runs the check on copies of this tree, clean and with injected comparisons, and
#            fails unless each copy gives the expected verdict.

# The names that hold a kind. Matched as whole identifiers: `job.state`, `s->source`, a local
# `action`; not `objectKind` or `stateFlags`.
fields='state|kind|kindSource|source|orchestrator|action|kubeApi|errorType|code|step'

# Where the words are legitimately read, one line each: path (grep -E, from the tree's root) and
# why. Everything else decides on the enums.
allowed() {
    cat <<'EOF'
^core/[a-z]+/[a-z_]+_parser\.cpp:	parsers turn command output and JSON into values: reading the words is their job
^core/kubernetes/kube_workload_readers\.cpp:	KubeWorkloadParser's per-kind readers: each workload kind's status words are read there, once
^core/kubernetes/kube_json\.(cpp|h):	the Kubernetes API envelope's "kind" (List, Status) is read here, once
^core/kubernetes/kube_api_credentials\.cpp:	kubeconfig and ExecCredential documents are parsed here ("kind": Config)
^core/prometheus/prometheus_response\.cpp:	errorType (the Prometheus API's word, and the client's own) becomes ErrorKind here
^core/model/node\.cpp:	a node's state words become isDrained()/isDown() here; callers ask those
EOF
}

check() {
    root=$1
    cd "$root" || return 2
    [ -d core ] && [ -d ui ] && [ -d app ] || { echo "not a Strata tree: $root" >&2; return 2; }
    literal='(QLatin1String|QLatin1StringView|QStringLiteral|QString|QStringView)?\(?u?"'
    forward="(^|[^A-Za-z0-9_])($fields)[[:space:]]*(==|!=)[[:space:]]*$literal"
    reverse="u?\"[^\"]*\"(_L1|_s)?\)?[[:space:]]*(==|!=)[[:space:]]*([A-Za-z_][A-Za-z0-9_]*(\.|->))*($fields)([^A-Za-z0-9_(]|\$)"
    skip=$(allowed | cut -f1 | paste -sd '|' -)
    found=$(grep -rnE "$forward|$reverse" core ui app --include='*.cpp' --include='*.h' \
        | grep -vE "^[^:]+:[0-9]+:[[:space:]]*//" | grep -vE "$skip")
    if [ -n "$found" ]; then
        echo "a kind is compared as text (parse it once into its enum, compare the enum):"
        echo "$found" | sed -E 's/^([^:]+:[0-9]+):[[:space:]]*/\1: /' | sort -t: -k1,1 -k2,2n
        return 1
    fi
    echo "kinds are compared as enums outside the $(allowed | wc -l | tr -d ' ') allowed places that read their words"
    return 0
}

here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" != "--self-check" ]; then
    check "${1:-${STRATA_SOURCE_DIR:-$here/../..}}"
    exit $?
fi

# Self-check, data-driven: file to append a line to | the line | expected exit status.
tree=$(cd "$here/../.." && pwd)
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
failures=0
while IFS='|' read -r file line expected; do
    [ -z "$file" ] && continue
    copy="$work/tree"
    rm -rf "$copy" && mkdir -p "$copy" && cp -R "$tree/core" "$tree/ui" "$tree/app" "$copy/" || exit 2
    [ "$file" = "-" ] || printf '%s\n' "$line" >>"$copy/$file"
    output=$(check "$copy" 2>&1)
    status=$?
    if [ "$status" != "$expected" ]; then
        echo "FAIL: ${file} + '${line}': exit $status, expected $expected"
        echo "$output" | sed 's/^/    /'
        failures=$((failures + 1))
    elif [ "$expected" = 1 ] && ! echo "$output" | grep -qF "$file:"; then
        echo "FAIL: ${file} + '${line}': failed without naming $file"
        failures=$((failures + 1))
    else
        echo "ok: ${file} + '${line}': exit $status"
    fi
done <<'EOF'
-||0
ui/main_window.cpp|    const bool running = job.state == QStringLiteral("RUNNING");|1
core/session/cluster_session.cpp|    if (profile.orchestrator != QLatin1String("kubernetes"))|1
core/model/job.cpp|    return "ssh"_L1 == s->source;|1
app/cli/cli_runner.cpp|    if (result.action == u"drain"_s)|1
core/prometheus/alert_findings.cpp|        if (a.state != "firing"_L1)|1
core/slurm/squeue_parser.cpp|    const bool running = state == QLatin1String("RUNNING");|0
ui/main_window.cpp|    // job.state == QStringLiteral("RUNNING") in a comment is no comparison|0
ui/main_window.cpp|    const bool pod = objectKind == QLatin1String("pod");|0
EOF
[ "$failures" = 0 ] || { echo "$failures self-check row(s) failed"; exit 1; }
echo "self-check: the check fails on injected comparisons and passes the clean tree"
