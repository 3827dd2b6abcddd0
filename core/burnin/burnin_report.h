#pragma once

#include "burnin_node_run.h"
#include "burnin_verdict.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// One test on one GPU in a report: the headline figure beside the datasheet and the peers.
struct BurninReportTest
{
    QString test;
    QString unit;                        // "TFLOPS", "GB/s"
    bool passed = false;
    bool skipped = false;
    std::optional<double> figure;        // in `unit` (hbm copy bandwidth as GB/s)
    std::optional<double> specFigure;    // the datasheet figure the agent was given, in `unit`
    std::optional<double> pctOfSpec;
    std::optional<double> peerMedian;    // median of the same test over GPUs of the same model and backend
    std::optional<double> pctOfPeers;    // figure / peerMedian * 100
    int peers = 0;                       // GPUs in that median, this one included
    QStringList reasons;
};

struct BurninReportGpu
{
    QString node;
    int gpu = -1;
    QString uuid;
    QString model;
    QString backend;
    bool passed = false;
    QVector<BurninReportTest> tests;
    std::optional<double> maxTempC;
    std::optional<double> maxPowerW;
    std::optional<double> minSmClockMHz;
    QStringList reasons;
    QStringList notes;
};

// The report of one judged burn-in, per GPU against its datasheet and against its peers in the
// same run, exportable as JSON (schema strata.burnin-report/1) and as one self-contained HTML
// page (inline style, no script, no external reference). Pure: built from values, no I/O.
struct BurninReport
{
    QString jobId;
    QDateTime startedAt;                 // UTC
    QDateTime finishedAt;                // UTC
    bool passed = false;
    QVector<BurninReportGpu> gpus;
    QStringList problems;
    QStringList notes;
    QStringList drained;
    QStringList notDrained;

    static BurninReport build(const BurninVerdict &verdict, const QVector<BurninNodeRun> &runs);

    // The unit a test's headline is reported in, and the factor from the agent's figure to it.
    static QString unitOf(const QString &test);
    static double scaleOf(const QString &test);

    QJsonObject toJson() const;
    QString toHtml() const;
    int failedGpus() const;
};

} // namespace strata
