import fs from 'node:fs';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingDetail } from '#shared/contracts/meetings.ts';
import { NotificationListSchema, UnreadCountSchema, type NotificationList } from '#shared/contracts/notifications.ts';
import type { RealtimeEvent } from '#shared/contracts/realtime.ts';
import { SettingsResponseSchema, type NotificationSettings } from '#shared/contracts/settings.ts';
import { CreatedInvitationSchema, TeamSchema, type Team } from '#shared/contracts/teams.ts';
import { buildTestApp, signUpUser, type TestApp } from '#tests/support/build-test-app.ts';
import { startFakeSmtp } from '#tests/support/fake-smtp.ts';
import { createFakeSpeakerIdentifier, createFakeSpeechEngine } from '#tests/support/fake-speech.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

// Settings › Notifications acted on (issue 11 point 5), on the real server over a real SMTP
// conversation (a local SMTP server): the emails each choice allows, their unsubscribe links (no
// sign-in; a forged or altered token refused), the daily Team Activity digest (at most once a day),
// and in-app notifications — action items assigned, mentions, team invitations — that only their
// person reads, pushed over /realtime.

const CLIP = path.join(sharedAudioDir(), 'goforward.wav');
const b64 = (value: string) => Buffer.from(value).toString('base64');
const ENV = { AUTH_AUTOCONFIRM: 'true', AUTH_RATE_LIMITS: 'false' };

type User = { token: string; id: string; email: string; name: string };

/** A header as the mail server received it (mailparser turns List-* headers into objects; the raw line is what clients read). */
const header = (mail: ParsedMail, name: string): string | undefined =>
  mail.headerLines
    .find((h) => h.key === name)
    ?.line.replace(/\r?\n\s+/g, ' ')
    .replace(/^[^:]+:\s*/, '');
/** The link of a notification email's List-Unsubscribe header. */
const unsubscribeLink = (mail: ParsedMail): string => /^<([^>]+)>$/.exec(header(mail, 'list-unsubscribe') ?? '')?.[1] ?? 'missing';
type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

