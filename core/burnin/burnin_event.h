#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <variant>

namespace strata {

// The events of the strata-burn protocol v1 (burnin/PROTOCOL.md) as value structs. A field the
// agent sent as null stays empty (std::optional), never a made-up zero.

struct BurninGpuInfo
{
    int index = -1;
    QString uuid;
    QString name;
    QString model;               // catalog model; empty when the agent did not know it
    QString pciBusId;
    qint64 memoryBytes = 0;
    std::optional<double> specTflops;
    std::optional<double> specTBps;
};

struct BurninStart
{
    QString agentVersion;
    QString backend;             // "cuda" or "cpu"
    QString host;
    QDateTime time;
    QVector<BurninGpuInfo> gpus;
    QStringList tests;
    double durationSeconds = 0;
    bool nvml = false;
    QString nvmlStatus;
    QString inject;              // "bitflip:0"; empty when no fault was planted
    QString metricsEndpoint;
};

struct BurninProgress
{
    int gpu = -1;
    QString test;
    double fraction = 0;
    QString figure;
    double value = 0;
};

struct BurninTelemetry
{
    int gpu = -1;
    std::optional<double> tempC;
    std::optional<double> powerW;
    std::optional<double> smClockMHz;
    std::optional<double> memClockMHz;
    std::optional<quint64> throttleMask;
    QStringList throttleReasons;
};

struct BurninTelemetrySummary
{
    int samples = 0;
    std::optional<double> maxTempC;
    std::optional<double> maxPowerW;
    std::optional<double> minSmClockMHz;
    std::optional<double> meanSmClockMHz;
    quint64 throttleMask = 0;
    QStringList throttleReasons;
};

struct BurninErrorAddress
{
    quint64 offset = 0;          // bytes from the start of the tested region
    quint64 expected = 0;
    quint64 actual = 0;
};

// One test on one GPU. Only the figures of its test are set.
struct BurninResult
{
    int gpu = -1;
    QString uuid;
    QString test;                // gemm, hbm, pcie, p2p
    QString backend;
    bool passed = false;         // the agent's own verdict (correctness, and floors it was given)
    QStringList reasons;
    double seconds = 0;
    QString skipped;             // why the test did not run; empty when it ran
    QString error;
    QByteArray figuresJson;      // the figures object as sent, for history

    // gemm
    std::optional<double> tflops;
    std::optional<double> specTflops;
    std::optional<qint64> mismatches;
    std::optional<double> sampledRelError;
    std::optional<qint64> sampledOutOfBounds;
    std::optional<qint64> iterations;
    QString engine;              // what computed the products (cublaslt-bf16, own-bf16, ...); empty from older agents
    int m = 0, n = 0, k = 0;
    // hbm
    std::optional<double> readTBps;
    std::optional<double> writeTBps;
    std::optional<double> copyTBps;
    std::optional<double> specTBps;
    std::optional<quint64> bitErrors;
    std::optional<quint64> wordErrors;
    quint64 patternBytes = 0;
    qint64 patternPasses = 0;
    QVector<BurninErrorAddress> errorAddresses;
    // gemm and hbm
    std::optional<double> pctOfSpec;
    // pcie
    std::optional<double> hostToDeviceGBps;
    std::optional<double> deviceToHostGBps;
    // p2p: (peer GPU, GB/s)
    QVector<QPair<int, double>> peers;
    QVector<int> unreachablePeers;
    bool standIn = false;        // cpu backend: memcpy stands in for PCIe/NVLink

    std::optional<BurninTelemetrySummary> telemetry;
};

struct BurninError
{
    std::optional<int> gpu;      // empty: the whole agent
    QString message;
};

struct BurninGpuSummary
{
    int gpu = -1;
    QString uuid;
    bool passed = false;
    QStringList failedTests;
    QStringList reasons;
};

struct BurninSummary
{
    QVector<BurninGpuSummary> gpus;
    bool passed = false;
    int exitCode = -1;
    double seconds = 0;
};

// A line the parser could not use; parsing goes on with the next line.
struct BurninParseError
{
    qint64 line = 0;             // 1-based line number in the stream
    QString message;
    // Another protocol version or another encoding: the stream parser reads no further line.
    bool endsStream = false;
};

using BurninEvent = std::variant<BurninStart, BurninProgress, BurninTelemetry, BurninResult,
                                 BurninError, BurninSummary, BurninParseError>;

} // namespace strata
