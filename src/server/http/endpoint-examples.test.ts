import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type { Endpoint } from '#shared/contracts/endpoint.ts';
import { examplesOf } from './api-examples/index.ts';

// Every contract module's endpoints, however they are grouped (`…Endpoints` objects of endpoints),
// so an endpoint added to any contract is held to the rule below without being listed anywhere.
const contracts = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../shared/contracts');
const files = fs.readdirSync(contracts).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
const modules = await Promise.all(files.map((file) => import(`#shared/contracts/${file}`) as Promise<Record<string, unknown>>));
const isEndpoint = (value: unknown): value is Endpoint => typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'tag' in value;
const endpoints: Endpoint[] = modules
  .flatMap((module) => Object.values(module))
  .flatMap((group) => (typeof group === 'object' && group !== null ? Object.values(group as Record<string, unknown>) : []))
  .filter(isEndpoint);

describe('the examples in the OpenAPI reference', () => {
  it('finds the contracts’ endpoints', () => {
    expect(endpoints.length).toBeGreaterThan(100);
  });

  it.each(endpoints)('of $method $path: a request body where it takes one, an answer unless a file, each valid by its own schemas', (endpoint) => {
    const examples = examplesOf(endpoint);
    expect(examples, 'no examples: add them in src/server/http/api-examples/').toBeDefined();
    const { body, response } = examples!;
    if (endpoint.body) {
      expect(body, 'no example request body').toBeDefined();
      expect(z.safeParse(endpoint.body, body).error).toBeUndefined();
    } else expect(body).toBeUndefined();
    if (endpoint.response === 'file') expect(response).toBeUndefined();
    else {
      expect(response, 'no example answer').toBeDefined();
      expect(z.safeParse(endpoint.response, response).error).toBeUndefined();
    }
  });
});
