import { Linter } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import webSeams from './no-cross-feature-imports.js';

/** The rule as eslint.config.js applies it, on a file at `path` (relative to the repo). */
function lint(path: string, code: string): string[] {
  const cwd = join(import.meta.dirname, '..');
  const linter = new Linter({ cwd });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
        plugins: { 'web-seams': webSeams },
        rules: { 'web-seams/no-cross-feature-imports': 'error' },
      },
    ],
    { filename: join(cwd, path) },
  );
  return messages.map((message) => message.message);
}

describe('web-seams/no-cross-feature-imports', () => {
  const file = 'web/src/features/items/components/Page.ts';

  it.each([
    ["import { x } from '../../home/components/HomePage';", 'home'],
    ["import x from '../../accounts/accountItems';", 'accounts'],
    ["export { x } from '../../sellers/api/sellers';", 'sellers'],
    ["export * from '../../profiles/hooks/useProfile';", 'profiles'],
    ["const page = () => import('../../errors/components/ErrorPage');", 'errors'],
  ])('reports %s', (code, target) => {
    const [message, ...rest] = lint(file, code);
    expect(rest).toEqual([]);
    expect(message).toContain(`Feature 'items' imports feature '${target}'`);
  });

  it.each([
    "import { x } from '../api/items';",
    "import { x } from './ItemGrid';",
    "import { x } from '../../../lib/paths';",
    "import { x } from '../../../components/VerifiedMark';",
    "import { x } from '@shared/switches';",
    "import { x } from 'react';",
    // Ends outside the features folder, however it is spelled.
    "import { x } from '../../../features';",
  ])('allows %s', (code) => {
    expect(lint(file, code)).toEqual([]);
  });

  it('leaves files outside web/src/features alone (the app composes features)', () => {
    const code = "import { x } from '../features/items/components/ItemPage';";
    expect(lint('web/src/app/routes.ts', code)).toEqual([]);
    expect(lint('web/src/lib/paths.ts', "import { x } from '../features/home/x';")).toEqual([]);
  });
});
