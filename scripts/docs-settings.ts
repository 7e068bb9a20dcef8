// `npm run docs:settings`: writes the configuration tables of README.md and docs/operations.md from
// the modules' settings fragments (src/settings-docs.ts); src/settings-docs.unit.test.ts fails when
// either differs from what the fragments say.
import { writeDocuments } from '../src/settings-docs.js';

await writeDocuments();
console.log('settings tables written to README.md and docs/operations.md');
