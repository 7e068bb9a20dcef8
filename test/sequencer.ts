import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files known to take a minute or more (fuzzing, real processes, a browser, fixed waits): without
 * a previous run's timings (a clean clone, as in CI) they start first, so that two workers do not
 * end with one of them still on a long file while the other has nothing left.
 */
const LONG = [
  /fuzz\.test\.ts$/,
  /\.postgres\.test\.ts$/,
  /crash-idempotency\.test\.ts$/,
  /npm-start\.test\.ts$/,
  /webhooks\.test\.ts$/,
  /\.browser\./,
  /limits?\.once\.test\.ts$/,
  /persistence\.unit\.test\.ts$/,
  /demo\.unit\.test\.ts$/,
  // Among the longest of a whole run of b04bce0 (passwords hashed, simulated couriers, many
  // bookings, every OpenAPI example), yet started by their size, late in their project.
  /delhivery\.once\.test\.ts$/,
  /phone-usernames\.once\.test\.ts$/,
  /test-bookings\.once\.test\.ts$/,
  /webhooks-fairness\.test\.ts$/,
  /openapi-examples\.once\.test\.ts$/,
  /accounts\/auth\.once\.test\.ts$/,
  /notifications\.once\.test\.ts$/,
  /sandbox\.once\.test\.ts$/,
  // Small files with long waits (a tmpfs filled up; CLI processes on an embedded database), which
  // by their size alone would start among the last.
  /disk-full\.once\.test\.ts$/,
  /cli-money\.test\.ts$/,
];

/** A worker keeps its module graph only from one file of a project to the next of the same one. */
const PROJECT_ORDER = ['unit', 'pglite', 'postgres'];

/**
 * Longest first within each project, projects one after the other. Vitest's own order keeps
 * projects apart too but, with no timings cached, takes the largest files first, and a file's
 * size says little about its time here.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number => {
      const relative = path.relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative}`);
      if (cached) return cached.duration;
      // Unknown: a long one counts more than any file's bytes; otherwise the bigger the longer.
      const bytes = fs.statSync(spec.moduleId).size;
      return LONG.some((pattern) => pattern.test(relative)) ? 1e9 + bytes : bytes;
    };
    const rank = (spec: TestSpecification) => {
      const index = PROJECT_ORDER.indexOf(spec.project.name);
      return index === -1 ? PROJECT_ORDER.length : index;
    };
    const estimates = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => rank(a) - rank(b) || estimates.get(b)! - estimates.get(a)!);
  }
}
