import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as hb from 'harfbuzzjs';

/**
 * The fonts of the PDFs Dakiya draws (labels, pickup manifests) and their shaping. DejaVu Sans prints Latin and the rupee sign; one Noto Sans
 * per Indic script prints names and addresses in that script. Text is shaped by HarfBuzz, not by
 * pdfkit's own shaper (fontkit): fontkit mis-shapes or throws on several Indic fonts (Gurmukhi's
 * mark positioning crashes it), while HarfBuzz is the reference shaper browsers use. fontkit still
 * parses and subsets each font for embedding.
 */

const require = createRequire(import.meta.url);

export type Weight = 'regular' | 'bold';

/** Indic scripts in Unicode order: each owns the 128-code-point block from U+0900 + 0x80 × index. */
export const INDIC_SCRIPTS = [
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
] as const;
export type FontKey = 'Latin' | (typeof INDIC_SCRIPTS)[number];

function fontPath(key: FontKey, weight: Weight): string {
  if (key === 'Latin') return require.resolve(`dejavu-fonts-ttf/ttf/DejaVuSans${weight === 'bold' ? '-Bold' : ''}.ttf`);
  const style = weight === 'bold' ? '700Bold' : '400Regular';
  return require.resolve(`@expo-google-fonts/noto-sans-${key.toLowerCase()}/${style}/NotoSans${key}_${style}.ttf`);
}

/** What pdfkit reads of a glyph run (fontkit's GlyphRun shape); pdfkit scales positions in place. */
interface Glyph {
  id: number;
  advanceWidth: number;
  codePoints: number[];
}
interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
}
interface GlyphRun {
  glyphs: Glyph[];
  positions: Position[];
  readonly advanceWidth: number;
}

/** fontkit's Font, as far as this module and pdfkit's embedding use it. */
interface FontkitFont {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  layout(text: string): GlyphRun;
}

// pdfkit's own fontkit, whatever the install layout, so the fonts handed to it are its own kind.
const fontkit = require(require.resolve('fontkit', { paths: [require.resolve('pdfkit')] })) as {
  create(buffer: Buffer): FontkitFont;
};

export interface LabelFont {
  key: FontKey;
  weight: Weight;
  /** The name registered with each document. */
  name: string;
  /** The font pdfkit embeds; its layout is HarfBuzz's. */
  pdfFont: FontkitFont;
  unitsPerEm: number;
  /** Above and below the baseline, in em. */
  ascent: number;
  descent: number;
  has(codePoint: number): boolean;
  shape(text: string): GlyphRun;
}

// One buffer for every shaping call: shaping is synchronous, so calls never overlap.
const buffer = new hb.Buffer();

function loadFont(key: FontKey, weight: Weight): LabelFont {
  const bytes = readFileSync(fontPath(key, weight));
  const hbFont = new hb.Font(new hb.Face(new hb.Blob(bytes)));
  const pdfFont = fontkit.create(bytes);
  const advances = new Map<number, number>();
  const advance = (id: number) => {
    const known = advances.get(id);
    if (known !== undefined) return known;
    const width = hbFont.glyphHAdvance(id);
    advances.set(id, width);
    return width;
  };

  const shape = (text: string): GlyphRun => {
    // Decomposed, a two-part vowel sign (ো, ொ) is two characters, one per glyph it is drawn as;
    // HarfBuzz shapes either form alike.
    const codePoints = Array.from(text.normalize('NFD'), (c) => c.codePointAt(0)!);
    buffer.reset();
    buffer.setClusterLevel(hb.ClusterLevel.CHARACTERS);
    buffer.addCodePoints(codePoints);
    buffer.guessSegmentProperties();
    hb.shape(hbFont, buffer);
    const infos = buffer.getGlyphInfos();
    const positions = buffer
      .getGlyphPositions()
      .map(({ xAdvance, yAdvance, xOffset, yOffset }) => ({ xAdvance, yAdvance, xOffset, yOffset }));
    return {
      glyphs: textOfGlyphs(infos, codePoints).map((glyphText, i) => ({
        id: infos[i]!.codepoint,
        advanceWidth: advance(infos[i]!.codepoint),
        codePoints: glyphText,
      })),
      positions,
      // pdfkit scales the positions in place and then reads the run's width, so it is summed late.
      get advanceWidth() {
        return positions.reduce((sum, p) => sum + p.xAdvance, 0);
      },
    };
  };
  // pdfkit lays text out through the font it is given: HarfBuzz answers in fontkit's place.
  pdfFont.layout = shape;
  return {
    key,
    weight,
    name: `${key}-${weight}`,
    pdfFont,
    unitsPerEm: pdfFont.unitsPerEm,
    ascent: pdfFont.ascent / pdfFont.unitsPerEm,
    descent: -pdfFont.descent / pdfFont.unitsPerEm,
    has: (codePoint) => (hbFont.nominalGlyph(codePoint) ?? 0) !== 0,
    shape,
  };
}

