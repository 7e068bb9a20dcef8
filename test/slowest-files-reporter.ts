import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

/**
 * Prints the slowest test files after every run (and the skipped ones, with their reason), beside the default reporter's output: where a
 * run's minutes go, without a second run to find out. A file's time is from its worker taking it
 * to its last hook (harness, imports, set-up files, tests); files of one project run two at once.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules.map((module) => {
      const d = module.diagnostic();
      const imports = d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration;
      return { module, imports, total: imports + d.duration };
    });
    timed.sort((a, b) => b.total - a.total);
    if (timed.length === 0) return;
    const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
    const width = Math.max(...timed.slice(0, SHOWN).map(({ module }) => module.project.name.length));
    const lines = timed
      .slice(0, SHOWN)
      .map(
        ({ module, imports, total }) =>
          `${seconds(total)} s  ${module.project.name.padEnd(width)}  ${path.relative(process.cwd(), module.moduleId)}  (imports ${seconds(imports).trim()} s)`,
      );
    console.log(`\nSlowest test files (of ${timed.length}):\n${lines.join('\n')}\n`);
    this.printSkippedFiles(testModules);
  }

  /** The default reporter counts a skipped file's tests but does not say why they were skipped. */
  private printSkippedFiles(testModules: ReadonlyArray<TestModule>): void {
    const skipped = testModules.filter((module) => module.state() === 'skipped');
    if (skipped.length === 0) return;
    const lines = skipped.map((module) => {
      const first = module.children.allSuites().next().value ?? module.children.allTests().next().value;
      return `  ${module.project.name}  ${path.relative(process.cwd(), module.moduleId)}: ${first?.name ?? ''}`;
    });
    console.log(`Skipped test files:\n${lines.join('\n')}\n`);
  }
}
