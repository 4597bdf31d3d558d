/**
 * Recording formats Parley accepts: what browsers record (webm/opus, ogg, mp4/aac on Safari) and
 * common files people upload (mp3, m4a, wav, webm, ogg, mp4 audio). ffmpeg decodes them all.
 */
const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/m4a': 'm4a',
  'audio/aac': 'aac',
  'video/mp4': 'mp4',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
};

/** The bare MIME type without parameters such as `;codecs=opus`, lower-cased. */
export const baseMime = (type: string): string => type.split(';')[0]!.trim().toLowerCase();

export function extensionFor(type: string): string | undefined {
  return EXTENSIONS[baseMime(type)];
}

/** The extension a recording of this type is stored under ("bin" for one Parley has no name for). */
export const storedExtension = (type: string): string => extensionFor(type) ?? 'bin';
