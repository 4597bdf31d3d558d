import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MeetingListResponse } from '#shared/contracts/meetings.ts';
import type { CreatedInvitation, Team } from '#shared/contracts/teams.ts';
import { e2eServer, launchBrowser, newPage, uniqueEmail } from '#tests/support/browser.ts';
import { fillSignUp, signedInPage, storedAccessToken, submitSignUp, toast } from '#tests/support/e2e-auth.ts';
import { seriousAxeViolations } from '#tests/support/axe.ts';
import { outbox } from '#tests/support/supabase-client.ts';

// Two people on one server, each in their own browser context: a team run end to end through /team,
// /invite and /history, with what one does showing up live on the other's screen (issue 11).

const { baseUrl, dataDir } = e2eServer();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/**
 * Holds this page's live connections (/realtime) back from the server until `release()`: the page's
 * socket opens and its messages wait, as on a slow network, and then pass both ways.
 */
async function holdRealtime(page: Page): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.routeWebSocket(/\/realtime$/, async (socket) => {
    const waiting: Array<string | Buffer> = [];
    socket.onMessage((message) => waiting.push(message));
    await released;
    const server = socket.connectToServer();
    // A second handler replaces the first: from now on the page's messages go straight through.
    socket.onMessage((message) => server.send(message));
    server.onMessage((message) => socket.send(message));
    for (const message of waiting) server.send(message);
  });
  return { release };
}

