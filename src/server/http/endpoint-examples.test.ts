import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type { Endpoint } from '#shared/contracts/endpoint.ts';

// Every contract module's endpoints, however they are grouped (`…Endpoints` objects of endpoints).
const contracts = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../shared/contracts');
const files = fs.readdirSync(contracts).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
const modules = await Promise.all(files.map((file) => import(`#shared/contracts/${file}`) as Promise<Record<string, unknown>>));
const isEndpoint = (value: unknown): value is Endpoint => typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'tag' in value;
const endpoints: Endpoint[] = modules
  .flatMap((module) => Object.values(module))
  .flatMap((group) => (typeof group === 'object' && group !== null ? Object.values(group as Record<string, unknown>) : []))
  .filter(isEndpoint);
const withExamples: Endpoint[] = endpoints.filter((endpoint) => endpoint.examples);

describe('the examples in the OpenAPI reference', () => {
  it('are there for the endpoints integrators start with', () => {
    const documented = new Set(withExamples.map((e) => `${e.method} ${e.path}`));
    for (const route of [
      'POST /api/v1/tokens',
      'POST /api/v1/webhooks',
      'GET /api/v1/webhooks/:id/deliveries',
      'POST /api/v1/ask',
      'GET /api/v1/calendar/events',
    ])
      expect(documented).toContain(route);
  });

  it.each(withExamples)('of $method $path match its own schemas', (endpoint) => {
    const { body, response } = endpoint.examples!;
    if (body !== undefined) expect(z.safeParse(endpoint.body!, body).error).toBeUndefined();
    if (response !== undefined) {
      expect(endpoint.response).not.toBe('file');
      expect(z.safeParse(endpoint.response as z.ZodMiniType, response).error).toBeUndefined();
    }
  });
});
