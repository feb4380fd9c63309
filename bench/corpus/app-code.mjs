// Made-up application code that fails in many distinct ways, so that the real SDKs send
// real stack traces (with context lines) over a few hundred distinct issues. Each
// "template" is one module: a chain of 3–12 functions whose last one fails in one of several
// ways — a property of undefined, bad JSON, a custom error class, a chained cause… The names
// come from word lists and a seed, so the same corpus is generated on every machine.
import { prng } from "../util.mjs";

const VERBS = [
  "load",
  "fetch",
  "parse",
  "validate",
  "apply",
  "compute",
  "render",
  "build",
  "resolve",
  "sync",
  "charge",
  "refund",
  "serialize",
  "normalize",
  "persist",
  "enqueue",
  "dispatch",
  "schedule",
  "reconcile",
  "authorize",
  "lookup",
  "transform",
  "merge",
  "publish",
  "hydrate",
  "prefetch",
  "encode",
  "decode",
  "import",
  "export",
];
const NOUNS = [
  "Order",
  "Invoice",
  "Cart",
  "Customer",
  "Payment",
  "Shipment",
  "Coupon",
  "Session",
  "Token",
  "Profile",
  "Inventory",
  "Price",
  "Tax",
  "Report",
  "Webhook",
  "Subscription",
  "Account",
  "Address",
  "Catalog",
  "Review",
  "Notification",
  "Refund",
  "Ledger",
  "Plan",
  "Quote",
  "Warehouse",
  "Carrier",
  "Settings",
  "Feature",
  "Metric",
];
const AREAS = [
  "api/routes",
  "services/billing",
  "services/orders",
  "lib/db",
  "lib/cache",
  "workers/queue",
  "integrations/stripe",
  "integrations/shipping",
  "domain/catalog",
  "jobs/reports",
  "lib/auth",
  "services/search",
];
const CUSTOM = [
  "ValidationError",
  "NotFoundError",
  "PaymentDeclinedError",
  "UpstreamTimeoutError",
  "ConflictError",
  "QuotaExceededError",
  "DatabaseError",
  "PermissionDeniedError",
];
const FIELDS = ["limit", "currency", "address", "total", "owner", "items", "region", "status", "plan", "email"];
const SERVICES = ["payments-api", "inventory-svc", "search-cluster", "mailer", "tax-service", "geo-api", "pricing-engine"];

export const JS_FAILURES = ["undefined-prop", "null-prop", "not-a-function", "json", "range", "reference", "custom", "chained", "message"];
export const PY_FAILURES = ["key", "attribute", "zero-division", "value", "type", "index", "custom", "chained", "json", "message"];

const camel = (verb, noun) => verb + noun;
const snake = (verb, noun) => `${verb}_${noun.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase()}`;
const kebab = (s) => s.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();

/** The shape of template `k`: where it lives, its call chain, how it fails. */
export function templateSpec(k, failures, seed) {
  const r = prng(seed * 7919 + k * 104729);
  const area = AREAS[k % AREAS.length];
  const noun = NOUNS[(k * 7 + r.int(0, 3)) % NOUNS.length];
  const depth = r.int(3, 12);
  const names = new Map();
  while (names.size < depth) {
    const pair = [r.pick(VERBS), r.pick(NOUNS)];
    names.set(pair.join(), pair);
  }
  return {
    k,
    area,
    module: `${kebab(noun)}-${["service", "handler", "store", "client", "worker", "helpers"][k % 6]}-${k}`,
    chain: [...names.values()],
    failure: failures[k % failures.length],
    custom: CUSTOM[(k >> 1) % CUSTOM.length],
    field: r.pick(FIELDS),
    service: r.pick(SERVICES),
  };
}

