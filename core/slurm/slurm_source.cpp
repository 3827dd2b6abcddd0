#include "slurm_source.h"

#include "batch_script_reader.h"
#include "model/gpu_count.h"

#include "job_output_follower.h"
#include "sinfo_json_parser.h"
#include "slurm_action_reconciler.h"
#include "scontrol_ping_parser.h"
#include "slurm_version.h"
#include "versioned_node_list.h"
#include "job_placement_reader.h"
#include "sacct_parser.h"
#include "slurm_commands.h"
#include "slurm_diagnostic.h"
#include "squeue_follower.h"
#include "squeue_parser.h"
#include "model/gpu_count.h"
#include "model/refused_action.h"
#include "model/string_interner.h"
#include "model/workload_detector.h"
#include "ssh/remote_shell.h"
#include "ssh/streaming_shell.h"
#include "model/pool_task.h"

#include <QElapsedTimer>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QSet>
#include <QUuid>

#include <algorithm>

Q_LOGGING_CATEGORY(lcSlurm, "strata.slurm")

namespace strata {

namespace {

QByteArray newRecordMarker()
{
    // Random per refresh, so no job name can forge a record boundary.
    const quint64 a = QRandomGenerator::system()->generate64();
    return QByteArray("<<strata:") + QByteArray::number(a, 16) + QByteArray(">>");
}

// Marks the part failed with the command's own words; transport failures say so.
void fail(OrchestratorPart &part, const QString &what, const CommandResult &r)
{
    part.error = r.ran() ? QStringLiteral("%1 failed: %2").arg(what, r.errorText()) : r.errorText();
    part.errorKind = r.errorKind();
    part.transportFailed = !r.hostAnswered();
    part.hostKeyFingerprint = r.hostKeyFingerprint;
}

// Remote-side filter: only running jobs carry a GPU placement worth transferring. Lines without
// any JobState= are kept too: a job name with a newline splits its record, and its first line
// (JobId, the start of the name) must reach the parser with the rest.
const QByteArray kRunningJobDetailsScript = R"(rc_file=$(mktemp) || exit 1
{ scontrol show job -d -o; echo $? >"$rc_file"; } | LC_ALL=C awk '/JobState=(RUNNING|CONFIGURING|COMPLETING|SUSPENDED|STOPPED)/ || !/JobState=/'
rc=$(cat "$rc_file"); rm -f "$rc_file"; exit "${rc:-1}"
)";

// Every state but PENDING (squeue -t takes the base states; flags such as CONFIGURING or
// COMPLETING ride on them): what a refresh reads between reads of the pending backlog.
const QString kStatesButPending = QStringLiteral(
    "RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY");

// Up to this many new running jobs (the usual refresh, placements being cached) are asked for
// each on its own, in one remote script (JobPlacementReader); more are read in one bulk read.
constexpr int kPerJobDetailLimit = 32;

// Up to this many jobs' batch scripts are read a refresh, running and configuring jobs first,
// then pending ones: 50,000 new jobs never mean 50,000 reads at once, the rest come in later
// refreshes.
constexpr int kScriptReadLimit = 50;

// The tasks of one array share their script: read once, under the array's id.
QString scriptKey(const Job &job)
{
    return job.arrayJobId.isEmpty() ? job.id : job.arrayJobId;
}

} // namespace

void applyPlacements(QVector<Node> &nodes, QVector<Job> &jobs, const QHash<QString, JobGpuPlacement> &placements)
{
    QHash<QString, int> nodeIndex;
    nodeIndex.reserve(nodes.size());
    for (int i = 0; i < nodes.size(); ++i) {
        Node &n = nodes[i];
        nodeIndex.insert(n.name, i);
        // The parser made the GPUs it knows, each with its own model (a node may mix types);
        // any others take the node's.
        const qsizetype made = std::min<qsizetype>(n.gpus.size(), n.gpuCount);
        n.gpus.resize(n.gpuCount);
        for (int g = 0; g < n.gpuCount; ++g) {
            n.gpus[g].index = g;
            if (g >= made)
                n.gpus[g].model = n.gpuModel;
        }
    }
    for (Job &job : jobs) {
        const auto it = placements.constFind(job.id);
        if (it == placements.constEnd())
            continue;
        job.command = it->command;
        job.workDir = it->workDir;
        job.stdoutPath = it->stdoutPath;
        job.comment = it->comment;
        // An ended job keeps what it ran and where it wrote (its output is still there to read),
        // but its GPUs are free: they count for no one.
        if (job.hasEnded())
            continue;
        job.gpus = it->gpus;
        for (auto g = it->gpus.constBegin(); g != it->gpus.constEnd(); ++g) {
            const auto n = nodeIndex.constFind(g.key());
            if (n == nodeIndex.constEnd())
                continue;
            Node &node = nodes[*n];
            for (int index : g.value())
                if (index >= 0 && index < node.gpus.size())
                    node.gpus[index].jobId = job.id;
        }
    }
}

