import { dirname, relative, resolve, sep } from 'node:path';

/**
 * Web features do not import each other (DESIGN §3): what two features share lives in
 * web/src/components or web/src/lib, and the app (web/src/app) composes features. The rule
 * resolves every relative import, re-export and dynamic import of a file under
 * web/src/features/<name>/ and reports those that land in another feature's folder.
 */
const FEATURES = ['web', 'src', 'features'];

/** 'web/src/features/items/components/X.tsx' → 'items'; outside the features folder → null. */
function featureOf(file, root) {
  const parts = relative(root, file).split(sep);
  const inside = FEATURES.every((part, index) => parts[index] === part);
  return inside && parts.length > FEATURES.length + 1 ? parts[FEATURES.length] : null;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid imports between web features (web/src/features/<name>/).' },
    schema: [],
    messages: {
      crossFeature:
        "Feature '{{from}}' imports feature '{{to}}' ('{{source}}'). Features do not import each " +
        'other: move the shared piece to web/src/components or web/src/lib, or compose the two in ' +
        'web/src/app.',
    },
  },
  create(context) {
    const root = context.cwd;
    const from = featureOf(context.filename, root);
    if (from === null) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const to = featureOf(resolve(dirname(context.filename), source.value), root);
      if (to !== null && to !== from) {
        context.report({
          node: source,
          messageId: 'crossFeature',
          data: { from, to, source: source.value },
        });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'no-cross-feature-imports': rule } };
