#include "burnin_history.h"

#include <QAtomicInteger>
#include <QHash>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

namespace strata {

namespace {

QAtomicInteger<quint64> connectionCounter;

QString sqlError(const QString &what, const QSqlError &error)
{
    return QStringLiteral("burn-in history: %1: %2").arg(what, error.text());
}

const char *const createStatements[] = {
    "CREATE TABLE burnin_results ("
    " id INTEGER PRIMARY KEY,"
    " run_id TEXT NOT NULL, job_id TEXT, node TEXT NOT NULL,"
    " gpu_index INTEGER NOT NULL, gpu_uuid TEXT NOT NULL, model TEXT,"
    " test TEXT NOT NULL, backend TEXT NOT NULL,"
    " figure REAL, figures TEXT,"
    " verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'fail', 'skip')), reason TEXT,"
    " recorded_at TEXT NOT NULL)",
    "CREATE INDEX burnin_results_gpu ON burnin_results (gpu_uuid, test, recorded_at)",
    "CREATE INDEX burnin_results_run ON burnin_results (run_id)",
};

// Version 2: what `strata fabric` and the fabric test window measured, one row per group.
const char *const createFabricStatements[] = {
    "CREATE TABLE fabric_results ("
    " id INTEGER PRIMARY KEY,"
    " run_id TEXT NOT NULL, recorded_at TEXT NOT NULL,"
    " instance_type TEXT NOT NULL, node_count INTEGER NOT NULL,"
    " tool TEXT NOT NULL, backend TEXT NOT NULL, op TEXT NOT NULL, largest_bytes INTEGER NOT NULL,"
    " busbw_gbps REAL NOT NULL, latency_us REAL, nodes TEXT NOT NULL,"
    " verdict TEXT NOT NULL CHECK (verdict IN ('ok', 'short')))",
    "CREATE INDEX fabric_results_fleet ON fabric_results"
    " (instance_type, node_count, tool, backend, op, largest_bytes, recorded_at)",
};

QString migrate(QSqlDatabase &db, QSqlQuery &q, int from, const QString &path)
{
    QString error;
    db.transaction();
    if (from < 1)
        for (const char *statement : createStatements)
            if (error.isEmpty() && !q.exec(QString::fromLatin1(statement)))
                error = sqlError(QStringLiteral("creating the schema in %1").arg(path), q.lastError());
    if (from < 2)
        for (const char *statement : createFabricStatements)
            if (error.isEmpty() && !q.exec(QString::fromLatin1(statement)))
                error = sqlError(QStringLiteral("adding the fabric results to %1").arg(path), q.lastError());
    if (error.isEmpty() && !q.exec(QStringLiteral("PRAGMA user_version = %1").arg(BurninHistory::schemaVersion)))
        error = sqlError(QStringLiteral("setting the schema version"), q.lastError());
    if (error.isEmpty())
        db.commit();
    else
        db.rollback();
    return error;
}

constexpr const char *selectColumns =
    "SELECT run_id, job_id, node, gpu_index, gpu_uuid, model, test, backend, figure, figures,"
    " verdict, reason, recorded_at FROM burnin_results ";

BurninHistoryRecord readRecord(const QSqlQuery &q)
{
    BurninHistoryRecord r;
    r.runId = q.value(0).toString();
    r.jobId = q.value(1).toString();
    r.node = q.value(2).toString();
    r.gpuIndex = q.value(3).toInt();
    r.gpuUuid = q.value(4).toString();
    r.model = q.value(5).toString();
    r.test = q.value(6).toString();
    r.backend = q.value(7).toString();
    if (!q.value(8).isNull())
        r.figure = q.value(8).toDouble();
    r.figuresJson = q.value(9).toByteArray();
    r.verdict = q.value(10).toString();
    r.reason = q.value(11).toString();
    r.time = QDateTime::fromString(q.value(12).toString(), Qt::ISODateWithMs);
    r.time.setTimeSpec(Qt::UTC);
    return r;
}

// A null QString binds as SQL NULL: NOT NULL columns refuse it and "x <> NULL" matches nothing.
QString notNull(const QString &s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

QString runSelect(QSqlQuery &q, QVector<BurninHistoryRecord> *out, const QString &what)
{
    if (!q.exec())
        return sqlError(what, q.lastError());
    out->clear();
    while (q.next())
        out->append(readRecord(q));
    return {};
}

} // namespace

BurninHistory::BurninHistory()
    : m_connection(QStringLiteral("strata-burnin-history-%1").arg(connectionCounter.fetchAndAddRelaxed(1)))
{
}

BurninHistory::~BurninHistory() { close(); }

QString BurninHistory::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/strata/burnin.sqlite");
}

void BurninHistory::close()
{
    if (!QSqlDatabase::contains(m_connection))
        return;
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
    m_open = false;
}

QString BurninHistory::open(const QString &path)
{
    close();
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return QStringLiteral("burn-in history: Qt's SQLite driver (QSQLITE) is missing; install libqt6sql6-sqlite");
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
        db.setDatabaseName(path);
        if (!db.open()) {
            error = sqlError(QStringLiteral("cannot open %1").arg(path), db.lastError());
        } else {
            QSqlQuery q(db);
            int version = -1;
            if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
                error = sqlError(QStringLiteral("%1 is not an SQLite database").arg(path), q.lastError());
            else
                version = q.value(0).toInt();
            if (error.isEmpty() && version > schemaVersion)
                error = QStringLiteral("burn-in history: %1 has schema version %2, newer than this "
                                       "Strata understands (%3); use a newer Strata or another file")
                            .arg(path).arg(version).arg(schemaVersion);
            if (error.isEmpty() && version < schemaVersion)
                error = migrate(db, q, version, path);
        }
    }
    if (!error.isEmpty()) {
        close();
        return error;
    }
    m_path = path;
    m_open = true;
    return {};
}