SlurmSource::SlurmSource(std::shared_ptr<RemoteShell> shell, const GpuCatalog &catalog)
    : m_shell(std::move(shell)), m_catalog(catalog)
{
    m_pool.setMaxThreadCount(1);
}

SlurmSource::~SlurmSource()
{
    m_pool.waitForDone();
}

void SlurmSource::noteOwnJobChange()
{
    // The next refresh reads squeue once; the follower's listings from before the action would
    // show the old state again on the refresh after it.
    m_pendingDue = true;
    if (m_follower)
        m_follower->discardOlderListings();
}

void SlurmSource::setPolling(int intervalSeconds)
{
    m_followSeconds.store(qMax(0, intervalSeconds));
    if (intervalSeconds <= 0) // end the remote squeue now, not at the next refresh
        (void)runOnPool(&m_pool, [this] { m_follower.reset(); });
}

QFuture<OrchestratorPart> SlurmSource::refresh()
{
    return runOnPool(&m_pool, [this] { return refreshBlocking(nullptr); });
}

QFuture<AccountingAnswer> SlurmSource::readJobRecords(const HistoryPeriod &period)
{
    // The shell, not `this`: the read may outlive the source by a moment (a window closed).
    return runOnPool(nullptr, [shell = m_shell, period] {
        AccountingAnswer answer;
        answer.command = SacctParser::describe(period);
        if (!period.isValid()) {
            answer.error = QStringLiteral("the period to read is empty or reversed");
            answer.errorKind = ErrorKind::InvalidRequest;
            return answer;
        }
        const QByteArray delimiter = SacctParser::newDelimiter();
        const CommandResult r = shell->run(SacctParser::arguments(period, delimiter)).result();
        answer.durationMs = r.durationMs;
        answer.bytes = r.stdoutData.size();
        if (!r.ran()) {
            answer.error = r.errorText();
            answer.errorKind = r.errorKind();
            return answer;
        }
        // Whatever its exit status, a sacct that says accounting is off has read nothing.
        if (r.exitStatus != 0 || SacctParser::saysNoAccounting(r.stderrData)) {
            const SacctFailure failure = SacctParser::readFailure(r.stderrData, r.exitStatus);
            answer.error = failure.message;
            answer.errorKind = failure.kind;
            return answer;
        }
        SacctParseResult parsed = SacctParser::parse(r.stdoutData, delimiter);
        answer.records = std::move(parsed.records);
        answer.skippedRows = parsed.skippedRows;
        answer.warnings = parsed.problems;
        if (parsed.skippedRows > 0)
            qCWarning(lcSlurm) << "sacct:" << parsed.skippedRows << "rows skipped:" << parsed.problems;
        return answer;
    });
}

QFuture<OrchestratorProbe> SlurmSource::probe()
{
    return runOnPool(&m_pool, [this] {
        return parseScontrolPing(m_shell->run({QStringLiteral("scontrol"), QStringLiteral("ping")}).result());
    });
}

OrchestratorSource::StagedRefresh SlurmSource::refreshStaged()
{
    auto early = std::make_shared<QPromise<OrchestratorPart>>();
    early->start();
    QFuture<OrchestratorPart> earlyFuture = early->future();
    QFuture<OrchestratorPart> full = runOnPool(&m_pool, [this, early] {
        OrchestratorPart part = refreshBlocking(early.get());
        early->finish(); // without a result when the refresh failed before the nodes were read
        return part;
    });
    return {earlyFuture, full};
}

