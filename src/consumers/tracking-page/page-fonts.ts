import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { type Language, SCRIPT_OF } from '../../domain/buyer-copy/page-text.js';

/**
 * The Noto Sans fonts the labels already embed, served to the tracking page so that a phone
 * without an Indic font shows the page's script instead of boxes. A page declares only its own
 * script's faces, each limited by unicode-range, so a browser downloads a font only for a page in
 * that script, and only when its system fonts come second (the served face is listed first, so
 * every device draws the same letters). Each file's name carries a hash of its bytes: it is cached
 * for a year and a new font version gets a new name.
 */

const require = createRequire(import.meta.url);

type Script = Exclude<(typeof SCRIPT_OF)[Language], 'Latin'>;
const WEIGHTS = [400, 700] as const;

// The script's blocks, ZWNJ/ZWJ (they steer conjuncts), the dotted circle (drawn under a stray
// mark) and, for Devanagari and Bengali, the dandas that end their sentences.
const RANGES: Record<Script, string> = {
  Devanagari: 'U+0900-097F,U+1CD0-1CFF,U+200C-200D,U+25CC,U+A8E0-A8FF',
  Bengali: 'U+0964-0965,U+0980-09FF,U+200C-200D,U+25CC',
  Gujarati: 'U+0A80-0AFF,U+200C-200D,U+25CC',
  Tamil: 'U+0B80-0BFF,U+200C-200D,U+25CC',
  Telugu: 'U+0C00-0C7F,U+200C-200D,U+25CC',
  Kannada: 'U+0C80-0CFF,U+200C-200D,U+25CC',
  Malayalam: 'U+0D00-0D7F,U+200C-200D,U+25CC',
};

export interface FontFile {
  name: string;
  bytes: Buffer;
  /** Made on first request: TrueType compresses to about half. */
  gzipped?: Buffer;
}

interface Face {
  script: Script;
  weight: (typeof WEIGHTS)[number];
  file: FontFile;
}

let faces: Face[] | undefined;

function allFaces(): Face[] {
  if (!faces) {
    faces = (Object.keys(RANGES) as Script[]).flatMap((script) =>
      WEIGHTS.map((weight) => {
        const style = weight === 400 ? '400Regular' : '700Bold';
        const bytes = readFileSync(
          require.resolve(
            `@expo-google-fonts/noto-sans-${script.toLowerCase()}/${style}/NotoSans${script}_${style}.ttf`,
          ),
        );
        const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
        return { script, weight, file: { name: `noto-sans-${script.toLowerCase()}-${weight}.${hash}.ttf`, bytes } };
      }),
    );
  }
  return faces;
}

/** The file behind a name this server gave out, or undefined. */
export const fontFile = (name: string): FontFile | undefined =>
  allFaces().find((face) => face.file.name === name)?.file;

/** A real name, for the route's documented example (the hash changes with the font package). */
export const exampleFontName = (): string => allFaces()[0]!.file.name;

export function gzippedFont(file: FontFile): Buffer {
  file.gzipped ??= gzipSync(file.bytes, { level: 9 });
  return file.gzipped;
}

export const FONT_PATH = '/public/v1/fonts/';

/** The family name the page's style puts first, or null for a page in Latin script. */
export function pageFontFamily(language: Language): string | null {
  const script = SCRIPT_OF[language];
  return script === 'Latin' ? null : `Dakiya Noto Sans ${script}`;
}

/** The @font-face rules of the page's script: both weights, swapped in once loaded. */
export function pageFontFaces(language: Language): string {
  const script = SCRIPT_OF[language];
  if (script === 'Latin') return '';
  return allFaces()
    .filter((face) => face.script === script)
    .map(
      (face) =>
        `@font-face{font-family:"${pageFontFamily(language)}";src:url(${FONT_PATH}${face.file.name}) format("truetype");font-weight:${face.weight};font-style:normal;font-display:swap;unicode-range:${RANGES[script]}}`,
    )
    .join('');
}
