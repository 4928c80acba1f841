"""The tests' HTTP: httpx's functions and client, all with one TLS context.

httpx builds a TLS context for every client it makes, reading the whole CA
bundle (more time than a request to a test server takes), and ``httpx.get``
makes a client for each call. The tests speak plain http to their own servers,
so one default context, built once and given through httpx's ``verify``
parameter, serves them all.
"""

from __future__ import annotations

import ssl
from typing import Any

import httpx

TLS = ssl.create_default_context()


def get(url: str, **options: Any) -> httpx.Response:
    return httpx.get(url, verify=TLS, **options)


def post(url: str, **options: Any) -> httpx.Response:
    return httpx.post(url, verify=TLS, **options)


def head(url: str, **options: Any) -> httpx.Response:
    return httpx.head(url, verify=TLS, **options)


def delete(url: str, **options: Any) -> httpx.Response:
    return httpx.delete(url, verify=TLS, **options)


def stream(method: str, url: str, **options: Any) -> Any:
    """``httpx.stream``: a context manager giving the response."""
    return httpx.stream(method, url, verify=TLS, **options)


def Client(**options: Any) -> httpx.Client:
    return httpx.Client(verify=TLS, **options)
