#include "gpu_catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata {

GpuCatalog GpuCatalog::fromJson(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = QStringLiteral("GPU catalog is not valid JSON: %1").arg(parseError.errorString());
        return {};
    }
    GpuCatalog catalog;
    const QJsonObject root = doc.object();
    for (const QJsonValue &v : root.value(QLatin1String("gpus")).toArray()) {
        const QJsonObject o = v.toObject();
        GpuSpec spec;
        spec.model = o.value(QLatin1String("model")).toString();
        spec.name = o.value(QLatin1String("name")).toString();
        for (const QJsonValue &t : o.value(QLatin1String("gresTypes")).toArray())
            spec.gresTypes << t.toString().toLower();
        for (const QJsonValue &t : o.value(QLatin1String("productNames")).toArray())
            spec.productNames << t.toString();
        spec.architecture = o.value(QLatin1String("architecture")).toString();
        spec.bf16PetaFlops = o.value(QLatin1String("bf16PetaFlops")).toDouble();
        spec.fp8PetaFlops = o.value(QLatin1String("fp8PetaFlops")).toDouble();
        spec.hbmGiB = o.value(QLatin1String("hbmGiB")).toDouble();
        spec.hbmType = o.value(QLatin1String("hbmType")).toString();
        spec.hbmTBps = o.value(QLatin1String("hbmTBps")).toDouble();
        const QJsonObject b = o.value(QLatin1String("burnin")).toObject();
        spec.burnin.gemmFloorTflops = b.value(QLatin1String("gemmFloorTflops")).toDouble();
        spec.burnin.hbmFloorTBps = b.value(QLatin1String("hbmFloorTBps")).toDouble();
        spec.burnin.peerFraction = b.value(QLatin1String("peerFraction")).toDouble(0.9);
        spec.burnin.minSmClockMHz = b.value(QLatin1String("minSmClockMHz")).toDouble();
        spec.burnin.maxTempC = b.value(QLatin1String("maxTempC")).toDouble();
        if (spec.model.isEmpty()) {
            if (error)
                *error = QStringLiteral("GPU catalog has a GPU entry without a model");
            return {};
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
        spec.vcpus = o.value(QLatin1String("vcpus")).toInt();
        spec.memoryGiB = o.value(QLatin1String("memoryGiB")).toInt();
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
    for (const InstanceTypeSpec &t : m_instanceTypes)
        if (t.name == name)
            return &t;
    return nullptr;
}

QString GpuCatalog::modelForName(const QString &name) const
{
    const QString lower = name.toLower();
    for (const GpuSpec &g : m_gpus) {
        if (g.model.toLower() == lower || g.gresTypes.contains(lower))
            return g.model;
        for (const QString &p : g.productNames)
            if (p.compare(name, Qt::CaseInsensitive) == 0)
                return g.model;
    }
    // Product strings such as "NVIDIA H100 80GB HBM3" not listed verbatim: match the model token.
    for (const GpuSpec &g : m_gpus)
        if (lower.contains(g.model.toLower()))
            return g.model;
    return {};
}

} // namespace strata
