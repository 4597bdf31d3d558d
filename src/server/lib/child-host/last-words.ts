/**
 * Why a host process ended, from what it wrote on stderr before it did: a native library's last
 * located message ("…/offline-transducer-nemo-model.cc:InitEncoder:204 'vocab_size' does not exist
 * in the metadata") without the source path, skipping generic summaries and the help text some
 * messages are followed by; else the last line written.
 */
export function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const located = lines
    .map((line) => /^\S+\.(?:cc|cpp|h):\w+:\d+\s+(.+)$/.exec(line)?.[1])
    .filter((message): message is string => message !== undefined && !/^Errors in config/.test(message));
  if (located.length > 0) return located.at(-1)!;
  const last = lines.filter((line) => !/^terminate called after/.test(line)).at(-1) ?? '';
  return last.replace(/^what\(\):\s*/, '');
}
