import { readFileSync, writeFileSync } from 'node:fs';
import { httpRoutes } from '../../functions/routes';
import { withCallsSection } from '../../functions/system/index';

/** `npm run docs:api`: regenerates the call list of docs/api.md from the routes files. */
const file = new URL('../../docs/api.md', import.meta.url);
writeFileSync(file, withCallsSection(readFileSync(file, 'utf8'), httpRoutes));
console.log('docs/api.md: calls section regenerated');
