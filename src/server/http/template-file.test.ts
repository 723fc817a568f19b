import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TemplateFile } from './template-file';

describe('TemplateFile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xpoint-template-'));
  const file = path.join(dir, 'page.html');
  afterEach(() => fs.rmSync(file, { force: true }));

  it('answers null while the page is not built', () => {
    expect(new TemplateFile(file).read()).toBeNull();
  });

  it('reads the built page, and the new one after a rebuild replaced it', () => {
    fs.writeFileSync(file, '<script src="/assets/index-aaaa.js"></script>');
    const template = new TemplateFile(file);
    expect(template.read()).toBe('<script src="/assets/index-aaaa.js"></script>');
    // a rebuild writes new asset names; an older mtime proves the change is seen by more than the clock
    fs.writeFileSync(file, '<script src="/assets/index-bbbbbb.js"></script>');
    fs.utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(template.read()).toBe('<script src="/assets/index-bbbbbb.js"></script>');
    fs.rmSync(file);
    expect(template.read()).toBeNull();
  });
});
