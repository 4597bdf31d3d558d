import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '#tests/support/browser.ts';
import { signedInPage, toast } from '#tests/support/e2e-auth.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe("correcting a meeting's speakers", () => {
  it('moves a line and a run of lines to another speaker, merges two speakers, and merges on renaming one as another (asked first)', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Dana Diarize' });
    await page.getByRole('link', { name: 'Weekly Team Standup' }).first().click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.waitFor();
    const speakersOfLines = () =>
      transcript.locator(':scope > li').evaluateAll((lines) => lines.map((li) => li.textContent!.match(/^\d\d:\d\d([^:]+):/)![1]!.trim()));
    const speakersCard = page.locator('[data-slot="card"]').filter({ has: page.getByText('Speakers', { exact: true }) });
    expect(await speakersOfLines()).toEqual(['Alex Johnson', 'Sarah Miller', 'David Chen', 'Alex Johnson', 'Emma Wilson', 'Alex Johnson']);

    // One line: Sarah's at 00:10 was Emma's, then David's at 00:23 too.
    await page.getByRole('button', { name: 'Change the speaker of the line at 00:10 (Sarah Miller)' }).click();
    await page.getByRole('menuitem', { name: 'Emma Wilson' }).first().click();
    await toast(page, 'Line moved').waitFor();
    await page.getByRole('button', { name: 'Change the speaker of the line at 00:23 (David Chen)' }).click();
    await page.getByRole('menuitem', { name: 'Emma Wilson' }).first().click();
    await expect.poll(speakersOfLines).toEqual(['Alex Johnson', 'Emma Wilson', 'Emma Wilson', 'Alex Johnson', 'Emma Wilson', 'Alex Johnson']);

    // A run: the line at 00:10 and the next one, both Emma's, go to Sarah together.
    await page.getByRole('button', { name: 'Change the speaker of the line at 00:10 (Emma Wilson)' }).click();
    await page.getByText('This line and the next 1 of Emma Wilson’s to').waitFor();
    await page.getByRole('menuitem', { name: 'Sarah Miller' }).nth(1).click();
    await toast(page, '2 lines moved').waitFor();
    await expect.poll(speakersOfLines).toEqual(['Alex Johnson', 'Sarah Miller', 'Sarah Miller', 'Alex Johnson', 'Emma Wilson', 'Alex Johnson']);

    // Merge from the speaker's menu: David (no lines left) into Alex, after asking.
    await page.getByRole('button', { name: 'More for David Chen' }).click();
    await page.getByRole('menuitem', { name: 'Alex Johnson' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Merge David Chen into Alex Johnson?' });
    await dialog.getByRole('button', { name: 'Merge speakers' }).click();
    await toast(page, 'Speakers merged').waitFor();
    await expect
      .poll(() =>
        speakersCard
          .getByRole('button', { name: /^Rename / })
          .allInnerTexts()
          .then((b) => b.length),
      )
      .toBe(3);
    expect(await page.getByRole('button', { name: 'Rename David Chen' }).count()).toBe(0);

    // Renaming Emma as "alex johnson" is the same person as Alex: asked, cancelled, nothing changes; asked again, merged.
    const renameEmmaAsAlex = async () => {
      await page.getByRole('button', { name: 'Rename Emma Wilson' }).click();
      await page.getByLabel('Name for Speaker 4').fill('alex johnson');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      return page.getByRole('alertdialog', { name: 'Merge Emma Wilson into Alex Johnson?' });
    };
    const asked = await renameEmmaAsAlex();
    await asked.getByText('All of Emma Wilson’s lines become Alex Johnson’s').waitFor();
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await asked.waitFor({ state: 'detached' });
    expect(await speakersOfLines()).toEqual(['Alex Johnson', 'Sarah Miller', 'Sarah Miller', 'Alex Johnson', 'Emma Wilson', 'Alex Johnson']);
    await (await renameEmmaAsAlex()).getByRole('button', { name: 'Merge speakers' }).click();
    await expect.poll(speakersOfLines).toEqual(['Alex Johnson', 'Sarah Miller', 'Sarah Miller', 'Alex Johnson', 'Alex Johnson', 'Alex Johnson']);

    await page.reload();
    await transcript.waitFor();
    expect(await speakersOfLines()).toEqual(['Alex Johnson', 'Sarah Miller', 'Sarah Miller', 'Alex Johnson', 'Alex Johnson', 'Alex Johnson']);
    expect(await speakersCard.getByRole('button', { name: /^Rename / }).count()).toBe(2);
    await context.close();
  });

  it('splits a line and moves a range of lines selected with Shift+arrow to a new speaker from the keyboard, each undone from its toast', async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Sam Splitter' });
    await page.getByRole('link', { name: 'Weekly Team Standup' }).first().click();
    const transcript = page.getByRole('list', { name: 'Transcript' });
    await transcript.waitFor();
    const lines = () => transcript.locator(':scope > li').allInnerTexts();
    const original = await lines();
    expect(original).toHaveLength(6);

    // Split: the speaker's menu opened with Enter, the caret placed with the arrow keys, Enter splits.
    const first = page.getByRole('button', { name: 'Change the speaker of the line at 00:00 (Alex Johnson)' });
    await first.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Split this line…' }).focus();
    await page.keyboard.press('Enter');
    const splitBox = page.getByRole('textbox', { name: 'Split the line at 00:00' });
    await expect.poll(() => splitBox.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Home');
    for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const split = toast(page, 'Line split');
    await split.waitFor();
    await expect.poll(() => lines().then((l) => l.length)).toBe(7);
    const [a, b] = await lines();
    expect(a).toMatch(/^00:00\s*Alex Johnson:/);
    expect(b).toMatch(/Alex Johnson:/);
    await split.getByRole('button', { name: 'Undo' }).click();
    await toast(page, 'Split undone').waitFor();
    await expect.poll(lines).toEqual(original);

    // A range: Sarah's line at 00:10 selected with Space, David's at 00:23 added with Shift+ArrowDown, both
    // to a new speaker, who appears in the Speakers card; Undo gives each line back and removes them.
    await page.getByRole('checkbox', { name: 'Select the line at 00:10' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowDown');
    const selected = page.getByRole('toolbar', { name: 'Selected lines' });
    await selected.getByText('2 lines selected').waitFor();
    await selected.getByRole('button', { name: 'Move to…' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('The 2 selected lines to').waitFor();
    await page.getByRole('menuitem', { name: 'A new speaker' }).focus();
    await page.keyboard.press('Enter');
    const moved = toast(page, '2 lines moved');
    await moved.waitFor();
    await page.getByRole('button', { name: 'Change the speaker of the line at 00:10 (Speaker 5)' }).waitFor();
    await page.getByRole('button', { name: 'Change the speaker of the line at 00:23 (Speaker 5)' }).waitFor();
    await page.getByRole('button', { name: 'Rename Speaker 5' }).waitFor();
    expect(await selected.count()).toBe(0); // moved, the lines are let go
    await moved.getByRole('button', { name: 'Undo' }).click();
    await toast(page, 'Move undone').waitFor();
    await page.getByRole('button', { name: 'Change the speaker of the line at 00:10 (Sarah Miller)' }).waitFor();
    await page.getByRole('button', { name: 'Change the speaker of the line at 00:23 (David Chen)' }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Rename Speaker 5' }).count()).toBe(0);
    await page.reload();
    await transcript.waitFor();
    expect(await lines()).toEqual(original);
    await context.close();
  });

  it("offers the names already used in the person's meetings when naming a speaker", async () => {
    const { context, page } = await signedInPage(browser, { fullName: 'Nina Names' });
    await page.getByRole('link', { name: 'Weekly Team Standup' }).first().click();
    await page.getByRole('button', { name: 'Rename Sarah Miller' }).click();
    const input = page.getByLabel('Name for Speaker 2');
    const offered = await input.evaluate((element: HTMLInputElement) => [...(element.list?.options ?? [])].map((option) => option.value));
    // From this meeting and the other sample meetings (Michael Brown speaks only in the roadmap review).
    expect(offered).toContain('Michael Brown');
    expect(offered).toContain('Alex Johnson');
    await input.fill('Michael Brown');
    await input.press('Enter');
    await page.getByRole('button', { name: 'Rename Michael Brown' }).waitFor();
    await context.close();
  });
});
