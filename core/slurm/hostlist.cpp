#include "hostlist.h"

#include <QMap>

#include <algorithm>

namespace strata::Hostlist {

namespace {

// A bound on what an expression may expand to, so that a few hostile bytes ("n[0-99999][0-99999]",
// a 60,000-digit zero padding) cannot take minutes and gigabytes: 50 times the 2,000 nodes
// Strata is built for; a host name is at most 255 characters (DNS), a number at most 18 digits.
constexpr qsizetype kMaxHosts = 100000;
constexpr qsizetype kMaxNameLength = 255;
constexpr qsizetype kMaxDigits = 18;

// Splits at commas that are not inside brackets.
QStringList splitTopLevel(const QString &expression, bool *balanced)
{
    QStringList parts;
    int depth = 0;
    int start = 0;
    *balanced = true;
    for (int i = 0; i < expression.size(); ++i) {
        const QChar c = expression[i];
        if (c == QLatin1Char('['))
            ++depth;
        else if (c == QLatin1Char(']') && --depth < 0)
            *balanced = false;
        else if (c == QLatin1Char(',') && depth == 0) {
            parts << expression.mid(start, i - start);
            start = i + 1;
        }
    }
    if (depth != 0)
        *balanced = false;
    parts << expression.mid(start);
    return parts;
}

bool expandRanges(const QString &body, QStringList *values, QString *error)
{
    for (const QString &item : body.split(QLatin1Char(','))) {
        const int dash = item.indexOf(QLatin1Char('-'));
        if (dash < 0) {
            if (item.isEmpty()) {
                *error = QStringLiteral("empty range in [%1]").arg(body);
                return false;
            }
            *values << item;
            continue;
        }
        const QString lowText = item.left(dash);
        const QString highText = item.mid(dash + 1);
        bool okLow = false, okHigh = false;
        const qint64 low = lowText.toLongLong(&okLow);
        const qint64 high = highText.toLongLong(&okHigh);
        if (!okLow || !okHigh || high < low || lowText.size() > kMaxDigits || highText.size() > kMaxDigits
            || high - low >= kMaxHosts || values->size() + (high - low) >= kMaxHosts) {
            *error = QStringLiteral("bad range \"%1\"").arg(item.left(80));
            return false;
        }
        const int width = lowText.size();
        for (qint64 n = low; n <= high; ++n)
            *values << QStringLiteral("%1").arg(n, width, 10, QLatin1Char('0'));
    }
    return true;
}

bool expandOne(const QString &word, QStringList *hosts, QString *error)
{
    const int open = word.indexOf(QLatin1Char('['));
    if (open < 0) {
        if (word.isEmpty())
            return true;
        if (word.size() > kMaxNameLength) {
            *error = QStringLiteral("host name longer than %1 characters: \"%2...\"").arg(kMaxNameLength).arg(word.left(80));
            return false;
        }
        if (hosts->size() >= kMaxHosts) {
            *error = QStringLiteral("host list expands to more than %1 names").arg(kMaxHosts);
            return false;
        }
        *hosts << word;
        return true;
    }
    const int close = word.indexOf(QLatin1Char(']'), open);
    if (close < 0) {
        *error = QStringLiteral("unclosed bracket in \"%1\"").arg(word);
        return false;
    }
    QStringList values;
    if (!expandRanges(word.mid(open + 1, close - open - 1), &values, error))
        return false;
    const QString prefix = word.left(open);
    const QString rest = word.mid(close + 1);
    for (const QString &v : values)
        if (!expandOne(prefix + v + rest, hosts, error))
            return false;
    return true;
}

} // namespace

bool expand(const QString &expression, QStringList *hosts, QString *error)
{
    QString localError;
    QString *err = error ? error : &localError;
    hosts->clear();
    const QString trimmed = expression.trimmed();
    if (trimmed.isEmpty() || trimmed == QLatin1String("(null)") || trimmed == QLatin1String("None assigned"))
        return true;
    bool balanced = true;
    const QStringList words = splitTopLevel(trimmed, &balanced);
    if (!balanced) {
        *err = QStringLiteral("unbalanced brackets in host list \"%1\"").arg(expression);
        return false;
    }
    for (const QString &w : words)
        if (!expandOne(w, hosts, err))
            return false;
    return true;
}

bool expandAll(const QStringList &expressions, QStringList *hosts, QString *error)
{
    for (const QString &expression : expressions) {
        QStringList expanded;
        if (!expand(expression, &expanded, error))
            return false;
        *hosts << expanded;
    }
    return true;
}

QStringList expandOrKeep(const QString &expression)
{
    QStringList hosts;
    if (!expand(expression, &hosts))
        return {expression};
    return hosts;
}

QString compress(const QStringList &hosts)
{
    // Group by prefix and digit width of the trailing number (ASCII digits only, at most 18 so
    // the number fits qint64; a longer run is part of a plain name). A scan from the end, not a
    // regular expression: 100,000 names (the most expand() gives) compress in milliseconds.
    struct Key
    {
        QString prefix;
        int width;
        bool operator<(const Key &o) const { return prefix != o.prefix ? prefix < o.prefix : width < o.width; }
    };
    QMap<Key, QVector<qint64>> groups;
    QStringList plain;
    for (const QString &h : hosts) {
        qsizetype start = h.size();
        while (start > 0 && h[start - 1] >= u'0' && h[start - 1] <= u'9')
            --start;
        const qsizetype width = h.size() - start;
        if (width == 0 || width > 18) {
            plain << h;
            continue;
        }
        qint64 number = 0;
        for (qsizetype i = start; i < h.size(); ++i)
            number = number * 10 + (h[i].unicode() - u'0');
        groups[{h.left(start), int(width)}] << number;
    }
    QStringList out;
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        QVector<qint64> numbers = it.value();
        std::sort(numbers.begin(), numbers.end());
        numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
        const int width = it.key().width;
        auto fmt = [width](qint64 n) { return QStringLiteral("%1").arg(n, width, 10, QLatin1Char('0')); };
        if (numbers.size() == 1) {
            out << it.key().prefix + fmt(numbers.first());
            continue;
        }
        QStringList ranges;
        for (int i = 0; i < numbers.size();) {
            int j = i;
            while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1)
                ++j;
            ranges << (i == j ? fmt(numbers[i]) : fmt(numbers[i]) + QLatin1Char('-') + fmt(numbers[j]));
            i = j + 1;
        }
        out << it.key().prefix + QLatin1Char('[') + ranges.join(QLatin1Char(',')) + QLatin1Char(']');
    }
    out << plain;
    return out.join(QLatin1Char(','));
}

} // namespace strata::Hostlist
