#include "string_interner.h"

namespace strata {

QString StringInterner::intern(const QString &text)
{
    if (text.isEmpty())
        return {};
    const auto it = m_strings.constFind(text);
    if (it != m_strings.constEnd())
        return *it;
    m_strings.insert(text);
    return text;
}

QString StringInterner::intern(QByteArrayView utf8)
{
    if (utf8.isEmpty())
        return {};
    const std::string_view key(utf8.data(), size_t(utf8.size()));
    const auto it = m_byUtf8.find(key);
    if (it != m_byUtf8.end())
        return it->second;
    const QString text = intern(QString::fromUtf8(utf8.data(), utf8.size()));
    m_byUtf8.emplace(std::string(key), text);
    return text;
}

} // namespace strata
