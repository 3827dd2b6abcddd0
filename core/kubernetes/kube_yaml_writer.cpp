#include "kube_yaml_writer.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace strata {

using namespace Qt::StringLiterals;

namespace {

// go-yaml v2's emitter: lines are folded at a space once they pass this column, continuation
// lines indented two past their key.
constexpr int kBestWidth = 80;
constexpr int kIndentStep = 2;

bool isPrintable(char32_t c)
{
    return c == 0x0A || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF)
        || (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF) || (c >= 0x10000 && c <= 0x10FFFF);
}

bool isBlank(char32_t c) { return c == u' ' || c == u'\t'; }
bool isBreak(char32_t c) { return c == u'\n' || c == u'\r' || c == 0x85 || c == 0x2028 || c == 0x2029; }

// What go-yaml v2's resolve() reads as something other than a string: null, YAML 1.1 booleans,
// numbers (underscores allowed, 0x/0o/0b and octal), infinities, timestamps, base-60 floats.
bool resolvesToNonString(const QString &s)
{
    static const QStringList words = {u"~"_s, u"null"_s, u"Null"_s, u"NULL"_s, u"y"_s, u"Y"_s, u"yes"_s,
                                      u"Yes"_s, u"YES"_s, u"n"_s, u"N"_s, u"no"_s, u"No"_s, u"NO"_s,
                                      u"true"_s, u"True"_s, u"TRUE"_s, u"false"_s, u"False"_s, u"FALSE"_s,
                                      u"on"_s, u"On"_s, u"ON"_s, u"off"_s, u"Off"_s, u"OFF"_s,
                                      u".inf"_s, u".Inf"_s, u".INF"_s, u"+.inf"_s, u"+.Inf"_s, u"+.INF"_s,
                                      u"-.inf"_s, u"-.Inf"_s, u"-.INF"_s, u".nan"_s, u".NaN"_s, u".NAN"_s,
                                      u"<<"_s};
    if (s.isEmpty() || words.contains(s))
        return true;
    const QChar first = s.front();
    if (!(first.isDigit() || first == u'+' || first == u'-' || first == u'.'))
        return false;
    static const QRegularExpression integer(uR"(^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[0-9]+)$)"_s);
    static const QRegularExpression floating(uR"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)"_s);
    static const QRegularExpression base60(uR"(^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$)"_s);
    static const QRegularExpression timestamp(
        uR"(^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]*)?(Z|[-+][0-9]{1,2}(:[0-9]{2})?)?)?$)"_s);
    QString plain = s;
    plain.remove(u'_');
    return integer.match(plain).hasMatch() || floating.match(plain).hasMatch() || base60.match(s).hasMatch()
        || timestamp.match(s).hasMatch();
}

// libyaml's yaml_emitter_analyze_scalar, for a block context.
struct ScalarAnalysis
{
    bool plainAllowed = true;
    bool singleQuotedAllowed = true;
    bool blockAllowed = true;
    bool multiline = false;
};

