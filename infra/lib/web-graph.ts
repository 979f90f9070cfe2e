import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The static import graph of the app's shell (web/src/boot.tsx, which the entry main.tsx imports
 * on every visit): every module it reaches through imports that stay in the build (`import type`
 * and dynamic `import()` excluded), and the packages they import. What this graph holds is what
 * every visit downloads and runs before its page is live.
 */
export interface EntryGraph {
  /** Source files, relative to web/src (shared files as ../../shared/…). */
  files: string[];
  /** Bare specifiers imported, e.g. `@mui/material/Box`, `aws-amplify/auth`. */
  packages: string[];
  /** For each package or file: one module that imports it (to explain a finding). */
  importedBy: Record<string, string>;
}

export const WEB_SRC = path.resolve(import.meta.dirname, '..', '..', 'web', 'src');
const SHARED = path.resolve(import.meta.dirname, '..', '..', 'shared');
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

function resolveFile(from: string, specifier: string): string | null {
  const base = specifier.startsWith('@shared/')
    ? path.join(SHARED, specifier.slice('@shared/'.length))
    : path.resolve(path.dirname(from), specifier);
  if (/\.(tsx?|json|css)$/.test(base) && existsSync(base)) return base;
  for (const extension of EXTENSIONS) {
    if (existsSync(base + extension)) return base + extension;
  }
  return null;
}

/** The specifiers of a module's imports and re-exports that are kept in the build. */
export function staticImports(source: string, fileName: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) {
        specifiers.push(statement.moduleSpecifier.text);
      }
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly || !statement.moduleSpecifier) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) {
        specifiers.push(statement.moduleSpecifier.text);
      }
    }
  }
  return specifiers;
}

const relative = (file: string) => path.relative(WEB_SRC, file);

export function entryGraph(entry = path.join(WEB_SRC, 'boot.tsx')): EntryGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const importedBy: Record<string, string> = {};
  const queue = [entry];
  files.add(entry);
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (!/\.tsx?$/.test(file)) continue;
    for (const specifier of staticImports(readFileSync(file, 'utf8'), file)) {
      const local = specifier.startsWith('.') || specifier.startsWith('@shared/');
      if (!local) {
        if (!packages.has(specifier)) importedBy[specifier] = relative(file);
        packages.add(specifier);
        continue;
      }
      const target = resolveFile(file, specifier);
      if (!target) throw new Error(`${relative(file)}: cannot resolve ${specifier}`);
      if (files.has(target)) continue;
      files.add(target);
      importedBy[relative(target)] = relative(file);
      queue.push(target);
    }
  }
  return {
    files: [...files].map(relative).sort(),
    packages: [...packages].sort(),
    importedBy,
  };
}
