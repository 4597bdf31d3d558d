/**
 * Messages between the server and a host process it forks for heavy or fragile work (child_process
 * IPC with advanced serialization, so PCM travels as bytes). One shape for every host: load once,
 * then run requests one at a time, each with progress, cancellation and its own failure.
 */
export type HostRequest<Config, Input> =
  | { type: 'load'; config: Config }
  | { type: 'run'; id: number; input: Input }
  | { type: 'cancel'; id: number };

export type HostReply<Loaded, Output> =
  | { type: 'loaded'; info: Loaded }
  | { type: 'load-failed'; message: string }
  | { type: 'progress'; id: number; fraction: number }
  | { type: 'result'; id: number; output: Output }
  | { type: 'failed'; id: number; message: string; cancelled: boolean };