function helpers(app: () => TestApp, smtp: () => Smtp) {
  const t = app;
  const call = async (user: User | undefined, method: string, url: string, body?: unknown) => {
    const response = await fetch(`${t().baseUrl}${url}`, {
      method,
      headers: {
        ...(user ? { authorization: `Bearer ${user.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').startsWith('application/json') ? (JSON.parse(text) as unknown) : undefined;
    return { status: response.status, text, json, headers: response.headers };
  };
  const newUser = async (name: string): Promise<User> => {
    const { token, userId, email } = await signUpUser(t().app, 'notify', { fullName: name });
    return { token, id: userId, email, name };
  };
  const choose = async (user: User, choices: Partial<NotificationSettings>) => {
    const saved = await call(user, 'PUT', '/api/v1/settings/notifications', choices);
    expect(saved.status, saved.text).toBe(200);
  };
  const choices = async (user: User) => SettingsResponseSchema.parse((await call(user, 'GET', '/api/v1/settings')).json).settings.notifications;
  /** The notification emails (not invitations) a person received. */
  const mailTo = (user: User): ParsedMail[] =>
    smtp().messages.filter((m) => header(m, 'list-unsubscribe') && (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text === user.email));
  const notificationsOf = async (user: User): Promise<NotificationList> => {
    const listed = await call(user, 'GET', '/api/v1/notifications');
    expect(listed.status, listed.text).toBe(200);
    return NotificationListSchema.parse(listed.json);
  };
  const createTeam = async (owner: User, name: string): Promise<Team> => {
    const created = await call(owner, 'POST', '/api/v1/teams', { name });
    expect(created.status, created.text).toBe(201);
    return TeamSchema.parse(created.json);
  };
  const invite = async (owner: User, teamId: string, email: string) => {
    const created = await call(owner, 'POST', `/api/v1/teams/${teamId}/invitations`, { email, role: 'member' });
    expect(created.status, created.text).toBe(201);
    return CreatedInvitationSchema.parse(created.json);
  };
  const join = async (owner: User, teamId: string, member: User) => {
    const invitation = await invite(owner, teamId, member.email);
    expect((await call(member, 'POST', `/api/v1/invitations/${invitation.token}/accept`)).status).toBe(200);
  };
  return { call, newUser, choose, choices, mailTo, notificationsOf, createTeam, invite, join };
}

describe('notification emails and in-app notifications', () => {
  let t: TestApp;
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await buildTestApp({
      listen: true,
      env: { ...ENV, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) },
      deps: { speech: { engine: createFakeSpeechEngine(), speakers: createFakeSpeakerIdentifier() } },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  const { call, newUser, choose, choices, mailTo, notificationsOf, createTeam, invite, join } = helpers(
    () => t,
    () => smtp,
  );
  const db = () => t.deps.database.db;

  /** A meeting recorded for real: the clip sent with tus, transcribed by the job (fake speech), its notes written. */
  async function recordedMeeting(user: User, title: string, notes: 'ready' | 'off' = 'ready'): Promise<string> {
    const meeting = (await call(user, 'POST', '/api/v1/meetings', { title, source: 'upload' })).json as MeetingDetail;
    const data = fs.readFileSync(CLIP);
    const auth = { authorization: `Bearer ${user.token}` };
    const created = await fetch(`${t.baseUrl}/uploads`, {
      method: 'POST',
      headers: {
        ...auth,
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': `meetingId ${b64(meeting.id)},filetype ${b64('audio/wav')}`,
      },
    });
    const patched = await fetch(new URL(created.headers.get('location')!, t.baseUrl), {
      method: 'PATCH',
      headers: { ...auth, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: data,
    });
    expect(patched.status).toBe(204);
    await expect
      .poll(async () => (await db().selectFrom('meeting_notes').select('status').where('meeting_id', '=', meeting.id).executeTakeFirst())?.status, {
        timeout: 60_000,
      })
      .toBe(notes);
    await t.app.transcription.idle();
    return meeting.id;
  }

  it(
    'sends one email per recording: AI Insights Ready when notes follow it, Transcription Complete when they do not, with one-click unsubscribe headers',
    { timeout: 90_000 },
    async () => {
      const ada = await newUser('Ada Lovelace');
      const id = await recordedMeeting(ada, 'Engine review');
      await t.deps.jobs.idle();
      await expect.poll(() => mailTo(ada).map((m) => m.subject)).toEqual(['AI insights ready: Engine review']);
      const insights = mailTo(ada)[0]!;
      expect(insights.text).toMatch(/The notes of “Engine review” are ready: \d+ key points?, \d+ action items? and \d+ decisions?\./);
      expect(insights.text).toContain(`${t.baseUrl}/meetings/${id}`);

      // Had the notes failed, the transcript's email that waited for them goes instead.
      await t.deps.services.notifications.notesFailed({ meetingId: id, ownerId: ada.id, explicit: false });
      await expect.poll(() => mailTo(ada).length).toBe(2);
      const transcript = mailTo(ada).find((m) => m.subject?.startsWith('Transcript ready'))!;
      expect(transcript.subject).toBe('Transcript ready: Engine review');
      expect(transcript.text).toContain(`${t.baseUrl}/meetings/${id}`);
      for (const mail of [transcript, insights]) {
        const unsubscribe = unsubscribeLink(mail);
        expect(unsubscribe).toMatch(new RegExp(`^${t.baseUrl}/api/v1/notifications/unsubscribe\\?token=[^>]+$`));
        expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
        expect(mail.text).toContain(unsubscribe);
        expect(mail.html).toContain('Unsubscribe');
      }

      // Automatic notes off: nothing follows the transcript, so its email goes at once, alone.
      const cy = await newUser('Cy Typed');
      expect((await call(cy, 'PUT', '/api/v1/settings/recording', { aiSummary: false })).status).toBe(200);
      await recordedMeeting(cy, 'Plain transcript', 'off');
      await t.deps.jobs.idle();
      await expect.poll(() => mailTo(cy).map((m) => m.subject)).toEqual(['Transcript ready: Plain transcript']);
    },
  );

  it('sends neither email to a person who turned them off', { timeout: 90_000 }, async () => {
    const quiet = await newUser('Quiet Person');
    await choose(quiet, { transcriptionComplete: false, aiInsightsReady: false });
    await recordedMeeting(quiet, 'Silent review');
    await t.deps.jobs.idle();
    expect(mailTo(quiet)).toEqual([]);
  });

  it(
    'an unsubscribe link works without signing in: GET asks, POST (one click) turns the choice off; a forged or altered token is refused',
    { timeout: 90_000 },
    async () => {
      const bo = await newUser('Bo Link');
      await choose(bo, { aiInsightsReady: false });
      await recordedMeeting(bo, 'First take');
      await expect.poll(() => mailTo(bo).length, { timeout: 10_000 }).toBe(1);
      const link = unsubscribeLink(mailTo(bo)[0]!);
      const token = new URL(link).searchParams.get('token')!;
      const path = new URL(link).pathname + new URL(link).search;

      const page = await call(undefined, 'GET', path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain(`Stop sending “Transcription Complete” emails to ${bo.email}?`);
      expect((await choices(bo)).transcriptionComplete).toBe(true); // looking changes nothing

      // Forged and altered tokens: another person's id, another choice, a changed signature, nonsense.
      const other = await newUser('Other Person');
      const parts = token.split('.');
      const forged = [
        [parts[0], other.id, ...parts.slice(2)].join('.'),
        [parts[0], parts[1], 'teamActivity', ...parts.slice(3)].join('.'),
        [...parts.slice(0, 4), `${parts[4]!.slice(0, -2)}${parts[4]!.endsWith('AA') ? 'BB' : 'AA'}`].join('.'),
        'u1.nonsense',
      ];
      for (const bad of forged) {
        const url = `/api/v1/notifications/unsubscribe?token=${encodeURIComponent(bad)}`;
        const refused = await fetch(`${t.baseUrl}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        });
        expect(refused.status, bad).toBe(404);
        expect(await refused.text()).toContain('This unsubscribe link does not work');
        expect((await call(undefined, 'GET', url)).status).toBe(404);
      }
      expect(await choices(bo)).toMatchObject({ transcriptionComplete: true, teamActivity: false });
      expect((await choices(other)).transcriptionComplete).toBe(true);

      // RFC 8058: the mail client's POST, form-encoded, no session.
      const done = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('“Transcription Complete” emails will no longer be sent');
      expect(await choices(bo)).toMatchObject({ transcriptionComplete: false, aiInsightsReady: false, mentions: true });
      // The choice is respected at send time.
      await recordedMeeting(bo, 'Second take');
      await t.deps.jobs.idle();
      expect(mailTo(bo)).toHaveLength(1);
      // The page's own button posts an empty form: the same again, still fine.
      expect((await fetch(link, { method: 'POST' })).status).toBe(200);
      expect((await call(undefined, 'GET', '/api/v1/notifications/unsubscribe')).status).toBe(400);
    },
  );

  it(
    'notifies team members of action items assigned to them when notes are ready, once, and only those who can open the meeting',
    { timeout: 60_000 },
    async () => {
      const dana = await newUser('Dana Whitfield');
      const omar = await newUser('Omar Haddad');
      const maria = await newUser('Maria Lopez');
      const outsider = await newUser('Omar Haddad'); // the same name, not in the team
      await choose(maria, { actionItems: false });
      const team = await createTeam(dana, 'Campaign');
      await join(dana, team.id, omar);
      await join(dana, team.id, maria);
      const events: RealtimeEvent[] = [];
      t.app.realtime.subscribe(omar.id, (event) => events.push(event));

      const created = await call(dana, 'POST', '/api/v1/meetings', { title: 'Spring campaign', teamId: team.id, startedAt: '2026-11-17T15:00:00.000Z' });
      const { id } = created.json as { id: string };
      const { meetings, notes } = t.deps.services;
      await meetings.recordingStored(id, { key: t.deps.blobs.newKey('webm'), mime: 'audio/webm', bytes: 1, durationSeconds: 80 });
      await meetings.completeTranscription(id, {
        speakers: [
          { label: 'Speaker 1', displayName: 'Dana Whitfield' },
          { label: 'Speaker 2', displayName: 'Omar Haddad' },
          { label: 'Speaker 3', displayName: 'Maria Lopez' },
        ],
        segments: [
          { speaker: 0, text: 'Welcome everyone. Today we need to settle the budget for the spring campaign and who does what.' },
          { speaker: 1, text: 'The agency quoted forty thousand for the video work, which is more than we planned for.' },
          { speaker: 0, text: 'We agreed to cap the video budget at thirty thousand and ask the agency for a smaller package.' },
          { speaker: 1, text: 'I will send the revised budget to finance by Friday.' },
          { speaker: 0, text: 'Maria, can you book the photographer for next Tuesday?' },
          { speaker: 2, text: 'Sure, I will book the photographer today.' },
        ].map((line, i) => ({ ...line, startMs: i * 10_000, endMs: i * 10_000 + 9_000 })),
      });
      await notes.transcriptReady(id, dana.id);
      await expect.poll(async () => (await notificationsOf(omar)).items.filter((n) => n.kind === 'action_item').length, { timeout: 30_000 }).toBeGreaterThan(0);
      await t.deps.jobs.idle();

      const all = await notificationsOf(omar);
      const mine = { items: all.items.filter((n) => n.kind === 'action_item') };
      const budget = mine.items.find((n) => n.body.includes('revised budget'));
      expect(budget).toMatchObject({ kind: 'action_item', title: 'Action item for you in “Spring campaign”', readAt: null });
      expect(budget!.link).toMatch(new RegExp(`^/meetings/${id}\\?t=\\d+$`));
      expect(all.unreadCount).toBe(all.items.length); // the team's invitation too
      // Live: the bell hears it with the unread count.
      expect(events).toContainEqual(expect.objectContaining({ type: 'notification', notification: expect.objectContaining({ id: budget!.id }) }));
      // Maria turned Action Items off; the namesake outside the team cannot open the meeting.
      expect((await notificationsOf(maria)).items.map((n) => n.kind)).toEqual(['team_invitation']);
      expect((await notificationsOf(outsider)).items).toEqual([]);

      // Written again (Regenerate): the same items are not news twice.
      expect((await call(dana, 'POST', `/api/v1/meetings/${id}/notes`)).status).toBe(202);
      await expect
        .poll(async () => (await db().selectFrom('meeting_notes').select('status').where('meeting_id', '=', id).executeTakeFirst())?.status)
        .toBe('ready');
      await t.deps.jobs.idle();
      expect((await notificationsOf(omar)).items).toHaveLength(all.items.length);
    },
  );

  it(
    'tells the teammate an owner gives an action item to, under the bell and by email, once; nobody when the owner takes it',
    { timeout: 60_000 },
    async () => {
      const dana = await newUser('Dana Whitfield');
      const omar = await newUser('Omar Haddad');
      const maria = await newUser('Maria Lopez');
      await choose(maria, { actionItems: false });
      const team = await createTeam(dana, 'Launch');
      await join(dana, team.id, omar);
      await join(dana, team.id, maria);
      const { meetings, notes } = t.deps.services;
      const id = ((await call(dana, 'POST', '/api/v1/meetings', { title: 'Launch review', teamId: team.id })).json as { id: string }).id;
      await meetings.recordingStored(id, { key: t.deps.blobs.newKey('webm'), mime: 'audio/webm', bytes: 1, durationSeconds: 40 });
      await meetings.completeTranscription(id, {
        speakers: [{ label: 'Speaker 1', displayName: 'Dana Whitfield' }],
        segments: [
          { speaker: 0, text: 'Welcome everyone. Today we settle the launch budget and who does what.' },
          { speaker: 0, text: 'I will send the revised budget to finance by Friday.' },
          { speaker: 0, text: 'Maria, can you book the photographer for next Tuesday?' },
        ].map((line, i) => ({ ...line, startMs: i * 10_000, endMs: i * 10_000 + 9_000 })),
      });
      await notes.transcriptReady(id, dana.id);
      await expect
        .poll(async () => (await db().selectFrom('meeting_notes').select('status').where('meeting_id', '=', id).executeTakeFirst())?.status, {
          timeout: 30_000,
        })
        .toBe('ready');
      await t.deps.jobs.idle();
      const items = ((await call(dana, 'GET', `/api/v1/meetings/${id}`)).json as MeetingDetail).insights.filter((i) => i.kind === 'action_item');
      expect(items.length).toBeGreaterThanOrEqual(2);
      const [first, second] = items as [(typeof items)[number], (typeof items)[number]];
      const before = { omar: (await notificationsOf(omar)).items.length, dana: (await notificationsOf(dana)).items.length };
      const assign = async (itemId: string, assignee: string) => {
        const changed = await call(dana, 'PATCH', `/api/v1/meetings/${id}/notes/items/${itemId}`, { assignee });
        expect(changed.status, changed.text).toBe(200);
        await t.deps.jobs.idle();
      };

      await assign(first.id, 'Omar Haddad');
      await expect.poll(async () => (await notificationsOf(omar)).items.length, { timeout: 15_000 }).toBe(before.omar + 1);
      expect((await notificationsOf(omar)).items[0]).toMatchObject({
        kind: 'action_item',
        title: 'Action item for you in “Launch review”',
        body: first.text,
        link: `/meetings/${id}`,
        readAt: null,
      });
      await expect.poll(() => mailTo(omar).length, { timeout: 15_000 }).toBe(1);
      const mail = mailTo(omar)[0]!;
      expect(mail.subject).toBe(`Action item for you: ${first.text}`);
      expect(mail.text).toContain(`Dana Whitfield gave you an action item in “Launch review”:`);
      expect(mail.text).toContain(`${t.baseUrl}/meetings/${id}`);
      expect(mail.text).toContain('You get this email because “Action Items” is on in your Parley notification settings.');
      expect(unsubscribeLink(mail)).toMatch(/\/api\/v1\/notifications\/unsubscribe\?token=/);

      // Once: given to someone else and back, or saved again, it is not news twice.
      await assign(first.id, 'Maria Lopez');
      await assign(first.id, 'Omar Haddad');
      // The owner taking an item themselves tells nobody; Maria turned Action Items off.
      await assign(second.id, 'Dana Whitfield');
      await assign(second.id, 'Maria Lopez');
      await t.deps.jobs.idle();
      expect((await notificationsOf(omar)).items).toHaveLength(before.omar + 1);
      expect(mailTo(omar)).toHaveLength(1);
      expect((await notificationsOf(dana)).items).toHaveLength(before.dana);
      expect((await notificationsOf(maria)).items.map((n) => n.kind)).toEqual(['team_invitation']);
      expect(mailTo(maria)).toEqual([]);

      // Unsubscribing from the email turns Action Items off: the bell goes quiet too.
      const done = await fetch(unsubscribeLink(mail), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(done.status).toBe(200);
      expect((await choices(omar)).actionItems).toBe(false);
      await assign(second.id, 'Omar Haddad');
      expect((await notificationsOf(omar)).items).toHaveLength(before.omar + 1);
    },
  );

  it('notifies a teammate whose whole name is said in a meeting shared with them, at that moment', async () => {
    const lead = await newUser('Lena Lead');
    const kim = await newUser('Kim Park');
    const lee = await newUser('Lee Park');
    await choose(lee, { mentions: false });
    const team = await createTeam(lead, 'Mentions');
    await join(lead, team.id, kim);
    await join(lead, team.id, lee);
    const shared = (await call(lead, 'POST', '/api/v1/meetings', { title: 'Standup', teamId: team.id })).json as { id: string };
    const privateOne = (await call(lead, 'POST', '/api/v1/meetings', { title: 'Private standup' })).json as { id: string };
    for (const id of [shared.id, privateOne.id]) {
      await t.deps.services.meetings.recordingStored(id, { key: t.deps.blobs.newKey('webm'), mime: 'audio/webm', bytes: 1, durationSeconds: 30 });
      await t.deps.services.meetings.completeTranscription(id, {
        speakers: [{ label: 'Speaker 1', displayName: null }],
        segments: [
          { speaker: 0, startMs: 0, endMs: 4_000, text: 'Kim will present, then Park follows.' },
          { speaker: 0, startMs: 4_000, endMs: 9_000, text: 'Thanks to kim park for the release notes, and to Lee Park too.' },
        ],
      });
      // The port the transcription job calls once a transcript is stored.
      await t.deps.services.notifications.transcriptionComplete(id, lead.id);
    }
    const kims = await notificationsOf(kim);
    expect(kims.items.filter((n) => n.kind !== 'team_invitation')).toEqual([
      expect.objectContaining({
        kind: 'mention',
        title: 'You were mentioned in “Standup”',
        body: 'Lena Lead’s meeting: “Thanks to kim park for the release notes, and to Lee Park too.”',
        link: `/meetings/${shared.id}?t=4000`,
      }),
    ]);
    expect((await notificationsOf(lee)).items.map((n) => n.kind)).toEqual(['team_invitation']);
    expect((await notificationsOf(lead)).items).toEqual([]);

    // Shared later, or imported into the team: the same, once per meeting however often it is shared.
    const mentionsOfKim = async () => (await notificationsOf(kim)).items.filter((n) => n.kind === 'mention').map((n) => n.link.split('?')[0]);
    expect((await call(lead, 'PATCH', `/api/v1/meetings/${privateOne.id}`, { teamId: team.id })).status).toBe(200);
    expect((await call(lead, 'PATCH', `/api/v1/meetings/${privateOne.id}`, { teamId: null })).status).toBe(200);
    expect((await call(lead, 'PATCH', `/api/v1/meetings/${privateOne.id}`, { teamId: team.id })).status).toBe(200);
    await t.deps.jobs.idle();
    expect(await mentionsOfKim()).toEqual([`/meetings/${privateOne.id}`, `/meetings/${shared.id}`]);
    const imported = await call(lead, 'POST', '/api/v1/meetings/imports', {
      fileName: 'retro.txt',
      content: 'Lena Lead: Kim Park owns the retro follow-ups.',
      teamId: team.id,
    });
    expect(imported.status, imported.text).toBe(201);
    const importedId = (imported.json as { id: string }).id;
    await t.deps.jobs.idle();
    expect(await mentionsOfKim()).toEqual([`/meetings/${importedId}`, `/meetings/${privateOne.id}`, `/meetings/${shared.id}`]);
  });

  it('notifies a person with an account of a team invitation to their email, if they want it; nobody reads or marks another’s', async () => {
    const owner = await newUser('Ines Owner');
    const guest = await newUser('Gil Guest');
    const declined = await newUser('Dee Declined');
    await choose(declined, { teamInvitations: false });
    const team = await createTeam(owner, 'Invites');
    const invitation = await invite(owner, team.id, guest.email.toUpperCase());
    await invite(owner, team.id, declined.email);
    await invite(owner, team.id, 'no-account@example.com');

    const guests = await notificationsOf(guest);
    expect(guests).toEqual({
      unreadCount: 1,
      items: [
        expect.objectContaining({ kind: 'team_invitation', title: 'Ines Owner invited you to Invites', link: `/invite/${invitation.token}`, readAt: null }),
      ],
    });
    expect((await notificationsOf(declined)).items).toEqual([]);
    expect((await notificationsOf(owner)).items).toEqual([]);

    // Another person's ids change nothing; the person's own do.
    const [notice] = guests.items;
    const others = await call(owner, 'POST', '/api/v1/notifications/read', { ids: [notice!.id] });
    expect(UnreadCountSchema.parse(others.json)).toEqual({ unreadCount: 0 });
    expect((await notificationsOf(guest)).unreadCount).toBe(1);
    expect((await call(owner, 'POST', '/api/v1/notifications/read', { all: true })).status).toBe(200);
    expect((await notificationsOf(guest)).unreadCount).toBe(1);
    const read = await call(guest, 'POST', '/api/v1/notifications/read', { ids: [notice!.id] });
    expect(UnreadCountSchema.parse(read.json)).toEqual({ unreadCount: 0 });
    expect((await notificationsOf(guest)).items[0]!.readAt).not.toBeNull();

    // Bad input is refused clearly; no caller, no list.
    expect((await call(guest, 'POST', '/api/v1/notifications/read', { ids: [] })).status).toBe(400);
    expect((await call(guest, 'POST', '/api/v1/notifications/read', { ids: ['not-a-uuid'] })).status).toBe(400);
    expect((await call(guest, 'POST', '/api/v1/notifications/read', { all: false })).status).toBe(400);
    expect((await call(undefined, 'GET', '/api/v1/notifications')).status).toBe(401);
    expect((await call(undefined, 'POST', '/api/v1/notifications/read', { all: true })).status).toBe(401);
  });

  it('documents its endpoints in the OpenAPI file', async () => {
    const doc = (await call(undefined, 'GET', '/api/v1/openapi.json')).json as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
    };
    expect(doc.paths['/api/v1/notifications']?.get?.tags).toEqual(['notifications']);
    expect(doc.paths['/api/v1/notifications/read']?.post?.tags).toEqual(['notifications']);
    // The unsubscribe link needs no sign-in.
    expect(doc.paths['/api/v1/notifications/unsubscribe']?.get?.security).toEqual([]);
    expect(doc.paths['/api/v1/notifications/unsubscribe']?.post?.security).toEqual([]);
  });

  it('Delete All Data removes the person’s notifications and revokes their unsubscribe links', { timeout: 90_000 }, async () => {
    const gone = await newUser('Gone Person');
    const owner = await newUser('Team Owner');
    const team = await createTeam(owner, 'Leaving');
    await invite(owner, team.id, gone.email);
    await recordedMeeting(gone, 'To be deleted');
    await expect.poll(() => mailTo(gone).length, { timeout: 10_000 }).toBe(1); // one email per recording: AI Insights Ready
    const link = unsubscribeLink(mailTo(gone)[0]!);
    expect((await notificationsOf(gone)).items.map((n) => n.kind)).toEqual(['team_invitation']);

    expect((await call(gone, 'DELETE', '/api/v1/me/data', { email: gone.email })).status).toBe(200);
    expect(await notificationsOf(gone)).toEqual({ items: [], unreadCount: 0 });
    expect(await db().selectFrom('notifications').select('id').where('user_id', '=', gone.id).execute()).toEqual([]);
    expect((await fetch(link)).status).toBe(404);
    expect((await fetch(link, { method: 'POST' })).status).toBe(404);
  });

  it('Delete All Data of a meeting’s owner takes the notifications about their meetings from teammates’ bells', async () => {
    const owner = await newUser('Wren Owner');
    const mate = await newUser('Tala Mate');
    const team = await createTeam(owner, 'Vanishing');
    await join(owner, team.id, mate);
    const { id } = (await call(owner, 'POST', '/api/v1/meetings', { title: 'Soon gone', teamId: team.id })).json as { id: string };
    await t.deps.services.meetings.recordingStored(id, { key: t.deps.blobs.newKey('webm'), mime: 'audio/webm', bytes: 1, durationSeconds: 10 });
    await t.deps.services.meetings.completeTranscription(id, {
      speakers: [{ label: 'Speaker 1', displayName: null }],
      segments: [{ speaker: 0, startMs: 0, endMs: 4_000, text: 'Tala Mate has the private numbers.' }],
    });
    await t.deps.services.notifications.transcriptionComplete(id, owner.id);
    expect((await notificationsOf(mate)).items.map((n) => n.kind)).toEqual(['mention', 'team_invitation']);

    expect((await call(owner, 'DELETE', '/api/v1/me/data', { email: owner.email })).status).toBe(200);
    expect((await notificationsOf(mate)).items.map((n) => n.kind)).toEqual(['team_invitation']);
  });
});

