// The structure rules of src/ (docs/architecture.md), checked by `npm run lint` and CI:
//   1. the import rules of .dependency-cruiser.cjs: each layer imports only the layers below it,
//      features and consumers stay apart, the domain does no I/O, no file imports itself back;
//   2. no import cycle between folders (a folder is every file directly in it);
//   3. no file in src/ over 400 lines, as Biome formats it (tests are not rooms of the house: they
//      sit beside the code and are held to no cap).
// Usage: node scripts/check-layers.mjs [DIR]  (DIR holds src/ and tsconfig.json; default: here).
// Exit code 1 and one line per problem when any rule is broken.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG = path.join(REPO, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
export const MAX_LINES = 400;
const TEST = /[.]test[.]ts$/;

/** Every problem found under `dir`, one readable line each; none when the structure holds. */
export function checkLayers(dir = REPO) {
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`dependency-cruiser failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout);
  const problems = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  problems.push(...folderCycles(result.modules).map((cycle) => `folder-cycle: ${cycle.join(' → ')} → ${cycle[0]}`));
  for (const module of result.modules) {
    if (!module.source.startsWith('src/') || TEST.test(module.source)) continue;
    const lines = readFileSync(path.join(dir, module.source), 'utf8').split('\n').length - 1;
    if (lines > MAX_LINES) problems.push(`file-too-long: ${module.source} has ${lines} lines (at most ${MAX_LINES})`);
  }
  return problems;
}

/** Strongly connected groups of folders (Tarjan), each a cycle of imports between folders. */
function folderCycles(modules) {
  const edges = new Map();
  for (const module of modules) {
    // Tests build the whole app (composition), so they import every layer: they are not rooms of the house.
    if (!module.source.startsWith('src/') || TEST.test(module.source)) continue;
    const from = path.posix.dirname(module.source);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith('src/')) continue;
      const to = path.posix.dirname(dependency.resolved);
      if (to !== from) edges.get(from).add(to);
    }
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkLayers(path.resolve(process.argv[2] ?? REPO));
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} structure problem(s): see docs/architecture.md for the layers and rules`);
    process.exit(1);
  }
  console.log('layers: every import runs down a layer, no folder cycle, no file in src/ (tests aside) over 400 lines');
}