QString BurninHistory::record(const BurninHistoryRun &run)
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    if (run.runId.isEmpty())
        return QStringLiteral("burn-in history: a run needs a run id");
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery exists(db);
    exists.prepare(QStringLiteral("SELECT COUNT(*) FROM burnin_results WHERE run_id = ?"));
    exists.addBindValue(run.runId);
    if (!exists.exec() || !exists.next())
        return sqlError(QStringLiteral("looking up run %1").arg(run.runId), exists.lastError());
    if (exists.value(0).toInt() > 0)
        return QStringLiteral("burn-in history: run %1 is already recorded").arg(run.runId);

    const QString time = run.time.toUTC().toString(Qt::ISODateWithMs);
    if (!db.transaction())
        return sqlError(QStringLiteral("starting a transaction"), db.lastError());
    // 16,000 GPUs per run at cluster scale: index the verdict once instead of a search per row.
    QHash<QPair<QString, int>, const BurninGpuVerdict *> verdicts;
    verdicts.reserve(run.verdict.gpus.size());
    for (const BurninGpuVerdict &g : run.verdict.gpus)
        verdicts.insert(qMakePair(g.node, g.gpu), &g);
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO burnin_results (run_id, job_id, node, gpu_index, gpu_uuid, model, test, backend,"
        " figure, figures, verdict, reason, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const BurninNodeRun &node : run.nodes) {
        for (const BurninResult &r : node.results) {
            const BurninGpuVerdict *gpu = verdicts.value(qMakePair(node.node, r.gpu));
            const BurninTestVerdict *test = gpu ? gpu->test(r.test) : nullptr;
            QString verdict = r.passed ? QStringLiteral("pass") : QStringLiteral("fail");
            QString reason = r.reasons.join(QLatin1Char('\n'));
            if (test) {
                verdict = test->skipped ? QStringLiteral("skip")
                                        : (test->passed ? QStringLiteral("pass") : QStringLiteral("fail"));
                reason = test->reasons.join(QLatin1Char('\n'));
            }
            const QVariant figure = test && test->figure ? QVariant(*test->figure) : QVariant();
            q.addBindValue(run.runId);
            q.addBindValue(run.jobId.isEmpty() ? QVariant() : QVariant(run.jobId));
            q.addBindValue(node.node);
            q.addBindValue(r.gpu);
            q.addBindValue(r.uuid);
            q.addBindValue(gpu ? QVariant(gpu->model) : QVariant());
            q.addBindValue(r.test);
            q.addBindValue(r.backend);
            q.addBindValue(figure);
            q.addBindValue(r.figuresJson.isEmpty() ? QVariant() : QVariant(QString::fromUtf8(r.figuresJson)));
            q.addBindValue(verdict);
            q.addBindValue(reason);
            q.addBindValue(time);
            if (!q.exec()) {
                const QString error = sqlError(QStringLiteral("recording run %1").arg(run.runId), q.lastError());
                db.rollback();
                return error;
            }
        }
    }
    if (!db.commit())
        return sqlError(QStringLiteral("committing run %1").arg(run.runId), db.lastError());
    return {};
}

QString BurninHistory::recordsForGpu(const QString &gpuUuid, const QString &test,
                                     QVector<BurninHistoryRecord> *out) const
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QString::fromLatin1(selectColumns)
              + (test.isEmpty() ? QStringLiteral("WHERE gpu_uuid = ? ORDER BY recorded_at, id")
                                : QStringLiteral("WHERE gpu_uuid = ? AND test = ? ORDER BY recorded_at, id")));
    q.addBindValue(gpuUuid);
    if (!test.isEmpty())
        q.addBindValue(test);
    return runSelect(q, out, QStringLiteral("reading GPU %1").arg(gpuUuid));
}

QString BurninHistory::recordsForNode(const QString &node, QVector<BurninHistoryRecord> *out) const
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QString::fromLatin1(selectColumns)
              + (node.isEmpty() ? QStringLiteral("ORDER BY recorded_at, id")
                                : QStringLiteral("WHERE node = ? ORDER BY recorded_at, id")));
    if (!node.isEmpty())
        q.addBindValue(node);
    return runSelect(q, out, node.isEmpty() ? QStringLiteral("reading the history") : QStringLiteral("reading node %1").arg(node));
}

