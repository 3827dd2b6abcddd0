// GpuCatalog: every name form of every model resolves by whole tokens (never substrings), unknown
// names stay unknown, instance types resolve from EC2 names, SageMaker names, ParallelCluster
// features and node names, and the built-in catalog's figures are the datasheet's.
#include "model/gpu_catalog.h"

#include <QTest>

using namespace strata;
using namespace Qt::StringLiterals;

class TestGpuCatalog : public QObject
{
    Q_OBJECT

private:
    const GpuCatalog &catalog() const { return GpuCatalog::builtIn(); }

private Q_SLOTS:
    void modelForName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("model");
        auto row = [](const char *form, const char *name, const char *model) {
            QTest::addRow("%s %s", form, name) << QString::fromLatin1(name) << QString::fromLatin1(model);
        };
        // V100
        row("autodetect", "tesla_v100-sxm2-32gb", "V100-SXM2-32GB");
        row("autodetect", "tesla_v100-sxm2-16gb", "V100-SXM2-16GB");
        row("autodetect", "tesla_v100-pcie-32gb", "V100-PCIe-32GB");
        row("dcgm", "Tesla V100-SXM2-32GB", "V100-SXM2-32GB");
        row("dcgm", "Tesla V100-SXM2-16GB", "V100-SXM2-16GB");
        row("dcgm", "Tesla V100-PCIE-16GB", "V100-PCIe-16GB");
        row("gfd", "Tesla-V100-SXM2-16GB", "V100-SXM2-16GB");
        row("gke", "nvidia-tesla-v100", "V100-SXM2-16GB");
        row("dcgm", "Tesla V100-PCIE-32GB", "V100-PCIe-32GB");
        row("gfd", "Tesla-V100-PCIE-32GB", "V100-PCIe-32GB");
        row("gfd", "Tesla-V100-SXM2-32GB", "V100-SXM2-32GB");
        row("gres", "v100", "V100");
        // T4 / T4G
        row("autodetect", "tesla_t4", "T4");
        row("dcgm", "Tesla T4", "T4");
        row("gfd", "Tesla-T4", "T4");
        row("gfd shared", "Tesla-T4-SHARED", "T4");
        row("gke", "nvidia-tesla-t4", "T4");
        row("gres", "t4", "T4");
        row("dcgm", "NVIDIA T4G", "T4G");
        row("gres", "t4g", "T4G");
        row("autodetect", "nvidia_t4g", "T4G");
        row("gfd", "NVIDIA-T4G", "T4G");
        // A10G / A10 / A30
        row("autodetect", "nvidia_a10g", "A10G");
        row("dcgm", "NVIDIA A10G", "A10G");
        row("gfd", "NVIDIA-A10G", "A10G");
        row("gres", "a10g", "A10G");
        row("dcgm", "NVIDIA A10", "A10");
        row("gfd", "NVIDIA-A10", "A10");
        row("gres", "a10", "A10");
        row("autodetect", "nvidia_a10", "A10");
        row("dcgm", "NVIDIA A30", "A30");
        row("gfd mig single", "NVIDIA-A30-MIG-1g.6gb", "A30");
        row("gres", "a30", "A30");
        row("autodetect", "nvidia_a30", "A30");
        row("gfd", "NVIDIA-A30", "A30");
        // A100
        row("autodetect", "nvidia_a100-sxm4-80gb", "A100-SXM4-80GB");
        row("autodetect", "nvidia_a100-sxm4-40gb", "A100-SXM4-40GB");
        row("autodetect", "nvidia_a100-pcie-40gb", "A100-PCIe-40GB");
        row("autodetect", "nvidia_a100_80gb_pcie", "A100-PCIe-80GB");
        row("dcgm", "NVIDIA A100-SXM4-80GB", "A100-SXM4-80GB");
        row("dcgm", "NVIDIA A100-SXM4-40GB", "A100-SXM4-40GB");
        row("dcgm", "NVIDIA A100-PCIE-40GB", "A100-PCIe-40GB");
        row("dcgm", "NVIDIA A100 80GB PCIe", "A100-PCIe-80GB");
        row("gfd", "NVIDIA-A100-SXM4-80GB", "A100-SXM4-80GB");
        row("gfd mig single", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", "A100-SXM4-40GB");
        row("gfd mig single", "NVIDIA-A100-SXM4-80GB-MIG-3g.40gb", "A100-SXM4-80GB");
        row("gfd", "NVIDIA-A100-80GB-PCIe", "A100-PCIe-80GB");
        row("gfd", "NVIDIA-A100-PCIE-40GB", "A100-PCIe-40GB");
        row("gke", "nvidia-tesla-a100", "A100-SXM4-40GB");
        row("gke", "nvidia-a100-80gb", "A100-SXM4-80GB");
        row("gres", "a100", "A100");
        row("gres size only", "a100_80gb", "A100");
        // L4 / L40 / L40S
        row("autodetect", "nvidia_l4", "L4");
        row("dcgm", "NVIDIA L4", "L4");
        row("gfd", "NVIDIA-L4", "L4");
        row("gke", "nvidia-l4", "L4");
        row("gres", "l4", "L4");
        row("autodetect", "nvidia_l40s", "L40S");
        row("dcgm", "NVIDIA L40S", "L40S");
        row("gfd", "NVIDIA-L40S", "L40S");
        row("gres", "l40s", "L40S");
        row("dcgm", "NVIDIA L40", "L40");
        row("gfd", "NVIDIA-L40", "L40");
        row("autodetect", "nvidia_l40", "L40");
        row("gres", "l40", "L40");
        // H100
        row("autodetect", "nvidia_h100_80gb_hbm3", "H100");
        row("autodetect", "nvidia_h100_pcie", "H100-PCIe");
        row("autodetect", "nvidia_h100_nvl", "H100-NVL");
        row("dcgm", "NVIDIA H100 80GB HBM3", "H100");
        row("dcgm", "NVIDIA H100 PCIe", "H100-PCIe");
        row("dcgm", "NVIDIA H100 NVL", "H100-NVL");
        row("gfd", "NVIDIA-H100-80GB-HBM3", "H100");
        row("gfd shared", "NVIDIA-H100-80GB-HBM3-SHARED", "H100");
        row("gfd mig single", "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb", "H100");
        row("gfd", "NVIDIA-H100-PCIe", "H100-PCIe");
        row("gfd", "NVIDIA-H100-NVL", "H100-NVL");
        row("gke", "nvidia-h100-80gb", "H100");
        row("gke", "nvidia-h100-mega-80gb", "H100");
        row("gres", "h100", "H100");
        row("gres", "H100", "H100");
        // H20
        row("dcgm", "NVIDIA H20", "H20");
        row("gfd", "NVIDIA-H20", "H20");
        row("gres", "h20", "H20");
        row("autodetect", "nvidia_h20", "H20");
        // H200
        row("autodetect", "nvidia_h200", "H200");
        row("autodetect", "nvidia_h200_nvl", "H200-NVL");
        row("dcgm", "NVIDIA H200", "H200");
        row("dcgm", "NVIDIA H200 NVL", "H200-NVL");
        row("gfd", "NVIDIA-H200", "H200");
        row("gfd", "NVIDIA-H200-NVL", "H200-NVL");
        row("gke", "nvidia-h200-141gb", "H200");
        row("gres", "h200", "H200");
        // GH200
        row("autodetect", "nvidia_gh200_480gb", "GH200");
        row("autodetect", "nvidia_gh200_144g_hbm3e", "GH200-144GB");
        row("dcgm", "NVIDIA GH200 480GB", "GH200");
        row("dcgm", "NVIDIA GH200 144G HBM3e", "GH200-144GB");
        row("gfd", "NVIDIA-GH200-480GB", "GH200");
        row("gres", "gh200", "GH200");
        row("gfd", "NVIDIA-GH200-144G-HBM3e", "GH200-144GB");
        // B200 / GB200 / B300 / GB300
        row("autodetect", "nvidia_b200", "B200");
        row("dcgm", "NVIDIA B200", "B200");
        row("gfd", "NVIDIA-B200", "B200");
        row("gke", "nvidia-b200", "B200");
        row("gres", "b200", "B200");
        row("autodetect", "nvidia_gb200", "GB200");
        row("dcgm", "NVIDIA GB200", "GB200");
        row("gfd", "NVIDIA-GB200", "GB200");
        row("gke", "nvidia-gb200", "GB200");
        row("gres", "gb200", "GB200");
        row("autodetect", "nvidia_b300_sxm6_ac", "B300");
        row("dcgm", "NVIDIA B300 SXM6 AC", "B300");
        row("gfd", "NVIDIA-B300-SXM6-AC", "B300");
        row("gres", "b300", "B300");
        row("dcgm", "NVIDIA GB300", "GB300");
        row("gfd", "NVIDIA-GB300", "GB300");
        row("gres", "gb300", "GB300");
        row("autodetect", "nvidia_gb300", "GB300");
        // Catalog keys name themselves.
        row("key", "A100-PCIe-80GB", "A100-PCIe-80GB");
        row("key", "GH200-144GB", "GH200-144GB");
        row("key", "V100-PCIe-32GB", "V100-PCIe-32GB");

        // Never a substring, never a guess.
        row("negative", "gh200", "GH200");
        row("negative", "gb200", "GB200");
        row("negative", "gb300", "GB300");
        row("negative", "NVIDIA A10G", "A10G");
        row("negative", "a10", "A10");
        row("negative", "h100x", "");
        row("negative", "xh100", "");
        row("negative", "nvidia_h1000", "");
        row("negative", "gpu", "");
        row("negative", "", "");
        row("negative", "   ", "");
        row("negative", "NVIDIA GeForce RTX 4090", "");
        row("negative", "Tesla K80", "");
        row("negative", "Tesla V100S-PCIE-32GB", "");
        row("negative", "nvidia-tesla-p100", "");
        row("negative", "AMD Instinct MI300X", "");
        row("negative", "a100 h100", "");
        row("negative", "mig-1g.10gb", "");
    }
    void modelForName()
    {
        QFETCH(QString, name);
        QFETCH(QString, model);
        QCOMPARE(catalog().modelForName(name), model);
    }

