#include "gres.h"

#include <QStringList>

namespace strata::Gres {

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
        if (!ok1 || !ok2 || high < low || high - low > 4096)
            return false;
        for (int i = low; i <= high; ++i)
            indices->append(i);
    }
    return true;
}

QVector<GresEntry> parseList(const QString &text, QString *error)
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
            e.count = fields[1].toInt(&ok);
            if (!ok) { // "gpu:h100" means one
                e.type = fields[1];
                e.count = 1;
                ok = true;
            }
        } else if (fields.size() == 3) {
            e.name = fields[0];
            e.type = fields[1];
            e.count = fields[2].toInt(&ok);
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
        total.count += e.count;
        total.indices += e.indices;
    }
    return total;
}

} // namespace strata::Gres
