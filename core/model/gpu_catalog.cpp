#include "gpu_catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace strata {

namespace {

QString squashed(const QString &name)
{
    QString s = name.toLower();
    s.remove(QLatin1Char('.'));
    s.remove(QLatin1Char('-'));
    s.remove(QLatin1Char('_'));
    return s;
}

QString withoutSageMakerPrefix(const QString &name)
{
    return name.startsWith(QLatin1String("ml."), Qt::CaseInsensitive) ? name.mid(3) : name;
}

bool parseGpu(const QJsonObject &o, GpuSpec *spec, QString *error)
{
    spec->model = o.value(QLatin1String("model")).toString();
    if (spec->model.isEmpty()) {
        *error = QStringLiteral("GPU catalog has a GPU entry without a model");
        return false;
    }
    spec->name = o.value(QLatin1String("name")).toString();
    spec->family = o.value(QLatin1String("family")).toString(spec->model);
    spec->familyOnly = o.value(QLatin1String("familyOnly")).toBool();
    spec->architecture = o.value(QLatin1String("architecture")).toString();
    spec->formFactor = o.value(QLatin1String("formFactor")).toString();
    spec->denseFormat = o.value(QLatin1String("denseFormat")).toString(QStringLiteral("BF16"));
    spec->bf16PetaFlops = o.value(QLatin1String("bf16PetaFlops")).toDouble();
    spec->fp8PetaFlops = o.value(QLatin1String("fp8PetaFlops")).toDouble();
    spec->hbmGiB = o.value(QLatin1String("hbmGiB")).toDouble();
    spec->hbmType = o.value(QLatin1String("hbmType")).toString();
    spec->hbmTBps = o.value(QLatin1String("hbmTBps")).toDouble();
    spec->tdpW = o.value(QLatin1String("tdpW")).toDouble();
    spec->migSlices = o.value(QLatin1String("migSlices")).toInt();
    for (const QJsonValue &t : o.value(QLatin1String("names")).toArray()) {
        const QStringList pattern = GpuCatalog::tokens(t.toString());
        if (pattern.isEmpty()) {
            *error = QStringLiteral("GPU catalog entry %1 has an empty name pattern").arg(spec->model);
            return false;
        }
        spec->namePatterns << pattern;
    }
    // gresTypes/productNames: catalog version 1 spelled exact names this way.
    for (const char *key : {"exactNames", "gresTypes", "productNames"})
        for (const QJsonValue &t : o.value(QLatin1String(key)).toArray())
            spec->exactNames << t.toString().toLower();
    const QJsonObject b = o.value(QLatin1String("burnin")).toObject();
    spec->burnin.gemmFloorTflops = b.value(QLatin1String("gemmFloorTflops")).toDouble();
    spec->burnin.ownGemmFloorTflops = b.value(QLatin1String("ownGemmFloorTflops"))
                                          .toDouble(spec->burnin.gemmFloorTflops * ownGemmFloorRatio);
    spec->burnin.hbmFloorTBps = b.value(QLatin1String("hbmFloorTBps")).toDouble();
    spec->burnin.peerFraction = b.value(QLatin1String("peerFraction")).toDouble(0.9);
    spec->burnin.minSmClockMHz = b.value(QLatin1String("minSmClockMHz")).toDouble();
    spec->burnin.maxTempC = b.value(QLatin1String("maxTempC")).toDouble();
    return true;
}

} // namespace

QStringList GpuCatalog::tokens(const QString &name)
{
    static const QRegularExpression separators(QStringLiteral("[-_/\\s]+"));
    return name.toLower().split(separators, Qt::SkipEmptyParts);
}

GpuCatalog GpuCatalog::fromJson(const QByteArray &json, QString *error)
{
    QString ignored;
    QString &err = error ? *error : ignored;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        err = QStringLiteral("GPU catalog is not valid JSON: %1").arg(parseError.errorString());
        return {};
    }
    GpuCatalog catalog;
    const QJsonObject root = doc.object();
    QHash<QString, QString> patternOwner; // joined tokens -> model
    for (const QJsonValue &v : root.value(QLatin1String("gpus")).toArray()) {
        GpuSpec spec;
        if (!parseGpu(v.toObject(), &spec, &err))
            return {};
        if (catalog.gpu(spec.model)) {
            err = QStringLiteral("GPU catalog lists model %1 twice").arg(spec.model);
            return {};
        }
        for (const QStringList &pattern : std::as_const(spec.namePatterns)) {
            QStringList sorted = pattern;
            sorted.sort();
            const QString key = sorted.join(QLatin1Char(' '));
            if (patternOwner.contains(key)) {
                err = QStringLiteral("GPU catalog name \"%1\" belongs to both %2 and %3")
                          .arg(key, patternOwner.value(key), spec.model);
                return {};
            }
            patternOwner.insert(key, spec.model);
        }
        catalog.m_gpus << spec;
    }
    for (const QJsonValue &v : root.value(QLatin1String("instanceTypes")).toArray()) {
        const QJsonObject o = v.toObject();
        InstanceTypeSpec spec;
        spec.name = o.value(QLatin1String("name")).toString();
        spec.gpuModel = o.value(QLatin1String("gpuModel")).toString();
        spec.gpuCount = o.value(QLatin1String("gpuCount")).toInt();
        spec.efaCount = o.value(QLatin1String("efaCount")).toInt();
        spec.networkGbps = o.value(QLatin1String("networkGbps")).toInt();
        spec.vcpus = o.value(QLatin1String("vcpus")).toInt();
        spec.memoryGiB = o.value(QLatin1String("memoryGiB")).toInt();
        if (spec.name.isEmpty() || catalog.m_instanceTypeByName.contains(spec.name.toLower())) {
            err = QStringLiteral("GPU catalog has an instance type without a name, or one twice: \"%1\"").arg(spec.name);
            return {};
        }
        if (!spec.gpuModel.isEmpty() && !catalog.gpu(spec.gpuModel)) {
            err = QStringLiteral("GPU catalog instance type %1 names unknown GPU model %2").arg(spec.name, spec.gpuModel);
            return {};
        }
        const int index = int(catalog.m_instanceTypes.size());
        catalog.m_instanceTypeByName.insert(spec.name.toLower(), index);
        const QString key = squashed(spec.name);
        catalog.m_instanceTypeBySquashed.insert(key, catalog.m_instanceTypeBySquashed.contains(key) ? -1 : index);
        catalog.m_instanceTypes << spec;
    }
    return catalog;
}

