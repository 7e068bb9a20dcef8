import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { expect, it } from 'vitest';
import { ROOT } from './server-process.js';

/**
 * `npm ci` warns (EBADENGINE) for every installed package whose `engines.node` the running Node
 * does not satisfy, and a package that needs a newer Node may not even load (cookie 2 and
 * content-disposition 3 are ES modules, which `require` loads only from Node 20.19). The lock file
 * records each package's `engines`, so the check needs no install.
 */

interface LockedPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockedPackage>;
};

/** Packages of the lock file, by their path, whose `engines.node` refuses `node`. */
function refusing(node: string, include: (entry: LockedPackage) => boolean): Record<string, string> {
  const refused: Record<string, string> = {};
  for (const [where, entry] of Object.entries(lock.packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (where === '' || !include(entry) || range === undefined) continue;
    if (!semver.satisfies(node, range)) refused[`${where}@${entry.version}`] = range;
  }
  return refused;
}

it('every package the server runs on accepts the oldest Node that package.json allows (20.19: Vite builds the panel at start)', () => {
  const oldest = semver.minVersion(manifest.engines.node)!.version;
  expect(oldest).toBe('20.19.0');
  expect(refusing(oldest, (entry) => entry.dev !== true)).toEqual({});
});

it('the packages pinned for Node 20 stay pinned: @fastify/static and light-my-request get the older, CommonJS versions', () => {
  const copies = (name: string) =>
    Object.entries(lock.packages)
      .filter(([where]) => where.endsWith(`node_modules/${name}`))
      .map(([where, entry]) => ({ where, version: entry.version }));
  expect(copies('content-disposition')).toEqual([
    { where: 'node_modules/@fastify/static/node_modules/content-disposition', version: '2.0.1' },
  ]);
  expect(copies('cookie')).toEqual([{ where: 'node_modules/light-my-request/node_modules/cookie', version: '1.1.1' }]);
});

it('every package, the test and build tools included, accepts Node 20.19 (the development minimum, docs/development.md)', () => {
  expect(refusing('20.19.0', () => true)).toEqual({});
});
