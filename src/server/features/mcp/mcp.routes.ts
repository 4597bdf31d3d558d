import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { caller } from '../auth/api-guard.ts';
import { createMcpServer, type McpDeps } from './mcp-tools.ts';

/**
 * /mcp: a Model Context Protocol server (Streamable HTTP, stateless: each POST is answered on its
 * own) for AI assistants, behind the /api/v1 guard with a personal API token's read scope (its
 * tools only read). GET and DELETE, for sessions this server does not keep, answer 405.
 */
export function registerMcpRoutes(app: FastifyInstance, guard: onRequestAsyncHookHandler, deps: McpDeps): void {
  app.route({
    method: 'POST',
    url: '/mcp',
    config: { apiTokens: true, tokenScope: 'read' },
    onRequest: guard,
    schema: { hide: true },
    handler: async (request, reply) => {
      const server = createMcpServer(caller(request).user.id, deps);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply
          .status(405)
          .header('allow', 'POST')
          .send({ jsonrpc: '2.0', error: { code: -32000, message: 'This MCP server is stateless: send each request as a POST.' }, id: null }),
    });
  }
}
