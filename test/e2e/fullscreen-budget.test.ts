import { beforeAll, describe, expect, it } from 'vitest';
import { firstScriptClosure, gzipTotal } from './support/firstScripts';
import { ensureWebBuild } from './support/server';

/**
 * The full-screen point page's first JavaScript (issue 20's Lighthouse item): what the browser must
 * fetch and run before the page is taken over, counted from the built page as a browser reads it —
 * the entry script of dist/web/fullscreen.html, its module preloads, and every module those import
 * statically, transitively (dynamic imports load later, on demand, and are not counted).
 *
 * Measured when the budget was set (27 November 2026): 15 files, 365 KB, 114.3 KB gzip (React and
 * react-dom 66 KB of it, zod 25 KB for the address rules); before, 16 files, 1,125 KB, 245 KB gzip,
 * 142 KB of it the `opening_hours` library and its holiday tables. The budget leaves 10% for growth.
 */
const FIRST_SCRIPT_BUDGET_GZIP_KB = 125;

describe("the full-screen page's first JavaScript", () => {
  let files: Map<string, Buffer>;

  beforeAll(() => {
    ensureWebBuild();
    files = firstScriptClosure('fullscreen.html');
  });

  it('given the built page, when its static imports are followed, then they reach React and the page', () => {
    // the walk itself: an import syntax it failed to read would count too little and pass any budget
    const names = [...files.keys()];
    expect(names.some((name) => name.startsWith('fullscreen-'))).toBe(true);
    expect(names.some((name) => name.startsWith('react-'))).toBe(true);
    expect(names.some((name) => name.startsWith('FullScreenPoint-'))).toBe(true);
  });

  it(`given the built page, then its first JavaScript is at most ${FIRST_SCRIPT_BUDGET_GZIP_KB} KB gzipped`, () => {
    const { totalKb, listing } = gzipTotal(files);
    expect(totalKb, `first JavaScript ${totalKb.toFixed(1)} KB gzip: ${listing}`).toBeLessThanOrEqual(
      FIRST_SCRIPT_BUDGET_GZIP_KB,
    );
  });

  it('given the built page, then neither the opening_hours library nor the site editor is in it', () => {
    for (const [name, code] of files) {
      const text = code.toString('utf8');
      // the library's holiday tables (a German public holiday's name)
      expect(text, name).not.toContain('Karfreitag');
      // the site editor's switch, which only those who control the point load
      expect(text, name).not.toContain('Shown on the site');
    }
  });
});
