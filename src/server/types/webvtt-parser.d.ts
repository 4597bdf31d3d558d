// webvtt-parser (the W3C validator's parser) ships no types: the parts the transcript import uses.
// It is CommonJS that assigns its exports at run time, so Node's ESM loader offers only the default.
declare module 'webvtt-parser' {
  export type WebVTTNode =
    | { type: 'text'; value: string }
    | { type: 'timestamp'; value: number }
    | { type: 'object'; name: string; classes: string[]; value?: string; children: WebVTTNode[] };

  export type WebVTTCue = { id: string; startTime: number; endTime: number; text: string; tree: { children: WebVTTNode[] } };

  /** `line` is 1-based; `col` is given for errors inside a timing line. */
  export type WebVTTError = { message: string; line: number; col?: number };

  export type WebVTTParserInstance = { parse: (input: string, mode?: 'metadata' | 'chapters') => { cues: WebVTTCue[]; errors: WebVTTError[] } };

  const webvtt: {
    /** `entities` maps `&name;` to text; without it only a handful are known (and `&amp;` loses its `;`). */
    WebVTTParser: new (entities?: Record<string, string>) => WebVTTParserInstance;
  };
  export default webvtt;
}
