import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaveVocabularyBodySchema, type VocabularyOverview } from '#shared/contracts/vocabulary.ts';
import { SignedIn } from '#tests/support/web/test-auth.tsx';
import { VocabularyCard } from './vocabulary-card.tsx';

const toast = vi.hoisted(() => Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('#web/lib/toast.ts', () => ({ toast }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const TEAM_A = '11111111-1111-4111-8111-111111111111';
const TEAM_B = '22222222-2222-4222-8222-222222222222';
const SELF_HOSTED = 'This installation is self-hosted: every feature is included, custom vocabulary too.';

/** GET and PUT /api/v1/vocabulary and a team's PUT behind `fetch`, answering as the server's contract does. */
function installVocabularyServer(initial: VocabularyOverview) {
  let overview = initial;
  const puts: { path: string; body: unknown }[] = [];
  const respond = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const path = String(input);
      if ((init.method ?? 'GET') === 'GET' && path === '/api/v1/vocabulary') return respond(200, overview);
      const body = SaveVocabularyBodySchema.parse(JSON.parse(String(init.body)));
      puts.push({ path, body });
      if (!overview.included) return respond(403, { error: { code: 'PLAN_LIMIT', message: overview.note, details: { plan: 'free' } } });
      const team = /^\/api\/v1\/teams\/([^/]+)\/vocabulary$/.exec(path)?.[1];
      overview = team
        ? { ...overview, teams: overview.teams.map((t) => (t.teamId === team ? { ...t, terms: body.terms } : t)) }
        : { ...overview, terms: body.terms };
      return respond(200, overview);
    }),
  );
  return { puts };
}

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

const type = (label: string, text: string) => fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
const click = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

describe('Settings › Recording › Custom Vocabulary', () => {
  let server: ReturnType<typeof installVocabularyServer>;
  beforeEach(() => {
    server = installVocabularyServer({
      terms: ['Parley'],
      teams: [
        { teamId: TEAM_A, teamName: 'Platform', role: 'admin', terms: [], canEdit: true },
        { teamId: TEAM_B, teamName: 'Sales', role: 'member', terms: ['Okafor Ltd'], canEdit: false },
      ],
      included: true,
      note: SELF_HOSTED,
    });
  });

  it('shows the terms and what the installation includes, saves one term a line, and a team’s for its admin', async () => {
    render(<VocabularyCard />, { wrapper: SignedIn });
    expect(((await screen.findByLabelText('Your vocabulary')) as HTMLTextAreaElement).value).toBe('Parley');
    screen.getByText(SELF_HOSTED);
    expect(screen.getByRole('button', { name: 'Save Vocabulary' }).hasAttribute('disabled')).toBe(true); // nothing changed yet

    type('Your vocabulary', 'Parley\n\n  Anika Okafor  \nPostgreSQL\n');
    await click('Save Vocabulary');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Vocabulary saved'));
    expect(server.puts).toEqual([{ path: '/api/v1/vocabulary', body: { terms: ['Parley', 'Anika Okafor', 'PostgreSQL'] } }]);
    // The box shows the list as saved.
    await waitFor(() => expect((screen.getByLabelText('Your vocabulary') as HTMLTextAreaElement).value).toBe('Parley\nAnika Okafor\nPostgreSQL'));

    type('Platform team vocabulary', 'Kubernetes');
    await click('Save Team Vocabulary');
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Team vocabulary saved'));
    expect(server.puts.at(-1)).toEqual({ path: `/api/v1/teams/${TEAM_A}/vocabulary`, body: { terms: ['Kubernetes'] } });

    // A member sees the team's terms and cannot change them.
    const sales = within(screen.getByRole('region', { name: 'Sales team vocabulary' }));
    sales.getByText('Used for meetings shared with Sales; set by the team’s owner and admins: Okafor Ltd.');
    expect(sales.queryByRole('textbox')).toBeNull();
  });

  it('says what is wrong with a line before anything is sent', async () => {
    render(<VocabularyCard />, { wrapper: SignedIn });
    await screen.findByLabelText('Your vocabulary');
    type('Your vocabulary', `Parley\n${'x'.repeat(51)}`);
    expect(screen.getByRole('alert').textContent).toBe('Line 2: A term is at most 50 characters.');
    expect(screen.getByLabelText('Your vocabulary').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Save Vocabulary' }).hasAttribute('disabled')).toBe(true);
    type('Your vocabulary', 'Parley\n<b>');
    expect(screen.getByRole('alert').textContent).toMatch(/^Line 2: A term is made of letters, digits, spaces/);
    expect(server.puts).toEqual([]);
  });
});

describe('Custom Vocabulary on a plan without it', () => {
  it('says why and how to get it, and shows the server’s refusal of a save', async () => {
    const note =
      'Custom vocabulary is not included in your Free plan. Ask the administrator of this installation to move your account to the Pro plan for custom vocabulary.';
    installVocabularyServer({ terms: ['Parley'], teams: [], included: false, note });
    render(<VocabularyCard />, { wrapper: SignedIn });
    await screen.findByText(note);
    type('Your vocabulary', 'Parley\nOkafor');
    await click('Save Vocabulary');
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(note));
  });

  it('keeps an empty list closed', async () => {
    installVocabularyServer({ terms: [], teams: [], included: false, note: 'Custom vocabulary is not included in your Free plan.' });
    render(<VocabularyCard />, { wrapper: SignedIn });
    expect((await screen.findByLabelText('Your vocabulary')).hasAttribute('disabled')).toBe(true);
  });
});
