#include "slurm_commands.h"

#include "hostlist.h"
#include "slurm_time.h"

#include <QRegularExpression>

namespace strata::SlurmCommands {

bool isValidJobId(const QString &jobId)
{
    static const QRegularExpression re(QStringLiteral("^\\d+(_\\d+)?\\z"));
    return re.match(jobId).hasMatch();
}

bool isValidNodeName(const QString &name)
{
    // Host names and host-list expressions; never anything an option parser could take.
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.\\-\\[\\],]*\\z"));
    return re.match(name).hasMatch();
}

namespace {

bool validateNodes(const QStringList &nodes, QString *error)
{
    if (nodes.isEmpty()) {
        *error = QStringLiteral("no node given");
        return false;
    }
    for (const QString &n : nodes) {
        if (!isValidNodeName(n)) {
            *error = QStringLiteral("\"%1\" is not a valid node name").arg(n);
            return false;
        }
    }
    return true;
}

bool isValidPlainWord(const QString &word)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9_.\\-]*\\z"));
    return re.match(word).hasMatch();
}

} // namespace

QStringList sbatchArguments(const JobSubmission &s, QString *error)
{
    if (s.script.trimmed().isEmpty()) {
        *error = QStringLiteral("the batch script is empty");
        return {};
    }
    if (!s.script.startsWith(QLatin1String("#!"))) {
        *error = QStringLiteral("the batch script must start with a #! line (e.g. #!/bin/bash)");
        return {};
    }
    if (!s.partition.isEmpty() && !isValidPlainWord(s.partition)) {
        *error = QStringLiteral("\"%1\" is not a valid partition name").arg(s.partition);
        return {};
    }
    if (s.nodes < 1 || s.gpusPerNode < 0 || s.timeLimitMinutes < 0) {
        *error = QStringLiteral("nodes must be at least 1, GPUs per node and time limit not negative");
        return {};
    }
    // --parsable prints just "ID[;cluster]": nothing to scrape from a sentence.
    QStringList argv{QStringLiteral("sbatch"), QStringLiteral("--parsable")};
    // The name goes as its own argument: any bytes survive, quoting is the shell layer's job.
    if (!s.name.isEmpty())
        argv << QStringLiteral("--job-name=") + s.name;
    if (!s.partition.isEmpty())
        argv << QStringLiteral("--partition=") + s.partition;
    argv << QStringLiteral("--nodes=%1").arg(s.nodes);
    if (!s.nodeList.isEmpty()) {
        if (!validateNodes(s.nodeList, error))
            return {};
        argv << QStringLiteral("--nodelist=") + Hostlist::compress(s.nodeList);
    }
    if (s.gpusPerNode > 0)
        argv << QStringLiteral("--gres=gpu:%1").arg(s.gpusPerNode);
    if (s.timeLimitMinutes > 0)
        argv << QStringLiteral("--time=") + SlurmTime::formatDuration(s.timeLimitMinutes * 60);
    if (s.exclusive)
        argv << QStringLiteral("--exclusive");
    if (!s.outputPath.isEmpty())
        argv << QStringLiteral("--output=") + s.outputPath;
    if (!s.tag.isEmpty()) {
        // The tag finds the job again when sbatch's answer is lost: it must be the job's comment.
        static const QRegularExpression tag(QStringLiteral("^[0-9a-f-]{1,64}\\z"));
        if (!tag.match(s.tag).hasMatch()) {
            *error = QStringLiteral("\"%1\" is not a submission tag (hex digits and dashes)").arg(s.tag);
            return {};
        }
        for (const QString &extra : s.extraArguments)
            if (extra == QLatin1String("--comment") || extra.startsWith(QLatin1String("--comment="))) {
                *error = QStringLiteral("--comment is Strata's: each submission carries its tag there, to be "
                                        "found after a lost answer");
                return {};
            }
        argv << QStringLiteral("--comment=") + submissionComment(s.tag);
    }
    argv << s.extraArguments;
    return argv;
}

QString submissionComment(const QString &tag)
{
    return QStringLiteral("strata:") + tag;
}

QStringList scancelArguments(const QString &jobId, QString *error)
{
    if (!isValidJobId(jobId)) {
        *error = QStringLiteral("\"%1\" is not a Slurm job id (expected 1234 or 1234_5)").arg(jobId);
        return {};
    }
    // Without -v, scancel says nothing and exits 0 for a job that does not exist; with it, the
    // error ("Invalid job id specified") reaches stderr, which runAction reads (SlurmDiagnostic).
    return {QStringLiteral("scancel"), QStringLiteral("-v"), jobId};
}

QStringList drainArguments(const QStringList &nodes, const QString &reason, QString *error)
{
    if (!validateNodes(nodes, error))
        return {};
    if (reason.trimmed().isEmpty()) {
        *error = QStringLiteral("draining a node needs a reason");
        return {};
    }
    // Reasons are shown raw by sinfo/scontrol in other people's terminals: no control bytes.
    for (QChar c : reason) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            *error = QStringLiteral("the drain reason must be one line of printable text");
            return {};
        }
    }
    return {QStringLiteral("scontrol"), QStringLiteral("update"),
            QStringLiteral("NodeName=") + Hostlist::compress(nodes), QStringLiteral("State=DRAIN"),
            QStringLiteral("Reason=") + reason};
}

QStringList resumeArguments(const QStringList &nodes, QString *error)
{
    if (!validateNodes(nodes, error))
        return {};
    return {QStringLiteral("scontrol"), QStringLiteral("update"),
            QStringLiteral("NodeName=") + Hostlist::compress(nodes), QStringLiteral("State=RESUME")};
}

QString jobIdFromSbatchOutput(const QByteArray &output)
{
    static const QRegularExpression re(QStringLiteral("(?:^|Submitted batch job )(\\d+)(?:;|\\s|$)"));
    const auto m = re.match(QString::fromUtf8(output).trimmed());
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace strata::SlurmCommands
