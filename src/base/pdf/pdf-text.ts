import { type LabelFont, splitRuns, type Weight } from './pdf-fonts.js';

/**
 * Lines of mixed-script text, wrapped to a width. pdfkit wraps text in one font only, and a label
 * line mixes scripts ("फ्लैट 4B, Sector 62"), so words are measured and placed here and pdfkit
 * only draws runs of one font at a given point.
 */

export interface Piece {
  font: LabelFont;
  text: string;
  /** Offset from the line's start, in points. */
  x: number;
}

export interface Line {
  pieces: Piece[];
  size: number;
  width: number;
  /** Above and below the baseline, in points: the tallest of the line's fonts. */
  ascent: number;
  descent: number;
}

/** Widths of shaped text per font, in em, for one label: the same words are measured at several sizes. */
export type Measurer = (font: LabelFont, text: string) => number;

export function createMeasurer(): Measurer {
  const widths = new Map<string, number>();
  return (font, text) => {
    const key = `${font.name}\u0000${text}`;
    const known = widths.get(key);
    if (known !== undefined) return known;
    const width = font.shape(text).advanceWidth / font.unitsPerEm;
    widths.set(key, width);
    return width;
  };
}

interface Word {
  runs: { font: LabelFont; text: string; width: number }[];
  width: number;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

function measureWord(text: string, weight: Weight, size: number, measure: Measurer): Word {
  const runs = splitRuns(text, weight).map((run) => ({ ...run, width: measure(run.font, run.text) * size }));
  return { runs, width: runs.reduce((sum, run) => sum + run.width, 0) };
}

/** A word wider than the line is broken between its characters (a conjunct is never split). */
function breakWord(text: string, weight: Weight, size: number, width: number, measure: Measurer): Word[] {
  const parts: Word[] = [];
  let current = '';
  for (const { segment } of graphemes.segment(text)) {
    if (current && measureWord(current + segment, weight, size, measure).width > width) {
      parts.push(measureWord(current, weight, size, measure));
      current = segment;
    } else current += segment;
  }
  if (current) parts.push(measureWord(current, weight, size, measure));
  return parts;
}

function toLine(words: Word[], size: number, measure: Measurer): Line {
  const pieces: Piece[] = [];
  let x = 0;
  words.forEach((word, i) => {
    // The space is the one the previous font draws, as it is drawn inside that font's piece.
    if (i > 0) x += measure(pieces.at(-1)!.font, ' ') * size;
    word.runs.forEach((run, j) => {
      const last = pieces.at(-1);
      // Neighbouring runs of one font are drawn as one, with the space between them.
      if (last?.font === run.font) last.text += j === 0 && i > 0 ? ` ${run.text}` : run.text;
      else pieces.push({ font: run.font, text: run.text, x });
      x += run.width;
    });
  });
  const fonts = pieces.map((piece) => piece.font);
  return {
    pieces,
    size,
    width: x,
    ascent: Math.max(...fonts.map((font) => font.ascent)) * size,
    descent: Math.max(...fonts.map((font) => font.descent)) * size,
  };
}

/** Wraps text (each "\n" starts a new line) to `width` points at `size`. */
export function wrap(text: string, weight: Weight, size: number, width: number, measure: Measurer): Line[] {
  // Wrapping counts DejaVu's space, the widest of the fonts', so a drawn line is never wider than counted.
  const latin = splitRuns(' ', weight)[0]!.font;
  const spaceWidth = measure(latin, ' ') * size;
  const lines: Line[] = [];
  for (const paragraph of text.split('\n')) {
    let words: Word[] = [];
    let lineWidth = 0;
    for (const token of paragraph.split(/\s+/).filter(Boolean)) {
      const whole = measureWord(token, weight, size, measure);
      for (const word of whole.width > width ? breakWord(token, weight, size, width, measure) : [whole]) {
        const added = words.length === 0 ? word.width : lineWidth + spaceWidth + word.width;
        if (words.length > 0 && added > width) {
          lines.push(toLine(words, size, measure));
          words = [word];
          lineWidth = word.width;
        } else {
          words.push(word);
          lineWidth = added;
        }
      }
    }
    if (words.length > 0) lines.push(toLine(words, size, measure));
  }
  return lines;
}

/** Line spacing: a little air between one line's lowest mark and the next line's highest. */
export const LEADING = 0.1;

export const linesHeight = (lines: Line[]) =>
  lines.reduce((sum, line) => sum + line.ascent + line.descent + LEADING * line.size, 0);

/** The minimal drawing surface (a pdfkit document), so layout can be tested apart from PDFs. */
export interface TextCanvas {
  font(name: string): TextCanvas;
  fontSize(size: number): TextCanvas;
  text(text: string, x: number, y: number, options: { lineBreak: false; baseline: 'alphabetic' }): TextCanvas;
}

/** Draws lines from `top`, each within `width` from `left`; answers the y below the last. */
export function drawLines(
  doc: TextCanvas,
  lines: Line[],
  left: number,
  top: number,
  width: number,
  align: 'left' | 'center' = 'left',
) {
  let y = top;
  for (const line of lines) {
    const baseline = y + line.ascent;
    const start = align === 'center' ? left + (width - line.width) / 2 : left;
    for (const piece of line.pieces) {
      doc
        .font(piece.font.name)
        .fontSize(line.size)
        .text(piece.text, start + piece.x, baseline, { lineBreak: false, baseline: 'alphabetic' });
    }
    y = baseline + line.descent + LEADING * line.size;
  }
  return y;
}
