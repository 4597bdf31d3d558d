import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, uniqueEmail } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';
import { sharedAudioDir } from '#tests/support/shared-audio.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

const notesPanel = (page: Page) => page.getByRole('region', { name: 'Notes' });
const itemOf = (list: Locator, text: string) => list.getByRole('listitem').filter({ hasText: text });
const transcriptLine = (page: Page, text: string) => page.getByRole('list', { name: 'Transcript' }).getByRole('listitem').filter({ hasText: text });

/** Whether an element is inside the transcript's scroll box as shown, not scrolled out of it. */
const inView = (line: Locator) =>
  line.evaluate((el) => {
    const box = el.closest('[data-slot="card-content"]')!.getBoundingClientRect();
    const rect = el.getBoundingClientRect();
    return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1 && rect.bottom <= window.innerHeight;
  });

/** "02:05" → 125 seconds. */
const seconds = (clock: string) => clock.split(':').reduce((total, part) => total * 60 + Number(part), 0);

describe('the Notes panel of a sample meeting (no recording)', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedInPage(browser, { fullName: 'Nora Notes', email: uniqueEmail('notes'), password: 'notes1234' }));
    await page.getByRole('link', { name: 'Weekly Team Standup' }).click();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);
  });
  afterAll(async () => {
    await context.close();
  });

  it('shows the summary and key points; an item highlights and scrolls to the line it cites', async () => {
    const panel = notesPanel(page);
    await panel.getByText('Sprint progress review: the onboarding flow ships Friday').waitFor();
    await panel.getByRole('list', { name: 'Key points' }).getByText('The onboarding flow is feature complete and ships on Friday.').waitFor();
    expect(await panel.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Summary', 'Key points', 'Action items', 'Decisions', 'Topics']);

    // A small window makes the transcript scroll: the cited line must be brought into view.
    await page.setViewportSize({ width: 1280, height: 500 });
    const cited = transcriptLine(page, "I'll chase that with the platform team today.");
    expect(await cited.getAttribute('data-cited')).toBe('false');
    await itemOf(panel.getByRole('list', { name: 'Action items' }), 'Get production credentials for the new API gateway')
      .getByRole('button', { name: /00:35/ })
      .click();
    await expect.poll(() => cited.getAttribute('data-cited')).toBe('true');
    await expect.poll(() => inView(cited)).toBe(true);
    expect(await page.locator('[data-cited="true"]').count()).toBe(1);

    // A topic on the timeline: its span's lines light up.
    await page.getByRole('button', { name: 'Topic Regression testing, 00:42–01:03' }).click();
    await expect.poll(() => transcriptLine(page, 'QA needs two more days').getAttribute('data-cited')).toBe('true');
    expect(await cited.getAttribute('data-cited')).toBe('false');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('ticking an action item done is kept after a reload', async () => {
    const actions = notesPanel(page).getByRole('list', { name: 'Action items' });
    const regression = itemOf(actions, 'Finish the regression suite for the billing screens');
    await regression.getByText('Owner: QA Team').waitFor();
    await regression.getByRole('checkbox', { name: 'Done' }).click();
    await expect.poll(() => regression.getByRole('checkbox', { name: 'Done' }).getAttribute('aria-checked')).toBe('true');
    await page.reload();
    await expect
      .poll(() =>
        itemOf(notesPanel(page).getByRole('list', { name: 'Action items' }), 'Finish the regression suite')
          .getByRole('checkbox')
          .getAttribute('aria-checked'),
      )
      .toBe('true');
  });

  it(
    'Regenerate notes goes through queued and running to ready, live; the local engine’s suggestions are accepted and dismissed, and that persists; its summary cites',
    { timeout: 90_000 },
    async () => {
      const panel = notesPanel(page);
      await panel.getByRole('button', { name: 'Regenerate notes' }).waitFor();
      // Every state line the panel shows, in order, from this page load on (a reload would lose the list).
      await page.evaluate(() => {
        const seen: string[] = [];
        Object.assign(window, { notesStates: seen });
        const region = document.querySelector('[role="region"]')!;
        new MutationObserver(() => {
          // No state line: the notes are ready.
          const text = region.querySelector('[aria-live="polite"]')?.textContent ?? 'ready';
          if (seen.at(-1) !== text) seen.push(text);
        }).observe(region, { subtree: true, childList: true, characterData: true });
      });
      await panel.getByRole('button', { name: 'Regenerate notes' }).click();
      const states = () => page.evaluate(() => (window as unknown as { notesStates: string[] }).notesStates);
      await expect.poll(states, { timeout: 60_000 }).toContain('ready');
      const seen = await states();
      expect(seen[0]).toBe('Notes are queued');
      expect(seen.some((s) => /^Writing notes(: part \d+ of \d+|…)$/.test(s))).toBe(true);
      expect(seen.at(-1)).toBe('ready');

      // What a person reviewed stays; the local engine's new items are suggestions.
      const actions = panel.getByRole('list', { name: 'Action items' });
      await expect
        .poll(() => itemOf(actions, 'Finish the regression suite for the billing screens').getByRole('checkbox').getAttribute('aria-checked'))
        .toBe('true');
      const suggestions = panel.getByRole('listitem').filter({ has: page.getByText('Suggestion', { exact: true }) });
      // The new items come with the meeting read again after the ready event.
      await expect.poll(() => suggestions.count()).toBeGreaterThanOrEqual(2);
      const accepted = (await suggestions.nth(0).getByRole('button').first().textContent())!;
      await suggestions.nth(0).getByRole('button', { name: 'Accept' }).click();
      await expect.poll(() => panel.getByRole('listitem').filter({ hasText: accepted.trim() }).first().getAttribute('data-suggested')).toBe('false');
      const dismissed = (await suggestions.nth(0).getByRole('button').first().textContent())!;
      await suggestions.nth(0).getByRole('button', { name: 'Dismiss' }).click();
      await expect.poll(() => panel.getByRole('button', { name: 'Show dismissed (1)' }).count()).toBe(1);

      await page.reload();
      await notesPanel(page).getByText('Notes by the local engine').waitFor();
      // The local engine's summary cites its sentences: a sentence's time, reached with the keyboard, lights the lines it was written from.
      expect(await page.locator('[data-cited="true"]').count()).toBe(0);
      const sentenceTime = notesPanel(page)
        .getByRole('button', { name: /^Go to where this was said: \d\d:\d\d$/ })
        .first();
      await sentenceTime.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('[data-cited="true"]').count()).toBeGreaterThan(0);
      expect(await notesPanel(page).getByRole('listitem').filter({ hasText: accepted.trim() }).first().getAttribute('data-suggested')).toBe('false');
      expect(await notesPanel(page).getByRole('listitem').filter({ hasText: dismissed.trim() }).count()).toBe(0);
      await notesPanel(page).getByRole('button', { name: 'Show dismissed (1)' }).click();
      const restored = notesPanel(page).getByRole('listitem').filter({ hasText: dismissed.trim() });
      await restored.getByRole('button', { name: 'Restore' }).click();
      await expect.poll(() => restored.getAttribute('data-status')).toBe('open');

      // Under the local engine's notes, a link to where Settings says how a model writes fuller ones.
      await notesPanel(page).getByRole('link', { name: 'see how in Settings' }).click();
      await page.waitForURL(/\/settings\?tab=recording#notes-model$/);
      await page.getByRole('region', { name: 'Notes Model' }).getByText('Notes are written by the local engine: no model is connected.').waitFor();
    },
  );
});

describe('the Notes panel of a recording', () => {
  it('an item moves the player to its moment and highlights its line', { timeout: 120_000 }, async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Rita Recording', email: uniqueEmail('notes-audio'), password: 'notes1234' });
    await page.goto('/record');
    // Listening before the upload: once stored, its meeting opens and asks for the recording at once.
    const downloads: string[] = [];
    page.on('request', (request) => {
      // The player's link to stream the recording through, and its waveform.
      const { pathname } = new URL(request.url());
      if (/\/audio\/(link|peaks)$/.test(pathname)) downloads.push(pathname.replace(/^.*\//, ''));
    });
    await page.getByLabel('Recording file').setInputFiles(path.join(sharedAudioDir(), 'librivox_ss_5utt.wav'));
    await toast(page, 'Meeting saved').waitFor();
    await page.waitForURL(/\/meetings\/[0-9a-f-]{36}$/);

    // Transcribed, then notes written by the local engine: all arrives without a reload.
    const panel = notesPanel(page);
    await panel.getByText('Notes by the local engine').waitFor({ timeout: 90_000 });
    await expect.poll(() => panel.locator('[aria-live="polite"]').count(), { timeout: 30_000 }).toBe(0);
    await page
      .getByTestId('audio-player')
      .getByText(/^00:00 \/ 00:[1-9]\d$/)
      .waitFor();
    // The notes' states refresh the meeting, never the recording (which would restart the player).
    expect(downloads.sort()).toEqual(['link', 'peaks']);

    // The item said last: its time is past the start, so the player must move there.
    // The items come with the meeting read again after the ready event, a moment after the state line goes.
    const itemTimes = panel.locator('li button span.font-mono');
    await expect.poll(() => itemTimes.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const times = await itemTimes.allTextContents();
    const latest = times.map((t) => t.split('–')[0]!).sort((a, b) => seconds(b) - seconds(a))[0]!;
    expect(seconds(latest)).toBeGreaterThan(0);
    const item = panel
      .getByRole('listitem')
      .filter({ has: page.getByText(latest, { exact: true }) })
      .first();
    await item.getByRole('button', { name: new RegExp(`^${latest}`) }).click();
    const playerClock = page.getByTestId('audio-player').locator('span.font-mono');
    await expect.poll(async () => seconds((await playerClock.textContent())!.split(' / ')[0]!)).toBeGreaterThanOrEqual(seconds(latest));
    await expect.poll(() => page.locator('[data-cited="true"]').count()).toBeGreaterThan(0);
    await context.close();
  });
});
