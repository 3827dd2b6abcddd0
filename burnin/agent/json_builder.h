#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::burn {

// Builds one JSON object as text. The agent has no JSON library so it stays one small file to
// deploy; it only ever writes, and the console's parser (core/burnin) checks what it writes.
class JsonBuilder
{
public:
    JsonBuilder &field(std::string_view key, std::string_view value);
    JsonBuilder &field(std::string_view key, const char *value) { return field(key, std::string_view(value)); }
    JsonBuilder &field(std::string_view key, const std::string &value) { return field(key, std::string_view(value)); }
    JsonBuilder &field(std::string_view key, double value);
    JsonBuilder &field(std::string_view key, std::int64_t value);
    JsonBuilder &field(std::string_view key, int value) { return field(key, static_cast<std::int64_t>(value)); }
    JsonBuilder &field(std::string_view key, std::uint64_t value);
    JsonBuilder &field(std::string_view key, bool value);
    JsonBuilder &field(std::string_view key, const std::optional<double> &value);
    JsonBuilder &field(std::string_view key, const std::optional<std::string> &value);
    JsonBuilder &field(std::string_view key, const std::vector<std::string> &values);
    JsonBuilder &null(std::string_view key);
    // `json` must already be valid JSON text (a nested object or array).
    JsonBuilder &raw(std::string_view key, std::string_view json);

    std::string str() const { return m_text + "}"; }

    static std::string quote(std::string_view text);
    static std::string number(double value); // non-finite values become null
    static std::string array(const std::vector<std::string> &jsonValues);

private:
    void key(std::string_view key);
    std::string m_text = "{";
};

} // namespace strata::burn
