/**
 * Why one call to the model failed. The first four are about the endpoint, not the request, so they
 * end the whole run; the rest are about this request and the chunk policy handles them (retry,
 * split, local engine).
 */
export type LlmFailureKind =
  'unreachable' | 'auth' | 'not-found' | 'rate-limited' | 'timeout' | 'server' | 'context-length' | 'rejected' | 'truncated' | 'malformed';

const RUN_LEVEL: ReadonlySet<LlmFailureKind> = new Set(['unreachable', 'auth', 'not-found', 'rate-limited']);

/** One call to the model failed; `kind` says how, `status` is the HTTP status when there was one. */
export class LlmCallError extends Error {
  readonly kind: LlmFailureKind;
  readonly status: number | undefined;

  constructor(kind: LlmFailureKind, message: string, options: { status?: number | undefined; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'LlmCallError';
    this.kind = kind;
    this.status = options.status;
  }

  get endsRun(): boolean {
    return RUN_LEVEL.has(this.kind);
  }
}

/**
 * The notes engine could not use the LLM for this run at all. The job shows `message`; `retryable`
 * says whether trying again later can help without someone changing the configuration.
 */
export class NotesLlmError extends Error {
  readonly retryable: boolean;

  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = 'NotesLlmError';
    this.retryable = options.retryable;
  }
}

export function toNotesLlmError(error: LlmCallError): NotesLlmError {
  const retryable = error.kind !== 'auth' && error.kind !== 'not-found';
  return new NotesLlmError(error.message, { retryable, cause: error });
}
