#include "slurm_version.h"

#include <QRegularExpression>

namespace strata {

namespace {

// The oldest release whose JSON Strata reads: 22.05 (sinfo --json, openapi v0.0.38).
constexpr int kOldestMajor = 22;
constexpr int kOldestMinor = 5;

} // namespace

QString SlurmVersion::toString() const
{
    return QStringLiteral("%1.%2.%3").arg(major).arg(minor, 2, 10, QLatin1Char('0')).arg(micro);
}

SlurmVersion::Support SlurmVersion::support() const
{
    if (!isValid())
        return Support::Unknown;
    return atLeast(kOldestMajor, kOldestMinor) ? Support::Supported : Support::TooOld;
}

QString SlurmVersion::unsupportedReason() const
{
    switch (support()) {
    case Support::Supported:
        return {};
    case Support::Unknown:
        return QStringLiteral("the Slurm version is unknown");
    case Support::TooOld:
        return QStringLiteral("Slurm %1 is too old: Strata reads Slurm's JSON output and needs Slurm 22.05 or later "
                              "(`sinfo --json` with one object per node)")
            .arg(toString());
    }
    return {};
}

SlurmNodeSource SlurmVersion::nodeSource() const
{
    return atLeast(23, 2) ? SlurmNodeSource::ScontrolNodesJson : SlurmNodeSource::SinfoJson;
}

QStringList SlurmVersion::nodeCommand() const
{
    if (nodeSource() == SlurmNodeSource::ScontrolNodesJson)
        return {QStringLiteral("scontrol"), QStringLiteral("--json"), QStringLiteral("show"), QStringLiteral("nodes")};
    return {QStringLiteral("sinfo"), QStringLiteral("--json")};
}

SlurmVersion SlurmVersion::parse(const QByteArray &output, QString *error)
{
    SlurmVersion v;
    const QString text = QString::fromUtf8(output).trimmed();
    // "slurm 24.11.5", "slurm-wlm 22.05.8", "slurm 23.02.0-0rc1", "slurm 25.05.0-0pre1"; take
    // the first line only (a warning on stderr is not part of stdout, but be strict anyway).
    const QString line = text.section(QLatin1Char('\n'), 0, 0).trimmed();
    static const QRegularExpression re(QStringLiteral("^slurm(?:-wlm)?\\s+(\\d{2})\\.(\\d{1,2})\\.(\\d+)(?:[-.\\w]*)$"),
                                       QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(line);
    if (!m.hasMatch()) {
        *error = line.isEmpty()
            ? QStringLiteral("`scontrol version` printed nothing: cannot tell which Slurm release runs there")
            : QStringLiteral("cannot read the Slurm version from `scontrol version`: \"%1\"").arg(line.left(120));
        return v;
    }
    v.major = m.captured(1).toInt();
    v.minor = m.captured(2).toInt();
    v.micro = m.captured(3).toInt();
    v.text = line;
    if (v.major < 1 || v.minor < 1 || v.minor > 12) {
        *error = QStringLiteral("cannot read the Slurm version from `scontrol version`: \"%1\"").arg(line.left(120));
        return SlurmVersion{};
    }
    return v;
}

} // namespace strata
