#pragma once

#include <QString>

namespace strata {

// A URL as Strata shows or logs it: never with the password of its user info
// (http://user:secret@host/ -> http://user@host/), whether or not the text parses as a URL, so
// an error about a mistyped URL does not print the secret it carries. Pure.
namespace DisplayUrl {

QString withoutPassword(const QString &url);

} // namespace DisplayUrl

} // namespace strata
