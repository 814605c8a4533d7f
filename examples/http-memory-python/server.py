#!/usr/bin/env python3
"""A reference http-memory server: a BM25 memory in the Python standard library only.

It speaks the protocol of docs/http-memory.openapi.yaml, so AdaptMR Bench can benchmark it with

    method: http-memory
    options: { url: http://127.0.0.1:8765 }

Run it with `python3 server.py --port 8765` (`--port 0` picks a free port; the first line printed names the URL).
Check it with `adaptmr protocol-check http://127.0.0.1:8765`. Start your own system from this file: replace
`Namespace.add` and `Namespace.search` with calls into it and keep the HTTP layer.

The memory: each message is one memory; a search ranks a namespace's messages with Okapi BM25 (k1 = 1.2, b = 0.75,
Lucene's IDF) and returns the best k, each citing its message's unit id, dated with the message's time. Messages
later than the question's date are left out (a memory cannot hold what has not happened yet). Chinese, Japanese
kanji and other Han text has no spaces: each Han character is a term, and so is each pair of adjacent ones, so
"大提琴" matches "大提琴" better than "提" alone; other scripts split into words at non-letters.

Everything is in memory: stopping the server forgets it. With the environment variable named by `--api-key-env`
(default HTTP_MEMORY_API_KEY) set, every request must carry `Authorization: Bearer <that key>`.
"""

import argparse
import json
import math
import os
import re
import sys
import threading
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

PROTOCOL = "http-memory/1"
NAMESPACE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
TOKEN = re.compile(f"[{HAN}]|[^\\W_{HAN}]+")
STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have he her his i in is it its me my of on or our she "
    "so that the their them they this to was we were what when where which who why will with you your".split()
)
K1, B = 1.2, 0.75


def terms(text):
    """Lower-cased words, Han characters one by one plus adjacent Han pairs; English stop words left out."""
    tokens = [t for t in TOKEN.findall(text.lower()) if t not in STOPWORDS]
    pairs = [a + b for a, b in zip(tokens, tokens[1:]) if len(a) == 1 and len(b) == 1 and re.match(f"[{HAN}]", a) and re.match(f"[{HAN}]", b)]
    return tokens + pairs


def parse_time(value):
    """An RFC 3339 date-time with a zone, or None when it is not one."""
    if not isinstance(value, str) or not re.search(r"(Z|[+-]\d\d:\d\d)$", value):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


class BadRequest(Exception):
    pass


class Namespace:
    def __init__(self):
        self.messages = []  # dicts: unit_id, role, speaker, text, time, at (datetime), terms
        self.batches = set()
        self.df = {}
        self.total_length = 0

    def add(self, batch_id, messages):
        if batch_id in self.batches:
            return 0
        for m in messages:
            t = terms(m["text"] if not m.get("speaker") else f"{m['speaker']} {m['text']}")
            self.messages.append({**m, "at": parse_time(m["time"]), "terms": t})
            for term in set(t):
                self.df[term] = self.df.get(term, 0) + 1
            self.total_length += len(t)
        self.batches.add(batch_id)
        return len(messages)

    def search(self, query, k, before):
        n = len(self.messages)
        if n == 0:
            return []
        avg = self.total_length / n
        q = set(terms(query))
        scored = []
        for i, m in enumerate(self.messages):
            if before is not None and m["at"] is not None and m["at"] > before:
                continue
            tf = {}
            for term in m["terms"]:
                if term in q:
                    tf[term] = tf.get(term, 0) + 1
            score = 0.0
            for term, f in tf.items():
                idf = math.log(1 + (n - self.df[term] + 0.5) / (self.df[term] + 0.5))
                score += idf * f * (K1 + 1) / (f + K1 * (1 - B + B * len(m["terms"]) / avg))
            if score > 0:
                scored.append((-score, i, m))
        scored.sort(key=lambda x: (x[0], x[1]))
        return [
            {
                "text": f"{m['speaker']}: {m['text']}" if m.get("speaker") else m["text"],
                "score": round(-s, 6),
                "unit_ids": [m["unit_id"]],
                "time": m["time"],
            }
            for s, _, m in scored[:k]
        ]


class Memory:
    """All namespaces; one lock, so concurrent requests never see half an ingestion."""

    def __init__(self):
        self.namespaces = {}
        self.lock = threading.Lock()

    def status(self, name):
        ns = self.namespaces[name]
        return {"namespace": name, "messages": len(ns.messages), "ready": True}