/** A call to the API as the person signed in on this page (their stored access token). */
async function apiAs<T>(page: Page, method: string, path: string, body?: object): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${await storedAccessToken(page)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

const memberCard = (page: Page, name: string) => page.getByRole('list', { name: 'Team members' }).getByRole('listitem').filter({ hasText: name });
const historyCard = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

describe('a team of two', () => {
  it('the owner invites by email; the invitee signs up from the link, joins, sees a shared meeting arrive live and loses it when removed', async () => {
    const { context: ownerContext, page: owner } = await signedInPage(browser, { fullName: 'Olivia Owner', email: uniqueEmail('owner') });
    const memberEmail = uniqueEmail('member');

    // No team yet: the sample team; Invite Member creates the first team, then invites.
    await owner.goto('/team');
    await owner.getByText(/Invite Member creates your team/).waitFor();
    await owner.getByRole('button', { name: 'Invite Member' }).click();
    const naming = owner.getByRole('dialog', { name: 'Create your team' });
    await naming.getByLabel('Team name').fill('Launch Crew');
    await naming.getByRole('button', { name: 'Create team' }).click();
    await toast(owner, 'Team “Launch Crew” created').waitFor();
    const inviting = owner.getByRole('dialog', { name: 'Invite a team member' });
    await inviting.getByLabel('Email address').fill(memberEmail);
    await inviting.getByRole('button', { name: 'Send Invitation' }).click();
    await toast(owner, `Invitation sent to ${memberEmail}`).waitFor();
    await inviting.getByRole('list', { name: 'Open invitations' }).getByText(memberEmail, { exact: false }).waitFor();
    expect(await seriousAxeViolations(owner)).toEqual([]);
    await owner.keyboard.press('Escape');
    await memberCard(owner, 'Olivia Owner').getByText('Owner', { exact: true }).waitFor();
    expect(await owner.getByText('Sample', { exact: true }).count()).toBe(0);

    // The email's link, as the development outbox keeps it.
    await expect.poll(() => outbox(dataDir, memberEmail).length).toBe(1);
    const link = new URL(outbox(dataDir, memberEmail)[0]!.link);
    expect(link.pathname).toMatch(/^\/invite\/[A-Za-z0-9_-]+$/);

    // The invitee, not signed in: the preview, then sign up and back to the invitation.
    const { context: memberContext, page: member } = await newPage(browser, baseUrl);
    await member.goto(link.pathname);
    await member.getByRole('heading', { name: 'Join Launch Crew' }).waitFor();
    await member.getByText('Olivia Owner invited you to join the team “Launch Crew” on Parley as a member.', { exact: false }).waitFor();
    expect(await seriousAxeViolations(member)).toEqual([]);
    await member.getByRole('button', { name: 'Create an account' }).click();
    await member.waitForURL(/\/auth/);
    await fillSignUp(member, { fullName: 'Milo Member', email: memberEmail, password: 'member123' });
    await submitSignUp(member);
    await member.waitForURL((url) => url.pathname === link.pathname);
    await member.getByRole('button', { name: 'Accept invitation' }).click();
    await member.waitForURL(/\/team$/);
    await toast(member, 'You joined Launch Crew').waitFor();
    await memberCard(member, 'Olivia Owner').waitFor();
    await memberCard(member, 'Milo Member').getByText('You', { exact: true }).waitFor();

    // The owner's page shows the new member without a reload.
    await memberCard(owner, 'Milo Member').getByText('Member', { exact: true }).waitFor();
    expect(await seriousAxeViolations(owner)).toEqual([]);
    // Inviting them again is refused, in the server's words.
    await owner.getByRole('button', { name: 'Invite Member' }).click();
    await inviting.getByLabel('Email address').fill(memberEmail);
    await inviting.getByRole('button', { name: 'Send Invitation' }).click();
    await inviting.getByRole('alert').getByText(`${memberEmail} is already a member of this team.`).waitFor();
    await toast(owner, `${memberEmail} is already a member of this team.`).waitFor();
    await owner.keyboard.press('Escape');
    // The link is used up.
    const again = await fetch(`${baseUrl}/api/v1/invitations/${link.pathname.split('/').at(-1)}`);
    expect(again.status).toBe(410);

    // The owner shares a meeting (through the API, as the meeting page's Share does) after the member's
    // history has loaded but before its live connection is open: it still appears there, without a reload.
    const realtime = await holdRealtime(member);
    await member.goto('/history');
    await member.getByRole('heading', { name: 'Meeting History' }).waitFor();
    await member.getByRole('article').first().waitFor();
    const team = (await apiAs<{ items: Team[] }>(owner, 'GET', '/api/v1/teams')).items[0]!;
    const ownMeetings = await apiAs<MeetingListResponse>(owner, 'GET', '/api/v1/meetings?pageSize=100');
    const standup = ownMeetings.items.find((m) => m.title === 'Weekly Team Standup')!;
    await apiAs(owner, 'PATCH', `/api/v1/meetings/${standup.id}`, { title: 'Launch Crew Standup', teamId: team.id });
    expect(await historyCard(member, 'Launch Crew Standup').count()).toBe(0);
    realtime.release();
    await historyCard(member, 'Launch Crew Standup').waitFor({ timeout: 15_000 });

    // View Profile: the owner's meetings shared with the team.
    await memberCard(owner, 'Olivia Owner').getByRole('button', { name: 'View Profile of Olivia Owner' }).click();
    const profile = owner.getByRole('dialog', { name: 'Olivia Owner' });
    await profile.getByRole('link', { name: 'Launch Crew Standup' }).waitFor();
    await owner.keyboard.press('Escape');

    // The activity says so.
    await owner.getByRole('tab', { name: 'Activity' }).click();
    const activity = owner.getByRole('tabpanel', { name: 'Activity' });
    await activity.getByRole('heading', { level: 3, name: 'Today' }).waitFor();
    // Shared before the rename of the same request: the entry keeps the title the meeting had then.
    await activity.getByText('Olivia Owner shared “Weekly Team Standup” with the team').waitFor();
    await activity.getByText('joined the team').waitFor();
    await activity.getByText(`invited ${memberEmail} to the team`).waitFor();
    expect(await seriousAxeViolations(owner)).toEqual([]);
    await owner.getByRole('tab', { name: 'Team Members' }).click();

    // Removed: the meeting leaves the member's history at once.
    await memberCard(owner, 'Milo Member').getByRole('button', { name: 'Manage Milo Member' }).click();
    await owner.getByRole('menuitem', { name: 'Remove from team' }).click();
    await owner.getByRole('dialog', { name: 'Remove Milo Member?' }).getByRole('button', { name: 'Remove' }).click();
    await toast(owner, 'Milo Member was removed from the team').waitFor();
    await memberCard(owner, 'Milo Member').waitFor({ state: 'detached' });
    await historyCard(member, 'Launch Crew Standup').waitFor({ state: 'detached', timeout: 15_000 });

    await ownerContext.close();
    await memberContext.close();
  });

  it('a member reads "In a meeting" on the owner’s page while recording, and an invitation once used says so', async () => {
    const { context: ownerContext, page: owner } = await signedInPage(browser, { fullName: 'Rhea Owner', email: uniqueEmail('owner') });
    const { context: memberContext, page: member } = await signedInPage(browser, { fullName: 'Reid Recorder', email: uniqueEmail('rec') });
    const team = await apiAs<Team>(owner, 'POST', '/api/v1/teams', { name: 'Recorders' });
    const invitation = await apiAs<CreatedInvitation>(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, { role: 'admin' });
    await member.goto(`/invite/${invitation.token}`);
    await member.getByText('as an admin', { exact: false }).waitFor();
    await member.getByRole('button', { name: 'Accept invitation' }).click();
    await member.waitForURL(/\/team$/);

    await owner.goto('/team');
    const badge = memberCard(owner, 'Reid Recorder').locator('[data-slot="badge"][data-status]');
    // The member's open tab has sent its heartbeat: Available.
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe('Available');
    expect(await badge.getAttribute('data-variant')).toBe('default');

    await member.goto('/record');
    await member.getByLabel('Meeting title').fill('Reid live');
    await member.getByRole('button', { name: 'Start Recording' }).click();
    await toast(member, 'Recording started').waitFor();
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe('In a meeting');
    expect(await badge.getAttribute('data-variant')).toBe('destructive');
    await member.getByRole('button', { name: 'Stop Recording' }).click();
    await toast(member, 'Recording stopped').waitFor();
    await member.getByRole('button', { name: 'Save Meeting' }).click();
    // Once the recording is stored the member is no longer in a meeting.
    await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('Available');

    // The invitation was used: its link now says so plainly.
    await member.goto(`/invite/${invitation.token}`);
    await member.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    await member.getByText('This invitation has already been used. Ask for a new invitation.').waitFor();

    await ownerContext.close();
    await memberContext.close();
  });

  it('the owner hands the team over and leaves it; the team’s page follows on both sides', async () => {
    const { context: ownerContext, page: owner } = await signedInPage(browser, { fullName: 'Tara Transfer', email: uniqueEmail('owner') });
    const { context: heirContext, page: heir } = await signedInPage(browser, { fullName: 'Hugo Heir', email: uniqueEmail('heir') });
    const team = await apiAs<Team>(owner, 'POST', '/api/v1/teams', { name: 'Handover' });
    const invitation = await apiAs<CreatedInvitation>(owner, 'POST', `/api/v1/teams/${team.id}/invitations`, {});
    await apiAs(heir, 'POST', `/api/v1/invitations/${invitation.token}/accept`);

    await owner.goto('/team');
    await heir.goto('/team');
    await memberCard(heir, 'Hugo Heir').getByText('Member', { exact: true }).waitFor();
    // The owner cannot leave before handing the team over: the menu offers Delete, not Leave.
    await owner.getByRole('button', { name: 'Team settings' }).click();
    await owner.getByRole('menuitem', { name: 'Delete team' }).waitFor();
    expect(await owner.getByRole('menuitem', { name: 'Leave team' }).count()).toBe(0);
    await owner.keyboard.press('Escape');

    await memberCard(owner, 'Hugo Heir').getByRole('button', { name: 'Manage Hugo Heir' }).click();
    await owner.getByRole('menuitem', { name: 'Transfer ownership' }).click();
    await owner.getByRole('dialog', { name: 'Make Hugo Heir the owner?' }).getByRole('button', { name: 'Transfer ownership' }).click();
    await toast(owner, 'Hugo Heir is now the owner').waitFor();
    await memberCard(owner, 'Tara Transfer').getByText('Admin', { exact: true }).waitFor();
    // The heir's open page follows.
    await memberCard(heir, 'Hugo Heir').getByText('Owner', { exact: true }).waitFor();
    await memberCard(heir, 'Tara Transfer').getByText('Admin', { exact: true }).waitFor();

    await owner.getByRole('button', { name: 'Team settings' }).click();
    await owner.getByRole('menuitem', { name: 'Leave team' }).click();
    await owner.getByRole('dialog', { name: 'Leave Handover?' }).getByRole('button', { name: 'Leave team' }).click();
    await toast(owner, 'You left the team').waitFor();
    // In no team again: the sample team.
    await owner.getByText(/Invite Member creates your team/).waitFor();
    await memberCard(heir, 'Tara Transfer').waitFor({ state: 'detached' });

    await ownerContext.close();
    await heirContext.close();
  });
});
