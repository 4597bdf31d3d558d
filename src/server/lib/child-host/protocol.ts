/**
 * Messages between the server and a host process it forks for heavy or fragile work (child_process
 * IPC with advanced serialization, so PCM travels as bytes). One shape for every host: load once,
 * then run requests one at a time, each with progress, cancellation and its own failure. Large
 * byte inputs (an hour of PCM is 115 MB) travel in parts, so that copying them never holds up the
 * server's event loop for long.
 */
export type HostRequest<Config, Input> =
  | { type: 'load'; config: Config }
  /** A piece of a large byte input, sent ahead of its 'run' (see host-client.ts). */
  | { type: 'part'; id: number; bytes: Uint8Array }
  /** `input` absent: the input is the bytes of the request's parts, in order. */
  | { type: 'run'; id: number; input?: Input; context?: unknown }
  | { type: 'cancel'; id: number };

export type HostReply<Loaded, Output> =
  | { type: 'loaded'; info: Loaded }
  | { type: 'load-failed'; message: string }
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'result'; id: number; output: Output }
  | { type: 'failed'; id: number; message: string; cancelled: boolean };
