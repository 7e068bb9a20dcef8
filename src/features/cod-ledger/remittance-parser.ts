import { FileRefused } from '../../base/threads/file-refused.js';
import { eachInTurns } from '../../base/turns.js';
import type { StreamParser } from '../../base/threads/parse-pool.js';
import type { IndiaDay } from '../../domain/calendar.js';
import {
  type LineProblem,
  type ParsedRemittanceFile,
  type RemittanceLine,
  readRemittanceFile,
  RemittanceFileError,
} from '../../domain/remittance-files.js';

/**
 * The remittance file's parser as a parse thread runs it (http/file-imports.ts): the domain's
 * reader, its whole-file refusals as FileRefused, and its lines packed in columns, so that 50,000 of
 * them cross back to the event loop as a few arrays rather than 50,000 objects to copy one by one.
 */

export interface PackedRemittanceFile {
  format: ParsedRemittanceFile['format'];
  problems: LineProblem[];
  problemCount: number;
  line: Int32Array;
  amountPaise: Float64Array;
  date: Int32Array;
  /** JSON arrays of the lines' AWBs and UTRs. */
  awbs: string;
  utrs: string;
}

const refusing = <T>(work: () => T): T => {
  try {
    return work();
  } catch (error) {
    if (error instanceof RemittanceFileError) throw new FileRefused(error.message);
    throw error;
  }
};

export function startParse({ today }: { today: IndiaDay }): StreamParser<PackedRemittanceFile> {
  const reader = readRemittanceFile(today);
  return {
    push: (text) => refusing(() => reader.push(text)),
    end() {
      const { format, lines, problems, problemCount } = refusing(() => reader.end());
      return {
        format,
        problems,
        problemCount,
        line: Int32Array.from(lines, (l) => l.line),
        amountPaise: Float64Array.from(lines, (l) => l.amountPaise),
        date: Int32Array.from(lines, (l) => l.date),
        awbs: JSON.stringify(lines.map((l) => l.awb)),
        utrs: JSON.stringify(lines.map((l) => l.utr)),
      };
    },
  };
}

/** The lines again, on the event loop's side, letting it turn between pieces. */
export async function unpackLines(file: PackedRemittanceFile): Promise<RemittanceLine[]> {
  const awbs = JSON.parse(file.awbs) as string[];
  const utrs = JSON.parse(file.utrs) as string[];
  const lines: RemittanceLine[] = [];
  await eachInTurns(awbs, (awb, i) =>
    lines.push({ line: file.line[i]!, awb, amountPaise: file.amountPaise[i]!, utr: utrs[i]!, date: file.date[i]! }),
  );
  return lines;
}