QString BurninHistory::recordsForModel(const QString &model, const QString &test, QVector<BurninHistoryRecord> *out) const
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QString::fromLatin1(selectColumns) + QStringLiteral("WHERE COALESCE(model, '') = ? AND test = ? ORDER BY recorded_at, id"));
    q.addBindValue(model.isEmpty() ? QStringLiteral("") : model); // never NULL: NULL = '' is not true
    q.addBindValue(test);
    return runSelect(q, out, QStringLiteral("reading the %1 %2 results").arg(model, test));
}

QString BurninHistory::recordsForRun(const QString &runId, QVector<BurninHistoryRecord> *out) const
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QString::fromLatin1(selectColumns) + QStringLiteral("WHERE run_id = ? ORDER BY node, gpu_index, id"));
    q.addBindValue(runId);
    return runSelect(q, out, QStringLiteral("reading run %1").arg(runId));
}

QString BurninHistory::runIds(int limit, QStringList *out) const
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral("SELECT run_id FROM burnin_results GROUP BY run_id"
                             " ORDER BY MAX(recorded_at) DESC, MAX(id) DESC LIMIT ?"));
    q.addBindValue(limit);
    if (!q.exec())
        return sqlError(QStringLiteral("listing runs"), q.lastError());
    out->clear();
    while (q.next())
        out->append(q.value(0).toString());
    return {};
}

QString BurninHistory::recordFabric(const QVector<FabricHistoryRecord> &records)
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction())
        return sqlError(QStringLiteral("starting a transaction"), db.lastError());
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO fabric_results (run_id, recorded_at, instance_type, node_count, tool, backend, op,"
        " largest_bytes, busbw_gbps, latency_us, nodes, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const FabricHistoryRecord &r : records) {
        q.addBindValue(notNull(r.runId));
        q.addBindValue(r.time.toUTC().toString(Qt::ISODateWithMs));
        q.addBindValue(notNull(r.instanceType));
        q.addBindValue(r.nodeCount);
        q.addBindValue(notNull(r.tool));
        q.addBindValue(notNull(r.backend));
        q.addBindValue(notNull(r.op));
        q.addBindValue(r.largestMessageBytes);
        q.addBindValue(r.busbwGBps);
        q.addBindValue(r.latencyMicroseconds > 0 ? QVariant(r.latencyMicroseconds) : QVariant());
        q.addBindValue(r.nodes.join(QLatin1Char(',')));
        q.addBindValue(fabricHistoryVerdictName(r.verdict));
        if (!q.exec()) {
            const QString error = sqlError(QStringLiteral("recording fabric run %1").arg(r.runId), q.lastError());
            db.rollback();
            return error;
        }
    }
    if (!db.commit())
        return sqlError(QStringLiteral("committing the fabric results"), db.lastError());
    return {};
}

QString BurninHistory::fabricPeers(const FabricHistoryRecord &like, QVector<FabricHistoryRecord> *out) const
{
    if (!m_open)
        return QStringLiteral("burn-in history: not open");
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    q.prepare(QStringLiteral(
        "SELECT run_id, recorded_at, instance_type, node_count, tool, backend, op, largest_bytes, busbw_gbps,"
        " latency_us, nodes, verdict FROM fabric_results WHERE instance_type = ? AND node_count = ? AND tool = ?"
        " AND backend = ? AND op = ? AND largest_bytes = ? AND run_id <> ? ORDER BY recorded_at, id"));
    q.addBindValue(notNull(like.instanceType));
    q.addBindValue(like.nodeCount);
    q.addBindValue(notNull(like.tool));
    q.addBindValue(notNull(like.backend));
    q.addBindValue(notNull(like.op));
    q.addBindValue(like.largestMessageBytes);
    q.addBindValue(notNull(like.runId));
    if (!q.exec())
        return sqlError(QStringLiteral("reading the fabric fleet of %1").arg(like.instanceType), q.lastError());
    out->clear();
    while (q.next()) {
        FabricHistoryRecord r;
        FabricHistoryVerdict verdict;
        if (!fabricHistoryVerdictFromName(q.value(11).toString(), &verdict))
            continue;
        r.runId = q.value(0).toString();
        r.time = QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs);
        r.time.setTimeSpec(Qt::UTC);
        r.instanceType = q.value(2).toString();
        r.nodeCount = q.value(3).toInt();
        r.tool = q.value(4).toString();
        r.backend = q.value(5).toString();
        r.op = q.value(6).toString();
        r.largestMessageBytes = q.value(7).toLongLong();
        r.busbwGBps = q.value(8).toDouble();
        r.latencyMicroseconds = q.value(9).toDouble();
        r.nodes = q.value(10).toString().split(QLatin1Char(','), Qt::SkipEmptyParts);
        r.verdict = verdict;
        out->append(r);
    }
    return {};
}

} // namespace strata