    void familyNamesNeverPickAVariant()
    {
        // GH200 is H100-class, GB200 has its own figures: a name's model is never a substring's.
        QVERIFY(catalog().modelForName(QStringLiteral("nvidia_gh200_480gb")) != QLatin1String("H200"));
        QVERIFY(catalog().modelForName(QStringLiteral("NVIDIA GB200")) != QLatin1String("B200"));
        QVERIFY(catalog().modelForName(QStringLiteral("NVIDIA A10G")) != QLatin1String("A100"));
        QCOMPARE(catalog().gpu(QStringLiteral("GH200"))->bf16PetaFlops, catalog().gpu(QStringLiteral("H100"))->bf16PetaFlops);
        QVERIFY(catalog().gpu(QStringLiteral("GB200"))->bf16PetaFlops > catalog().gpu(QStringLiteral("B200"))->bf16PetaFlops);
        const GpuSpec *a100 = catalog().gpu(QStringLiteral("A100"));
        QVERIFY(a100 && a100->familyOnly);
        QCOMPARE(a100->hbmGiB, 0.0); // 40 or 80: not known from "a100"
        QCOMPARE(a100->bf16PetaFlops, 0.312);
    }

    void figures_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("dense");
        QTest::addColumn<double>("fp8");
        QTest::addColumn<double>("memoryGiB");
        QTest::addColumn<QString>("memoryType");
        QTest::addColumn<double>("tbps");
        QTest::addColumn<double>("tdpW");
        auto row = [](const char *m, const char *f, double d, double f8, double mem, const char *t, double bw, double w) {
            QTest::newRow(m) << QString::fromLatin1(m) << QString::fromLatin1(f) << d << f8 << mem << QString::fromLatin1(t) << bw << w;
        };
        row("V100-SXM2-32GB", "FP16", 0.125, 0, 32, "HBM2", 0.9, 300);
        row("V100-PCIe-16GB", "FP16", 0.112, 0, 16, "HBM2", 0.9, 250);
        row("T4", "FP16", 0.065, 0, 16, "GDDR6", 0.32, 70);
        row("A10G", "BF16", 0.070, 0, 24, "GDDR6", 0.6, 300);
        row("A10", "BF16", 0.125, 0, 24, "GDDR6", 0.6, 150);
        row("A30", "BF16", 0.165, 0, 24, "HBM2", 0.933, 165);
        row("A100-SXM4-40GB", "BF16", 0.312, 0, 40, "HBM2", 1.555, 400);
        row("A100-SXM4-80GB", "BF16", 0.312, 0, 80, "HBM2e", 2.039, 400);
        row("A100-PCIe-80GB", "BF16", 0.312, 0, 80, "HBM2e", 1.935, 300);
        row("L4", "BF16", 0.121, 0.2425, 24, "GDDR6", 0.3, 72);
        row("L40S", "BF16", 0.362, 0.733, 48, "GDDR6", 0.864, 350);
        row("H100", "BF16", 0.989, 1.979, 80, "HBM3", 3.35, 700);
        row("H100-PCIe", "BF16", 0.756, 1.513, 80, "HBM2e", 2.0, 350);
        row("H100-NVL", "BF16", 0.835, 1.671, 94, "HBM3", 3.9, 400);
        row("H20", "BF16", 0.148, 0.296, 96, "HBM3", 4.0, 400);
        row("H200", "BF16", 0.989, 1.979, 141, "HBM3e", 4.8, 700);
        row("H200-NVL", "BF16", 0.835, 1.671, 141, "HBM3e", 4.8, 600);
        row("GH200", "BF16", 0.989, 1.979, 96, "HBM3", 4.0, 1000);
        row("GH200-144GB", "BF16", 0.989, 1.979, 144, "HBM3e", 4.9, 1000);
        row("B200", "BF16", 2.25, 4.5, 180, "HBM3e", 8.0, 1000);
        row("B300", "BF16", 2.25, 4.5, 288, "HBM3e", 8.0, 1100);
        row("GB200", "BF16", 2.5, 5.0, 186, "HBM3e", 8.0, 1200);
        row("GB300", "BF16", 2.5, 5.0, 288, "HBM3e", 8.0, 1400);
    }
    void figures()
    {
        QFETCH(QString, model);
        const GpuSpec *spec = catalog().gpu(model);
        QVERIFY2(spec, qPrintable(model));
        QTEST(spec->denseFormat, "format");
        QTEST(spec->bf16PetaFlops, "dense");
        QTEST(spec->fp8PetaFlops, "fp8");
        QTEST(spec->hbmGiB, "memoryGiB");
        QTEST(spec->hbmType, "memoryType");
        QTEST(spec->hbmTBps, "tbps");
        QTEST(spec->tdpW, "tdpW");
        QCOMPARE(spec->familyOnly, false);
    }

    void burninFloorsFollowTheRule()
    {
        // 60% of the dense peak and 75% of the bandwidth (within rounding; the four older entries
        // within 3%); every GPU entry has positive floors and a maximum temperature.
        for (const GpuSpec &g : catalog().gpus()) {
            QVERIFY2(g.burnin.gemmFloorTflops > 0 && g.burnin.hbmFloorTBps > 0 && g.burnin.maxTempC > 0, qPrintable(g.model));
            if (g.bf16PetaFlops > 0) {
                const double ratio = g.burnin.gemmFloorTflops / (g.bf16PetaFlops * 1000);
                QVERIFY2(ratio > 0.58 && ratio < 0.63, qPrintable(QStringLiteral("%1: %2").arg(g.model).arg(ratio)));
            }
            if (g.hbmTBps > 0) {
                const double ratio = g.burnin.hbmFloorTBps / g.hbmTBps;
                QVERIFY2(ratio > 0.73 && ratio < 0.77, qPrintable(QStringLiteral("%1: %2").arg(g.model).arg(ratio)));
            }
            if (!g.familyOnly)
                QVERIFY2(g.tdpW > 0 && g.hbmGiB > 0 && g.hbmTBps > 0 && g.bf16PetaFlops > 0, qPrintable(g.model));
        }
    }

    void instanceTypes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("canonical");
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("efa");
        QTest::addColumn<int>("vcpus");
        QTest::addColumn<int>("memoryGiB");
        auto row = [](const char *n, const char *c, const char *m, int g, int e, int v, int mem) {
            QTest::newRow(n) << QString::fromLatin1(n) << QString::fromLatin1(c) << QString::fromLatin1(m) << g << e << v << mem;
        };
        row("p3.2xlarge", "p3.2xlarge", "V100-SXM2-16GB", 1, 0, 8, 61);
        row("p3.8xlarge", "p3.8xlarge", "V100-SXM2-16GB", 4, 0, 32, 244);
        row("p3.16xlarge", "p3.16xlarge", "V100-SXM2-16GB", 8, 0, 64, 488);
        row("p3dn.24xlarge", "p3dn.24xlarge", "V100-SXM2-32GB", 8, 1, 96, 768);
        row("p4d.24xlarge", "p4d.24xlarge", "A100-SXM4-40GB", 8, 4, 96, 1152);
        row("p4de.24xlarge", "p4de.24xlarge", "A100-SXM4-80GB", 8, 4, 96, 1152);
        row("p5.48xlarge", "p5.48xlarge", "H100", 8, 32, 192, 2048);
        row("p5.4xlarge", "p5.4xlarge", "H100", 1, 1, 16, 256);
        row("p5e.48xlarge", "p5e.48xlarge", "H200", 8, 32, 192, 2048);
        row("p5en.48xlarge", "p5en.48xlarge", "H200", 8, 16, 192, 2048);
        row("p6-b200.48xlarge", "p6-b200.48xlarge", "B200", 8, 8, 192, 2048);
        row("p6-b300.48xlarge", "p6-b300.48xlarge", "B300", 8, 8, 192, 4096);
        row("p6e-gb200.36xlarge", "p6e-gb200.36xlarge", "GB200", 4, 8, 144, 960);
        row("g4dn.xlarge", "g4dn.xlarge", "T4", 1, 0, 4, 16);
        row("g4dn.12xlarge", "g4dn.12xlarge", "T4", 4, 1, 48, 192);
        row("g5.xlarge", "g5.xlarge", "A10G", 1, 0, 4, 16);
        row("g5.48xlarge", "g5.48xlarge", "A10G", 8, 1, 192, 768);
        row("g5g.16xlarge", "g5g.16xlarge", "T4G", 2, 0, 64, 128);
        row("g6.xlarge", "g6.xlarge", "L4", 1, 0, 4, 16);
        row("g6.48xlarge", "g6.48xlarge", "L4", 8, 1, 192, 768);
        row("g6e.xlarge", "g6e.xlarge", "L40S", 1, 0, 4, 32);
        row("g6e.48xlarge", "g6e.48xlarge", "L40S", 8, 4, 192, 1536);
        row("hyperpod ml.p5.48xlarge", "p5.48xlarge", "H100", 8, 32, 192, 2048);
        row("hyperpod ml.g5.8xlarge", "g5.8xlarge", "A10G", 1, 1, 32, 128);
        row("upper case P5.48XLARGE", "p5.48xlarge", "H100", 8, 32, 192, 2048);
    }
    void instanceTypes()
    {
        QFETCH(QString, name);
        QFETCH(QString, canonical);
        QFETCH(QString, model);
        const QString lookup = name.section(QLatin1Char(' '), -1);
        const InstanceTypeSpec *spec = catalog().instanceType(lookup);
        QVERIFY2(spec, qPrintable(lookup));
        QCOMPARE(spec->name, canonical);
        QCOMPARE(spec->gpuModel, model);
        QTEST(spec->gpuCount, "gpus");
        QTEST(spec->efaCount, "efa");
        QTEST(spec->vcpus, "vcpus");
        QTEST(spec->memoryGiB, "memoryGiB");
        QVERIFY(catalog().gpu(spec->gpuModel));
    }

    void unknownInstanceTypes()
    {
        for (const char *name : {"m5.large", "p5", "p5.48", "p5.48xlarge2", "ml.", "", "trn1.32xlarge", "u-p6e-gb200x72"})
            QVERIFY2(!catalog().instanceType(QString::fromLatin1(name)), name);
    }

    void slurmNodeInstanceType_data()
    {
        QTest::addColumn<QString>("node");
        QTest::addColumn<QStringList>("features");
        QTest::addColumn<QString>("instanceType");
        const auto f = [](std::initializer_list<const char *> l) {
            QStringList out;
            for (const char *s : l)
                out << QString::fromLatin1(s);
            return out;
        };
        // ParallelCluster 3: Feature=static|dynamic,<instance type>,<compute resource>[,efa][,gpu].
        QTest::newRow("pcluster static feature") << u"gpu-st-p548xlarge-1"_s
            << f({"static", "p5.48xlarge", "p548xlarge", "efa", "gpu"}) << u"p5.48xlarge"_s;
        QTest::newRow("pcluster dynamic feature") << u"queue1-dy-cr1-12"_s
            << f({"dynamic", "p4de.24xlarge", "cr1", "efa", "gpu"}) << u"p4de.24xlarge"_s;
        // Several instance types in one compute resource: no instance-type feature; a compute
        // resource named after a type still says it.
        QTest::newRow("pcluster squashed cr feature") << u"train-dy-p5en48xlarge-3"_s
            << f({"dynamic", "p5en48xlarge", "efa", "gpu"}) << u"p5en.48xlarge"_s;
        QTest::newRow("pcluster squashed node name") << u"train-st-p6-b200-48xlarge-2"_s
            << QStringList() << u"p6-b200.48xlarge"_s;
        QTest::newRow("pcluster queue with hyphen") << u"gpu-queue-st-g6e12xlarge-10"_s
            << f({"static", "gpu"}) << u"g6e.12xlarge"_s;
        QTest::newRow("pcluster cr not an instance type") << u"queue1-st-compute1-i1-1"_s
            << f({"static", "compute1-i1"}) << QString();
        QTest::newRow("hyperpod feature") << u"ip-10-1-80-19"_s << f({"ml.p5.48xlarge"}) << u"p5.48xlarge"_s;
        QTest::newRow("hyperpod hostname only") << u"ip-10-1-80-19"_s << QStringList() << QString();
        QTest::newRow("lab feature") << u"gpu-node01"_s << f({"p5en.48xlarge"}) << u"p5en.48xlarge"_s;
        // CPU (and other non-GPU) instance types are no catalog entries: the feature's shape
        // still names the type, and no GPUs come of it.
        QTest::newRow("cpu type from its feature") << u"q-st-c54xlarge-1"_s << f({"static", "c5.4xlarge", "c54xlarge"})
                                                   << u"c5.4xlarge"_s;
        QTest::newRow("pcluster c5 dynamic") << u"cpu-dy-c5-1"_s << f({"dynamic", "c5.xlarge", "c5xlarge"}) << u"c5.xlarge"_s;
        QTest::newRow("m7i") << u"cpu-st-m7i-1"_s << f({"static", "m7i.48xlarge", "m7i48xlarge"}) << u"m7i.48xlarge"_s;
        QTest::newRow("m7i-flex") << u"cpu-dy-flex-1"_s << f({"dynamic", "m7i-flex.large", "flex"}) << u"m7i-flex.large"_s;
        QTest::newRow("trn1") << u"trn-st-trn1-1"_s << f({"static", "trn1.32xlarge", "trn1", "efa"}) << u"trn1.32xlarge"_s;
        QTest::newRow("metal") << u"cpu-st-c7gn-1"_s << f({"static", "c7gn.metal", "c7gn"}) << u"c7gn.metal"_s;
        QTest::newRow("metal-24xl") << u"cpu-st-c8gd-1"_s << f({"static", "c8gd.metal-24xl"}) << u"c8gd.metal-24xl"_s;
        QTest::newRow("high memory u-") << u"mem-st-u6tb1-1"_s << f({"static", "u-6tb1.metal"}) << u"u-6tb1.metal"_s;
        QTest::newRow("hyperpod cpu") << u"ip-10-1-80-20"_s << f({"ml.c5.xlarge"}) << u"c5.xlarge"_s;
        // A catalog type wins over a shaped one, wherever each stands.
        QTest::newRow("catalog type first") << u"gpu-dy-p5-1"_s << f({"dynamic", "c5.xlarge", "p5e.48xlarge"})
                                            << u"p5e.48xlarge"_s;
        QTest::newRow("not an instance type: no size") << u"node002"_s << f({"rack1.row2", "v1.2", "efa"}) << QString();
        QTest::newRow("not an instance type: squashed cpu") << u"cpu-dy-c5xlarge-1"_s << f({"dynamic", "c5xlarge"}) << QString();
        QTest::newRow("not an instance type: upper case") << u"node003"_s << f({"C5.XLARGE"}) << QString();
        QTest::newRow("plain name") << u"node001"_s << f({"ib", "a100"}) << QString();
    }
    void slurmNodeInstanceType()
    {
        QFETCH(QString, node);
        QFETCH(QStringList, features);
        QTEST(catalog().instanceTypeForSlurmNode(node, features), "instanceType");
    }

    void squashedNamesAreUnique()
    {
        // Every catalog type squashes to itself alone; a squash two types share is refused.
        for (const InstanceTypeSpec &t : catalog().instanceTypes()) {
            QString s = t.name;
            s.remove(QLatin1Char('.')).remove(QLatin1Char('-'));
            const InstanceTypeSpec *found = catalog().instanceTypeForSquashedName(s);
            QVERIFY2(found && found->name == t.name, qPrintable(t.name));
        }
        QString error;
        const GpuCatalog c = GpuCatalog::fromJson(R"({"gpus":[{"model":"X","names":["x"]}],
            "instanceTypes":[{"name":"a1.2x","gpuModel":"X"},{"name":"a12.x","gpuModel":"X"}]})", &error);
        QCOMPARE(error, QString());
        QVERIFY(c.instanceType(QStringLiteral("a1.2x")));
        QVERIFY(!c.instanceTypeForSquashedName(QStringLiteral("a12x")));
    }

    void resolveModel_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("instanceType");
        QTest::addColumn<QString>("model");
        QTest::newRow("pcluster a100 on p4de") << u"a100"_s << u"p4de.24xlarge"_s << u"A100-SXM4-80GB"_s;
        QTest::newRow("pcluster a100 on p4d") << u"a100"_s << u"p4d.24xlarge"_s << u"A100-SXM4-40GB"_s;
        QTest::newRow("pcluster v100 on p3dn") << u"v100"_s << u"p3dn.24xlarge"_s << u"V100-SXM2-32GB"_s;
        QTest::newRow("a100 without type") << u"a100"_s << QString() << u"A100"_s;
        QTest::newRow("no name") << QString() << u"g6e.xlarge"_s << u"L40S"_s;
        QTest::newRow("unknown name") << u"gpu"_s << u"ml.g5.2xlarge"_s << u"A10G"_s;
        QTest::newRow("name wins over type") << u"h100"_s << u"p5e.48xlarge"_s << u"H100"_s;
        QTest::newRow("family of another type") << u"a100"_s << u"p5.48xlarge"_s << u"A100"_s;
        QTest::newRow("unknown type") << u"nvidia_l40s"_s << u"m5.large"_s << u"L40S"_s;
        QTest::newRow("nothing") << QString() << QString() << QString();
    }
    void resolveModel()
    {
        QFETCH(QString, name);
        QFETCH(QString, instanceType);
        QTEST(catalog().resolveModel(name, instanceType), "model");
    }

    void invalidCatalogs_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json") << QByteArray("{") << u"GPU catalog is not valid JSON"_s;
        QTest::newRow("no model") << QByteArray(R"({"gpus":[{"name":"x"}]})") << u"without a model"_s;
        QTest::newRow("twice") << QByteArray(R"({"gpus":[{"model":"A"},{"model":"a"}]})") << u"lists model a twice"_s;
        QTest::newRow("same name pattern") << QByteArray(R"({"gpus":[{"model":"A","names":["x y"]},{"model":"B","names":["y-x"]}]})")
                                           << u"belongs to both A and B"_s;
        QTest::newRow("unknown gpu model") << QByteArray(R"({"gpus":[],"instanceTypes":[{"name":"p9.x","gpuModel":"Z"}]})")
                                           << u"unknown GPU model Z"_s;
    }
    void invalidCatalogs()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        QString actual;
        const GpuCatalog c = GpuCatalog::fromJson(json, &actual);
        QVERIFY2(actual.contains(error), qPrintable(actual));
        QVERIFY(c.gpus().isEmpty());
    }

    void version1CatalogStillReads()
    {
        // The v1 spelling (gresTypes, productNames) still maps exact names.
        QString error;
        const GpuCatalog c = GpuCatalog::fromJson(R"({"gpus":[{"model":"H100","gresTypes":["h100"],
            "productNames":["NVIDIA H100 80GB HBM3"],"bf16PetaFlops":0.989}]})", &error);
        QCOMPARE(error, QString());
        QCOMPARE(c.modelForName(QStringLiteral("NVIDIA H100 80GB HBM3")), QStringLiteral("H100"));
        QCOMPARE(c.modelForName(QStringLiteral("h100")), QStringLiteral("H100"));
        QCOMPARE(c.modelForName(QStringLiteral("nvidia_h100_80gb_hbm3")), QString());
    }
};

QTEST_GUILESS_MAIN(TestGpuCatalog)
#include "tst_gpu_catalog.moc"