OrchestratorPart SlurmSource::refreshBlocking(QPromise<OrchestratorPart> *early)
{
    OrchestratorPart part = refreshOnce(early);
    // A new connection may reach another login node, or the same one after an upgrade: learn
    // the release again after a transport failure, and after its node list could not be read.
    if (part.transportFailed || m_nodeListFailed) {
        m_version = SlurmVersion();
        m_followUnusable = false;
    }
    return part;
}

bool SlurmSource::learnVersion(OrchestratorPart &part, CommandResult &read, const QByteArray &marker)
{
    const QString versionCommand = QStringLiteral("scontrol version");
    if (!read.ran() || (!read.ok() && !read.stdoutData.startsWith(marker))) {
        fail(part, versionCommand, read); // the connection, or the script itself (no mktemp)
        return false;
    }
    VersionedNodeList::Result answer = VersionedNodeList::parse(read.stdoutData, marker);
    read.stdoutData = QByteArray();
    if (!answer.error.isEmpty()) {
        part.error = answer.error;
        part.errorKind = ErrorKind::ParseFailed;
        return false;
    }
    if (!answer.version.ok()) {
        fail(part, versionCommand, answer.version);
        return false;
    }
    QString error;
    const SlurmVersion version = SlurmVersion::parse(answer.version.stdoutData, &error);
    if (!version.isValid()) {
        part.error = error;
        part.errorKind = ErrorKind::ParseFailed;
        return false;
    }
    if (version.support() != SlurmVersion::Support::Supported) {
        part.error = version.unsupportedReason();
        part.errorKind = ErrorKind::SourceUnsupported;
        return false;
    }
    if (answer.nodeSource != version.nodeSource()) {
        // The login node read the release otherwise than SlurmVersion::parse: its node list is
        // not the one this release needs, and is not read as if it were.
        part.error = QStringLiteral("the login node listed the nodes with `%1`, but Slurm %2 needs `%3`")
                         .arg(answer.nodeSource ? SlurmVersion::nodeCommand(*answer.nodeSource).join(QLatin1Char(' '))
                                                : QStringLiteral("nothing"),
                              version.toString(), version.nodeCommand().join(QLatin1Char(' ')));
        part.errorKind = ErrorKind::ParseFailed;
        return false;
    }
    qCDebug(lcSlurm).noquote() << "Slurm" << version.toString() << "- nodes from" << version.nodeCommand().join(QLatin1Char(' '));
    m_version = version;
    read.stdoutData = std::move(answer.nodeList); // the node command's own answer, exit status and stderr
    return true;
}

QHash<QString, QStringList> SlurmSource::carryJobsAwaitingLaunch(QVector<Node> &nodes, const QVector<Job> &jobs,
                                                                  const QHash<QString, QStringList> &previous)
{
    QHash<QString, int> nodeIndex;
    for (int i = 0; i < nodes.size(); ++i)
        if (nodes[i].power != PowerState::Launched)
            nodeIndex.insert(nodes[i].name, i);
    if (nodeIndex.isEmpty())
        return {};
    QHash<QString, QStringList> waiting;
    for (const Job &j : jobs) {
        if (j.stateKind != JobState::Configuring)
            continue;
        for (const QString &name : j.nodes)
            if (nodeIndex.contains(name))
                waiting[name] << j.id;
    }
    for (auto it = nodeIndex.constBegin(); it != nodeIndex.constEnd(); ++it) {
        Node &node = nodes[it.value()];
        if (node.power == PowerState::FailedToLaunch) {
            // Kept for as long as the node stays failed: the finding names them every refresh.
            node.jobsAwaitingLaunch = previous.value(node.name);
            if (!node.jobsAwaitingLaunch.isEmpty())
                waiting.insert(node.name, node.jobsAwaitingLaunch);
        }
    }
    return waiting;
}

