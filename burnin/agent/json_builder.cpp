#include "json_builder.h"

#include <cmath>
#include <cstdio>

namespace strata::burn {

void JsonBuilder::key(std::string_view key)
{
    if (m_text.size() > 1)
        m_text += ',';
    m_text += quote(key);
    m_text += ':';
}

JsonBuilder &JsonBuilder::field(std::string_view k, std::string_view value)
{
    key(k);
    m_text += quote(value);
    return *this;
}

JsonBuilder &JsonBuilder::field(std::string_view k, double value)
{
    key(k);
    m_text += number(value);
    return *this;
}

JsonBuilder &JsonBuilder::field(std::string_view k, std::int64_t value)
{
    key(k);
    m_text += std::to_string(value);
    return *this;
}

JsonBuilder &JsonBuilder::field(std::string_view k, std::uint64_t value)
{
    key(k);
    m_text += std::to_string(value);
    return *this;
}

JsonBuilder &JsonBuilder::field(std::string_view k, bool value)
{
    key(k);
    m_text += value ? "true" : "false";
    return *this;
}

JsonBuilder &JsonBuilder::field(std::string_view k, const std::optional<double> &value)
{
    return value ? field(k, *value) : null(k);
}

JsonBuilder &JsonBuilder::field(std::string_view k, const std::optional<std::string> &value)
{
    return value ? field(k, std::string_view(*value)) : null(k);
}

JsonBuilder &JsonBuilder::field(std::string_view k, const std::vector<std::string> &values)
{
    std::vector<std::string> quoted;
    quoted.reserve(values.size());
    for (const std::string &v : values)
        quoted.push_back(quote(v));
    return raw(k, array(quoted));
}

JsonBuilder &JsonBuilder::null(std::string_view k)
{
    key(k);
    m_text += "null";
    return *this;
}

JsonBuilder &JsonBuilder::raw(std::string_view k, std::string_view json)
{
    key(k);
    m_text += json;
    return *this;
}

std::string JsonBuilder::quote(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buffer[8];
                std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(c));
                out += buffer;
            } else {
                out += c;
            }
        }
    }
    out += '"';
    return out;
}

std::string JsonBuilder::number(double value)
{
    if (!std::isfinite(value))
        return "null";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return buffer;
}

std::string JsonBuilder::array(const std::vector<std::string> &jsonValues)
{
    std::string out = "[";
    for (std::size_t i = 0; i < jsonValues.size(); ++i) {
        if (i)
            out += ',';
        out += jsonValues[i];
    }
    return out + "]";
}

} // namespace strata::burn
