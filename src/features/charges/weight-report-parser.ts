import { FileRefused } from '../../base/threads/file-refused.js';
import type { StreamParser } from '../../base/threads/parse-pool.js';
import { readWeightReport, type WeightReport, WeightReportError } from './weight-report.js';

/** The weight report's parser as a parse thread runs it (http/file-imports.ts): its whole-file refusals as FileRefused. */
export function startParse(): StreamParser<WeightReport> {
  const reader = readWeightReport();
  const refusing = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (error instanceof WeightReportError) throw new FileRefused(error.message);
      throw error;
    }
  };
  return { push: (text) => refusing(() => reader.push(text)), end: () => refusing(() => reader.end()) };
}
