import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * A built page's first JavaScript, counted as a browser reads it: the entry script of the page's HTML
 * in dist/web, its module preloads, and every module those import statically, transitively (dynamic
 * imports load later, on demand, and are not counted). Used by the budget tests.
 */
const WEB = fileURLToPath(new URL('../../../dist/web', import.meta.url));

/** The page's first scripts: the module entries and preloads its HTML names. */
function firstScripts(html: string): string[] {
  const entries = [...html.matchAll(/<script type="module"[^>]*\ssrc="\/assets\/([^"]+\.js)"/g)];
  const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*\shref="\/assets\/([^"]+\.js)"/g)];
  return [...entries, ...preloads].map((match) => match[1] as string);
}

/** The files a built chunk imports statically (`import ... from "./x.js"`, `import "./x.js"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g)].map(
    (match) => match[1] as string,
  );
}

/** Every file of `htmlFile`'s first JavaScript (dist/web/`htmlFile`), by name. */
export function firstScriptClosure(htmlFile: string): Map<string, Buffer> {
  const html = readFileSync(path.join(WEB, htmlFile), 'utf8');
  const files = new Map<string, Buffer>();
  const queue = firstScripts(html);
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    const code = readFileSync(path.join(WEB, 'assets', file));
    files.set(file, code);
    queue.push(...staticImports(code.toString('utf8')));
  }
  return files;
}

/** Built files of dist/web/assets by name (what a page was seen to load), for `gzipTotal`. */
export function builtScripts(names: Iterable<string>): Map<string, Buffer> {
  return new Map([...names].map((name) => [name, readFileSync(path.join(WEB, 'assets', name))]));
}

/** The files' total gzip size in KB (level 9, as the build's precompressed copies), and a listing. */
export function gzipTotal(files: Map<string, Buffer>): { totalKb: number; listing: string } {
  const sizes = [...files].map(([name, code]) => ({ name, gzip: gzipSync(code, { level: 9 }).length }));
  const totalKb = sizes.reduce((sum, file) => sum + file.gzip, 0) / 1024;
  const listing = sizes
    .sort((a, b) => b.gzip - a.gzip)
    .map((file) => `${file.name} ${(file.gzip / 1024).toFixed(1)} KB`)
    .join(', ');
  return { totalKb, listing };
}
