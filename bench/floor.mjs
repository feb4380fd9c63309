// The floor: the least a server must do per envelope — read the body, decompress it by its
// content-encoding, JSON-parse every line that parses, append the body to a file, answer 200
// once the write is handed to the OS. Telltale's ingest is measured against it, in the same
// run and with the same generator.   node bench/floor.mjs PORT FILE
import { createWriteStream } from "node:fs";
import { createServer } from "node:http";
import process from "node:process";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { setTimeout } from "node:timers";
import { Buffer } from "node:buffer";

const [portArg, file] = process.argv.slice(2);
const out = createWriteStream(file, { flags: "a" });

function decoded(req) {
  const encoding = (req.headers["content-encoding"] ?? "").toLowerCase();
  if (encoding === "gzip") return req.pipe(createGunzip());
  if (encoding === "deflate") return req.pipe(createInflate());
  if (encoding === "br") return req.pipe(createBrotliDecompress());
  return req;
}

function parseLines(body) {
  let parsed = 0;
  let start = 0;
  while (start < body.length) {
    let end = body.indexOf(10, start);
    if (end < 0) end = body.length;
    try {
      JSON.parse(body.toString("utf8", start, end));
      parsed++;
    } catch {
      // not JSON (an attachment, say): skipped
    }
    start = end + 1;
  }
  return parsed;
}

const server = createServer((req, res) => {
  const stream = decoded(req);
  const chunks = [];
  stream.on("data", (c) => chunks.push(c));
  stream.on("error", () => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end('{"detail":"bad body"}');
  });
  stream.on("end", () => {
    const body = Buffer.concat(chunks);
    parseLines(body);
    out.write(body, () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(portArg), "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
process.on("SIGTERM", () => {
  server.close();
  out.end(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
});
