// Usage: node scripts/fix-lockfile.cjs package-lock.json (after any npm install that changes dependencies)
// Adds lock entries for optional platform packages the registry mirror lacks, so `npm ci` validates.
const fs = require("fs");
const file = process.argv[2];
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const pk = lock.packages;
let added = 0;
for (const [path, entry] of Object.entries(pk)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies || {})) {
    const base = path ? path + "/node_modules/" : "node_modules/";
    if (pk[base + name] || pk["node_modules/" + name]) continue;
    const parts = name.split("/").pop().split("-");
    const osMap = {
      darwin: "darwin",
      win32: "win32",
      linux: "linux",
      android: "android",
      freebsd: "freebsd",
      openbsd: "openbsd",
      openharmony: "openharmony",
      sunos: "sunos",
      netbsd: "netbsd",
      aix: "aix",
    };
    const cpus = ["arm64", "x64", "ia32", "arm", "loong64", "ppc64", "riscv64", "s390x", "mips64el"];
    const os = parts.find((p) => osMap[p]);
    const cpu =
      parts.find((p) => cpus.includes(p)) ||
      (parts.includes("eabi") || parts.includes("gnueabihf") || parts.includes("musleabihf") ? "arm" : undefined);
    if (!os || !cpu) {
      console.error("skip", name);
      continue;
    }
    const e = { version: spec.replace(/^[\^~=]/, ""), cpu: [cpu], os: [os], optional: true };
    if (parts.some((p) => p.startsWith("musl"))) e.libc = ["musl"];
    else if (os === "linux" && parts.some((p) => p.startsWith("gnu"))) e.libc = ["glibc"];
    if (entry.dev) e.dev = true;
    if (entry.license) e.license = entry.license;
    pk["node_modules/" + name] = e;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(pk).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log("added", added);