ScalarAnalysis analyze(const QList<uint> &text)
{
    ScalarAnalysis a;
    if (text.isEmpty()) {
        a.plainAllowed = false;
        a.blockAllowed = false;
        return a;
    }
    bool blockIndicators = false, specialCharacters = false, lineBreaks = false;
    bool leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
    bool breakSpace = false, spaceBreak = false, previousSpace = false, previousBreak = false;
    const auto startsWith = [&text](const char *marker) {
        for (int i = 0; i < 3; ++i)
            if (i >= text.size() || text[i] != char32_t(marker[i]))
                return false;
        return true;
    };
    if (startsWith("---") || startsWith("..."))
        blockIndicators = true;
    bool precededByWhitespace = true;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        const bool followedByWhitespace = i + 1 >= text.size() || isBlank(text[i + 1]) || isBreak(text[i + 1]);
        if (i == 0) {
            switch (c) {
            case u'#': case u',': case u'[': case u']': case u'{': case u'}': case u'&': case u'*':
            case u'!': case u'|': case u'>': case u'\'': case u'"': case u'%': case u'@': case u'`':
                blockIndicators = true;
                break;
            case u'?': case u':':
            case u'-':
                if (followedByWhitespace)
                    blockIndicators = true;
                break;
            default:
                break;
            }
        } else if ((c == u':' && followedByWhitespace) || (c == u'#' && precededByWhitespace)) {
            blockIndicators = true;
        }
        if (!isPrintable(c) || c == 0xFEFF)
            specialCharacters = true;
        if (isBreak(c))
            lineBreaks = true;
        if (c == u' ') {
            if (i == 0)
                leadingSpace = true;
            if (i + 1 == text.size())
                trailingSpace = true;
            if (previousBreak)
                breakSpace = true;
            previousSpace = true;
            previousBreak = false;
        } else if (isBreak(c)) {
            if (i == 0)
                leadingBreak = true;
            if (i + 1 == text.size())
                trailingBreak = true;
            if (previousSpace)
                spaceBreak = true;
            previousSpace = false;
            previousBreak = true;
        } else {
            previousSpace = false;
            previousBreak = false;
        }
        precededByWhitespace = isBlank(c) || isBreak(c);
    }
    a.multiline = lineBreaks;
    if (leadingSpace || leadingBreak || trailingSpace || trailingBreak)
        a.plainAllowed = false;
    if (trailingSpace)
        a.blockAllowed = false;
    if (breakSpace) {
        a.plainAllowed = false;
        a.singleQuotedAllowed = false;
    }
    if (spaceBreak || specialCharacters) {
        a.plainAllowed = false;
        a.singleQuotedAllowed = false;
        a.blockAllowed = false;
    }
    if (lineBreaks || blockIndicators)
        a.plainAllowed = false;
    return a;
}

QString fromUcs4(char32_t c)
{
    return QString::fromUcs4(&c, 1);
}

// Writes a plain or single-quoted scalar, folding at a space past the best width.
QString foldable(const QList<uint> &text, int column, int indent, bool allowBreaks, bool singleQuoted)
{
    QString out;
    if (singleQuoted) {
        out += u'\'';
        ++column;
    }
    bool spaces = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        if (c == u' ') {
            const bool inner = !singleQuoted || (i > 0 && i + 1 < text.size());
            if (allowBreaks && !spaces && column > kBestWidth && inner && i + 1 < text.size() && text[i + 1] != u' ') {
                out += u'\n' + QString(indent, u' ');
                column = indent;
            } else {
                out += u' ';
                ++column;
            }
            spaces = true;
            continue;
        }
        spaces = false;
        if (singleQuoted && c == u'\'') {
            out += u"''"_s;
            column += 2;
        } else {
            out += fromUcs4(c);
            ++column;
        }
    }
    if (singleQuoted)
        out += u'\'';
    return out;
}

QString doubleQuoted(const QList<uint> &text, int column, int indent, bool allowBreaks)
{
    QString out = u"\""_s;
    ++column;
    bool spaces = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char32_t c = text[i];
        if (!isPrintable(c) || c == 0xFEFF || isBreak(c) || c == u'"' || c == u'\\') {
            QString escape;
            switch (c) {
            case 0x00: escape = u"\\0"_s; break;
            case 0x07: escape = u"\\a"_s; break;
            case 0x08: escape = u"\\b"_s; break;
            case 0x09: escape = u"\\t"_s; break;
            case 0x0A: escape = u"\\n"_s; break;
            case 0x0B: escape = u"\\v"_s; break;
            case 0x0C: escape = u"\\f"_s; break;
            case 0x0D: escape = u"\\r"_s; break;
            case 0x1B: escape = u"\\e"_s; break;
            case u'"': escape = u"\\\""_s; break;
            case u'\\': escape = u"\\\\"_s; break;
            case 0x85: escape = u"\\N"_s; break;
            case 0xA0: escape = u"\\_"_s; break;
            case 0x2028: escape = u"\\L"_s; break;
            case 0x2029: escape = u"\\P"_s; break;
            default:
                if (c <= 0xFF)
                    escape = u"\\x%1"_s.arg(uint(c), 2, 16, QLatin1Char('0')).toUpper().replace(u"\\X"_s, u"\\x"_s);
                else if (c <= 0xFFFF)
                    escape = u"\\u%1"_s.arg(uint(c), 4, 16, QLatin1Char('0')).toUpper().replace(u"\\U"_s, u"\\u"_s);
                else
                    escape = u"\\U%1"_s.arg(uint(c), 8, 16, QLatin1Char('0')).toUpper();
            }
            out += escape;
            column += int(escape.size());
            spaces = false;
            continue;
        }
        if (c == u' ') {
            if (allowBreaks && !spaces && column > kBestWidth && i > 0 && i + 1 < text.size()) {
                out += u'\n' + QString(indent, u' ');
                column = indent;
                if (text[i + 1] == u' ') {
                    out += u'\\';
                    ++column;
                }
            } else {
                out += u' ';
                ++column;
            }
            spaces = true;
            continue;
        }
        out += fromUcs4(c);
        ++column;
        spaces = false;
    }
    return out + u'"';
}

