import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TRANSCRIPT_IMPORT_BYTES, type MeetingDetail } from '#shared/contracts/meetings.ts';
import { TEAMS_VTT } from '#tests/support/transcript-samples.ts';
import { ImportTranscript } from './import-transcript.tsx';

vi.mock('#web/lib/toast.ts', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }) }));
vi.mock('#web/lib/supabase.ts', () => ({
  loadSupabase: async () => ({ auth: { getSession: async () => ({ data: { session: { access_token: 'token-1' } } }) } }),
}));

const MEETING_ID = '6f1c2b8e-3d4a-4e5f-9a6b-7c8d9e0f1a2b';
const IMPORTED: MeetingDetail = {
  id: MEETING_ID,
  title: 'Launch sync',
  startedAt: '2026-11-17T15:00:00.000Z',
  durationSeconds: 66,
  status: 'ready',
  source: 'import',
  participants: ['Megan Bowen', 'Alex Wilber'],
  summary: null,
  isSample: false,
  hasAudio: false,
  createdAt: '2026-11-17T15:00:00.000Z',
  processing: null,
  failureReason: null,
  options: { speakerDetection: true, emotionalAnalysis: true, actionItems: true, summary: true, noiseReduction: true, highQuality: false, autoShare: false },
  audioSources: null,
  speakers: [],
  segments: [],
  insights: [],
  notes: { status: 'queued', engine: null, failureReason: null, droppedUncited: 0, localFallbackParts: 0, progress: null, outOfDate: false, generatedAt: null },
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.fn<(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>>>;
const onImported = vi.fn();

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

function MeetingStandIn() {
  return <h1>Meeting {useParams().id}</h1>;
}

function renderOnRecordPage(title = '') {
  render(
    <MemoryRouter initialEntries={['/record']}>
      <Routes>
        <Route path="/record" element={<ImportTranscript title={title} onImported={onImported} />} />
        <Route path="/meetings/:id" element={<MeetingStandIn />} />
      </Routes>
    </MemoryRouter>,
  );
}

const choose = (file: File) => fireEvent.change(screen.getByLabelText('Transcript file'), { target: { files: [file] } });

describe('Import a transcript', () => {
  it('offers .vtt, .srt and .txt files', () => {
    renderOnRecordPage();
    expect(screen.getByText('Import a transcript')).toBeTruthy();
    expect(screen.getByLabelText('Transcript file').getAttribute('accept')).toContain('.vtt,.srt,.txt');
  });

  it("sends the file's name and text (and the page's title) and opens the new meeting", async () => {
    fetchMock.mockResolvedValueOnce(json(201, IMPORTED));
    renderOnRecordPage('Launch sync');
    choose(new File([TEAMS_VTT], 'teams-call.vtt', { type: 'text/vtt' }));
    expect(await screen.findByRole('heading', { name: `Meeting ${MEETING_ID}` })).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([String(url), init?.method]).toEqual(['/api/v1/meetings/imports', 'POST']);
    expect(JSON.parse(String(init?.body))).toEqual({ fileName: 'teams-call.vtt', content: TEAMS_VTT, title: 'Launch sync' });
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer token-1');
    expect(onImported).toHaveBeenCalledOnce();
  });

  it("shows the server's reason with the line to fix, and stays on the page", async () => {
    const message = 'Line 10: expected a timestamp like 00:01:02.000 --> 00:01:05.000, found "00:00:1x.000 --> 00:00:12.000"';
    fetchMock.mockResolvedValueOnce(json(400, { error: { code: 'VALIDATION_FAILED', message, details: { line: 10 } } }));
    renderOnRecordPage();
    choose(new File(['WEBVTT\n\n...'], 'broken.vtt'));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByText('Import a transcript')).toBeTruthy();
    expect((screen.getByRole('button', { name: /Choose a transcript/ }) as HTMLButtonElement).disabled).toBe(false);
    expect(onImported).not.toHaveBeenCalled();
  });

  it('refuses a file over 5 MB without sending it', async () => {
    renderOnRecordPage();
    choose(new File(['x'.repeat(MAX_TRANSCRIPT_IMPORT_BYTES + 1)], 'huge.txt'));
    expect((await screen.findByRole('alert')).textContent).toBe('The file is larger than 5 MB. Import a shorter transcript, or split it into parts.');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
