import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = (dir: string) => spawnSync(process.execPath, ['scripts/check-layers.mjs', dir], { cwd: ROOT, encoding: 'utf8' });

describe('the layer check (scripts/check-layers.mjs, run by npm run lint)', () => {
  it('reports a deliberately wrong import and a cycle between folders, and fails', () => {
    const run = check(path.join(ROOT, 'test/fixtures/layers'));
    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toContain('domain-imports-only-below: src/domain/pricing.ts → src/features/orders/orders.service.ts');
    expect(lines).toContain('no-file-cycles: src/readers/a/a.ts → src/readers/b/b.ts');
    expect(lines).toContain('folder-cycle: src/readers/a → src/readers/b → src/readers/a');
    expect(lines.at(-1)).toBe('3 structure problem(s): see docs/architecture.md for the layers and rules');
  });
});