/** A JavaScript module (ESM for Node, a classic script for the browser) for one template. */
export function jsModule(spec, { browser }) {
  const fns = spec.chain.map(([v, n]) => camel(v, n));
  const lines = [];
  lines.push(`// ${spec.area}/${spec.module} (generated for the Telltale benchmark corpus)`);
  if (browser) lines.push("(function () {");
  lines.push(
    `class ${spec.custom} extends Error {`,
    `  constructor(message, options) {`,
    `    super(message, options);`,
    `    this.name = "${spec.custom}";`,
    `  }`,
    `}`,
  );
  fns.forEach((name, i) => {
    const next = fns[i + 1];
    lines.push("", `function ${name}(input) {`);
    if (next) {
      lines.push(`  const step = { ...input, depth: (input.depth || 0) + 1, trail: [...(input.trail || []), "${name}"] };`);
      lines.push(`  if (step.depth > 40) throw new Error("runaway recursion");`);
      lines.push(`  return ${next}(step);`);
    } else {
      lines.push(...jsFailure(spec));
    }
    lines.push("}");
  });
  if (browser) {
    lines.push("", `window.__benchApp = window.__benchApp || {};`, `window.__benchApp[${spec.k}] = ${fns[0]};`, "})();");
  } else {
    lines.push("", `export const run = ${fns[0]};`, `export const failure = "${spec.failure}";`);
  }
  return lines.join("\n") + "\n";
}

function jsFailure(spec) {
  const f = spec.field;
  switch (spec.failure) {
    case "undefined-prop":
      return [`  const settings = input.config[input.region];`, `  return settings.${f} * input.quantity;`];
    case "null-prop":
      return [`  const row = input.cache.get(input.key) ?? null;`, `  return row.${f};`];
    case "not-a-function":
      return [`  const lines = input.lines;`, `  return lines.map((line) => line.${f});`];
    case "json":
      return [`  const raw = '{"id": ' + input.id + ', "${f}": }';`, `  return JSON.parse(raw);`];
    case "range":
      return [`  const size = input.quantity - 100000;`, `  return new Array(size).fill(input.id);`];
    case "reference":
      return [`  // a helper that was renamed in a refactor`, `  return ${f}Helper${spec.k}(input);`];
    case "custom":
      return [`  throw new ${spec.custom}(\`${f} of order \${input.id} is not valid for region \${input.region}\`);`];
    case "chained":
      return [
        `  try {`,
        `    JSON.parse(input.payload);`,
        `  } catch (cause) {`,
        `    throw new ${spec.custom}(\`request to ${spec.service} failed for order \${input.id}\`, { cause });`,
        `  }`,
        `  return null;`,
      ];
    default:
      return [`  return { slow: true, service: "${spec.service}", ms: input.quantity * 13 };`];
  }
}

/** Input that makes the template fail; `v` varies ids and numbers between captures. */
export function jsInput(spec, v) {
  return {
    id: 1000 + spec.k * 31 + v,
    region: ["eu", "us", "ap"][v % 3],
    quantity: 3 + v,
    key: `k${v}`,
    config: {},
    cache: new Map(),
    lines: { length: 2 },
    payload: "{oops",
  };
}

/** A Python module for one template; its last function fails, or returns for "message". */
export function pyModule(spec) {
  const fns = spec.chain.map(([v, n]) => snake(v, n));
  const lines = [
    `# ${spec.area}/${spec.module} (generated for the Telltale benchmark corpus)`,
    "import json",
    "",
    "",
    `class ${spec.custom}(Exception):`,
    "    pass",
    "",
  ];
  fns.forEach((name, i) => {
    const next = fns[i + 1];
    lines.push("", `def ${name}(payload):`);
    if (next) {
      lines.push(
        `    step = dict(payload, depth=payload.get("depth", 0) + 1)`,
        `    step["trail"] = payload.get("trail", []) + ["${name}"]`,
        `    return ${next}(step)`,
      );
    } else {
      lines.push(...pyFailure(spec));
    }
    lines.push("");
  });
  lines.push("", `run = ${fns[0]}`, `FAILURE = "${spec.failure}"`);
  return lines.join("\n") + "\n";
}

function pyFailure(spec) {
  const f = spec.field;
  switch (spec.failure) {
    case "key":
      return [`    settings = payload["config"]`, `    return settings["${f}"] * payload["quantity"]`];
    case "attribute":
      return [`    row = payload["cache"].get(payload["key"])`, `    return row.${f}`];
    case "zero-division":
      return [`    per_item = payload["total"] / payload["count"]`, `    return round(per_item, 2)`];
    case "value":
      return [`    quantity = int(payload["raw_quantity"])`, `    return quantity * 2`];
    case "type":
      return [`    label = "order " + payload["id"]`, `    return label`];
    case "index":
      return [`    items = payload["items"]`, `    return items[payload["quantity"]]`];
    case "custom":
      return [`    raise ${spec.custom}("${f} of order %s is not valid for region %s" % (payload["id"], payload["region"]))`];
    case "chained":
      return [
        `    try:`,
        `        return json.loads(payload["body"])`,
        `    except ValueError as exc:`,
        `        raise ${spec.custom}("request to ${spec.service} failed for order %s" % payload["id"]) from exc`,
      ];
    case "json":
      return [`    return json.loads(payload["body"])`];
    default:
      return [`    return {"slow": True, "service": "${spec.service}", "ms": payload["quantity"] * 13}`];
  }
}

