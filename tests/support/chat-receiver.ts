import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local receiver for chat webhooks (Slack incoming webhooks, Teams Workflows triggers): it keeps
 * every JSON body posted to it by path, and answers as told per path (Slack's `200 ok`, a
 * Workflow's `202`, a refusal with the provider's body, a malformed answer, or no answer at all).
 */
export type ReceivedPost = { path: string; contentType: string | undefined; body: unknown };
type Answer = { status: number; body: string; contentType?: string } | 'hang';

export type ChatReceiver = {
  url: (path: string) => string;
  posts: ReceivedPost[];
  postsTo: (path: string) => ReceivedPost[];
  /** The next `times` posts to `path` get this answer (then the default again). */
  answer: (path: string, answer: Answer, times?: number) => void;
  close: () => Promise<void>;
};

export async function startChatReceiver(defaultAnswer: Answer = { status: 200, body: 'ok', contentType: 'text/plain' }): Promise<ChatReceiver> {
  const posts: ReceivedPost[] = [];
  const planned = new Map<string, { answer: Answer; times: number }>();
  const hung = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the test asserts it was JSON.
      }
      posts.push({ path, contentType: request.headers['content-type'], body });
      const plan = planned.get(path);
      let answer = defaultAnswer;
      if (plan && plan.times > 0) {
        answer = plan.answer;
        plan.times -= 1;
      }
      if (answer === 'hang') {
        hung.add(response);
        return;
      }
      response.writeHead(answer.status, { 'content-type': answer.contentType ?? 'text/plain' });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    posts,
    postsTo: (path) => posts.filter((p) => p.path === path),
    answer: (path, answer, times = Number.POSITIVE_INFINITY) => planned.set(path, { answer, times }),
    close: async () => {
      for (const response of hung) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
