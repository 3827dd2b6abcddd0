#pragma once

#include <QByteArrayView>
#include <QSet>
#include <QString>

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace strata {

// Hands out one shared QString per distinct text, so 50,000 jobs of a dozen users hold a dozen
// user strings, not 50,000 copies (a QString copy is a reference to the same buffer). For the
// fields many records repeat: users, states, reasons, partitions, node names, array ids, the
// names array tasks share. Owned by one parse (or by the refresh that runs several parses, so
// a job's node names are its nodes' own strings); not thread-safe.
class StringInterner
{
public:
    // The shared string for these UTF-8 bytes (the same object for the same text however it came).
    QString intern(QByteArrayView utf8);
    QString intern(const QString &text);
    // Distinct strings held.
    qsizetype size() const { return m_strings.size(); }

private:
    struct BytesHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view bytes) const { return std::hash<std::string_view>{}(bytes); }
    };
    std::unordered_map<std::string, QString, BytesHash, std::equal_to<>> m_byUtf8;
    QSet<QString> m_strings;
};

} // namespace strata
