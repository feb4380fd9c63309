import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { scanScopes } from "./scope-scan";
import { astScopes, enclosingScope, indexScopes, type ScopeIndex } from "./scopes";

/** The name token of the function around the first `@` (removed) in `marked`, by the token scan. */
function nameAround(marked: string): string | null {
  const at = marked.indexOf("@");
  const source = marked.slice(0, at) + marked.slice(at + 1);
  const scopes = scanScopes(source);
  expect(scopes).not.toBeNull();
  const scope = enclosingScope({ scopes: scopes!, lineStarts: [0] }, at);
  if (!scope || scope.nameAt === null) return null;
  return /^#?[\w$]+/.exec(source.slice(scope.nameAt))![0];
}

describe("function scopes from tokens", () => {
  it.each([
    ["function named(a){return @a}", "named"],
    ["var f=function inner(){@}", "inner"],
    ["var f=function(){@}", "f"],
    ["o.handler=function(){@}", "handler"],
    ["x={key:function(){@}}", "key"],
    ["x={a:1,key:()=>{@}}", "key"],
    ["x={method(a){@}}", "method"],
    ["x={get size(){return @1}}", "size"],
    ["class K{static build(){@}}", "build"],
    ["class K{#secret(){@}}", "#secret"],
    ["class K{field=()=>@1}", "field"],
    ["const go=async()=>{await @x}", "go"],
    ["const go=async function(){@}", "go"],
    ["let add=a=>a+@1,b=2", "add"],
    ["let pair=(a,b)=>(a,@b)", "pair"],
    ["f(function(){@})", null],
    ['e.s(["Thrower",0,function(){@}])', null],
  ])("%s", (marked, name) => {
    expect(nameAround(marked)).toBe(name);
  });

  it("is not fooled by braces in strings, templates and regular expressions", () => {
    expect(nameAround("function outer(){var s='{',r=/}{/g,t=`${'}'}{`;function inner(){@}}")).toBe("inner");
    expect(nameAround("function outer(){var t=`a${(()=>1)()}b`;return @t}")).toBe("outer");
  });

  it("ends an expression-bodied arrow at the next comma or closing bracket of its level", () => {
    expect(nameAround("var a=x=>x+1,b=@2")).toBeNull();
    expect(nameAround("function host(){var a=x=>f(x,1);@}")).toBe("host");
  });

  it("gives up on what does not tokenize or does not balance", () => {
    expect(scanScopes("function(){")).toBeNull();
    expect(scanScopes("a = 'unterminated")).toBeNull();
  });

  it("names the functions of a real minified bundle as the syntax tree does", () => {
    const bundle = buildSync({
      stdin: { contents: 'import * as Sentry from "@sentry/browser"; globalThis.S = Sentry;', resolveDir: process.cwd() },
      bundle: true,
      minify: true,
      write: false,
      logLevel: "silent",
    }).outputFiles[0]!.text;
    const ast = astScopes(bundle)!;
    const scanned: ScopeIndex = { scopes: scanScopes(bundle)!, lineStarts: ast.lineStarts };
    let same = 0;
    let total = 0;
    for (let offset = 0; offset < bundle.length; offset += 97) {
      total++;
      if ((enclosingScope(ast, offset)?.nameAt ?? null) === (enclosingScope(scanned, offset)?.nameAt ?? null)) same++;
    }
    // The rest are boundaries (a method's name, before its parameters) and functions the scan
    // names by the variable an IIFE's result is assigned to.
    expect(same / total).toBeGreaterThan(0.97);
    expect(scanned.scopes.length).toBeGreaterThan(ast.scopes.length * 0.99);
  });

  it("is what indexScopes uses past the size a syntax tree is worth", () => {
    const big = `function first(){return 1}\n${"/*".padEnd(3 * 1024 * 1024, " ")}*/\nfunction last(){return 2}`;
    const index = indexScopes(big)!;
    expect(index.scopes.map((s) => /^\w+/.exec(big.slice(s.nameAt!))![0])).toEqual(["first", "last"]);
  });
});