// A literal block (|, |-, |+; an indentation hint when it starts with a space or a break): the
// header, then each line at indent, empty lines without it. Without a final break the caller
// ends the line.
QString literal(const QList<uint> &text, int indent)
{
    QString header = u"|"_s;
    if (!text.isEmpty() && (text.front() == u' ' || isBreak(text.front())))
        header += QString::number(kIndentStep);
    if (text.isEmpty() || !isBreak(text.back()))
        header += u'-';
    else if (text.size() >= 2 && isBreak(text[text.size() - 2]))
        header += u'+';
    QString out = header + u'\n';
    bool atLineStart = true;
    for (const char32_t c : text) {
        if (isBreak(c)) {
            out += u'\n';
            atLineStart = true;
            continue;
        }
        if (atLineStart)
            out += QString(indent, u' ');
        atLineStart = false;
        out += fromUcs4(c);
    }
    return out;
}

// A string as go-yaml v2 writes it at column (where it starts); continuation lines at indent.
// A key is never folded and never a block. Ends with a newline only for a literal block.
QString stringScalar(const QString &value, int column, int indent, bool isKey)
{
    const QList<uint> text = value.toUcs4();
    const ScalarAnalysis a = analyze(text);
    enum class Style { Plain, Single, Double, Literal } style = Style::Plain;
    if (a.multiline && !isKey)
        style = Style::Literal;
    else if (resolvesToNonString(value))
        style = Style::Double;
    if (style == Style::Literal && !a.blockAllowed)
        style = Style::Double;
    if (style == Style::Plain && !a.plainAllowed)
        style = Style::Single;
    if (style == Style::Single && (!a.singleQuotedAllowed || (isKey && a.multiline)))
        style = Style::Double;
    switch (style) {
    case Style::Plain:
        return foldable(text, column, indent, !isKey, false);
    case Style::Single:
        return foldable(text, column, indent, !isKey, true);
    case Style::Double:
        return doubleQuoted(text, column, indent, !isKey);
    case Style::Literal:
        return literal(text, indent);
    }
    return {};
}

QString numberScalar(double d)
{
    if (std::isnan(d))
        return u".nan"_s;
    if (std::isinf(d))
        return d > 0 ? u".inf"_s : u"-.inf"_s;
    if (d == std::floor(d) && std::fabs(d) < 1e18)
        return QString::number(qint64(d));
    return QString::number(d, 'g', QLocale::FloatingPointShortest);
}

// go-yaml v2's keyList.Less: letters by code point, other characters before letters, runs of
// digits by their value.
bool keyLess(const QString &aText, const QString &bText)
{
    const QList<uint> a = aText.toUcs4(), b = bText.toUcs4();
    const auto isLetter = [](char32_t c) { return QChar::isLetter(c); };
    const auto isDigit = [](char32_t c) { return QChar::isDigit(c); };
    for (qsizetype i = 0; i < a.size() && i < b.size(); ++i) {
        if (a[i] == b[i])
            continue;
        const bool al = isLetter(a[i]), bl = isLetter(b[i]);
        if (al && bl)
            return a[i] < b[i];
        if (al || bl)
            return bl;
        qint64 an = 0, bn = 0;
        if (a[i] == u'0' || b[i] == u'0') {
            for (qsizetype j = i - 1; j >= 0 && isDigit(a[j]); --j)
                if (a[j] != u'0') {
                    an = 1;
                    bn = 1;
                    break;
                }
        }
        qsizetype ai = i, bi = i;
        for (; ai < a.size() && isDigit(a[ai]); ++ai)
            an = an * 10 + QChar::digitValue(a[ai]);
        for (; bi < b.size() && isDigit(b[bi]); ++bi)
            bn = bn * 10 + QChar::digitValue(b[bi]);
        if (an != bn)
            return an < bn;
        if (ai != bi)
            return ai < bi;
        return a[i] < b[i];
    }
    return a.size() < b.size();
}

