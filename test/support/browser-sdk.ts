import { build } from "esbuild";

let bundle: Promise<string> | undefined;

/** @sentry/browser as one script exposing `window.Sentry`, the way a page would load it. */
export function browserSdkBundle(): Promise<string> {
  bundle ??= build({
    stdin: { contents: 'import * as Sentry from "@sentry/browser"; window.Sentry = Sentry;', resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    format: "iife",
    minify: true,
    write: false,
    platform: "browser",
    logLevel: "silent",
  }).then((r) => r.outputFiles[0]!.text);
  return bundle;
}
