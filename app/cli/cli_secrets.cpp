#include "cli_secrets.h"

#include "session/secret_store.h"

#include <QEventLoop>
#include <QTimer>

namespace strata::CliSecrets {

QString fillFromKeyring(ClusterProfile *profile, int timeoutMs)
{
    // Only Prometheus has secrets in a profile; a token from a flag or the environment wins.
    if (!profile->hasPrometheus() || !profile->prometheusToken.isEmpty())
        return {};
    QEventLoop loop;
    QString note;
    bool answered = false;
    {
        SecretStore store(QStringLiteral("strata"));
        store.load(*profile, [&](const ClusterProfile &withSecrets, const QString &error) {
            answered = true;
            profile->prometheusToken = withSecrets.prometheusToken;
            profile->prometheusPassword = withSecrets.prometheusPassword;
            note = error;
            loop.quit();
        });
        if (!answered) {
            QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
            loop.exec();
        }
        // The store goes here with any job still waiting, so a late answer finds no one.
    }
    if (!answered)
        note = QStringLiteral("the desktop keyring did not answer within %1 s").arg(timeoutMs / 1000);
    if (note.isEmpty())
        return {};
    return QStringLiteral("note: %1; Prometheus is asked without the profile's saved token "
                          "(pass --prometheus-token or STRATA_PROMETHEUS_TOKEN)")
        .arg(note);
}

} // namespace strata::CliSecrets