const GpuCatalog &GpuCatalog::builtIn()
{
    // Immutable once built; function-local static so it is created on first use, thread-safe.
    static const GpuCatalog catalog = [] {
        QFile file(QStringLiteral(":/strata/gpu_catalog.json"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("built-in GPU catalog resource missing: link strata_resources");
        QString error;
        GpuCatalog c = fromJson(file.readAll(), &error);
        if (!error.isEmpty())
            qFatal("%s", qPrintable(error));
        return c;
    }();
    return catalog;
}

const GpuSpec *GpuCatalog::gpu(const QString &model) const
{
    for (const GpuSpec &g : m_gpus)
        if (g.model.compare(model, Qt::CaseInsensitive) == 0)
            return &g;
    return nullptr;
}

const InstanceTypeSpec *GpuCatalog::instanceType(const QString &name) const
{
    const int index = m_instanceTypeByName.value(withoutSageMakerPrefix(name).toLower(), -1);
    return index < 0 ? nullptr : &m_instanceTypes[index];
}

const InstanceTypeSpec *GpuCatalog::instanceTypeForSquashedName(const QString &name) const
{
    const int index = m_instanceTypeBySquashed.value(squashed(withoutSageMakerPrefix(name)), -1);
    return index < 0 ? nullptr : &m_instanceTypes[index];
}

QString GpuCatalog::instanceTypeForSlurmNode(const QString &nodeName, const QStringList &features) const
{
    for (const QString &feature : features)
        if (const InstanceTypeSpec *spec = instanceType(feature))
            return spec->name;
    // A type the catalog does not hold (CPU instances) is still the node's type; it adds no GPUs.
    for (const QString &feature : features)
        if (isInstanceTypeName(feature))
            return withoutSageMakerPrefix(feature);
    // ParallelCluster lists the instance type as a feature only when its compute resource has
    // one type; the compute resource's name (a feature too, and part of the node name) is all
    // that is left otherwise.
    for (const QString &feature : features)
        if (const InstanceTypeSpec *spec = instanceTypeForSquashedName(feature))
            return spec->name;
    static const QRegularExpression parallelClusterNode(QStringLiteral("^.+?-(?:st|dy)-(.+)-\\d+$"));
    const QRegularExpressionMatch m = parallelClusterNode.match(nodeName);
    if (m.hasMatch())
        if (const InstanceTypeSpec *spec = instanceTypeForSquashedName(m.captured(1)))
            return spec->name;
    return {};
}

bool GpuCatalog::isInstanceTypeName(const QString &name)
{
    // Family: letters, a generation digit, then attributes and an optional "-" suffix ("u-6tb1",
    // "p6-b200", "m7i-flex"); size: nano .. NNxlarge, metal or metal-NNxl.
    static const QRegularExpression shape(QStringLiteral(
        "^(?:ml\\.)?[a-z]+-?[0-9][a-z0-9]*(?:-[a-z0-9]+)*\\."
        "(?:nano|micro|small|medium|large|xlarge|[0-9]+xlarge|metal|metal-[0-9]+xl)$"));
    return shape.match(name).hasMatch();
}

QString GpuCatalog::modelForName(const QString &name) const
{
    const QString lower = name.trimmed().toLower();
    if (lower.isEmpty())
        return {};
    for (const GpuSpec &g : m_gpus)
        if (g.model.toLower() == lower || g.exactNames.contains(lower))
            return g.model;
    const QStringList list = tokens(lower);
    const QSet<QString> present(list.cbegin(), list.cend());
    const GpuSpec *best = nullptr;
    qsizetype bestScore = 0;
    bool tie = false;
    for (const GpuSpec &g : m_gpus) {
        for (const QStringList &pattern : g.namePatterns) {
            if (pattern.size() < bestScore)
                continue;
            const bool all = std::all_of(pattern.cbegin(), pattern.cend(),
                                         [&present](const QString &t) { return present.contains(t); });
            if (!all)
                continue;
            if (pattern.size() > bestScore) {
                best = &g;
                bestScore = pattern.size();
                tie = false;
            } else if (best != &g) {
                tie = true;
            }
        }
    }
    return best && !tie ? best->model : QString();
}

QString GpuCatalog::resolveModel(const QString &name, const QString &instanceTypeName) const
{
    const QString byName = modelForName(name);
    const InstanceTypeSpec *type = instanceTypeName.isEmpty() ? nullptr : instanceType(instanceTypeName);
    if (!type || type->gpuModel.isEmpty())
        return byName;
    if (byName.isEmpty())
        return type->gpuModel;
    const GpuSpec *named = gpu(byName);
    const GpuSpec *typed = gpu(type->gpuModel);
    if (named && typed && named->familyOnly && named->family == typed->family)
        return typed->model;
    return byName;
}

} // namespace strata
