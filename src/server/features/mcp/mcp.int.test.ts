import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';

let t: TestApp;
let token: string;
let session: string;
beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' }, listen: true });
  session = (await signUpUser(t.app, 'mcp')).token;
  const created = await fetch(`${t.baseUrl}/api/v1/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Claude Desktop', scopes: ['read'] }),
  });
  token = ((await created.json()) as { token: string }).token;
});
afterAll(() => t.close());

/** The SDK's own client over real HTTP, as Claude Desktop, Cursor or VS Code would connect. */
async function connect(bearer: string | undefined): Promise<Client> {
  const client = new Client({ name: 'parley-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', t.baseUrl), {
    requestInit: bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {},
  });
  await client.connect(transport);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('the MCP server at /mcp', () => {
  it('lists its tools and searches, reads notes, transcripts and action items with an API token', async () => {
    const client = await connect(token);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'get_meeting', 'get_transcript', 'list_action_items', 'search_meetings']);

      const found = textOf(await client.callTool({ name: 'search_meetings', arguments: { query: 'standup' } }));
      expect(found).toContain('Weekly Team Standup');
      const meetingId = /meetingId ([0-9a-f-]{36})/.exec(found)?.[1];
      expect(found).toContain(`${t.config.publicUrl}/meetings/${meetingId}`);

      const notes = textOf(await client.callTool({ name: 'get_meeting', arguments: { meetingId } }));
      expect(notes).toMatch(/^# Weekly Team Standup\n/);
      expect(notes).toContain('## Action items');
      const transcript = textOf(await client.callTool({ name: 'get_transcript', arguments: { meetingId } }));
      expect(transcript).toMatch(/\[00:\d\d\] Sarah Miller: /);
      const items = textOf(await client.callTool({ name: 'list_action_items', arguments: {} }));
      expect(items).toMatch(/open action item\(s\)/);
      expect(items).toContain(`${t.config.publicUrl}/meetings/`);

      const answer = textOf(await client.callTool({ name: 'ask', arguments: { question: 'What did the team decide about the release?' } }));
      expect(answer).toContain('Sources:');
      expect(answer).toMatch(/\[1\] “[^”]+” at \d\d:\d\d/);

      const missing = await client.callTool({ name: 'get_meeting', arguments: { meetingId: crypto.randomUUID() } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('Meeting not found');
    } finally {
      await client.close();
    }
  });

  it('refuses a call without a token, or with a bad or revoked one', async () => {
    await expect(connect(undefined)).rejects.toMatchObject({ code: 401, message: expect.stringContaining('UNAUTHENTICATED') });
    await expect(connect('prly_notavalidtokenatall')).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('This API token is not valid: it was revoked, it expired, or it was mistyped.'),
    });
    const other = await fetch(`${t.baseUrl}/api/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'soon revoked', scopes: ['read'] }),
    });
    const { id, token: revoked } = (await other.json()) as { id: string; token: string };
    await fetch(`${t.baseUrl}/api/v1/tokens/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${session}` } });
    await expect(connect(revoked)).rejects.toMatchObject({ code: 401 });
  });
});