export const ROUTES = [
  "GET /api/orders/:id",
  "POST /api/orders",
  "GET /api/catalog/search",
  "PUT /api/cart/items/:id",
  "POST /api/payments/charge",
  "GET /api/customers/:id/invoices",
  "POST /webhooks/stripe",
  "GET /api/shipments/:id/track",
  "DELETE /api/sessions/:id",
  "GET /healthz",
  "POST /api/reports/export",
  "GET /api/inventory/:sku",
  "PATCH /api/profile",
  "GET /api/plans",
  "POST /api/coupons/redeem",
];
export const QUERIES = [
  "SELECT * FROM orders WHERE id = $1",
  "SELECT id, total FROM invoices WHERE customer_id = $1 ORDER BY created_at DESC LIMIT 20",
  "UPDATE carts SET updated_at = now() WHERE id = $1",
  "INSERT INTO events (type, payload) VALUES ($1, $2)",
  "SELECT sku, quantity FROM inventory WHERE sku = ANY($1)",
  "SELECT * FROM customers WHERE email = $1",
];
export const HTTP_CALLS = [
  "GET https://payments.internal/v1/charges/:id",
  "POST https://tax.internal/quote",
  "GET https://geo.internal/lookup",
  "POST https://mailer.internal/send",
];

/** Span counts from 10 to 1000: most transactions are small, a few hit the SDK's 1000-span cap. */
export function spanCount(r) {
  const x = r.next();
  if (x < 0.55) return r.int(10, 30);
  if (x < 0.8) return r.int(31, 80);
  if (x < 0.93) return r.int(81, 250);
  if (x < 0.98) return r.int(251, 600);
  return 1000;
}

/** A target size for an error event, 2–50 KB, ~10 KB on average. */
export function errorTargetBytes(r) {
  const x = r.next();
  if (x < 0.7) return r.int(2_000, 6_000);
  if (x < 0.93) return r.int(6_000, 16_000);
  return r.int(16_000, 50_000);
}

/** A realistic breadcrumb (http, query, navigation, ui, console). */
export function breadcrumb(r, i) {
  const kind = r.int(0, 4);
  const ts = 1_700_000_000 + i;
  if (kind === 0)
    return {
      type: "http",
      category: "http",
      data: {
        method: r.pick(["GET", "POST", "PUT"]),
        url: `https://api.example.com${r
          .pick(ROUTES)
          .split(" ")[1]
          .replace(":id", String(r.int(1, 99999)))}`,
        status_code: r.pick([200, 200, 201, 204, 404, 500]),
      },
      timestamp: ts,
    };
  if (kind === 1)
    return { category: "query", message: r.pick(QUERIES), data: { duration_ms: r.int(1, 900), rows: r.int(0, 50) }, timestamp: ts };
  if (kind === 2)
    return { category: "navigation", data: { from: `/orders/${r.int(1, 9999)}`, to: `/checkout/${r.int(1, 9999)}` }, timestamp: ts };
  if (kind === 3) return { category: "ui.click", message: `div.checkout > button#pay-${r.int(1, 20)}.btn.btn-primary`, timestamp: ts };
  return {
    category: "console",
    level: r.pick(["info", "warning", "log"]),
    message: `cart ${r.int(1, 99999)} recalculated in ${r.int(1, 400)} ms (${r.int(1, 30)} items, coupon ${r.pick(["none", "SPRING", "VIP10"])})`,
    timestamp: ts,
  };
}

/** Application state a developer attaches as extra data, used to bring an event to its target size. */
export function stateChunk(r, i) {
  return {
    line: i,
    sku: `SKU-${r.int(10000, 99999)}`,
    name: `${r.pick(NOUNS)} ${r.pick(VERBS)} bundle`,
    quantity: r.int(1, 9),
    unit_price: r.int(100, 99999) / 100,
    note: "x".repeat(r.int(10, 120)),
  };
}
