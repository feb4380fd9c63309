/**
 * Event payloads as real SDKs sent them: @sentry/node 11.1.0 in an
 * http handler, @sentry/browser 11.1.0 in Chromium, and sentry-python 1.9.10 (Debian) under WSGI
 * with the logging integration. Trimmed for length only. SDK 11 filters cookies, the
 * Authorization header and `token=` itself; here the raw values are put back, as an SDK with
 * client-side filtering off (or an older one) sends them, so server-side scrubbing is tested.
 * Each export builds a fresh object, so a test may mutate what it gets.
 */

/** When the tests' server "received" these events: a few ms after their timestamps. */
export const RECEIVED_AT = new Date("2026-11-22T07:09:40.000Z");
export const RECEIVED_SECONDS = RECEIVED_AT.getTime() / 1000;

export function nodeHttpEvent(): Record<string, unknown> {
  return {
    exception: {
      values: [
        {
          type: "SyntaxError",
          value: "Expected property name or '}' in JSON at position 1",
          stacktrace: {
            frames: [
              { filename: "node:events", module: "node:events", function: "Server.emit", lineno: 524, colno: 28, in_app: false },
              {
                filename: "/srv/shop/server.mjs",
                module: "server",
                function: "Server.?",
                lineno: 8,
                colno: 14,
                in_app: true,
                pre_context: [
                  "const server = http.createServer((req, res) => {",
                  '  Sentry.addBreadcrumb({ message: "loading cart", level: "info", category: "app" });',
                ],
                context_line: '  try { JSON.parse("{oops"); } catch (e) { Sentry.captureException(e); }',
                post_context: ['  res.end("ok");', "});"],
              },
              { filename: "<anonymous>", module: "<anonymous>", function: "JSON.parse", in_app: false },
            ],
          },
          mechanism: { type: "generic", handled: true },
        },
      ],
    },
    event_id: "b75e73bdd6f34fb0aba4b1edb3e801ba",
    level: "error",
    platform: "node",
    contexts: {
      trace: { parent_span_id: "9f7166585cb983af", span_id: "b3879fdd786f81e6", trace_id: "d1263b091139478e97fc3508a8db4981" },
      runtime: { name: "node", version: "v20.20.2" },
      app: { app_start_time: "2026-11-22T07:08:58.740Z", app_memory: 114278400, free_memory: 24275136512 },
      os: { kernel_version: "6.18.44-fc-v669", name: "Debian", version: "12.11\n" },
      device: { arch: "x64", memory_size: 25276502016, processor_count: 2, cpu_description: "AMD EPYC" },
      culture: { locale: "en-US", timezone: "UTC" },
      cloud_resource: {},
    },
    server_name: "vm",
    timestamp: 1795331379.614,
    environment: "production",
    release: "shop@1.4.2",
    sdk: {
      integrations: ["EventFilters", "FunctionToString", "LinkedErrors", "RequestData", "Http"],
      name: "sentry.javascript.node",
      version: "11.1.0",
      packages: [{ name: "npm:@sentry/node", version: "11.1.0" }],
    },
    transaction: "POST /checkout",
    breadcrumbs: [{ timestamp: 1795331379.598, message: "loading cart", level: "info", category: "app" }],
    request: {
      headers: {
        host: "127.0.0.1:35741",
        connection: "keep-alive",
        cookie: "sessionid=s3cr3t; theme=dark",
        authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl",
        "content-type": "application/json",
        accept: "*/*",
        "user-agent": "node",
        "sentry-trace": "d1263b091139478e97fc3508a8db4981-9f7166585cb983af-1",
        baggage:
          "sentry-environment=production,sentry-release=shop%401.4.2,sentry-public_key=abc,sentry-trace_id=d1263b091139478e97fc3508a8db4981",
        "content-length": "46",
      },
      method: "POST",
      url: "http://127.0.0.1:35741/checkout?step=2&token=abc123",
      cookies: { sessionid: "s3cr3t", theme: "dark" },
      query_string: "step=2&token=abc123",
      data: '{"card":"4111 1111 1111 1111","password":"pw","qty":2}',
    },
    user: { id: "42", email: "ada@example.com", ip_address: "::ffff:127.0.0.1" },
    tags: { feature: "checkout" },
    extra: { order: { id: 1234, password: "hunter2" } },
    modules: {},
  };
}

