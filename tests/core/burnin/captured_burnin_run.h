#pragma once

// One node's captured agent output (tests/data/burnin/FILE) as the console reads it: the burn-in
// tests that judge, store or report real runs share it.
#include "burnin/burnin_node_run.h"
#include "burnin/burnin_protocol_parser.h"

#include <QFile>

namespace strata {

inline BurninNodeRun capturedRun(const QString &node, const QString &file)
{
    QFile f(QStringLiteral(STRATA_TEST_DATA "/burnin/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", qPrintable(file));
    return BurninNodeRun::fromEvents(node, BurninProtocolParser::parseAll(f.readAll()));
}

} // namespace strata
