# Captures what sentry-python (Debian's python3-sentry-sdk 1.9) sends: run by bench/corpus.mjs
# with /usr/bin/python3 against a capture server on 127.0.0.1, which records every request
# (errors to /store/, transactions and sessions to /envelope/, gzip, X-Sentry-Auth) as is.
#   python_sdk.py DSN MANIFEST.json
# The manifest lists generated modules (bench/corpus/app-code.mjs) with their target sizes.
import importlib.util
import json
import random
import sys

import sentry_sdk
from sentry_sdk import Hub

dsn, manifest_path = sys.argv[1], sys.argv[2]
with open(manifest_path) as f:
    manifest = json.load(f)

rng = random.Random(3)
# sentry-python runs before_send synchronously inside capture_*: the target is set just before.
current = {"target": None, "drop": False}

QUERIES = [
    "SELECT * FROM orders WHERE id = %s",
    "SELECT id, total FROM invoices WHERE customer_id = %s ORDER BY created_at DESC LIMIT 20",
    "UPDATE carts SET updated_at = now() WHERE id = %s",
    "INSERT INTO events (type, payload) VALUES (%s, %s)",
]
CALLS = ["GET https://payments.internal/v1/charges/%d", "POST https://tax.internal/quote", "GET https://geo.internal/lookup"]


def pad(event, target):
    """Tops an event up to its target size with application state, as extra data."""
    size = len(json.dumps(event, default=str))
    state = []
    i = 0
    while size < target and i < 2000:
        chunk = {"line": i, "sku": "SKU-%d" % rng.randint(10000, 99999), "quantity": rng.randint(1, 9),
                 "unit_price": rng.randint(100, 99999) / 100.0, "note": "z" * rng.randint(10, 120)}
        state.append(chunk)
        size += len(json.dumps(chunk)) + 2
        i += 1
    if state:
        event.setdefault("extra", {})["cart_state"] = state
    return event


def before_send(event, hint):
    if current["drop"]:
        return None  # counted by the SDK as a before_send discard, sent in a client report
    return pad(event, current["target"]) if current["target"] else event


sentry_sdk.init(
    dsn=dsn,
    release="shop-worker@7.3.1",
    environment="production",
    server_name="worker-5c8d9-qz7",
    traces_sample_rate=1.0,
    before_send=before_send,
    send_client_reports=True,
)


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


modules = {}
for entry in manifest["errors"]:
    module = modules.get(entry["file"]) or load(entry["file"], entry["name"])
    modules[entry["file"]] = module
    payload = {"id": entry["id"], "region": entry["region"], "quantity": entry["quantity"], "config": {}, "cache": {},
               "key": "k", "total": 10, "count": 0, "raw_quantity": "12a", "items": [], "body": "{oops"}
    with sentry_sdk.push_scope() as scope:
        scope.clear_breadcrumbs()
        for i in range(entry["breadcrumbs"]):
            sentry_sdk.add_breadcrumb(category="query", message=QUERIES[i % len(QUERIES)],
                                      data={"duration_ms": rng.randint(1, 900), "rows": rng.randint(0, 50)})
        scope.set_tag("queue", rng.choice(["default", "emails", "reports", "webhooks"]))
        scope.set_user({"id": str(rng.randint(1, 50000))})
        scope.set_context("job", {"id": "job-%d" % rng.randint(1, 10**6), "attempt": rng.randint(1, 5)})
        current["target"] = entry["target"]
        if module.FAILURE == "message":
            result = module.run(payload)
            sentry_sdk.capture_message("Slow response from %s: %d ms" % (result["service"], result["ms"]), level="warning")
        else:
            try:
                module.run(payload)
            except Exception:
                sentry_sdk.capture_exception()
        current["target"] = None

# Transactions: background jobs with 10–1000 spans (queries, HTTP calls), as transaction events.
for t, n in enumerate(manifest["transactions"]):
    with sentry_sdk.start_transaction(name="tasks.%s" % rng.choice(["send_invoice", "sync_inventory", "rebuild_search", "charge_renewals"]), op="queue.task") as tx:
        for i in range(n - 1):
            if i % 2 == 0:
                with tx.start_child(op="db", description=QUERIES[i % len(QUERIES)]):
                    pass
            else:
                with tx.start_child(op="http.client", description=CALLS[i % len(CALLS)] % i if "%d" in CALLS[i % len(CALLS)] else CALLS[i % len(CALLS)]):
                    pass
    sentry_sdk.flush(5)

# Sessions: started and ended explicitly (a worker's unit of work).
hub = Hub.current
for s in range(8):
    hub.start_session(session_mode="application")
    hub.end_session()
    sentry_sdk.flush(5)

# Client reports: events the application drops in before_send, reported by the SDK on flush.
for c in range(4):
    current["drop"] = True
    for d in range(c + 1):
        sentry_sdk.capture_message("dropped %d.%d" % (c, d))
    current["drop"] = False
    sentry_sdk.flush(5)  # also sends the client report (HttpTransport.flush forces it)

sentry_sdk.flush(10)
print(json.dumps({"done": True}))
