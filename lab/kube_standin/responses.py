"""Responses of the kube stand-in's request handlers (see api.py and streams.py)."""

import json

from store import RESOURCES


class Response:
    def __init__(self, code, body=None, content_type="application/json", headers=None, stream=None):
        self.code = code
        self.body = body  # dict (JSON), str or bytes
        self.content_type = content_type
        self.headers = headers or []
        self.stream = stream  # generator of bytes chunks, sent chunked


def json_response(code, obj, warnings=None, content_type="application/json"):
    """Serializes at once: callers hold the store lock, so the bytes are a consistent copy."""
    headers = [("Warning", '299 - ' + json.dumps(w)) for w in warnings or []]
    return Response(code, json.dumps(obj).encode(), content_type, headers)


def list_kind(resource):
    return RESOURCES[resource][2] + "List"


def first(query, key, default=None):
    values = query.get(key)
    return values[0] if values else default
