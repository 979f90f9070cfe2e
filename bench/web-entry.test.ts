import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { entryGraph, staticImports, WEB_SRC } from '../infra/lib/web-graph';

/*
 * The first page of every visit downloads the entry's static import graph. The login library and
 * the form libraries load only with the pages and modals that use them (lazy chunks): a static
 * import of them anywhere in the shell would put them back into every visit.
 */
const LAZY_ONLY = [/^aws-amplify/, /^@aws-amplify\//, /^react-hook-form/, /^@hookform\//];

/*
 * zod and the shared schemas (which import it) are ~34 KiB gzip: the shell validates the answers
 * it reads (/api/config, the own profile) with schemas it loads with the call (api.ts
 * `SchemaSource`), so neither is in the entry.
 */
const VALIDATION = /^zod(\/|$)/;

describe('the web entry', () => {
  const graph = entryGraph();

  it('does not statically import Amplify or the form libraries', () => {
    const found = graph.packages
      .filter((name) => LAZY_ONLY.some((pattern) => pattern.test(name)))
      .map((name) => `${name} (imported by ${graph.importedBy[name]})`);
    expect(found).toEqual([]);
  });

  it('does not statically import zod or a schema that uses it', () => {
    const zod = graph.packages
      .filter((name) => VALIDATION.test(name))
      .map((name) => `${name} (imported by ${graph.importedBy[name]})`);
    expect(zod).toEqual([]);
    const schemas = graph.files
      .filter((file) => file.includes('shared/schemas/'))
      .map((file) => `${file} (imported by ${graph.importedBy[file]})`);
    expect(schemas).toEqual([]);
  });

  it('reaches no page, login step or form module statically', () => {
    const pages = graph.files.filter((file) =>
      /\/([A-Z]\w*Page|LoginSteps|LoginDialog|EditProfileModal|UserCardModal)\.tsx$/.test(file),
    );
    // ErrorPage is the shell's error boundary and 404 page.
    expect(pages).toEqual(['components/ErrorPage.tsx']);
  });

  it('reaches no popup, dialog or banner that a first visit does not show', () => {
    // lib/lazyOverlay.tsx loads these on demand (and preloads them once the page is idle).
    const overlays = graph.files.filter((file) =>
      /\/(AccountMenuPopup|LogoutDialog|ToastSnackbar|OfflineBanner|PermissionDialog)\.tsx$/.test(
        file,
      ),
    );
    expect(overlays).toEqual([]);
    expect(
      graph.packages.filter((name) =>
        /^@mui\/material\/(Menu|Snackbar|Alert|Dialog|Drawer|Modal)/.test(name),
      ),
    ).toEqual([]);
  });

  it('the entry runs only the early start (first calls, the page chunks) before the app arrives', () => {
    // Whatever main.tsx imports statically is downloaded and run before the first paint of every
    // visit: the fonts and app/earlyStart.ts with its dependency-free helpers, and the id of the
    // data a page rendered on request carries (lib/pageData.ts: its one import is a type).
    const entry = entryGraph(path.join(WEB_SRC, 'main.tsx'));
    expect(entry.files).toEqual([
      '../../shared/constants/limits.ts',
      '../../shared/profilePaths.ts',
      'app/earlyStart.ts',
      'features/sellers/sizes.ts',
      'lib/earlyCalls.ts',
      'lib/pageData.ts',
      'lib/storedSession.ts',
      'main.tsx',
    ]);
    expect(entry.packages.every((name) => name.startsWith('@fontsource-variable/'))).toBe(true);
  });

  it('still sees the shell (the graph is not empty by mistake)', () => {
    expect(graph.files).toContain('lib/authClient.ts');
    expect(graph.files).toContain('app/layouts/TopBar.tsx');
    expect(graph.packages).toContain('react-router');
  });
});

describe('staticImports', () => {
  it('keeps value imports and re-exports, skips type-only and dynamic imports', () => {
    const source = [
      "import a from 'kept-default';",
      "import { b, type C } from 'kept-named';",
      "import type { D } from 'type-only';",
      "import 'side-effect';",
      "export { e } from 'kept-reexport';",
      "export type { F } from 'type-reexport';",
      "const g = () => import('dynamic');",
    ].join('\n');
    expect(staticImports(source, 'x.ts')).toEqual([
      'kept-default',
      'kept-named',
      'side-effect',
      'kept-reexport',
    ]);
  });
});
