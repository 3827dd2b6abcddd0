#include "fabric_fleet_history.h"

#include "burnin_history.h"
#include "model/fabric_fleet.h"

#include <QDir>
#include <QFileInfo>

namespace strata {

FabricFleetHistory FabricFleetHistory::judge(const QString &historyPath, const QVector<FabricHistoryRecord> &records, bool record)
{
    FabricFleetHistory result;
    result.standings.resize(records.size());
    if (records.isEmpty() || historyPath.isEmpty())
        return result;
    QDir().mkpath(QFileInfo(historyPath).absolutePath());
    BurninHistory history;
    result.error = history.open(historyPath);
    if (!result.error.isEmpty())
        return result;
    for (qsizetype i = 0; i < records.size(); ++i) {
        QVector<FabricHistoryRecord> peers;
        const QString error = history.fabricPeers(records.at(i), &peers);
        if (!error.isEmpty()) {
            result.error = error;
            result.standings[i].explanation = QStringLiteral("not compared with the fleet: %1").arg(error);
            continue;
        }
        result.standings[i] = FabricFleet::compare(records.at(i), peers);
    }
    if (record) {
        const QString error = history.recordFabric(records);
        if (!error.isEmpty())
            result.error = error;
    }
    return result;
}

} // namespace strata
