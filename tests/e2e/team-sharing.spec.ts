import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations } from '#tests/support/axe.ts';
import { chooseOption, e2eServer, launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, storedAccessToken, toast } from '#tests/support/e2e-auth.ts';

const { baseUrl } = e2eServer();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

/** The API as the person signed in on this page (the team's setup: /team's own screens are tested in team.spec.ts). */
async function callApi<T>(page: Page, method: string, path: string, body?: object): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${await storedAccessToken(page)}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });

describe('a meeting shared with a team', () => {
  it('the owner shares it from the meeting page, the member sees it live marked "Shared by", read-only, and loses it when it is unshared or they are removed', async () => {
    const owner = await signedInPage(browser, { fullName: 'Olive Owner', email: uniqueEmail('share-owner'), password: 'sharing123' });
    const member = await signedInPage(browser, { fullName: 'Milo Member', email: uniqueEmail('share-member'), password: 'sharing123' });
    try {
      // The team and the membership, through the API: an invite link the member accepts.
      const team = await callApi<{ id: string }>(owner.page, 'POST', '/api/v1/teams', { name: 'Launch crew' });
      const invitation = await callApi<{ token: string }>(owner.page, 'POST', `/api/v1/teams/${team.id}/invitations`, { role: 'member' });
      await callApi(member.page, 'POST', `/api/v1/invitations/${invitation.token}/accept`);
      const meeting = await callApi<{ id: string }>(owner.page, 'POST', '/api/v1/meetings/imports', {
        fileName: 'launch.txt',
        title: 'Launch review',
        content: 'Olive: We launch on Friday.\nMilo: I will write the release notes.',
      });

      // The member's history is open before the meeting is shared with them.
      await member.page.goto('/history');
      await card(member.page, 'Weekly Team Standup').waitFor();
      expect(await card(member.page, 'Launch review').count()).toBe(0);

      await owner.page.goto(`/meetings/${meeting.id}`);
      await owner.page.getByRole('heading', { level: 1, name: 'Launch review' }).waitFor();
      await owner.page.getByRole('button', { name: 'Share with team' }).click();
      const dialog = owner.page.getByRole('dialog', { name: 'Share with team' });
      await dialog.getByText('Private: only you can see this meeting.').waitFor();
      await dialog.getByRole('radio', { name: /Launch crew/ }).waitFor();
      expect(await seriousAxeViolations(owner.page)).toEqual([]);
      await dialog.getByRole('radio', { name: /Launch crew/ }).check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast(owner.page, 'Shared with Launch crew').waitFor();
      await owner.page.getByRole('button', { name: 'Shared with Launch crew' }).waitFor();

      // Live: the member's open list reads again when the server says so, no reload.
      const shared = card(member.page, 'Launch review');
      await shared.waitFor();
      await shared.getByText('Shared by Olive Owner').waitFor();
      await shared.getByRole('link', { name: 'View Details of Launch review' }).click();
      await member.page.getByRole('heading', { level: 1, name: 'Launch review' }).waitFor();
      await member.page.getByText('Shared by Olive Owner').waitFor();
      await member.page.getByRole('list', { name: 'Transcript' }).getByText('We launch on Friday.').waitFor();
      expect(await seriousAxeViolations(member.page)).toEqual([]);
      for (const control of ['Rename meeting', 'Share with team', 'Regenerate notes']) {
        expect(await member.page.getByRole('button', { name: control }).count(), control).toBe(0);
      }
      await member.page.getByRole('button', { name: 'Actions for Launch review' }).click();
      const menu = member.page.getByRole('menu');
      await menu.waitFor();
      // What a reader may do: take it away, schedule a follow-up in their calendar, post it to their Slack; never delete it.
      expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Download', 'Schedule follow-up', 'Share to Slack']);
      await member.page.keyboard.press('Escape');

      // The owner makes it private again: the member's page says so at once.
      await owner.page.getByRole('button', { name: 'Shared with Launch crew' }).click();
      await dialog.getByRole('radio', { name: /Private/ }).check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast(owner.page, 'Meeting is private').waitFor();
      await member.page.getByRole('heading', { level: 1, name: 'This meeting is no longer shared with you' }).waitFor();
      expect(await member.page.getByText('We launch on Friday.').count()).toBe(0);
      await member.page.getByRole('link', { name: 'Back to history' }).click();
      await card(member.page, 'Weekly Team Standup').waitFor();
      // The list shown from the cache at first is read again: the meeting leaves it.
      await card(member.page, 'Launch review').waitFor({ state: 'detached' });

      // Shared again, then the member is removed from the team: their open page says it is gone too.
      await callApi(owner.page, 'PATCH', `/api/v1/meetings/${meeting.id}`, { teamId: team.id });
      await card(member.page, 'Launch review').getByText('Shared by Olive Owner').waitFor();
      await card(member.page, 'Launch review').getByRole('link', { name: 'View Details of Launch review' }).click();
      await member.page.getByText('Shared by Olive Owner').waitFor();
      const memberId = (await callApi<{ id: string }>(member.page, 'GET', '/api/v1/me')).id;
      await callApi(owner.page, 'DELETE', `/api/v1/teams/${team.id}/members/${memberId}`);
      await member.page.getByRole('heading', { level: 1, name: 'This meeting is no longer shared with you' }).waitFor();
    } finally {
      await owner.context.close();
      await member.context.close();
    }
  });

  it('Auto-Share on /record shares a recording from the start with the team the Team page shows (chosen there, else the first); with no team it says it makes a link', async () => {
    const owner = await signedInPage(browser, { fullName: 'Rory Recorder', email: uniqueEmail('auto-share'), password: 'sharing123' });
    try {
      await owner.page.goto('/record');
      await owner.page.getByText('Create a share link when the meeting is saved. In a team, it is shared with your team instead.').waitFor();
      await callApi(owner.page, 'POST', '/api/v1/teams', { name: 'Zebra desk' });
      const chosen = await callApi<{ id: string }>(owner.page, 'POST', '/api/v1/teams', { name: 'Alpha desk' });
      // The team the Team page shows: their first (the oldest) until they choose another there.
      const described = (team: string) =>
        owner.page.getByText(`Share with your team “${team}” from the start (the team shown on the Team page; change it on the meeting page).`);
      await owner.page.reload();
      await described('Zebra desk').waitFor();
      await owner.page.goto('/team');
      await chooseOption(owner.page, owner.page.getByRole('combobox', { name: 'Team' }), 'Alpha desk');
      await owner.page.getByRole('combobox', { name: 'Team' }).filter({ hasText: 'Alpha desk' }).waitFor();
      await owner.page.goto('/record');
      await described('Alpha desk').waitFor();
      await owner.page.getByRole('switch', { name: 'Auto-Share' }).click();
      await owner.page.getByLabel('Meeting title').fill('Auto shared sync');
      await owner.page.getByRole('button', { name: 'Start Recording' }).click();
      await toast(owner.page, 'Recording started').waitFor();
      // Shared from its creation: while it is still being recorded, the server already says so.
      type List = { items: { title: string; teamId?: string | null; status: string }[] };
      const listed = await callApi<List>(owner.page, 'GET', '/api/v1/meetings?q=auto%20shared');
      expect(listed.items.map((m) => [m.title, m.teamId, m.status])).toEqual([['Auto shared sync', chosen.id, 'recording']]);
      await owner.page.getByRole('button', { name: 'Save Meeting' }).click();
      await toast(owner.page, 'Shared with Alpha desk').waitFor();
    } finally {
      await owner.context.close();
    }
  });
});