export function browserEvent(): Record<string, unknown> {
  return {
    exception: {
      values: [
        {
          type: "TypeError",
          value: "Cannot read properties of undefined (reading 'items')",
          stacktrace: {
            frames: [{ filename: "http://localhost:44541/bundle.js", function: "?", in_app: true, lineno: 7197, colno: 14 }],
          },
          mechanism: { type: "auto.browser.browserapierrors.setTimeout", handled: false },
        },
      ],
    },
    level: "error",
    event_id: "47598c7c7e4f4259a93e3d107b58302d",
    platform: "javascript",
    request: {
      url: "http://localhost:44541/shop?ref=mail",
      headers: {
        "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36",
      },
    },
    contexts: {
      trace: { trace_id: "93a8e2600ecf42398677ab283400ea25", span_id: "877135cabb6f42cf" },
      culture: { locale: "en-US", timezone: "UTC", calendar: "gregory" },
    },
    timestamp: 1795331371.943,
    environment: "production",
    release: "web@3.1.0",
    sdk: {
      integrations: [
        "EventFilters",
        "FunctionToString",
        "BrowserApiErrors",
        "Breadcrumbs",
        "GlobalHandlers",
        "LinkedErrors",
        "Dedupe",
        "HttpContext",
      ],
      name: "sentry.javascript.browser",
      version: "11.1.0",
      packages: [{ name: "npm:@sentry/browser", version: "11.1.0" }],
      settings: { infer_ip: "auto" },
    },
    user: { id: "u-9", email: "grace@example.com" },
    breadcrumbs: [
      { timestamp: 1795331371.9, category: "ui.click", message: "body > button#buy" },
      {
        timestamp: 1795331371.9,
        category: "console",
        data: { arguments: ["about to buy", { sku: "X-1" }], logger: "console" },
        level: "warning",
        message: "about to buy [object Object]",
      },
      {
        timestamp: 1795331371.91,
        type: "http",
        category: "fetch",
        data: { method: "GET", url: "https://api.example.com/cart?access_token=tok_live_abc", status_code: 200 },
      },
    ],
    extra: { arguments: [] },
  };
}

/** sentry-python 1.9.10, logging integration: `logger.error("charging %s for %d items", …)`. */
export function pythonLogEvent(): Record<string, unknown> {
  return {
    level: "error",
    logger: "billing",
    logentry: { message: "charging %s for %d items", params: ["acct-7", 3] },
    extra: { "sys.argv": ["py-capture.py"] },
    event_id: "af6a9e7b24a743c2b18daf3eac54640a",
    timestamp: "2026-11-22T07:09:19.785305Z",
    breadcrumbs: { values: [] },
    transaction_info: {},
    contexts: { runtime: { name: "CPython", version: "3.11.2", build: "3.11.2 (main, Apr 28 2025, 14:11:48) [GCC 12.2.0]" } },
    release: "billing@2.0.0",
    environment: "prod",
    server_name: "vm",
    platform: "python",
  };
}

