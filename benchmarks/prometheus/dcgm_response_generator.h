#pragma once

#include "model/cluster_snapshot.h"

#include <QByteArray>
#include <QStringList>
#include <QVector>

namespace strata::bench {

// Prometheus API bodies, byte for byte in the shape a real Prometheus 2.42 writes them (see
// tests/data/prometheus/strata-capture), for every GPU of a snapshot as a DCGM exporter would
// report it. Deterministic.
class DcgmResponseGenerator
{
public:
    struct Options
    {
        QStringList metrics;       // DCGM names, one series per GPU each
        bool fullLabels = false;   // as the exporter sends them (no `max by`): + driver, PCI id, device, job
        bool hpcJob = false;       // add hpc_job from the GPU's job
        int points = 1;            // 1: an instant vector; more: a matrix with this many points
        qint64 end = 1800000000;
        qint64 step = 60;
    };

    // One body for all metrics (the __name__ regex query).
    static QByteArray body(const ClusterSnapshot &snapshot, const Options &options);
    // `up` for one DCGM target per node; every 97th is down.
    static QByteArray targets(const ClusterSnapshot &snapshot);
};

} // namespace strata::bench