describe('the daily Team Activity digest', () => {
  // 10:00 in Pacific Time (the default profile time zone), a day at a time.
  let now = new Date('2026-11-24T18:00:00.000Z');
  let t: TestApp;
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await buildTestApp({ listen: true, env: { ...ENV, SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) }, deps: { clock: { now: () => now } } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  const { choose, mailTo, createTeam, invite, join, newUser } = helpers(
    () => t,
    () => smtp,
  );
  const digestsTo = (user: User) => mailTo(user).filter((m) => m.subject?.startsWith('Team activity'));

  it('goes once a day to each person who has it on and has news of their teams, as a job on the queue', { timeout: 30_000 }, async () => {
    const ada = await newUser('Ada Owner');
    const bob = await newUser('Bob Member');
    const carol = await newUser('Carol Alone');
    const dave = await newUser('Dave Off');
    const team = await createTeam(ada, 'Analytics');
    await join(ada, team.id, bob);
    await join(ada, team.id, dave);
    for (const person of [bob, carol]) await choose(person, { teamActivity: true });
    await invite(ada, team.id, 'first-guest@example.com');

    // The scheduled job (queued at start and hourly) sends what is due.
    await t.deps.services.notifications.queueDigests();
    await expect.poll(() => digestsTo(bob).length, { timeout: 15_000 }).toBe(1);
    const digest = digestsTo(bob)[0]!;
    expect(digest.text).toContain('Analytics');
    expect(digest.text).toContain('Ada Owner invited first-guest@example.com');
    expect(digest.text).toContain('Dave Off joined the team');
    expect(digest.text).not.toContain('Bob Member joined'); // his own doing is not news to him
    expect(header(digest, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(digestsTo(carol)).toEqual([]); // on, but no team and so nothing to report
    expect(digestsTo(dave)).toEqual([]); // off (the default)
    expect(digestsTo(ada)).toEqual([]);

    // Later the same day, twice at once: nothing more.
    now = new Date('2026-11-24T23:00:00.000Z');
    await invite(ada, team.id, 'same-day@example.com');
    await Promise.all([t.deps.services.notifications.queueDigests(), t.deps.services.notifications.queueDigests()]);
    await t.deps.jobs.idle();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(digestsTo(bob)).toHaveLength(1);

    // The next day, before 08:00 their time: not yet; from then on, once, with only what is new.
    now = new Date('2026-11-25T15:00:00.000Z'); // 07:00 in Pacific Time
    await t.deps.services.notifications.queueDigests();
    await t.deps.jobs.idle();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(digestsTo(bob)).toHaveLength(1);
    now = new Date('2026-11-25T17:00:00.000Z');
    await t.deps.services.notifications.queueDigests();
    await expect.poll(() => digestsTo(bob).length, { timeout: 15_000 }).toBe(2);
    expect(digestsTo(bob)[1]!.text).toContain('Ada Owner invited same-day@example.com');
    expect(digestsTo(bob)[1]!.text).not.toContain('first-guest@example.com');
    await t.deps.services.notifications.queueDigests();
    await t.deps.jobs.idle();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(digestsTo(bob)).toHaveLength(2);
  });
});
