// `npm run typecheck`: the panel's API types from the app's /openapi.json first (the panel's check
// reads them), then the server's and the panel's TypeScript projects at once: tsc checks on one
// core, and the two projects share nothing, so on two cores the second costs no wall time.
import { spawn } from 'node:child_process';

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const tsc = 'node_modules/.bin/tsc';
let status = await run(process.execPath, ['scripts/build.mjs', '--api-types']);
if (status === 0) {
  const codes = await Promise.all([run(tsc, ['--noEmit']), run(tsc, ['--noEmit', '-p', 'web'])]);
  status = codes.find((code) => code !== 0) ?? 0;
}
process.exit(status);
