"""Secret redaction in every form a secret can take, on text and on structure.

For every registered secret (``Settings.secret_values()`` and the clients' own), ``redact``
removes: the whole value, the value without a known prefix (``sk-``, ``sk-proj-``,
``tvly-``, ...), both in any (ASCII) case, and any run of 16 or more consecutive characters
of it, extended to the whole run. Keys and tokens a provider echoes that we never knew
(``sk-...``, bearer headers, "api key provided: ...") are removed by pattern. A URL's
secrets (``url_secrets``: its password, a token as its user name, key/token query values)
count when at least ``_MIN_BARE`` long, never the URL's public part.

Runs are found with 8-character windows checked at every 8th position of the text: any
16-character run contains one such aligned window, so a 12 000-character text costs about
1 500 set lookups. ``scrub`` walks a value and keeps its types (for checkpoints and state);
``redact_json`` walks a value and returns a redacted JSON-safe copy (responses, traces).
"""

from __future__ import annotations

import dataclasses
import re
import string
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote, unquote_plus, urlsplit

from pydantic import BaseModel

MARK = "***"
RUN = 16  # a run of this many characters of a secret is the secret
_WINDOW = RUN // 2
#: prefixes providers put in front of a key; the rest of the key is a secret on its own
PREFIXES = (
    "sk-or-v1-",
    "sk-proj-",
    "sk-ant-",
    "sk-svcacct-",
    "sk-",
    "tvly-dev-",
    "tvly-prod-",
    "tvly-",
    "lsv2_pt_",
    "lsv2_sk_",
    "ghp_",
    "bearer ",
)
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_MIN_LEN = 4
_MEMO_SIZE = 4096  # texts remembered redacted, per set of secrets
_MEMO_CHARS = 20_000  # a longer text (a whole document) is remembered in a short memo
_LONG_MEMO_SIZE = 16  # whole documents remembered redacted: those of the last turns
_MIN_BARE = 6  # a shorter remainder after a prefix would match ordinary words

# What providers echo back in error messages, whether or not we know the value: OpenAI and
# OpenRouter keys ("sk-...", "sk-or-v1-..."), Tavily keys, bearer headers, and the tail of
# "Incorrect API key provided: sk-ab***1234" (a masked key is still part of a key; only key
# characters, so a quote or comma after it in JSON output stays).
_ECHOED = re.compile(
    r"\b(?:sk|tvly|rk|pk)-[A-Za-z0-9_\-*]{6,}"
    r"|(?i:bearer)\s+[A-Za-z0-9._~+/=\-*]{6,}"
    r"|(?<=(?i:api key provided: ))[A-Za-z0-9._~+/=\-*]+"
    r"|(?<=(?i:api_key=))[^\s&\"']+"
)


#: lower-case substrings one of which every ``_ECHOED`` match contains (a cheap pre-check)
_ECHO_HINTS = ("sk-", "tvly-", "rk-", "pk-", "bearer", "api key provided: ", "api_key=")


def lower(text: str) -> str:
    """ASCII lower case, one character for one (indexes stay aligned with ``text``)."""
    return text.translate(_LOWER)


def forms(secret: str) -> set[str]:
    """The whole value and the value without known prefixes, lower-cased."""
    low = lower(secret.strip())
    found = {low} if len(low) >= _MIN_LEN else set()
    if "://" in low:  # a URL's secrets on their own (password, token user, key parameter)
        return found | {lower(s) for s in url_secrets(secret.strip())}
    bare = low
    stripped = True
    while stripped:
        stripped = False
        for prefix in PREFIXES:
            if bare.startswith(prefix) and len(bare) - len(prefix) >= _MIN_BARE:
                bare = bare[len(prefix) :]
                found.add(bare)
                stripped = True
    return found


#: query parameter names (or ``_``/``-``/``.`` separated parts of one) carrying a secret
_SECRET_PARAMS = frozenset(
    {
        "key",
        "apikey",
        "token",
        "accesstoken",
        "secret",
        "password",
        "passwd",
        "pwd",
        "auth",
        "signature",
        "sig",
        "credential",
        "credentials",
    }
)


def _secret_param(name: str) -> bool:
    low = lower(name)
    return low in _SECRET_PARAMS or any(p in _SECRET_PARAMS for p in re.split(r"[_\-.]", low))


def url_secrets(url: str | None) -> list[str]:
    """The secrets a URL carries, as written and decoded: its password
    (``https://user:password@host``), a token given as its user name
    (``https://ghp_...@host``) and the values of key/token/secret/password query
    parameters. Secrets even when the URL itself is plain configuration; a value shorter
    than ``_MIN_BARE`` is left out (``http://admin:2025@host`` must not hide every «2025»),
    and so is a user name that does not look like a token (``postgres@db``)."""
    if not url or "://" not in url:
        return []
    try:
        parts = urlsplit(url)
        password, user = parts.password, parts.username
    except ValueError:
        return []
    found: list[str] = []
    if password:
        found += [password, unquote(password)]
    elif user and (len(user) >= RUN or lower(user).startswith(PREFIXES)):
        found += [user, unquote(user)]
    for pair in parts.query.split("&"):
        name, _, value = pair.partition("=")
        if value and _secret_param(unquote_plus(name)):
            found += [value, unquote_plus(value)]
    out: list[str] = []
    for value in found:
        if len(value.strip()) >= _MIN_BARE and value not in out:
            out.append(value)
    return out


def _run_sources(secret: str) -> list[str]:
    """The texts whose 16-character runs are secret: the value, or for a URL only its
    secrets (a run of ``postgresql://host`` is not a secret)."""
    if "://" in secret:
        return [lower(s) for s in url_secrets(secret.strip())]
    return [lower(secret.strip())]


