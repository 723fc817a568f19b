import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHECK_FILE = path.join(REPO_ROOT, '__schema_org_check__.ts');

/**
 * Checks JSON-LD documents against schema.org's vocabulary: schema-dts is schema.org's types and
 * properties as TypeScript, so a document, written as a literal of `WithContext<Thing>`, type-checks
 * exactly when every `@type` is a schema.org type and every property is one that type has, with a
 * value of a kind it allows. Returns the compiler's complaints for each document; none means it is
 * valid. One compilation checks them all (each takes seconds: the vocabulary is large).
 */
export function schemaOrgProblems(documents: readonly unknown[]): string[][] {
  const declarations = documents.map(
    (document, i) => `export const document${i}: WithContext<Thing> = ${JSON.stringify(document)};\n`,
  );
  const source = "import type { Thing, WithContext } from 'schema-dts';\n" + declarations.join('');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === CHECK_FILE ? source : readFile(file));
  host.fileExists = (file) => file === CHECK_FILE || ts.sys.fileExists(file);
  host.getSourceFile = (file, language, onError, create) =>
    file === CHECK_FILE
      ? ts.createSourceFile(file, source, language, true)
      : getSourceFile(file, language, onError, create);
  const program = ts.createProgram([CHECK_FILE], options, host);
  const problems = documents.map((): string[] => []);
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    // line 0 is the import; document i is on line i + 1
    const line =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line
        : 0;
    const target = problems[line - 1];
    if (target) target.push(text);
    else throw new Error(`schema.org check: ${text}`);
  }
  return problems;
}

/** The JSON-LD documents of an HTML page, parsed. */
export function jsonLdOf(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? 'null') as unknown,
  );
}
