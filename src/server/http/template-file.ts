import fs from 'node:fs';

/**
 * A page template the web build writes (dist/web/*.html), read from disk once and again only when a
 * rebuild replaced it (its modification time or size changed), so a server left running picks up new
 * asset names without reading the file on every request. Reading it each time was about 5% of a
 * `/cads/{city}` render's CPU (open, read, close and decoding, `bench:pages`); a stat is one system
 * call of a few microseconds.
 */
export class TemplateFile {
  private cached: { mtimeMs: number; size: number; text: string } | null = null;

  constructor(readonly file: string) {}

  /** The template's text, or null when it is not built. */
  read(): string | null {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      this.cached = null;
      return null;
    }
    const cached = this.cached;
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.text;
    const text = fs.readFileSync(this.file, 'utf8');
    this.cached = { mtimeMs: stat.mtimeMs, size: stat.size, text };
    return text;
  }
}
