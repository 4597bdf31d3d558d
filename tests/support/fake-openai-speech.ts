import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeSpeechRequest = {
  authorization: string | undefined;
  model: string;
  responseFormat: string;
  granularities: string[];
  /** The `prompt` field (an engine's custom vocabulary), when sent. */
  prompt: string | undefined;
  file: Buffer;
  fileName: string;
};

/**
 * A local stand-in for an OpenAI-compatible speech service: it speaks the real protocol
 * (multipart POST /v1/audio/transcriptions → verbose_json, OpenAI error bodies), records what it
 * received, and can be told to refuse, stall or answer nonsense.
 */
export async function startFakeSpeechService(options: { apiKey: string }) {
  const requests: FakeSpeechRequest[] = [];
  let behaviour: 'ok' | 'stall' | 'garbage' | 'overloaded' = 'ok';
  let reply = { text: 'go forward ten meters', words: ['go', 'forward', 'ten', 'meters'] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found', type: 'invalid_request_error' } }));
          return;
        }
        if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
          res
            .writeHead(401, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }));
          return;
        }
        // Parse the multipart body with the platform's own parser (undici's Request.formData).
        const form = await new Request('http://fake/', {
          method: 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? '' },
          body: Buffer.concat(chunks),
        }).formData();
        const file = form.get('file') as File;
        requests.push({
          authorization: req.headers.authorization,
          model: String(form.get('model')),
          responseFormat: String(form.get('response_format')),
          granularities: form.getAll('timestamp_granularities[]').map(String),
          prompt: form.has('prompt') ? String(form.get('prompt')) : undefined,
          file: Buffer.from(await file.arrayBuffer()),
          fileName: file.name,
        });
        if (behaviour === 'stall') return; // never answers
        if (behaviour === 'overloaded') {
          res
            .writeHead(503, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'The server is overloaded.', type: 'server_error' } }));
          return;
        }
        if (behaviour === 'garbage') {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>proxy error</html>');
          return;
        }
        const words = reply.words.map((word, i) => ({ word, start: 0.3 + i * 0.5, end: 0.7 + i * 0.5, probability: 0.9 }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            task: 'transcribe',
            language: 'english',
            duration: 2.8,
            text: reply.text,
            segments: [{ id: 0, start: 0.3, end: words.at(-1)!.end, text: ` ${reply.text}`, avg_logprob: -0.1 }],
            words,
          }),
        );
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    behave: (next: typeof behaviour) => {
      behaviour = next;
    },
    answer: (text: string) => {
      reply = { text, words: text.split(' ') };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
