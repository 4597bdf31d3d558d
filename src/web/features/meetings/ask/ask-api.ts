import { askEndpoints, AskResponseSchema, AskStreamErrorSchema, AskTokenEventSchema, type AskBody, type AskResponse } from '#shared/contracts/ask.ts';
import { openStream } from '#web/lib/api-client.ts';
import { ApiError } from '#web/lib/api-error.ts';

const BROKEN_STREAM = 'The answer stopped before it was finished. Try again.';

/** One Server-Sent Event block ("event: x\ndata: {...}") as its name and parsed data. */
function readEvent(block: string): { name: string; data: unknown } | undefined {
  let name = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  if (data.length === 0) return undefined;
  try {
    return { name, data: JSON.parse(data.join('\n')) };
  } catch {
    return undefined;
  }
}

/**
 * Asks over POST /api/v1/ask/stream: `onText` hears the answer's text as it comes, and the promise
 * answers the whole response (citations included) once the server sends it. Every event is checked
 * against the contract; a stream that ends without its answer is an error.
 */
export async function askStreaming(body: AskBody, onText: (text: string) => void, signal?: AbortSignal): Promise<AskResponse> {
  const response = await openStream(askEndpoints.stream, { body }, { signal });
  if (!response.body) throw new ApiError({ status: response.status, code: 'BAD_RESPONSE', message: BROKEN_STREAM });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value.replaceAll('\r\n', '\n');
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = readEvent(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (!event) continue;
      if (event.name === 'token') {
        const token = AskTokenEventSchema.safeParse(event.data);
        if (token.success) onText(token.data.text);
      } else if (event.name === 'done') {
        const answer = AskResponseSchema.safeParse(event.data);
        if (!answer.success) throw new ApiError({ status: 200, code: 'BAD_RESPONSE', message: BROKEN_STREAM, details: answer.error.issues });
        await reader.cancel().catch(() => undefined);
        return answer.data;
      } else if (event.name === 'error') {
        const failure = AskStreamErrorSchema.safeParse(event.data);
        throw new ApiError({ status: 200, code: 'UNKNOWN', message: failure.success ? failure.data.message : BROKEN_STREAM });
      }
    }
  }
  throw new ApiError({ status: 200, code: 'BAD_RESPONSE', message: BROKEN_STREAM });
}
