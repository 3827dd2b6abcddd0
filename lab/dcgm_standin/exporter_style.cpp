#include "exporter_style.h"

#include <QRegularExpression>
#include <QStringList>

namespace strata::lab {

bool ExporterStyle::addStyles(const QString &words, QString *error)
{
    for (const QString &word : words.split(u',', Qt::SkipEmptyParts)) {
        if (word == u"classic")
            continue;
        else if (word == u"hostname")
            lowerCaseHostLabel = true;
        else if (word == u"pod-hostname")
            podHostname = true;
        else if (word == u"operator")
            kubernetesWorkload = true;
        else if (word == u"hpc-job")
            hpcJobLabel = true;
        else if (word == u"blank-values")
            blankValues = true;
        else {
            *error = QStringLiteral("unknown exporter style \"%1\" (classic, hostname, pod-hostname, operator, "
                                    "hpc-job, blank-values)")
                         .arg(word);
            return false;
        }
    }
    return true;
}

bool ExporterStyle::addMig(const QString &spec, QString *error)
{
    static const QRegularExpression profile(QStringLiteral("^[1-7]g\\.[0-9]+gb$"));
    const qsizetype eq = spec.indexOf(u'=');
    bool ok = false;
    const int gpu = eq > 0 ? spec.left(eq).toInt(&ok) : -1;
    const QStringList profiles = spec.mid(eq + 1).split(u'+', Qt::SkipEmptyParts);
    if (!ok || gpu < 0 || profiles.isEmpty()) {
        *error = QStringLiteral("--mig %1: expected GPU=PROFILE+PROFILE..., e.g. 0=3g.71gb+2g.35gb").arg(spec);
        return false;
    }
    std::vector<std::string> &out = migProfiles[gpu];
    out.clear();
    for (const QString &p : profiles) {
        if (!profile.match(p).hasMatch()) {
            *error = QStringLiteral("--mig %1: \"%2\" is not a MIG profile like 1g.10gb").arg(spec, p);
            return false;
        }
        out.push_back(p.toStdString());
    }
    return true;
}

int migInstanceId(std::size_t n)
{
    return n == 0 ? 1 : int(n) + 2;
}

double migProfileMiB(const std::string &profile)
{
    const auto dot = profile.find('.');
    if (dot == std::string::npos)
        return 0;
    return std::atof(profile.c_str() + dot + 1) * 1024.0;
}

} // namespace strata::lab
