"""Kubernetes `Status` error objects, shaped like the real API server's (kube stand-in).

The real server answers every failed request with a `kind: Status` body whose `reason`,
`details` and `code` kubectl turns into messages such as
`Error from server (NotFound): nodes "x" not found`. These helpers build the same objects.
"""


class ApiError(Exception):
    """A failed request; `status` is the Status object sent to the client."""

    def __init__(self, code, reason, message, details=None):
        super().__init__(message)
        self.code = code
        self.status = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": message,
            "reason": reason,
            "code": code,
        }
        if details is not None:
            self.status["details"] = details


def qualified(resource, group):
    """`jobs.batch` for grouped resources, `pods` for the core group, as the API writes them."""
    return f"{resource}.{group}" if group else resource


def details_for(name, resource, group):
    details = {"name": name, "kind": resource}
    if group:
        details = {"name": name, "group": group, "kind": resource}
    return details


def not_found(resource, group, name):
    return ApiError(404, "NotFound", f'{qualified(resource, group)} "{name}" not found',
                    details_for(name, resource, group))


def already_exists(resource, group, name):
    return ApiError(409, "AlreadyExists", f'{qualified(resource, group)} "{name}" already exists',
                    details_for(name, resource, group))


def conflict(resource, group, name):
    return ApiError(409, "Conflict",
                    f'Operation cannot be fulfilled on {qualified(resource, group)} "{name}": '
                    "the object has been modified; please apply your changes to the latest "
                    "version and try again",
                    details_for(name, resource, group))


def bad_request(message):
    return ApiError(400, "BadRequest", message)


def method_not_allowed():
    return ApiError(405, "MethodNotAllowed",
                    "the server does not allow this method on the requested resource")


def unsupported_media_type(content_type):
    return ApiError(415, "UnsupportedMediaType",
                    f'the body of the request was in an unknown format - accepted media types '
                    f'include: application/json-patch+json, application/merge-patch+json, '
                    f'application/strategic-merge-patch+json (got "{content_type}")')


def path_not_found():
    return ApiError(404, "NotFound", "the server could not find the requested resource", {})


class FieldError:
    """One cause of a 422 Invalid, formatted like k8s.io/apimachinery field.Error."""

    def __init__(self, field, kind, detail="", value=None, supported=None):
        self.field = field
        self.kind = kind  # Required, Invalid, NotSupported, Forbidden, Duplicate, TooLong
        self.detail = detail
        self.value = value
        self.supported = supported or []

    REASONS = {
        "Required": ("FieldValueRequired", "Required value"),
        "Invalid": ("FieldValueInvalid", "Invalid value"),
        "NotSupported": ("FieldValueNotSupported", "Unsupported value"),
        "Forbidden": ("FieldValueForbidden", "Forbidden"),
        "Duplicate": ("FieldValueDuplicate", "Duplicate value"),
        "TooLong": ("FieldValueTooLong", "Too long"),
    }

    def message(self):
        reason, text = self.REASONS[self.kind]
        parts = [text]
        if self.kind in ("Invalid", "NotSupported", "Duplicate") and self.value is not None:
            parts = [f"{text}: {quote_value(self.value)}"]
        if self.kind == "NotSupported" and self.supported:
            parts.append("supported values: " + ", ".join(f'"{s}"' for s in self.supported))
        if self.detail:
            parts.append(self.detail)
        return ": ".join(parts)

    def cause(self):
        return {"reason": self.REASONS[self.kind][0], "message": self.message(), "field": self.field}

    def text(self):
        return f"{self.field}: {self.message()}"


def quote_value(value):
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def invalid(kind, group, name, errors):
    """422 Invalid with one cause per field error, as `Job.batch "x" is invalid: ...`."""
    qualified_kind = f"{kind}.{group}" if group else kind
    texts = [e.text() for e in errors]
    joined = texts[0] if len(texts) == 1 else "[" + ", ".join(texts) + "]"
    details = {"name": name, "kind": kind, "causes": [e.cause() for e in errors]}
    if group:
        details = {"name": name, "group": group, "kind": kind, "causes": details["causes"]}
    return ApiError(422, "Invalid", f'{qualified_kind} "{name}" is invalid: {joined}', details)
