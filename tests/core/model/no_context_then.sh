#!/bin/sh
# QFuture::then(context, ...) posts to a context that may be freed meanwhile in Qt < 6.6 (the
# crash of issue 10): futures come back through whenFinished (core/model/when_finished.h).
# Fails listing every .then( whose first argument is not a lambda.
cd "$(dirname "$0")/../../.." || exit 2
found=$(grep -rnE '\.then\([[:space:]]*[^[[:space:]]' core ui app burnin --include='*.cpp' --include='*.h')
if [ -n "$found" ]; then
    echo "QFuture::then with a context (use whenFinished):"
    echo "$found"
    exit 1
fi
echo "no QFuture::then(context, ...) in core, ui, app, burnin"