/** sentry-python 1.9.10 under SentryWsgiMiddleware: an unhandled ZeroDivisionError. */
export function pythonWsgiEvent(): Record<string, unknown> {
  return {
    level: "error",
    exception: {
      values: [
        {
          module: null,
          type: "ZeroDivisionError",
          value: "division by zero",
          mechanism: { type: "wsgi", handled: false },
          stacktrace: {
            frames: [
              {
                filename: "app.py",
                abs_path: "/srv/billing/app.py",
                function: "app",
                module: "__main__",
                lineno: 12,
                pre_context: ["def app(environ, start_response):", '    logging.getLogger("billing").info("start charge")'],
                context_line: '    charge("acct-7", "sk_live_123", 10)',
                post_context: ['    start_response("200 OK", [])', '    return [b"ok"]'],
                vars: {
                  environ: {
                    SERVER_NAME: "'127.0.0.1'",
                    REQUEST_METHOD: "'POST'",
                    PATH_INFO: "'/charge'",
                    HTTP_COOKIE: "'sessionid=abc; csrftoken=def; lang=en'",
                    HTTP_AUTHORIZATION: "'Basic dXNlcjpwYXNz'",
                  },
                  start_response: "functools.partial(<function _sentry_start_response at 0x7fc1afa82660>)",
                },
                in_app: true,
              },
              {
                filename: "app.py",
                abs_path: "/srv/billing/app.py",
                function: "charge",
                module: "__main__",
                lineno: 7,
                context_line: "    ratio = amount / 0",
                vars: { account: "'acct-7'", api_key: "'sk_live_123'", amount: "10" },
                in_app: true,
              },
            ],
          },
        },
      ],
    },
    event_id: "9048f7e516ba4cc2aafe17a5c5f3a32b",
    timestamp: "2026-11-22T07:09:19.838516Z",
    breadcrumbs: {
      values: [
        { type: "log", level: "info", category: "billing", message: "start charge", timestamp: "2026-11-22T07:09:19.838319Z", data: {} },
      ],
    },
    transaction: "generic WSGI request",
    transaction_info: {},
    contexts: {
      trace: {
        trace_id: "fd53dd1dd4ba4a84b75ff9de7a9c00f7",
        span_id: "8304647c3df23d41",
        parent_span_id: null,
        op: "http.server",
        description: null,
      },
      runtime: { name: "CPython", version: "3.11.2" },
    },
    extra: { "sys.argv": ["app.py"] },
    request: {
      url: "http://127.0.0.1/charge",
      query_string: "debug=1&access_token=xyz",
      method: "POST",
      env: { SERVER_NAME: "127.0.0.1", SERVER_PORT: "80", REMOTE_ADDR: "198.51.100.23" },
      headers: {
        Host: "127.0.0.1",
        Cookie: "sessionid=abc; csrftoken=def; lang=en",
        Authorization: "Basic dXNlcjpwYXNz",
        "Content-Type": "application/json",
        "Content-Length": "53",
        "X-Forwarded-For": "198.51.100.23, 10.0.0.1",
      },
      data: { card_number: "4242424242424242", password: "pw", note: "ship fast" },
    },
    user: { ip_address: "198.51.100.23" },
    release: "billing@2.0.0",
    environment: "prod",
    server_name: "vm",
    sdk: {
      name: "sentry.python",
      version: "1.9.10",
      packages: [{ name: "pypi:sentry-sdk", version: "1.9.10" }],
      integrations: ["argv", "atexit", "dedupe", "excepthook", "logging", "modules", "stdlib", "threading"],
    },
    platform: "python",
    modules: { certifi: "2022.9.24", cryptography: "38.0.4", urllib3: "1.26.12" },
    _meta: { exception: { values: { "0": { stacktrace: { frames: { "0": { vars: { environ: { "": { len: 21 } } } } } } } } } },
  };
}

/** A transaction as older JS SDKs and other languages send it (newer JS sends span v2 items). */
export function transactionEvent(spanCount: number): Record<string, unknown> {
  const start = RECEIVED_SECONDS - 10;
  const spans = [];
  for (let i = 0; i < spanCount; i++) {
    spans.push({
      span_id: (0x1000000000000000n + BigInt(i)).toString(16),
      parent_span_id: "a1b2c3d4e5f60718",
      trace_id: "0af7651916cd43dd8448eb211c80319c",
      op: "db.query",
      description: `SELECT * FROM orders WHERE id = ${i}`,
      start_timestamp: start + i * 0.001,
      timestamp: start + i * 0.001 + 0.0005,
      status: "ok",
      origin: "auto.db.pg",
      data: { "db.system": "postgresql" },
    });
  }
  return {
    type: "transaction",
    event_id: "0123456789abcdef0123456789abcdef",
    platform: "node",
    transaction: "GET /orders",
    transaction_info: { source: "route" },
    start_timestamp: start,
    timestamp: start + 5,
    contexts: { trace: { trace_id: "0af7651916cd43dd8448eb211c80319c", span_id: "a1b2c3d4e5f60718", op: "http.server", status: "ok" } },
    spans,
    measurements: { LCP: { value: 1234.5, unit: "millisecond" } },
  };
}
