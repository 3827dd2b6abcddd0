#include "burnin_node_run.h"

namespace strata {

void BurninNodeRun::add(const BurninEvent &event)
{
    if (const auto *s = std::get_if<BurninStart>(&event))
        start = *s;
    else if (const auto *r = std::get_if<BurninResult>(&event))
        results << *r;
    else if (const auto *e = std::get_if<BurninError>(&event))
        errors << *e;
    else if (const auto *p = std::get_if<BurninParseError>(&event))
        parseErrors << *p;
    else if (const auto *m = std::get_if<BurninSummary>(&event))
        summary = *m;
    // Progress and telemetry are live views; the verdict reads the results' summaries.
}

BurninNodeRun BurninNodeRun::fromEvents(const QString &node, const QVector<BurninEvent> &events)
{
    BurninNodeRun run;
    run.node = node;
    for (const BurninEvent &e : events)
        run.add(e);
    return run;
}

} // namespace strata