OrchestratorPart SlurmSource::refreshOnce(QPromise<OrchestratorPart> *early)
{
    QElapsedTimer clock;
    clock.start();
    OrchestratorPart part;
    m_nodeListFailed = false;

    // The reads do not depend on each other: all are sent now and run side by side, each on its
    // own channel (a refresh then takes about as long as its slowest read, the job list, instead
    // of their sum). The node list's command depends on the release, learnt once per
    // connection: the first refresh reads both in one remote command, where the login node
    // picks the node command by the client's own version (VersionedNodeList), so the node list
    // waits no round trip. A read that is not needed because an earlier one failed finishes
    // unread.
    const bool learnsVersion = !m_version.isValid();
    const QByteArray versionMarker = learnsVersion ? newRecordMarker() : QByteArray();
    const QFuture<CommandResult> nodesRead = learnsVersion
        ? m_shell->runScript(VersionedNodeList::remoteScript(versionMarker))
        : m_shell->run(m_version.nodeCommand());
    const QByteArray marker = newRecordMarker();
    const QFuture<CommandResult> partitionsRead = m_shell->run(
        {QStringLiteral("scontrol"), QStringLiteral("show"), QStringLiteral("partition"), QStringLiteral("-o")});
    // Polling (setPolling), the job list is the newest listing of one squeue --iterate kept
    // running (SqueueFollower): the controller answers it cheaply while nothing changed. The
    // refresh right after this source's own submit or cancel reads squeue once, so the change
    // shows at once; so does every refresh without polling (the CLI's one) or where the login
    // node cannot run the follower.
    StreamingShell *streaming = dynamic_cast<StreamingShell *>(m_shell.get());
    const int followSeconds = m_followSeconds.load();
    const bool canFollow = followSeconds > 0 && streaming && !m_followUnusable;
    if (m_follower && (!canFollow || m_follower->hasEnded() || m_follower->intervalSeconds() != followSeconds))
        m_follower.reset();
    bool follow = canFollow && !m_pendingDue;
    if (follow && !m_follower)
        m_follower = std::make_unique<SqueueFollower>(*streaming, followSeconds);
    // Without it, the pending backlog at a lower rate than the running work
    // (kPendingReadIntervalMs); with it no backlog is kept, so a single read lists all.
    const bool readPending = canFollow || m_pendingDue || !m_pendingReadClock.isValid()
        || m_pendingReadClock.elapsed() >= kPendingReadIntervalMs;
    // TZ=UTC0: squeue prints submit and start times in its own zone, unnamed; in UTC they mean
    // the same wherever the console and the login node are (SlurmTime::parseTimestamp).
    const auto readJobs = [&] {
        return m_shell->run({QStringLiteral("env"), QStringLiteral("TZ=UTC0"),
                             QStringLiteral("squeue"), QStringLiteral("-h"), QStringLiteral("-a"), QStringLiteral("-r"),
                             QStringLiteral("--states=") + (readPending ? QStringLiteral("all") : kStatesButPending),
                             QStringLiteral("-O"), SqueueParser::formatArgument(marker)});
    };
    QFuture<CommandResult> jobsRead = follow ? QFuture<CommandResult>() : readJobs();
    // Placements are read after the job list, never alongside it: the read of all running jobs'
    // details packs every job with its details in slurmctld (3.9 s alone at 50,000 jobs, more
    // than the job list's 2.2 s) and, sent beside the job list and the node list, slowed both
    // (job list 5.3 s, node list 3.5 s on 2 cores, docs/PERF.md) even where few jobs run and
    // its answer was dropped unread.
    CommandResult sinfo = nodesRead.result();
    if (learnsVersion && !learnVersion(part, sinfo, versionMarker))
        return part;
    const QStringList nodeCommand = m_version.nodeCommand();

    // The partitions first: with the controller down, `sinfo --json` exits 0 with only
    // "Unspecified error" in its JSON, while scontrol says what is wrong ("Unable to contact
    // slurm controller (connect failure)").
    const CommandResult partitions = partitionsRead.result();
    if (!partitions.ok()) {
        fail(part, QStringLiteral("scontrol show partition"), partitions);
        return part;
    }
    ScontrolPartitionsParseResult parsedPartitions = ScontrolParser::parsePartitions(partitions.stdoutData);

    if (!sinfo.ok()) {
        fail(part, nodeCommand.join(QLatin1Char(' ')), sinfo);
        m_nodeListFailed = sinfo.ran();
        return part;
    }
    SinfoParseResult nodes = SinfoJsonParser::parse(sinfo.stdoutData, m_catalog);
    if (!nodes.error.isEmpty()) {
        part.error = QStringLiteral("%1 (Slurm %2): %3").arg(nodeCommand.join(QLatin1Char(' ')), m_version.toString(), nodes.error);
        m_nodeListFailed = true;
        part.errorKind = nodes.errorKind;
        return part;
    }
    part.nodes = std::move(nodes.nodes);
    part.partitions = std::move(parsedPartitions.partitions);
    applyPlacements(part.nodes, part.jobs, {}); // one Gpu per index; the jobs' come below
    for (Partition &p : part.partitions) {
        // slurmctld's own total counts a node's GPUs as the node reported them: with a count
        // refused (GpuCount) it is the sum of the known ones instead.
        bool refusedInside = false;
        for (const Node &n : std::as_const(part.nodes))
            refusedInside = refusedInside || (!n.gpuCountKnown() && n.partitions.contains(p.name));
        if (p.totalGpus <= 0 || refusedInside || p.totalGpus > qint64(GpuCount::kMaxPerNode) * p.nodes.size()) {
            p.totalGpus = 0;
            for (const Node &n : std::as_const(part.nodes))
                if (n.partitions.contains(p.name))
                    p.totalGpus += n.gpuCount;
        }
    }
    if (!nodes.warning.isEmpty())
        part.warnings << nodes.warning;
    qint64 bytes = sinfo.stdoutData.size() + partitions.stdoutData.size();
    if (early) {
        // What a window can paint while the job list is still on its way.
        OrchestratorPart first = part;
        first.durationMs = clock.elapsed();
        first.bytesRead = bytes;
        early->addResult(std::move(first));
        early->finish();
    }

    QByteArray listing;
    QByteArray listingMarker = marker;
    const auto failJobs = [&](const CommandResult &r) {
        fail(part, QStringLiteral("squeue"), r);
        part.nodes.clear();
        part.partitions.clear();
        return part;
    };
    if (follow) {
        // A listing arrives every followSeconds; the first takes as long as a squeue does.
        SqueueFollower::Taken taken = m_follower->takeNewest((2 * followSeconds + 30) * 1000);
        switch (taken.status) {
        case SqueueFollower::Taken::Status::Listing:
            if (taken.listing.records.isEmpty() && !taken.listing.messages.trimmed().isEmpty()) {
                // squeue could not list ("slurm_load_jobs error: ..."): it said so in place of the
                // listing and tries again at its next interval.
                CommandResult said;
                said.exitStatus = 1;
                said.stderrData = taken.listing.messages;
                return failJobs(said);
            }
            if (!taken.listing.messages.trimmed().isEmpty())
                part.warnings << QStringLiteral("squeue: %1").arg(QString::fromUtf8(taken.listing.messages).trimmed());
            listing = std::move(taken.listing.records);
            listingMarker = taken.marker;
            m_followedRefreshes.fetchAndAddRelaxed(1);
            break;
        case SqueueFollower::Taken::Status::Ended: {
            const bool everListed = m_follower->listingsRead() > 0;
            m_follower.reset();
            if (everListed || !taken.ended.hostAnswered())
                return failJobs(taken.ended); // the next refresh starts another
            // The login node cannot run it (no stdbuf or od there): one squeue per refresh.
            qCWarning(lcSlurm).noquote() << "squeue --iterate cannot run here, reading squeue each refresh:"
                                         << taken.ended.errorText();
            m_followUnusable = true;
            follow = false;
            break;
        }
        case SqueueFollower::Taken::Status::TimedOut:
            qCWarning(lcSlurm) << "squeue --iterate gave no listing in time; reading squeue once and starting it again";
            m_follower.reset();
            follow = false;
            break;
        }
        if (!follow)
            jobsRead = readJobs();
    }
    if (!follow) {
        CommandResult squeue = jobsRead.result();
        if (!squeue.ok())
            return failJobs(squeue);
        listing = std::move(squeue.stdoutData);
    }
    // One string per user, state, partition, node name... across the 50,000 jobs, and a job's
    // node names are its nodes' own.
    StringInterner strings;
    for (const Node &n : std::as_const(part.nodes))
        strings.intern(n.name);
    for (const Partition &p : std::as_const(part.partitions))
        strings.intern(p.name);
    SqueueParseResult jobs = SqueueParser::parse(listing, listingMarker, strings);
    if (!jobs.error.isEmpty())
        qCWarning(lcSlurm) << jobs.malformedRecords << "malformed squeue records:" << jobs.error;
    bytes += listing.size();
    listing = QByteArray(); // its megabytes are parsed

    // Keep placements of jobs still running, and of those that ended while this session
    // watched them for as long as Slurm lists them (their command, work dir and output path);
    // fetch details only if a running job is new.
    QSet<QString> running;
    QSet<QString> ended;
    QHash<QString, QString> names;
    for (const Job &j : std::as_const(jobs.jobs)) {
        if (j.hasEnded())
            ended.insert(j.id);
        // CONFIGURING: Slurm already holds its nodes and GPU indices while they launch or boot.
        if (j.isRunning() || j.stateKind == JobState::Configuring || j.stateKind == JobState::Completing
            || j.stateKind == JobState::Suspended) {
            running.insert(j.id);
            names.insert(j.id, j.name);
        }
    }
    for (auto it = m_placementCache.begin(); it != m_placementCache.end();)
        it = running.contains(it.key()) || ended.contains(it.key()) ? std::next(it) : m_placementCache.erase(it);
    // Reads placements into the cache: `scontrol show job -d -o` for the given jobs, a few side
    // by side, each in a record of its own (JobPlacementReader), or for all running jobs
    // filtered on the login node (ids empty).
    const auto readDetails = [&](const QStringList &ids) -> bool {
        const bool perJob = !ids.isEmpty();
        const QByteArray detailMarker = newRecordMarker();
        const CommandResult details =
            m_shell->runScript(perJob ? JobPlacementReader::remoteScript(ids, detailMarker) : kRunningJobDetailsScript).result();
        m_detailFetches.fetchAndAddRelaxed(1);
        if (!details.ok()) {
            fail(part, QStringLiteral("scontrol show job"), details);
            part.nodes.clear();
            part.partitions.clear();
            return false;
        }
        bytes += details.stdoutData.size();
        QHash<QString, JobGpuPlacement> placements;
        if (perJob) {
            JobPlacementReader::Result parsed = JobPlacementReader::parse(details.stdoutData, detailMarker, ids, names);
            for (auto it = parsed.unanswered.constBegin(); it != parsed.unanswered.constEnd(); ++it)
                qCInfo(lcSlurm).noquote() << "no placement of job" << it.key() << "this refresh:" << it.value();
            if (!parsed.error.isEmpty()) {
                qCWarning(lcSlurm).noquote() << "scontrol show job:" << parsed.error;
                part.warnings << QStringLiteral("scontrol show job: %1").arg(parsed.error);
            }
            placements = std::move(parsed.placements);
        } else {
            ScontrolJobsParseResult parsed = ScontrolParser::parseJobDetails(details.stdoutData, names);
            if (!parsed.error.isEmpty())
                qCWarning(lcSlurm) << "scontrol show job:" << parsed.error;
            placements = std::move(parsed.jobs);
        }
        for (auto it = placements.constBegin(); it != placements.constEnd(); ++it)
            if (running.contains(it.key()))
                m_placementCache.insert(it.key(), it.value());
        return true;
    };
    const auto missingPlacements = [&] {
        QStringList missing;
        for (const QString &id : std::as_const(running))
            if (!m_placementCache.contains(id))
                missing << id;
        return missing;
    };
    // New running jobs: up to kPerJobDetailLimit each in a record of its own (so no job name can
    // hide a record or pass a forged one for another job, as the line filter of the bulk read
    // allows); more from the bulk read, and then, each on its own, those it could not place (a
    // name that holds a newline) or that started after it.
    QStringList missing = missingPlacements();
    if (missing.size() > kPerJobDetailLimit) {
        if (!readDetails({}))
            return part;
        missing = missingPlacements();
    }
    if (!missing.isEmpty() && missing.size() <= kPerJobDetailLimit) {
        if (!readDetails(missing))
            return part;
    }

    if (canFollow) {
        // Every state was listed; no backlog is kept (and the next read without polling lists
        // every state again).
        m_pendingJobs = QVector<Job>();
        m_pendingReadClock.invalidate();
        m_pendingDue = false;
        m_pendingReads.fetchAndAddRelaxed(1);
    } else if (readPending) {
        m_pendingJobs.clear();
        m_pendingJobs.reserve(jobs.jobs.size()); // no doubling copies of 50,000 jobs on the way
        for (const Job &j : std::as_const(jobs.jobs))
            if (j.isPending())
                m_pendingJobs.append(j);
        m_pendingReadClock.start();
        m_pendingDue = false;
        m_pendingReads.fetchAndAddRelaxed(1);
    } else {
        // The pending jobs last read, but those listed now in another state (started, cancelled).
        QSet<QString> listed;
        listed.reserve(jobs.jobs.size());
        for (const Job &j : std::as_const(jobs.jobs))
            listed.insert(j.id);
        jobs.jobs.reserve(jobs.jobs.size() + m_pendingJobs.size());
        for (const Job &j : std::as_const(m_pendingJobs))
            if (!listed.contains(j.id))
                jobs.jobs.append(j);
    }

    part.jobs = std::move(jobs.jobs);
    m_timeUsed.apply(part.jobs);
    applyPlacements(part.nodes, part.jobs, m_placementCache);
    m_jobsAwaitingLaunch = carryJobsAwaitingLaunch(part.nodes, part.jobs, m_jobsAwaitingLaunch);
    bytes += readBatchScripts(part);
    // What runs in each job, here on the Slurm pool, so the session's merge need not copy the
    // jobs to fill it in (docs/PERF.md, Scale).
    part.workloadFindings = WorkloadDetector::apply(part.jobs);
    if (!jobs.error.isEmpty())
        part.error.clear(); // malformed records are logged and counted, the rest is good data
    if (!jobs.error.isEmpty())
        part.warnings.prepend(jobs.error);
    part.durationMs = clock.elapsed();
    part.bytesRead = bytes;
    return part;
}