def check_ingest(body):
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    for key in ("batch_id", "session_id"):
        if not isinstance(body.get(key), str) or body[key] == "":
            raise BadRequest(f"{key} must be a non-empty string")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise BadRequest("messages must be a non-empty array")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            raise BadRequest(f"messages[{i}] must be an object")
        if not isinstance(m.get("unit_id"), str) or m["unit_id"] == "":
            raise BadRequest(f"messages[{i}].unit_id must be a non-empty string")
        if m.get("role") not in ("user", "assistant"):
            raise BadRequest(f"messages[{i}].role must be user or assistant")
        if not isinstance(m.get("text"), str):
            raise BadRequest(f"messages[{i}].text must be a string")
        if parse_time(m.get("time")) is None:
            raise BadRequest(f"messages[{i}].time must be an RFC 3339 date-time with a zone")
        speaker = m.get("speaker")
        if speaker is not None and not isinstance(speaker, str):
            raise BadRequest(f"messages[{i}].speaker must be a string or null")
        out.append({"unit_id": m["unit_id"], "role": m["role"], "speaker": speaker, "text": m["text"], "time": m["time"]})
    return body["batch_id"], out


def check_search(body):
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    query, k = body.get("query"), body.get("k")
    if not isinstance(query, str) or query == "":
        raise BadRequest("query must be a non-empty string")
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= 1000:
        raise BadRequest("k must be an integer from 1 to 1000")
    date = body.get("question_date")
    before = None
    if date is not None:
        before = parse_time(date)
        if before is None:
            raise BadRequest("question_date must be an RFC 3339 date-time with a zone, or null")
    return query, k, before


def make_handler(memory, api_key):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # quiet: the harness records every request itself
            pass

        def reply(self, status, body):
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        @staticmethod
        def parse(raw):
            try:
                return json.loads(raw.decode("utf-8")) if raw else None
            except (UnicodeDecodeError, json.JSONDecodeError):
                raise BadRequest("the body is not JSON")

        def route(self, method):
            # The body is read first, whatever the answer: an unread body would garble the next request.
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length > 0 else b""
            if api_key and self.headers.get("Authorization") != f"Bearer {api_key}":
                return self.reply(401, {"error": "missing or wrong Authorization: Bearer key"})
            path = self.path.split("?", 1)[0]
            try:
                if path == "/health" and method == "GET":
                    return self.reply(200, {"protocol": PROTOCOL, "sources": True, "name": "bm25 (python reference)"})
                m = re.match(r"^/namespaces/([^/]+)(/sessions|/search)?$", path)
                if not m:
                    return self.reply(404, {"error": f"no such path: {path}"})
                name, tail = unquote(m.group(1)), m.group(2)
                if not NAMESPACE.match(name):
                    raise BadRequest(f"namespace {name!r} does not match {NAMESPACE.pattern}")
                body = self.parse(raw)
                with memory.lock:
                    if tail is None and method == "PUT":
                        created = name not in memory.namespaces
                        memory.namespaces.setdefault(name, Namespace())
                        return self.reply(201 if created else 200, memory.status(name))
                    if name not in memory.namespaces:
                        return self.reply(404, {"error": f"no namespace {name}"})
                    if tail is None and method == "GET":
                        return self.reply(200, memory.status(name))
                    if tail is None and method == "DELETE":
                        del memory.namespaces[name]
                        return self.reply(200, {"deleted": True})
                    if tail == "/sessions" and method == "POST":
                        batch_id, messages = check_ingest(body)
                        stored = memory.namespaces[name].add(batch_id, messages)
                        return self.reply(200, {"batch_id": batch_id, "stored": stored, "duplicate": stored == 0})
                    if tail == "/search" and method == "POST":
                        query, k, before = check_search(body)
                        return self.reply(200, {"items": memory.namespaces[name].search(query, k, before)})
                return self.reply(405, {"error": f"{method} is not allowed on {path}"})
            except BadRequest as err:
                return self.reply(400, {"error": str(err)})
            except Exception as err:  # a bug here: say so, as the protocol asks (5xx, one line)
                return self.reply(500, {"error": f"{type(err).__name__}: {err}"})

        def do_GET(self):
            self.route("GET")

        def do_PUT(self):
            self.route("PUT")

        def do_POST(self):
            self.route("POST")

        def do_DELETE(self):
            self.route("DELETE")

    return Handler


def main():
    parser = argparse.ArgumentParser(description="A reference http-memory server (BM25, Python standard library).")
    parser.add_argument("--port", type=int, default=8765, help="port to listen on (0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--api-key-env", default="HTTP_MEMORY_API_KEY", help="variable holding the key clients must send")
    args = parser.parse_args()
    api_key = os.environ.get(args.api_key_env) or None
    server = ThreadingHTTPServer((args.host, args.port), make_handler(Memory(), api_key))
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"http-memory server listening on http://{host}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