bool isCollection(const QJsonValue &v)
{
    return (v.isObject() && !v.toObject().isEmpty()) || (v.isArray() && !v.toArray().isEmpty());
}

// A scalar (or an empty collection) written at column; a literal block ends with its newline.
QString scalar(const QJsonValue &v, int column, int indent)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return u"null"_s;
    case QJsonValue::Bool:
        return v.toBool() ? u"true"_s : u"false"_s;
    case QJsonValue::Double:
        return numberScalar(v.toDouble());
    case QJsonValue::String:
        return stringScalar(v.toString(), column, indent, false);
    case QJsonValue::Array:
        return u"[]"_s;
    case QJsonValue::Object:
        return u"{}"_s;
    }
    return {};
}

void writeNode(const QJsonValue &v, int indent, QString *out);

// "KEY: value" lines, or "KEY:" and the collection below; `prefix` replaces the first line's
// indentation (a sequence item's "- ").
void writeMap(const QJsonObject &object, int indent, QString *out, const QString &firstPrefix = {})
{
    QStringList keys = object.keys();
    std::sort(keys.begin(), keys.end(), keyLess);
    bool first = true;
    for (const QString &key : std::as_const(keys)) {
        const QString lead = first && !firstPrefix.isEmpty() ? firstPrefix : QString(indent, u' ');
        first = false;
        const QString keyText = stringScalar(key, indent, indent, true);
        *out += lead + keyText + u':';
        const QJsonValue value = object.value(key);
        if (isCollection(value)) {
            *out += u'\n';
            // go-yaml v2 writes a mapping's sequence at the key's own indentation.
            writeNode(value, value.isArray() ? indent : indent + kIndentStep, out);
            continue;
        }
        const QString text = scalar(value, int(indent + keyText.size() + 2), indent + kIndentStep);
        *out += u' ' + text;
        if (!text.endsWith(u'\n'))
            *out += u'\n';
    }
}

void writeSequence(const QJsonArray &array, int indent, QString *out, const QString &firstPrefix = {})
{
    bool first = true;
    for (const QJsonValue &item : array) {
        const QString lead = (first && !firstPrefix.isEmpty() ? firstPrefix : QString(indent, u' ')) + u"- "_s;
        first = false;
        if (item.isObject() && !item.toObject().isEmpty()) {
            writeMap(item.toObject(), indent + kIndentStep, out, lead);
        } else if (item.isArray() && !item.toArray().isEmpty()) {
            writeSequence(item.toArray(), indent + kIndentStep, out, lead);
        } else {
            const QString text = scalar(item, indent + kIndentStep, indent + kIndentStep);
            *out += lead + text;
            if (!text.endsWith(u'\n'))
                *out += u'\n';
        }
    }
}

void writeNode(const QJsonValue &v, int indent, QString *out)
{
    if (v.isObject())
        writeMap(v.toObject(), indent, out);
    else
        writeSequence(v.toArray(), indent, out);
}

} // namespace

namespace KubeYamlWriter {

QByteArray write(const QJsonValue &value)
{
    QString out;
    if (isCollection(value)) {
        writeNode(value, 0, &out);
    } else {
        out = scalar(value, 0, kIndentStep);
        if (!out.endsWith(u'\n'))
            out += u'\n';
    }
    return out.toUtf8();
}

QByteArray forDisplay(QJsonObject object)
{
    QJsonObject metadata = object.value("metadata"_L1).toObject();
    if (metadata.contains("managedFields"_L1)) {
        metadata.remove("managedFields"_L1);
        object.insert("metadata"_L1, metadata);
    }
    return write(object);
}

} // namespace KubeYamlWriter

} // namespace strata
