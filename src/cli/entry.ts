import { main } from "./main";

const code = await main(process.argv.slice(2));
// `serve` keeps running on its own handles; every other command ends here.
if (code !== 0 || process.argv[2] !== "serve") process.exitCode = code;
// A server that failed to start ends now, whatever handles its start left behind.
if (code !== 0 && process.argv[2] === "serve") process.exit(code);
