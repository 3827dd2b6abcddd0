#include "slurm_version.h"

#include "ssh/shell_quote.h"

#include <QRegularExpression>

#include <iterator>

namespace strata {

namespace {

// Which release lists its nodes how, newest first; the last row is the oldest release whose
// JSON Strata reads (22.05: sinfo --json, openapi v0.0.38). The one place that says so:
// nodeSource(), support() and the login node's choice (nodeCommandChoiceScript) read it.
struct NodeListing
{
    int fromMajor;
    int fromMinor;
    SlurmNodeSource source;
    const char *name;
};
constexpr NodeListing kNodeListings[] = {
    {23, 2, SlurmNodeSource::ScontrolNodesJson, "scontrol-nodes-json"},
    {22, 5, SlurmNodeSource::SinfoJson, "sinfo-json"},
};
constexpr const NodeListing &kOldest = kNodeListings[std::size(kNodeListings) - 1];

} // namespace

QString SlurmVersion::toString() const
{
    return QStringLiteral("%1.%2.%3").arg(major).arg(minor, 2, 10, QLatin1Char('0')).arg(micro);
}

SlurmVersion::Support SlurmVersion::support() const
{
    if (!isValid())
        return Support::Unknown;
    return atLeast(kOldest.fromMajor, kOldest.fromMinor) ? Support::Supported : Support::TooOld;
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
    for (const NodeListing &listing : kNodeListings)
        if (atLeast(listing.fromMajor, listing.fromMinor))
            return listing.source;
    return kOldest.source; // too old: support() says so; this is what it would have to be
}

QStringList SlurmVersion::nodeCommand(SlurmNodeSource source)
{
    switch (source) {
    case SlurmNodeSource::ScontrolNodesJson:
        return {QStringLiteral("scontrol"), QStringLiteral("--json"), QStringLiteral("show"), QStringLiteral("nodes")};
    case SlurmNodeSource::SinfoJson:
        return {QStringLiteral("sinfo"), QStringLiteral("--json")};
    }
    return {};
}

QByteArray SlurmVersion::nodeSourceName(SlurmNodeSource source)
{
    for (const NodeListing &listing : kNodeListings)
        if (listing.source == source)
            return listing.name;
    return {};
}

std::optional<SlurmNodeSource> SlurmVersion::nodeSourceNamed(QByteArrayView name)
{
    for (const NodeListing &listing : kNodeListings)
        if (name == QByteArrayView(listing.name))
            return listing.source;
    return std::nullopt;
}

QByteArray SlurmVersion::nodeCommandChoiceScript()
{
    // `[ a -ge b ]` compares decimal numbers, so a minor such as "08" is eight (shell
    // arithmetic would read it as a bad octal number).
    QByteArray script;
    for (const NodeListing &listing : kNodeListings) {
        QStringList quoted;
        for (const QString &word : nodeCommand(listing.source))
            quoted << ShellQuote::quote(word);
        script += (script.isEmpty() ? "if" : "elif");
        script += " [ \"$major\" -gt " + QByteArray::number(listing.fromMajor) + " ] || { [ \"$major\" -eq "
            + QByteArray::number(listing.fromMajor) + " ] && [ \"$minor\" -ge " + QByteArray::number(listing.fromMinor)
            + " ]; }; then\n  nodes=" + listing.name + "; set -- " + quoted.join(QLatin1Char(' ')).toUtf8() + "\n";
    }
    return script + "else\n  nodes=none; set --\nfi\n";
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