qint64 SlurmSource::readBatchScripts(OrchestratorPart &part)
{
    QSet<QString> listed;
    listed.reserve(part.jobs.size());
    for (const Job &j : std::as_const(part.jobs))
        listed.insert(scriptKey(j));
    for (auto it = m_scriptCache.begin(); it != m_scriptCache.end();)
        it = listed.contains(it.key()) ? std::next(it) : m_scriptCache.erase(it);
    // Running and configuring jobs first (an array whose first tasks run and the rest wait
    // counts as running), then pending ones.
    QStringList ids;
    QSet<QString> wanted;
    for (const bool holdingPass : {true, false}) {
        for (const Job &j : std::as_const(part.jobs)) {
            if (ids.size() >= kScriptReadLimit)
                break;
            const bool holds = j.isRunning() || j.stateKind == JobState::Configuring;
            if (holds != holdingPass || (!holds && !j.isPending()))
                continue;
            const QString key = scriptKey(j);
            if (!m_scriptCache.contains(key) && !wanted.contains(key)) {
                wanted.insert(key);
                ids << key;
            }
        }
    }
    qint64 bytes = 0;
    if (!ids.isEmpty()) {
        const QByteArray marker = newRecordMarker();
        const CommandResult r = m_shell->runScript(BatchScriptReader::remoteScript(ids, marker)).result();
        m_scriptReads.fetchAndAddRelaxed(1);
        if (!r.ok()) {
            // The jobs' scripts stay unread (asked again next refresh); the refresh itself is good.
            part.warnings << QStringLiteral("batch scripts could not be read: %1").arg(r.errorText());
        } else {
            bytes = r.stdoutData.size();
            const BatchScriptReader::Result parsed = BatchScriptReader::parse(r.stdoutData, marker, ids);
            if (!parsed.error.isEmpty())
                qCWarning(lcSlurm).noquote() << parsed.error;
            for (auto it = parsed.scripts.constBegin(); it != parsed.scripts.constEnd(); ++it)
                m_scriptCache.insert(it.key(), it.value());
        }
    }
    if (!m_scriptCache.isEmpty())
        for (Job &j : part.jobs)
            if (const auto it = m_scriptCache.constFind(scriptKey(j)); it != m_scriptCache.constEnd())
                j.script = *it;
    return bytes;
}

