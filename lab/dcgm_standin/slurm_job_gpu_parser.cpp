#include "slurm_job_gpu_parser.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace strata::lab {

namespace {

// Splits a number range body like "01-03,07" into zero-padded strings.
QStringList expandRangeBody(const QString &body, bool *ok)
{
    QStringList out;
    *ok = true;
    for (const QString &part : body.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype dash = part.indexOf(u'-');
        if (dash < 0) {
            out << part;
            continue;
        }
        const QString first = part.left(dash);
        const QString last = part.mid(dash + 1);
        bool okFirst = false;
        bool okLast = false;
        const int from = first.toInt(&okFirst);
        const int to = last.toInt(&okLast);
        if (!okFirst || !okLast || to < from) {
            *ok = false;
            return {};
        }
        for (int i = from; i <= to; ++i)
            out << QString::number(i).rightJustified(first.size(), u'0');
    }
    return out;
}

} // namespace

int requestedGpuUtil(const QString &jobFields)
{
    // The comment runs to the end of its field: " Comment=strata-lab-gpu-util=N" then a space or
    // the end. Only the job's own fields are searched (after its name, which may hold anything).
    static const QRegularExpression comment(
        QStringLiteral(" Comment=strata-lab-gpu-util=(\\d{1,3})(?= |\\n|$)"));
    const auto m = comment.match(jobFields);
    if (!m.hasMatch())
        return -1;
    const int n = m.captured(1).toInt();
    return n <= 100 ? n : -1;
}

QStringList expandSlurmHostlist(const QString &expression)
{
    QStringList hosts;
    qsizetype pos = 0;
    while (pos < expression.size()) {
        // One element runs to the next comma outside brackets.
        qsizetype end = pos;
        int depth = 0;
        while (end < expression.size() && (depth > 0 || expression[end] != u',')) {
            if (expression[end] == u'[')
                ++depth;
            else if (expression[end] == u']')
                --depth;
            ++end;
        }
        const QString element = expression.mid(pos, end - pos);
        pos = end + 1;
        const qsizetype open = element.indexOf(u'[');
        const qsizetype close = element.indexOf(u']');
        if (open < 0 || close < open) {
            if (!element.isEmpty())
                hosts << element;
            continue;
        }
        bool ok = false;
        const QStringList numbers = expandRangeBody(element.mid(open + 1, close - open - 1), &ok);
        if (!ok) {
            hosts << element;
            continue;
        }
        const QString prefix = element.left(open);
        const QString suffix = element.mid(close + 1);
        for (const QString &n : numbers)
            hosts << prefix + n + suffix;
    }
    return hosts;
}

QList<int> expandIndexList(const QString &list)
{
    bool ok = false;
    QList<int> out;
    for (const QString &n : expandRangeBody(list, &ok)) {
        bool isNumber = false;
        const int v = n.toInt(&isNumber);
        if (!isNumber)
            return {};
        out << v;
    }
    return ok ? out : QList<int>{};
}

std::vector<JobGpuAllocation> parseRunningJobGpus(const QByteArray &scontrolOutput)
{
    static const QRegularExpression recordStart(QStringLiteral("(?:^|\\n)(?=JobId=\\d+ )"));
    // The job name comes right after JobId= and may hold anything; the fields after it start
    // at the first " UserId=NAME(UID) GroupId=".
    static const QRegularExpression afterName(QStringLiteral(" UserId=\\S*\\(\\d+\\) GroupId="));
    static const QRegularExpression jobId(QStringLiteral("^JobId=(\\d+) "));
    static const QRegularExpression jobState(QStringLiteral(" JobState=(\\S+)"));
    static const QRegularExpression nodeDetail(
        QStringLiteral(" Nodes=(\\S+) CPU_IDs=\\S+ Mem=\\d+ GRES=(\\S*)"));
    static const QRegularExpression gpuGres(QStringLiteral("gpu(?::[^:(,]+)?:\\d+\\(IDX:([^)]*)\\)"));

    std::vector<JobGpuAllocation> allocations;
    // A name may hold a newline and then a whole forged record of another job (see
    // tests/data/slurm/forged-record). Slurm prints each job once, so an id seen twice is
    // nobody's; and the record after one whose fields cannot be found may be the rest of that
    // record's name. Neither gets a label: a GPU shown free beats one given to the wrong job.
    QHash<QString, int> recordsById;
    QSet<QString> untrusted;
    bool afterUnfound = false;
    const QString text = QString::fromUtf8(scontrolOutput);
    for (const QString &record : text.split(recordStart, Qt::SkipEmptyParts)) {
        const auto id = jobId.match(record);
        const auto fieldsStart = afterName.match(record);
        const bool follows = afterUnfound;
        afterUnfound = !fieldsStart.hasMatch();
        if (!id.hasMatch())
            continue;
        ++recordsById[id.captured(1)];
        if (follows)
            untrusted.insert(id.captured(1));
        if (!fieldsStart.hasMatch())
            continue;
        const QString fields = record.mid(fieldsStart.capturedStart());
        if (jobState.match(fields).captured(1) != u"RUNNING")
            continue;
        const int util = requestedGpuUtil(fields);
        auto details = nodeDetail.globalMatch(fields);
        while (details.hasNext()) {
            const auto detail = details.next();
            QList<int> indices;
            auto gres = gpuGres.globalMatch(detail.captured(2));
            while (gres.hasNext())
                indices << expandIndexList(gres.next().captured(1));
            if (indices.isEmpty())
                continue;
            for (const QString &node : expandSlurmHostlist(detail.captured(1)))
                allocations.push_back({id.captured(1), node, indices, util});
        }
    }
    std::erase_if(allocations, [&](const JobGpuAllocation &a) {
        return recordsById.value(a.jobId) > 1 || untrusted.contains(a.jobId);
    });
    return allocations;
}

} // namespace strata::lab
