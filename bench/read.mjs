// The read path: load many events over many issues through the real ingest and digest (the
// corpus's errors, each moved into one of ~10k issues by renaming its crashing function or
// suffixing its message), wait until all are digested, then time the pages and the API
// sequentially on loopback. An endpoint that answers 404 is reported as not available.
import { request, Agent } from "node:http";
import { log, percentile, prng, sleep } from "./util.mjs";
import { runLoad } from "./load.mjs";
import { openDb, storedEvents, waitDrained } from "./servers.mjs";
import { prepare, schedule } from "./template.mjs";
import { performance } from "node:perf_hooks";

function timedGet(agent, port, path, headers) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const req = request({ host: "127.0.0.1", port, path, headers, agent, timeout: 60_000 }, (res) => {
      let bytes = 0;
      res.on("data", (c) => (bytes += c.length));
      res.on("end", () => resolve({ status: res.statusCode, ms: performance.now() - t0, bytes }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e) => resolve({ status: 0, ms: performance.now() - t0, bytes: 0, error: e.message }));
    req.end();
  });
}

/** Sends `events` varied errors; returns the load result and how many issues exist after digest. */
export async function bulkLoad({ server, target, corpus, ids, seq, events, issues, connections, maxMs, drainMs }) {
  const t = { host: "127.0.0.1", port: server.port, projectId: target.projectId, publicKey: target.publicKey };
  // Uncompressed: bulk loading measures nothing about gzip, and the variation changes lengths.
  const templates = corpus
    .filter((e) => e.kind === "error")
    .map((e) => prepare(e, t, { identity: true, vary: true }))
    .filter(Boolean);
  const order = schedule(templates, prng(11).next, 50_000);
  // Issue variants per group, so that groups × variants ≈ the issue target (the two captures
  // of a template share a crashing function, hence a group); low variants get more events —
  // a few loud issues, a long tail of quiet ones.
  const groups = new Set(templates.map((t) => `${t.sdk} ${t.variation.needle}`)).size;
  const variants = Math.max(1, Math.ceil(issues / groups));
  const variantOf = (n) => {
    const x = ((Math.imul(n, 2654435761) >>> 0) % 1_000_003) / 1_000_003;
    return Math.floor(variants * x * x);
  };
  log(`read path: loading ${events} events over ~${groups * variants} issues (${groups} groups × ${variants} variants)`);
  const db = await openDb(target);
  try {
    const startN = seq.peek();
    const result = await runLoad({
      port: server.port,
      templates,
      order,
      ids,
      startN,
      variantOf,
      connections,
      durationMs: maxMs,
      maxRequests: events,
      untilAccepted: true,
      onProgress: (p) => {
        if (Math.round(p.seconds) % 15 === 0) log(`  bulk load: ${p.okRequests} accepted after ${p.seconds.toFixed(0)} s`);
      },
    });
    seq.take(result.sent + 64);
    log(`read path: ${result.okRequests} accepted in ${result.seconds.toFixed(0)} s; waiting for digest…`);
    const t0 = performance.now();
    const drained = await waitDrained(db, { timeoutMs: drainMs, pid: server.pid });
    const stored = await storedEvents(db);
    const issueCount = await db.scalar("SELECT count(*) FROM issues");
    const groupedEvents = await db.scalar("SELECT count(*) FROM events WHERE issue_id IS NOT NULL");
    const bytes = await db.bytes();
    const queueBytes = (await db.queueBytes?.()) ?? 0;
    return {
      queueBytes,
      accepted: result.okRequests,
      acceptSeconds: result.seconds,
      digestWaitSeconds: (performance.now() - t0) / 1000,
      drained: drained.drainedAt !== null,
      storedEvents: stored,
      groupedEvents,
      issues: issueCount,
      bytes,
      statuses: result.statuses,
    };
  } finally {
    await db.close();
  }
}

/** Times each endpoint `repeat` times after two warm-up requests; p50/p95 of the server's answer. */
export async function measureEndpoints({ server, target, repeat }) {
  const db = await openDb(target);
  let cookie;
  let issueIds;
  try {
    cookie = `telltale_session=${await db.session(target.email)}`;
    // The loudest issues and some from the tail: issue pages differ by how many events they hold.
    const loud = await db.scalar("SELECT id FROM issues ORDER BY times_seen DESC LIMIT 1");
    const any = await db.scalar("SELECT max(id) FROM issues");
    issueIds = [loud, any, Math.max(1, Math.floor(any / 2))].filter((id) => id > 0);
  } finally {
    await db.close();
  }
  const page = { cookie };
  const api = { authorization: `Bearer ${target.apiToken}` };
  const { org, project } = target;
  const search = encodeURIComponent("is:unresolved level:error");
  const endpoints = [
    { name: "issue stream page", path: () => `/orgs/${org}/issues?project=${project}`, headers: page },
    { name: "issue stream page, search", path: () => `/orgs/${org}/issues?project=${project}&query=${search}`, headers: page },
    { name: "issue page", path: (i) => (issueIds.length ? `/orgs/${org}/issues/${issueIds[i % issueIds.length]}` : null), headers: page },
    { name: "API issue list", path: () => `/api/0/projects/${org}/${project}/issues/`, headers: api },
    { name: "API issue list, search", path: () => `/api/0/projects/${org}/${project}/issues/?query=${search}`, headers: api },
  ];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const results = [];
  try {
    for (const e of endpoints) {
      if (e.path(0) === null) {
        results.push({ name: e.name, available: false, note: "no issues to open (events are not grouped yet)" });
        continue;
      }
      const first = await timedGet(agent, server.port, e.path(0), e.headers);
      if (first.status === 404 || first.status === 0) {
        results.push({ name: e.name, path: e.path(0), available: false, note: first.status === 404 ? "not available (404)" : "no answer" });
        continue;
      }
      await timedGet(agent, server.port, e.path(1), e.headers);
      const times = [];
      const statuses = {};
      let bytes = 0;
      for (let i = 0; i < repeat; i++) {
        const r = await timedGet(agent, server.port, e.path(i), e.headers);
        times.push(r.ms);
        bytes += r.bytes;
        statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      }
      times.sort((a, b) => a - b);
      const ok = Object.keys(statuses).every((s) => s === "200");
      results.push({
        name: e.name,
        path: e.path(0),
        available: true,
        ok,
        statuses,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        avgBytes: Math.round(bytes / repeat),
        n: repeat,
      });
      log(
        `  ${e.name}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms ${ok ? "" : JSON.stringify(statuses)}`,
      );
      await sleep(100);
    }
  } finally {
    agent.destroy();
  }
  return results;
}