ActionResult SlurmSource::runAction(ActionKind action, const QString &target, const QStringList &argv,
                                    const QByteArray &stdinData)
{
    ActionResult result;
    result.action = action;
    result.target = target;
    const CommandResult r = m_shell->run(argv, stdinData).result();
    // scancel -v and scontrol can report an error yet exit 0: stderr decides too.
    const SlurmDiagnostic diagnostic = SlurmDiagnostic::fromStderr(r.stderrData);
    if (!r.ok() || diagnostic.isError()) {
        result.ok = false;
        result.message = r.ok() ? QString::fromUtf8(r.stderrData).trimmed() : r.errorText();
        result.errorKind = r.ok() ? ErrorKind::CommandFailed : r.errorKind();
        // Sent, but the answer was lost: it may have been done. Never resent (see reconcile).
        result.outcomeUnknown = !r.ran() && r.mayHaveRun;
        if (result.outcomeUnknown)
            result.message = QStringLiteral("outcome unknown: %1").arg(result.message);
        return result;
    }
    result.ok = true;
    const QString out = QString::fromUtf8(r.stdoutData).trimmed();
    result.message = out.isEmpty() ? QStringLiteral("%1 %2: done").arg(actionKindName(action), target) : out;
    return result;
}

QFuture<ActionResult> SlurmSource::submit(const JobSubmission &submission)
{
    JobSubmission tagged = submission;
    if (tagged.tag.isEmpty())
        tagged.tag = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return runOnPool(&m_pool, [this, submission = std::move(tagged)] {
        QString error;
        const QStringList argv = SlurmCommands::sbatchArguments(submission, &error);
        if (argv.isEmpty())
            return refusedAction(ActionKind::Submit, submission.name, error);
        ActionResult r = runAction(ActionKind::Submit, submission.name, argv, submission.script.toUtf8());
        noteOwnJobChange(); // the new job is pending: show it on the next refresh
        r.tag = submission.tag;
        if (r.ok) {
            r.jobId = SlurmCommands::jobIdFromSbatchOutput(r.message.toUtf8());
            if (r.jobId.isEmpty()) {
                r.ok = false;
                r.errorKind = ErrorKind::ParseFailed;
                r.message = QStringLiteral("sbatch answered without a job id: %1").arg(r.message);
            } else {
                r.message = QStringLiteral("Submitted batch job %1").arg(r.jobId);
            }
        }
        return r;
    });
}