class Redactor:
    """The compiled matchers of a set of secrets (immutable; rebuilt when one is added)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = frozenset(s for s in secrets if s and len(s.strip()) >= _MIN_LEN)
        self._sources = [src for s in self.secrets for src in _run_sources(s) if len(src) >= RUN]
        # a form that is a run of a long secret is found as a run; the rest by one regex,
        # matched on lower-cased text (faster than IGNORECASE)
        whole = sorted(
            {
                f
                for s in self.secrets
                for f in forms(s)
                if not (len(f) >= RUN and any(f in src for src in self._sources))
            },
            key=len,
            reverse=True,
        )
        self._whole = re.compile("|".join(re.escape(f) for f in whole)) if whole else None
        # every 8-character window of a long secret -> (source, offset) pairs
        self._windows: dict[str, list[tuple[str, int]]] = {}
        for src in self._sources:
            for i in range(len(src) - _WINDOW + 1):
                self._windows.setdefault(src[i : i + _WINDOW], []).append((src, i))
        # the same texts (a turn's passages, its messages) are written at every checkpoint
        # of the turn: each is redacted once (the secrets of an instance never change)
        self._done: OrderedDict[str, str] = OrderedDict()
        # a whole document read for a turn is written at each of its checkpoints too: a
        # few of them are remembered (their texts are the state's own, held anyway)
        self._long: OrderedDict[str, str] = OrderedDict()
        self._memo_lock = threading.Lock()

    def _run_spans(self, low: str) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        windows = self._windows
        pos = 0
        n = len(low)
        while pos + _WINDOW <= n:
            hits = windows.get(low[pos : pos + _WINDOW])
            if hits:
                best = (pos, pos)
                for src, at in hits:
                    start, end = pos, pos + _WINDOW
                    i, j = at, at + _WINDOW
                    while start > 0 and i > 0 and low[start - 1] == src[i - 1]:
                        start, i = start - 1, i - 1
                    while end < n and j < len(src) and low[end] == src[j]:
                        end, j = end + 1, j + 1
                    if end - start >= RUN and end - start > best[1] - best[0]:
                        best = (start, end)
                if best[1] > best[0]:
                    spans.append(best)
                    pos = best[1] + (-best[1] % _WINDOW)  # the next aligned window
                    continue
            pos += _WINDOW
        return spans

    def redact(self, text: str) -> str:
        if not text:
            return text
        memo, size = (
            (self._long, _LONG_MEMO_SIZE) if len(text) > _MEMO_CHARS else (self._done, _MEMO_SIZE)
        )
        done = memo.get(text)
        if done is None:
            done = self._redact(text)
            with self._memo_lock:
                memo[text] = done
                if len(memo) > size:
                    memo.popitem(last=False)
        return done

    def _redact(self, text: str) -> str:
        low = lower(text)
        spans = self._run_spans(low) if self._windows and len(text) >= RUN else []
        if self._whole is not None:
            spans += [m.span() for m in self._whole.finditer(low)]
        if spans:
            parts, last = [], 0
            for start, end in sorted(spans):
                start = max(start, last)
                if end <= start:
                    continue
                parts += [text[last:start], MARK]
                last = end
            text = "".join([*parts, text[last:]])
        if any(hint in low for hint in _ECHO_HINTS):
            text = _ECHOED.sub(MARK, text)
        return text


_lock = threading.Lock()
_current = Redactor(())


def register(values: Iterable[str]) -> None:
    """Add secrets to the process-wide redactor."""
    global _current
    new = {v for v in values if v and len(v.strip()) >= _MIN_LEN}
    with _lock:
        if new <= _current.secrets:
            return
        _current = Redactor(_current.secrets | new)


def redact(text: str) -> str:
    """``text`` without any form of any registered secret or echoed key."""
    return _current.redact(text)


_SCALARS = frozenset({int, float, bool, type(None)})


def scrub(value: Any) -> Any:
    """``value`` with every string inside redacted, types kept (dicts, lists, tuples,
    pydantic models such as LangChain messages, dataclasses); the same object when nothing
    changed."""
    if isinstance(value, str):
        return _current.redact(value)
    if type(value) in _SCALARS:  # nothing inside to redact: the commonest leaves
        return value
    if isinstance(value, dict):
        out = {scrub(k): scrub(v) for k, v in value.items()}
        same = len(out) == len(value) and all(k in value and value[k] is v for k, v in out.items())
        return value if same else out
    if isinstance(value, list | tuple):
        items = [scrub(v) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        if isinstance(value, list):
            return items
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if isinstance(value, BaseModel):
        updates = {}
        for name in type(value).model_fields:
            old = getattr(value, name, None)
            new = scrub(old)
            if new is not old:
                updates[name] = new
        return value.model_copy(update=updates) if updates else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            old = getattr(value, f.name)
            new = scrub(old)
            if new is not old:
                changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value


def redact_json(value: Any) -> Any:
    """A JSON-safe copy of ``value`` with every string redacted (unknown objects become
    their redacted text; exceptions their class name and redacted message)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return _current.redact(value)
    if isinstance(value, bytes | bytearray):
        return _current.redact(bytes(value).decode("utf-8", "replace"))
    if isinstance(value, dict):
        return {str(redact_json(k)): redact_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [redact_json(v) for v in value]
    if isinstance(value, BaseException):
        return {"error_kind": type(value).__name__, "message": _current.redact(str(value))}
    if isinstance(value, BaseModel):
        return redact_json(value.model_dump(mode="json"))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return redact_json(dataclasses.asdict(value))
    return _current.redact(str(value))
