// `npm run docs:errors`: writes docs/errors.md from the modules' error catalogues (src/error-codes.ts);
// src/error-codes.unit.test.ts fails when it differs from what the catalogues say.
import { writeErrorsDocument } from '../src/error-codes.js';

await writeErrorsDocument();
console.log('docs/errors.md written');
