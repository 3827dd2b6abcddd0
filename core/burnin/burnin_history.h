#pragma once

#include "burnin_node_run.h"
#include "burnin_verdict.h"
#include "model/fabric_history_record.h"

#include <QDateTime>
#include <QString>
#include <QVector>

#include <optional>

namespace strata {

// One row: one test on one GPU in one run.
struct BurninHistoryRecord
{
    QString runId;
    QString jobId;
    QString node;
    int gpuIndex = -1;
    QString gpuUuid;
    QString model;
    QString test;
    QString backend;
    std::optional<double> figure;   // headline: TFLOPS, copy TB/s, host->device GB/s, min peer GB/s
    QByteArray figuresJson;         // every figure the agent sent
    QString verdict;                // "pass", "fail", "skip"
    QString reason;                 // failing reasons, one per line
    QDateTime time;                 // UTC
};

// What record() stores: the agent's output per node and the verdict judged from it.
struct BurninHistoryRun
{
    QString runId;
    QString jobId;
    QDateTime time;                 // when the run started (UTC)
    QVector<BurninNodeRun> nodes;
    BurninVerdict verdict;
};

// Local burn-in and fabric history in SQLite (Qt SQL, QSQLITE), so a slow decline of one GPU shows over
// weeks of runs. Each instance owns its own connection (unique name), used from the thread
// that opened it. Errors come back as values: an empty QString means success.
class BurninHistory
{
public:
    // 1: burnin_results; 2: fabric_results added (a version 1 file is migrated in place on open).
    static constexpr int schemaVersion = 2;

    BurninHistory();
    ~BurninHistory();
    BurninHistory(const BurninHistory &) = delete;
    BurninHistory &operator=(const BurninHistory &) = delete;

    // Where the window and `strata burnin` keep it: ~/.local/share/strata/burnin.sqlite.
    static QString defaultPath();

    // Creates the file and schema if new; refuses a file written by a newer schema.
    QString open(const QString &path);
    bool isOpen() const { return m_open; }
    void close();

    // All rows of one run in one transaction; a run id already stored is refused.
    QString record(const BurninHistoryRun &run);

    // One GPU's rows, oldest first; `test` empty for all tests.
    QString recordsForGpu(const QString &gpuUuid, const QString &test,
                          QVector<BurninHistoryRecord> *out) const;
    // One node's rows (every node's when `node` is empty), oldest first.
    QString recordsForNode(const QString &node, QVector<BurninHistoryRecord> *out) const;
    QString recordsForRun(const QString &runId, QVector<BurninHistoryRecord> *out) const;
    // Every GPU's rows of one model and test, oldest first (the fleet a new figure is judged
    // against: BurninFleet). An empty model: the rows without one (the CPU backend's devices).
    QString recordsForModel(const QString &model, const QString &test, QVector<BurninHistoryRecord> *out) const;
    // Run ids, newest first.
    QString runIds(int limit, QStringList *out) const;

    // Fabric groups (issue 27), all in one transaction.
    QString recordFabric(const QVector<FabricHistoryRecord> &records);
    // The fleet of `like`, oldest first: the rows of the same instance type, node count, tool,
    // backend, collective and largest message size, of other runs than its own (FabricFleet).
    QString fabricPeers(const FabricHistoryRecord &like, QVector<FabricHistoryRecord> *out) const;

private:
    QString m_connection;
    QString m_path;
    bool m_open = false;
};

} // namespace strata
