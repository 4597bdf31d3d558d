import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CONFIG_GLOBAL, PublicAppConfigSchema } from '#shared/contracts/app-config.ts';
import { buildTestApp, type TestApp } from '#tests/support/build-test-app.ts';
import { apiTokenExamples } from './api-examples/account.examples.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('HTTP basics', () => {
  it('GET /healthz answers ok with the version', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', version: expect.any(String) });
  });

  it('an unknown API path answers a JSON 404 in the API error format', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/nothing-here' } });
  });

  it('every response carries the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // Plain http: HSTS would be meaningless, so it is not sent.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('/app-config.js hands the web app its public settings, the installation self-hosted: no billing, nothing collected', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app-config.js' });
    expect(res.statusCode).toBe(200);
    const prefix = `window.${APP_CONFIG_GLOBAL} = `;
    expect(res.body.startsWith(prefix)).toBe(true);
    const config = PublicAppConfigSchema.parse(JSON.parse(res.body.slice(prefix.length).replace(/;\n$/, '')));
    expect(config.installation).toEqual({
      billing: false,
      errorReporting: false,
      usageAnalytics: false,
      errorReportingHost: null,
      usageAnalyticsHost: null,
      emotionProviderHost: null,
    });
  });

  it('migrations ran: the instance settings table exists', async () => {
    const rows = await t.deps.database.db.selectFrom('instance_settings').selectAll().execute();
    expect(Array.isArray(rows)).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  it('describes the /api/v1 routes from their zod schemas, and nothing of /auth/v1', async () => {
    const t = await buildTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      expect(response.statusCode).toBe(200);
      const doc = response.json() as { openapi: string; paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/me', '/api/v1/meetings', '/api/v1/meetings/{id}']));
      expect(Object.keys(doc.paths).some((p) => p.startsWith('/auth/'))).toBe(false);
      expect(doc.paths['/api/v1/meetings']?.get?.parameters?.map((p) => p.name)).toEqual(
        expect.arrayContaining(['q', 'from', 'to', 'participant', 'status', 'page', 'pageSize']),
      );
      // The public reference: valid OpenAPI 3.1, both bearer schemes, tokens refused where only a session may act.
      const validator = new Validator();
      const result = await validator.validate(response.json() as Record<string, unknown>);
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
      const full = response.json() as {
        security: unknown;
        components: { securitySchemes: Record<string, { scheme: string }> };
        paths: Record<string, Record<string, { security?: unknown }>>;
      };
      expect(Object.keys(full.components.securitySchemes)).toEqual(['apiToken', 'session']);
      expect(full.security).toEqual([{ apiToken: [] }, { session: [] }]);
      expect(full.paths['/api/v1/tokens']?.post?.security).toEqual([{ session: [] }]);
      expect(full.paths['/api/v1/me']?.delete?.security).toEqual([{ session: [] }]);
      expect(full.paths['/api/v1/webhooks/{id}/deliveries']?.get?.security).toBeUndefined();
      expect(full.paths['/api/v1/shared/{token}']?.get?.security).toEqual([]);
      // Examples on every operation: its request body where it takes one, its JSON answer; the tokens' as written.
      type Media = { content?: Record<string, { example?: unknown }> };
      type Operation = { requestBody?: Media; responses: Record<string, Media> };
      const operations = Object.entries((response.json() as { paths: Record<string, Record<string, Operation>> }).paths).flatMap(([p, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${p}`, operation })),
      );
      expect(operations.length).toBeGreaterThan(100);
      const missing = operations.flatMap(({ name, operation }) => {
        const gaps: string[] = [];
        const body = operation.requestBody?.content?.['application/json'];
        if (operation.requestBody && body?.example === undefined) gaps.push(`${name} request`);
        const [status, answer] = Object.entries(operation.responses).find(([code]) => code.startsWith('2')) ?? [];
        const json = answer?.content?.['application/json'];
        if (json && json.example === undefined) gaps.push(`${name} ${status}`);
        return gaps;
      });
      expect(missing).toEqual([]);
      const tokens = operations.find(({ name }) => name === 'POST /api/v1/tokens')!.operation;
      expect(tokens.requestBody!.content!['application/json']!.example).toEqual(apiTokenExamples.create.body);
      expect(tokens.responses['201']!.content!['application/json']!.example).toEqual(apiTokenExamples.create.response);
    } finally {
      await t.close();
    }
  });
});
