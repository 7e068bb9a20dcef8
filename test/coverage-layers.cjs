// A coverage reporter (istanbul's kind, listed in `coverage.reporter` in vitest.config.ts): with
// `--coverage`, prints each layer's line and branch coverage beside its floor, after the total and
// just before Vitest checks the floors (`coverage.thresholds`, one glob per layer). Vitest's check
// fails the run (one `ERROR: Coverage for … does not meet "<glob>" threshold` line per figure below
// its floor); this only prints: the figures to read when a floor fails, and to raise a floor to. A
// file of src/ that no layer's glob takes is named, since no floor holds it.
'use strict';
const path = require('node:path');

// The glob matcher Vitest's own threshold check uses (its dependency, so the same copy): a layer's
// files here are the files its floor is checked on.
const picomatch = require(
  require.resolve('picomatch', { paths: [path.dirname(require.resolve('vitest/package.json'))] }),
);

/** Istanbul's percentage, which the floors are compared with: two decimals, rounded down. */
const percent = ({ covered, total }) => (total > 0 ? Math.floor((100_000 * covered) / total / 10) / 100 : 100);

class CoverageLayersReport {
  /** @param {{ floors: Record<string, { lines?: number, branches?: number }>, projectRoot?: string }} options */
  constructor(options) {
    this.root = options.projectRoot ?? process.cwd();
    this.layers = Object.entries(options.floors).map(([glob, floors]) => ({
      glob,
      floors,
      matches: picomatch(glob),
      count: 0,
      lines: { total: 0, covered: 0 },
      branches: { total: 0, covered: 0 },
    }));
    this.outside = [];
  }

  execute(context) {
    context.getTree('flat').visit({ onDetail: (node) => this.add(node) });
    const cell = (counts, floor) => {
      const pct = percent(counts);
      const below = floor !== undefined && pct < floor ? ', BELOW' : '';
      return `${pct.toFixed(2).padStart(6)} % (floor ${floor ?? '-'}${below})`;
    };
    const width = Math.max(...this.layers.map(({ glob }) => glob.length));
    const writer = context.writer.writeFile(null);
    writer.println('');
    writer.println('Coverage per layer (floors: coverage.thresholds in vitest.config.ts):');
    for (const { glob, floors, count, lines, branches } of this.layers) {
      writer.println(
        `  ${glob.padEnd(width)}  ${String(count).padStart(4)} files  lines ${cell(lines, floors.lines)}  branches ${cell(branches, floors.branches)}`,
      );
    }
    if (this.outside.length > 0) writer.println(`  in no layer, so under no floor: ${this.outside.join(', ')}`);
    writer.close();
  }

  add(node) {
    const file = path.relative(this.root, node.getFileCoverage().path);
    const layer = this.layers.find(({ matches }) => matches(file));
    if (!layer) {
      this.outside.push(file);
      return;
    }
    const summary = node.getCoverageSummary();
    layer.count++;
    for (const measure of ['lines', 'branches']) {
      layer[measure].total += summary[measure].total;
      layer[measure].covered += summary[measure].covered;
    }
  }
}

module.exports = CoverageLayersReport;
