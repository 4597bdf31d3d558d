import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatusResponse } from '#shared/contracts/status.ts';
import { STATUS } from '#tests/support/web/status-response.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { NotesModelCard } from './notes-model-card.tsx';

vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The card over an installation answering /api/v1/status with `notes`. */
async function showCard(notes: StatusResponse['notes']) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ ...STATUS, notes }), { status: 200, headers: { 'content-type': 'application/json' } })),
  );
  render(<NotesModelCard />, { wrapper: SignedIn });
  const card = await screen.findByRole('region', { name: 'Notes Model' });
  await screen.findByText(/^Notes are written by/);
  return card;
}

const LOCAL = { name: 'local' as const, detail: 'offline, on this server', available: true, reason: null };

describe('Settings › Recording › Notes Model', () => {
  it('with no model connected: the local engine writes notes, and how whoever runs the server connects one', async () => {
    const card = await showCard({ ...STATUS.notes, inUse: 'local', engines: [{ ...LOCAL, inUse: true }] });
    expect(screen.getByRole('status').textContent).toBe('Notes are written by the local engine: no model is connected.');
    expect(card.textContent).toContain(
      'To connect one, whoever runs this server sets NOTES_LLM_URL to Ollama (http://localhost:11434) or any OpenAI-compatible endpoint and NOTES_LLM_MODEL to its model, then restarts it.',
    );
    expect(screen.getByRole('link', { name: 'Notes engine status' }).getAttribute('href')).toBe('/status');
  });

  it('with a model connected and answering: names it', async () => {
    await showCard({
      ...STATUS.notes,
      inUse: 'llm',
      engines: [
        { name: 'llm', detail: 'llama3.1 at localhost:11434', available: true, reason: null, inUse: true },
        { ...LOCAL, inUse: false },
      ],
    });
    expect(screen.getByRole('status').textContent).toBe('Notes are written by a connected model: llama3.1 at localhost:11434.');
  });

  it('with a model configured that does not answer: says why the local engine writes them', async () => {
    await showCard({
      ...STATUS.notes,
      inUse: 'local',
      engines: [
        { name: 'llm', detail: 'llama3.1 at localhost:11434', available: false, reason: 'connect ECONNREFUSED', inUse: false },
        { ...LOCAL, inUse: true },
      ],
    });
    expect(screen.getByRole('status').textContent).toBe(
      'Notes are written by the local engine: the connected model (llama3.1 at localhost:11434) is not in use (connect ECONNREFUSED).',
    );
  });
});