QFuture<ActionResult> SlurmSource::cancel(const QString &jobId)
{
    return runOnPool(&m_pool, [this, jobId] {
        QString error;
        const QStringList argv = SlurmCommands::scancelArguments(jobId, &error);
        if (argv.isEmpty())
            return refusedAction(ActionKind::Cancel, jobId, error);
        ActionResult r = runAction(ActionKind::Cancel, jobId, argv);
        noteOwnJobChange(); // a pending job cancelled leaves the backlog
        if (r.ok)
            r.message = QStringLiteral("Cancelled job %1").arg(jobId);
        return r;
    });
}

QFuture<ActionResult> SlurmSource::drain(const QStringList &nodes, const QString &reason)
{
    return runOnPool(&m_pool, [this, nodes, reason] {
        QString error;
        const QStringList argv = SlurmCommands::drainArguments(nodes, reason, &error);
        const QString target = nodes.join(QLatin1Char(','));
        if (argv.isEmpty())
            return refusedAction(ActionKind::Drain, target, error);
        ActionResult r = runAction(ActionKind::Drain, target, argv);
        r.reason = reason;
        if (r.ok)
            r.message = QStringLiteral("Draining %1: %2").arg(target, reason);
        return r;
    });
}

QFuture<ActionResult> SlurmSource::resume(const QStringList &nodes)
{
    return runOnPool(&m_pool, [this, nodes] {
        QString error;
        const QStringList argv = SlurmCommands::resumeArguments(nodes, &error);
        const QString target = nodes.join(QLatin1Char(','));
        if (argv.isEmpty())
            return refusedAction(ActionKind::Resume, target, error);
        ActionResult r = runAction(ActionKind::Resume, target, argv);
        if (r.ok)
            r.message = QStringLiteral("Resumed %1").arg(target);
        return r;
    });
}

QFuture<ActionResult> SlurmSource::reconcile(const ActionResult &unknown)
{
    return runOnPool(&m_pool, [this, unknown] { return SlurmActionReconciler::reconcile(*m_shell, unknown); });
}

std::unique_ptr<OutputFollower> SlurmSource::followOutput(const Job &job)
{
    if (job.stdoutPath.isEmpty())
        return nullptr;
    return std::make_unique<JobOutputFollower>(m_shell, job.stdoutPath);
}

} // namespace strata
