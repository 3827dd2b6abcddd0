#include "gres.h"

#include "model/gpu_count.h"

#include <QStringList>

#include <algorithm>
#include <limits>

namespace strata::Gres {

namespace {

// Slurm prints a count that is a multiple of 1024 with a binary suffix: 2,000,000,000 GPUs is
// "gpu:h100:1953125K" in the real 22.05's `sinfo --json`.
qint64 suffixFactor(QChar suffix)
{
    switch (suffix.unicode()) {
    case 'K': return qint64(1) << 10;
    case 'M': return qint64(1) << 20;
    case 'G': return qint64(1) << 30;
    case 'T': return qint64(1) << 40;
    case 'P': return qint64(1) << 50;
    default: return 0;
    }
}

QStringView withoutSuffix(QStringView text)
{
    return !text.isEmpty() && suffixFactor(text.back()) > 0 ? text.chopped(1) : text;
}

// Digits, after an optional '-' and before an optional K/M/G/T/P: what Slurm writes as a count,
// negative or not. Other text in a count's place ("h100", "1g.10gb") is a GPU type.
bool looksLikeCount(QStringView text)
{
    const QStringView number = withoutSuffix(text);
    const QStringView digits = number.startsWith(QLatin1Char('-')) ? number.mid(1) : number;
    if (digits.isEmpty())
        return false;
    for (const QChar c : digits)
        if (!c.isDigit())
            return false;
    return true;
}

// A GRES count within 0..INT_MAX, else nullopt (negative, past int, not a count).
std::optional<int> count(QStringView text)
{
    const QStringView number = withoutSuffix(text);
    const qint64 factor = number.size() < text.size() ? suffixFactor(text.back()) : 1;
    const std::optional<qint64> value = GpuCount::parseDecimal(number);
    if (!value || !GpuCount::inRange(*value, std::numeric_limits<int>::max() / factor))
        return std::nullopt;
    return int(*value * factor);
}

// The resource an item names, without the TRES prefix: "gres/gpu:h100=2" -> "gpu".
QString itemName(QString item)
{
    item = item.trimmed();
    if (item.startsWith(QLatin1String("gres/")) || item.startsWith(QLatin1String("gres:")))
        item = item.mid(5);
    return item.section(QLatin1Char(':'), 0, 0).section(QLatin1Char('='), 0, 0).section(QLatin1Char('('), 0, 0);
}

} // namespace

bool parseIndexList(const QString &text, QVector<int> *indices)
{
    indices->clear();
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("N/A"))
        return true;
    for (const QString &part : t.split(QLatin1Char(','))) {
        const int dash = part.indexOf(QLatin1Char('-'));
        bool ok1 = false, ok2 = true;
        const int low = (dash < 0 ? part : part.left(dash)).toInt(&ok1);
        const int high = dash < 0 ? low : part.mid(dash + 1).toInt(&ok2);
        // Many short ranges add up like one long one: the total is bounded, not each range.
        if (!ok1 || !ok2 || low < 0 || high < low || qint64(high) - low >= kMaxIndices - indices->size()) {
            indices->clear();
            return false;
        }
        for (int i = low; i <= high; ++i)
            indices->append(i);
    }
    return true;
}

