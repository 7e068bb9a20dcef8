// The structure rules of src/ (docs/architecture.md), checked by `npm run lint` and CI:
//   1. the import rules of .dependency-cruiser.cjs: each layer imports only the layers below it,
//      features and consumers stay apart, the domain does no I/O, no file imports itself back;
//   2. no import cycle between folders (a folder is every file directly in it);
//   3. no file in src/ over 400 lines, as Biome formats it (tests are not rooms of the house: they
//      sit beside the code and are held to no cap);
//   4. every file in src/ is in a layer (`no-layer`): a file directly in src/ is composition only
//      when .dependency-cruiser.cjs lists it by name;
//   5. only the files of ENV_READERS read process.env (`process-env-outside-settings`): a text scan,
//      comments aside.
// Usage: node scripts/check-layers.mjs [DIR]  (DIR holds src/ and tsconfig.json; default: here).
// Exit code 1 and one line per problem when any rule is broken.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG = path.join(REPO, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
export const MAX_LINES = 400;
const TEST = /[.]test[.]ts$/;
const LAYERS = createRequire(import.meta.url)(CONFIG).layers;

/**
 * The files that may read process.env, each with its reason. Settings fragments do not: they
 * declare their variables and are handed the environment src/settings.ts read (docs/architecture.md,
 * "Settings"), so tests set any of it with one call.
 */
export const ENV_READERS = {
  'src/settings.ts':
    'the assembly of the settings fragments (loadSettings), and the process concerns no setting is: the cluster slot the primary gives each process it forks, INIT_CWD (where npm was started) and the environment a child process (psql) inherits',
};

/** The checks this script makes itself, beside the rules of .dependency-cruiser.cjs. */
export const SCRIPT_RULES = ['folder-cycle', 'file-too-long', 'no-layer', 'process-env-outside-settings'];

const ENV_READ = [
  /\bprocess\s*(\?\.|\.)\s*env\b/, // process.env, process?.env
  /\bprocess\s*\[\s*['"`]env['"`]\s*\]/, // process['env']
  /\benv\b[^;]*\bfrom\s*['"](node:)?process['"]/, // import { env } from 'node:process'
  /\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/, // const { env } = process
];

/** The text without its comments: block comments, and line comments that are not in a URL. */
const withoutComments = (text) =>
  text
    .replace(/\/[*][\s\S]*?[*]\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

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
    const text = readFileSync(path.join(dir, module.source), 'utf8');
    const lines = text.split('\n').length - 1;
    if (lines > MAX_LINES) problems.push(`file-too-long: ${module.source} has ${lines} lines (at most ${MAX_LINES})`);
    if (!LAYERS.some((layer) => new RegExp(layer.path).test(module.source))) {
      problems.push(
        `no-layer: ${module.source} is in no layer (a file directly in src/ is listed in COMPOSITION of .dependency-cruiser.cjs; a new folder gets its layer)`,
      );
    }
    if (!Object.hasOwn(ENV_READERS, module.source)) {
      const code = withoutComments(text);
      const at = Math.min(...ENV_READ.map((read) => code.search(read)).filter((index) => index >= 0));
      if (at !== Number.POSITIVE_INFINITY) {
        const line = code.slice(0, at).split('\n').length;
        problems.push(
          `process-env-outside-settings: ${module.source}:${line} reads process.env (only ${Object.keys(ENV_READERS).join(', ')}: ENV_READERS of scripts/check-layers.mjs)`,
        );
      }
    }
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
  console.log(
    'layers: every import runs down a layer, no folder cycle, no file in src/ (tests aside) over 400 lines or in no layer, process.env read only where settings are assembled',
  );
}