/**
 * The characters each glyph stands for, which the PDF's text layer (copying, search) reports. The
 * PDF maps each glyph to one text for the whole document, so the mapping must not depend on the
 * glyph's neighbours: with clusters kept per character, a glyph stands for the characters from its
 * own cluster up to the next one (a conjunct for all its letters and viramas, a reph for its RA
 * and virama), and the other glyphs of one cluster stand for nothing.
 */
function textOfGlyphs(infos: { cluster: number }[], codePoints: number[]): number[][] {
  const starts = [...new Set(infos.map((info) => info.cluster))].sort((a, b) => a - b);
  const seen = new Set<number>();
  return infos.map(({ cluster }) => {
    if (seen.has(cluster)) return [];
    seen.add(cluster);
    return codePoints.slice(cluster, starts.find((start) => start > cluster) ?? codePoints.length);
  });
}

let fonts: Map<string, LabelFont> | undefined;

/**
 * Every label font, parsed once per process on first use and shared by every label: fontkit
 * fonts only cache what they decode, so sharing one between documents is safe.
 */
export function labelFonts(): Map<string, LabelFont> {
  if (!fonts) {
    fonts = new Map();
    for (const key of ['Latin', ...INDIC_SCRIPTS] as const) {
      for (const weight of ['regular', 'bold'] as const) fonts.set(`${key}-${weight}`, loadFont(key, weight));
    }
  }
  return fonts;
}

export const fontFor = (key: FontKey, weight: Weight): LabelFont => labelFonts().get(`${key}-${weight}`)!;

/** The script whose font prints a character, or null for one any font may print (spaces, digits, punctuation). */
export function scriptOf(codePoint: number): FontKey | null {
  // The dandas (U+0964, U+0965) sit in the Devanagari block but end sentences in every script here.
  if (codePoint >= 0x900 && codePoint < 0xd80 && codePoint !== 0x964 && codePoint !== 0x965) {
    return INDIC_SCRIPTS[(codePoint - 0x900) >> 7]!;
  }
  return /[\p{L}\p{M}]/u.test(String.fromCodePoint(codePoint)) ? 'Latin' : null;
}

export interface Run {
  font: LabelFont;
  text: string;
}

/**
 * Splits text into runs of one font each. A character of no script (a space, a digit, a comma)
 * stays in the run it is in when that font has it, so "फ्लैट 12, रोड" is one run.
 */
export function splitRuns(text: string, weight: Weight): Run[] {
  const runs: Run[] = [];
  const latin = fontFor('Latin', weight);
  let current: Run | undefined;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    const script = scriptOf(codePoint);
    let font: LabelFont;
    if (script) font = fontFor(script, weight);
    else if (current?.font.has(codePoint)) font = current.font;
    else font = latin;
    // ZWJ and ZWNJ steer the conjunct they sit in, so they belong to its run.
    if (current && (current.font === font || codePoint === 0x200c || codePoint === 0x200d)) current.text += char;
    else {
      current = { font, text: char };
      runs.push(current);
    }
  }
  return runs;
}