QVector<GresEntry> parseList(const QString &text, QString *error, QStringList *unreadable)
{
    QVector<GresEntry> entries;
    const QString t = text.trimmed();
    if (t.isEmpty() || t == QLatin1String("(null)") || t == QLatin1String("N/A"))
        return entries;
    // Split at commas outside parentheses: "gpu:h100:2(IDX:0-1,4),nvme:1".
    QStringList items;
    int depth = 0, start = 0;
    for (int i = 0; i < t.size(); ++i) {
        if (t[i] == QLatin1Char('('))
            ++depth;
        else if (t[i] == QLatin1Char(')'))
            --depth;
        else if (t[i] == QLatin1Char(',') && depth == 0) {
            items << t.mid(start, i - start);
            start = i + 1;
        }
    }
    items << t.mid(start);
    QStringList bad;
    for (QString item : items) {
        item = item.trimmed();
        // Accept the TRES spelling too: "gres/gpu:h100=2" / "gres:gpu:2".
        if (item.startsWith(QLatin1String("gres/")) || item.startsWith(QLatin1String("gres:")))
            item = item.mid(5);
        item.replace(QLatin1Char('='), QLatin1Char(':'));
        GresEntry e;
        QString detail;
        const int paren = item.indexOf(QLatin1Char('('));
        if (paren >= 0) {
            detail = item.mid(paren + 1, item.lastIndexOf(QLatin1Char(')')) - paren - 1);
            item = item.left(paren);
        }
        const QStringList fields = item.split(QLatin1Char(':'));
        bool ok = false;
        if (fields.size() == 1) {
            e.name = fields[0];
            e.count = 1;
            ok = !e.name.isEmpty();
        } else if (fields.size() == 2) {
            e.name = fields[0];
            if (looksLikeCount(fields[1])) {
                const std::optional<int> n = count(fields[1]);
                e.count = n.value_or(0);
                ok = n.has_value();
            } else { // "gpu:h100" means one
                e.type = fields[1];
                e.count = 1;
                ok = !e.type.isEmpty() && e.type[0].isLetterOrNumber();
            }
        } else if (fields.size() == 3) {
            e.name = fields[0];
            e.type = fields[1];
            const std::optional<int> n = count(fields[2]);
            e.count = n.value_or(0);
            ok = n.has_value();
        }
        if (ok && detail.startsWith(QLatin1String("IDX:")))
            ok = parseIndexList(detail.mid(4), &e.indices);
        if (!ok || e.name.isEmpty()) {
            bad << item;
            continue;
        }
        entries << e;
    }
    if (error && !bad.isEmpty())
        *error = QStringLiteral("unrecognised GRES \"%1\"").arg(bad.join(QLatin1String("\", \"")));
    if (unreadable)
        *unreadable = bad;
    return entries;
}

GresEntry gpuTotal(const QVector<GresEntry> &entries)
{
    GresEntry total;
    total.name = QStringLiteral("gpu");
    for (const GresEntry &e : entries) {
        if (e.name != QLatin1String("gpu"))
            continue;
        if (total.type.isEmpty())
            total.type = e.type;
        // Each count is within int: their sum in qint64 cannot wrap, only pass int.
        total.count = int(std::min<qint64>(qint64(total.count) + e.count, std::numeric_limits<int>::max()));
        if (total.indices.size() < kMaxIndices)
            total.indices += e.indices.mid(0, kMaxIndices - total.indices.size());
    }
    return total;
}

QStringList gpuTypesByIndex(const QVector<GresEntry> &configured, const QVector<GresEntry> &used, int count)
{
    QStringList types;
    count = std::clamp(count, 0, kMaxIndices);
    for (int i = 0; i < count; ++i)
        types << QString();
    // Where the items without indices go on: after the highest index an item has taken.
    int next = 0;
    for (const GresEntry &e : configured) {
        if (e.name != QLatin1String("gpu"))
            continue;
        if (!e.indices.isEmpty()) {
            for (const int index : e.indices)
                if (index < count) {
                    types[index] = e.type;
                    next = std::max(next, index + 1);
                }
            continue;
        }
        for (int k = 0; k < e.count && next < count; ++k)
            types[next++] = e.type;
    }
    for (const GresEntry &e : used)
        if (e.name == QLatin1String("gpu") && !e.type.isEmpty())
            for (const int index : e.indices)
                if (index < count)
                    types[index] = e.type;
    return types;
}

GresGpus nodeGpus(const QString &text, QString *error)
{
    GresGpus gpus;
    QStringList unreadable;
    const QVector<GresEntry> entries = parseList(text, error, &unreadable);
    gpus.total = gpuTotal(entries);
    for (const GresEntry &e : entries)
        if (e.name == QLatin1String("gpu"))
            gpus.items << e;
    const bool gpuUnreadable = std::any_of(unreadable.cbegin(), unreadable.cend(), [](const QString &item) {
        return itemName(item) == QLatin1String("gpu");
    });
    if (gpuUnreadable || !GpuCount::inRange(gpus.total.count, GpuCount::kMaxPerNode)) {
        // The text as the node gave it, cut short: it goes into a finding a person reads.
        const QString shown = text.trimmed();
        gpus.refused = QStringLiteral("GRES ") + (shown.size() > 120 ? shown.left(120) + QStringLiteral("...") : shown);
        gpus.total.count = 0;
        gpus.total.indices.clear();
        gpus.items.clear();
    }
    return gpus;
}

} // namespace strata::Gres
