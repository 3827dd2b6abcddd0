#include "scontrol_ping_parser.h"

#include <QRegularExpression>

namespace strata {

OrchestratorProbe parseScontrolPing(const CommandResult &result)
{
    OrchestratorProbe probe;
    if (result.failure == ErrorKind::Timeout && result.mayHaveRun) {
        // The login node took the command and scontrol still waited on the controller.
        probe.answer = OrchestratorProbe::Answer::Silent;
        probe.detail = result.errorText();
        return probe;
    }
    if (!result.ran()) {
        probe.detail = result.errorText();
        return probe;
    }
    static const QRegularExpression line(QStringLiteral("^Slurmctld\\((primary|backup\\d*)\\) at (\\S+) is (UP|DOWN)$"));
    QStringList said;
    bool anyUp = false;
    const QString text = QString::fromUtf8(result.stdoutData);
    for (QStringView row : QStringView(text).split(u'\n')) {
        const QString trimmed = row.trimmed().toString();
        const QRegularExpressionMatch m = line.match(trimmed);
        if (!m.hasMatch())
            continue;
        said << trimmed;
        anyUp = anyUp || m.capturedView(3) == u"UP";
    }
    if (said.isEmpty()) {
        probe.detail = QStringLiteral("scontrol ping printed no controller line (exit status %1): %2")
                           .arg(result.exitStatus)
                           .arg(QString::fromUtf8(result.stdoutData + result.stderrData).simplified().left(200));
        return probe;
    }
    probe.answer = anyUp ? OrchestratorProbe::Answer::Answers : OrchestratorProbe::Answer::Silent;
    probe.detail = said.join(QLatin1String("; "));
    return probe;
}

} // namespace strata
