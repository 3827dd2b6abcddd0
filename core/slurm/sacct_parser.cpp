#include "sacct_parser.h"

#include "hostlist.h"
#include "model/gpu_count.h"

#include <QByteArrayView>
#include <QRandomGenerator>

namespace strata::SacctParser {

namespace {

enum Field { JobId, User, Account, Partition, State, ExitCode, Submit, Start, End, NodeList, AllocTres, JobName };

QString fieldList()
{
    return QStringLiteral("JobID,User,Account,Partition,State,ExitCode,Submit,Start,End,NodeList,AllocTRES,JobName");
}

QString sacctTime(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
}

bool isDigits(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (const char c : text)
        if (c < '0' || c > '9')
            return false;
    return true;
}

// "1234", "1234_5", "1234_[1-9%2]" (pending array tasks), "1234+0" (heterogeneous component).
bool isJobId(QByteArrayView id)
{
    qsizetype digits = 0;
    while (digits < id.size() && id[digits] >= '0' && id[digits] <= '9')
        ++digits;
    if (digits == 0)
        return false;
    const QByteArrayView rest = id.sliced(digits);
    if (rest.isEmpty())
        return true;
    if (rest.front() == '+' || (rest.front() == '_' && rest.size() > 1 && rest[1] != '['))
        return isDigits(rest.sliced(1));
    if (rest.startsWith("_[") && rest.endsWith("]")) {
        for (const char c : rest.sliced(2, rest.size() - 3))
            if (!((c >= '0' && c <= '9') || c == '-' || c == ',' || c == '%'))
                return false;
        return rest.size() > 3;
    }
    return false;
}

// "2026-12-07T05:20:57" (UTC, see the header) -> that time; "Unknown", "None" -> invalid with
// *ok true; anything else -> *ok false.
QDateTime readTime(QByteArrayView text, bool *ok)
{
    *ok = true;
    if (text == "Unknown" || text == "None" || text.isEmpty())
        return {};
    const auto number = [&](qsizetype at, qsizetype length) {
        int value = 0;
        for (qsizetype i = at; i < at + length; ++i) {
            const char c = text[i];
            if (c < '0' || c > '9')
                return -1;
            value = value * 10 + (c - '0');
        }
        return value;
    };
    if (text.size() != 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':') {
        *ok = false;
        return {};
    }
    const QDate date(number(0, 4), number(5, 2), number(8, 2));
    const QTime time(number(11, 2), number(14, 2), number(17, 2));
    if (!date.isValid() || !time.isValid()) {
        *ok = false;
        return {};
    }
    return QDateTime(date, time, Qt::UTC);
}

// "0:0" -> code 0, signal 0.
bool readExitCode(QByteArrayView text, int *code, int *signal)
{
    const qsizetype colon = text.indexOf(':');
    if (colon < 0)
        return false;
    const QByteArrayView codeText = text.first(colon);
    const QByteArrayView signalText = text.sliced(colon + 1);
    if (!isDigits(codeText) || !isDigits(signalText) || codeText.size() > 3 || signalText.size() > 3)
        return false;
    *code = codeText.toInt();
    *signal = signalText.toInt();
    return true;
}

struct GpuTres
{
    qint64 untyped = -1; // gres/gpu=N; -1: absent
    qint64 typedSum = 0; // the gres/gpu:TYPE=N summed
    QStringList types;
    bool ok = true;
};

// AllocTRES: "billing=4,cpu=4,gres/gpu:h100=2,gres/gpu=2,mem=8G,node=1". Only the GPU items are
// read; a GPU count must be decimal digits (no unit: GPUs are counted, not sized).
GpuTres readGpuTres(QByteArrayView text)
{
    GpuTres gpus;
    constexpr qint64 kCeiling = qint64(1) << 40; // past any cluster; kept below to sum safely
    qsizetype at = 0;
    while (at <= text.size()) {
        qsizetype comma = text.indexOf(',', at);
        if (comma < 0)
            comma = text.size();
        const QByteArrayView item = text.sliced(at, comma - at);
        at = comma + 1;
        if (!item.startsWith("gres/gpu"))
            continue;
        const qsizetype equals = item.indexOf('=');
        if (equals < 0) {
            gpus.ok = false;
            continue;
        }
        const QByteArrayView key = item.first(equals);
        const QByteArrayView value = item.sliced(equals + 1);
        if (key != "gres/gpu" && !key.startsWith("gres/gpu:"))
            continue; // gres/gpumem and other names that merely begin alike
        if (!isDigits(value) || value.size() > 13) {
            gpus.ok = false;
            continue;
        }
        const qint64 count = value.toLongLong();
        if (count >= kCeiling) {
            gpus.ok = false;
            continue;
        }
        if (key == "gres/gpu") {
            gpus.untyped = count;
        } else {
            gpus.typedSum += count;
            gpus.types.append(QString::fromUtf8(key.sliced(9)));
        }
    }
    return gpus;
}

// Bytes of a row, cut to `most` characters with control characters written out ("\x1f"), for a
// problem shown to a person: a hostile row must not drive the terminal or the window.
QString shown(QByteArrayView bytes, qsizetype most)
{
    const QString text = QString::fromUtf8(bytes.first(std::min(bytes.size(), most * 4))).left(most);
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

class RowReader
{
public:
    RowReader(SacctParseResult &result) : m_result(result) {}

    void skip(QByteArrayView id, const QString &why)
    {
        ++m_result.skippedRows;
        if (m_result.problems.size() < kMaxProblemsNamed) {
            const QString who = id.isEmpty() ? QStringLiteral("a row") : QStringLiteral("job %1").arg(shown(id, 40));
            m_result.problems.append(QStringLiteral("%1: %2").arg(who, why));
        }
    }

    void read(const QByteArrayView (&fields)[kFieldCount])
    {
        const QByteArrayView id = fields[JobId];
        if (!isJobId(id))
            return skip({}, QStringLiteral("job id \"%1\" unreadable").arg(shown(id, 40)));
        JobRecord r;
        r.id = QString::fromUtf8(id);
        r.user = QString::fromUtf8(fields[User]);
        r.account = QString::fromUtf8(fields[Account]);
        r.partition = QString::fromUtf8(fields[Partition]);
        r.stateWord = QString::fromUtf8(fields[State]);
        const qsizetype space = fields[State].indexOf(' '); // "CANCELLED by 1000"
        r.state = parseJobState(QString::fromUtf8(space < 0 ? fields[State] : fields[State].first(space)));
        if (!readExitCode(fields[ExitCode], &r.exitCode, &r.exitSignal))
            return skip(id, QStringLiteral("exit code \"%1\" unreadable").arg(shown(fields[ExitCode], 40)));
        bool ok = false;
        r.submitted = readTime(fields[Submit], &ok);
        if (ok)
            r.started = readTime(fields[Start], &ok);
        if (ok)
            r.ended = readTime(fields[End], &ok);
        if (!ok)
            return skip(id, QStringLiteral("a time is unreadable"));
        if (r.started.isValid() && r.ended.isValid() && r.ended < r.started)
            return skip(id, QStringLiteral("ends before it starts"));
        const QString nodeList = QString::fromUtf8(fields[NodeList]);
        if (!nodeList.isEmpty() && nodeList != QLatin1String("None assigned")) {
            QString error;
            if (!Hostlist::expand(nodeList, &r.nodes, &error))
                return skip(id, QStringLiteral("node list unreadable: %1").arg(error));
        }
        const GpuTres gpus = readGpuTres(fields[AllocTres]);
        if (!gpus.ok)
            return skip(id, QStringLiteral("GPU count unreadable in AllocTRES \"%1\"").arg(shown(fields[AllocTres], 80)));
        const qint64 total = gpus.untyped >= 0 ? gpus.untyped : gpus.typedSum;
        // A job holds at most every GPU of its nodes: more is a hostile or broken record.
        const qint64 most = qint64(GpuCount::kMaxPerNode) * std::max<qsizetype>(1, r.nodes.size());
        if (total > most)
            return skip(id, QStringLiteral("claims %1 GPUs on %2 node(s), more than %3 a node")
                                .arg(total).arg(r.nodes.size()).arg(GpuCount::kMaxPerNode));
        r.gpus = int(total);
        r.gpuModel = gpus.types.join(QLatin1Char(','));
        r.name = QString::fromUtf8(fields[JobName]);
        m_result.records.append(std::move(r));
    }

private:
    SacctParseResult &m_result;
};

} // namespace

QByteArray newDelimiter()
{
    const quint64 random = QRandomGenerator::system()->generate64() & 0xffffffffffffULL;
    return QByteArray("\x1f") + QByteArray::number(random, 16).rightJustified(12, '0');
}

QStringList arguments(const HistoryPeriod &period, const QByteArray &delimiter)
{
    return {QStringLiteral("env"), QStringLiteral("TZ=UTC0"), QStringLiteral("SLURM_TIME_FORMAT=standard"),
            QStringLiteral("sacct"), QStringLiteral("-X"), QStringLiteral("-a"), QStringLiteral("-n"), QStringLiteral("-p"),
            QStringLiteral("--delimiter=") + QString::fromLatin1(delimiter),
            QStringLiteral("-S"), sacctTime(period.start), QStringLiteral("-E"), sacctTime(period.end),
            QStringLiteral("--format=") + fieldList()};
}

QString describe(const HistoryPeriod &period)
{
    return QStringLiteral("sacct -X -a -n -p --delimiter=DELIM -S %1 -E %2 --format=%3")
        .arg(sacctTime(period.start), sacctTime(period.end), fieldList());
}

SacctParseResult parse(const QByteArray &output, const QByteArray &delimiter)
{
    SacctParseResult result;
    RowReader reader(result);
    if (delimiter.isEmpty())
        return result;
    const QByteArrayView all(output);
    const QByteArray rowEnd = delimiter + '\n';
    result.records.reserve(output.count('\n'));
    qsizetype at = 0;
    QByteArrayView fields[kFieldCount];
    while (at < all.size()) {
        bool broken = false;
        qsizetype cursor = at;
        // The fixed fields: neither a delimiter nor a newline inside, so all before the first newline.
        qsizetype newline = all.indexOf('\n', at);
        if (newline < 0)
            newline = all.size();
        for (int i = 0; i < kFieldCount - 1; ++i) {
            const qsizetype next = all.indexOf(QByteArrayView(delimiter), cursor);
            if (next < 0 || next >= newline) {
                broken = true;
                break;
            }
            fields[i] = all.sliced(cursor, next - cursor);
            cursor = next + delimiter.size();
        }
        if (broken) {
            // Not a row of this read (a line of some other output, a cut row): up to its newline.
            reader.skip({}, QStringLiteral("not a whole row: \"%1\"").arg(shown(all.sliced(at, newline - at), 60)));
            if (newline >= all.size())
                break;
            at = newline + 1;
            continue;
        }
        const qsizetype end = all.indexOf(QByteArrayView(rowEnd), cursor);
        if (end < 0) {
            reader.skip(fields[JobId], QStringLiteral("the row is cut off (the answer ended inside it)"));
            break;
        }
        fields[JobName] = all.sliced(cursor, end - cursor);
        reader.read(fields);
        at = end + rowEnd.size();
    }
    return result;
}

bool saysNoAccounting(const QByteArray &stderrData)
{
    // sacct's answer when AccountingStorageType is not slurmdbd ("Slurm accounting storage is
    // disabled"; "SLURM ..." in old releases): the one answer that means no history exists.
    return QString::fromUtf8(stderrData).contains(QLatin1String("accounting storage is disabled"), Qt::CaseInsensitive);
}

SacctFailure readFailure(const QByteArray &stderrData, int exitStatus)
{
    SacctFailure failure;
    const QString text = QString::fromUtf8(stderrData).trimmed();
    if (saysNoAccounting(stderrData)) {
        failure.kind = ErrorKind::NoAccounting;
        failure.message = QStringLiteral("no slurmdbd: job accounting is not configured on this cluster "
                                         "(AccountingStorageType is not accounting_storage/slurmdbd), so finished jobs "
                                         "cannot be read (sacct: \"%1\")").arg(text.left(200));
        return failure;
    }
    failure.kind = ErrorKind::CommandFailed;
    failure.message = text.isEmpty() ? QStringLiteral("sacct exited with status %1").arg(exitStatus)
                                     : QStringLiteral("sacct: %1").arg(text.left(500));
    return failure;
}

} // namespace strata::SacctParser
