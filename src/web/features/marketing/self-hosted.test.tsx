import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubAppConfig } from '#tests/support/web/app-config.ts';
import { LandingPage } from './pages/landing-page.tsx';
import { PricingPage } from './pages/pricing-page.tsx';

vi.mock('#web/lib/toast.ts', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn() }) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SELF_HOSTED = 'This installation is self-hosted: every feature is included.';
const notes = () => screen.queryAllByTestId('self-hosted-note').map((note) => note.textContent);

function renderAt(url: string, page: ReactNode) {
  render(<MemoryRouter initialEntries={[url]}>{page}</MemoryRouter>);
}

describe('the trial and the plans, on a self-hosted installation (/app-config.js)', () => {
  it('the landing page keeps its trial text and says beside it that every feature is included', () => {
    stubAppConfig({ billing: false });
    renderAt('/', <LandingPage />);
    expect(screen.getAllByText('Free 14-day trial').length).toBeGreaterThan(0);
    screen.getByText('Free 14-day trial. No credit card required. Cancel anytime.');
    screen.getByText('Start free and upgrade when you need more hours — with a free 14-day trial and no credit card required.');
    expect(notes()).toEqual([
      `${SELF_HOSTED} There is no trial to run out and nothing to pay.`,
      `${SELF_HOSTED} The plans are not sold here: no plan limits apply and nothing is billed.`,
      SELF_HOSTED,
    ]);
  });

  it('the landing page as the build prerenders it, with no /app-config.js at all, says the same: no build can bill yet', () => {
    renderAt('/', <LandingPage />);
    expect(notes()).toHaveLength(3);
    expect(notes()[0]).toContain(SELF_HOSTED);
  });

  it('/pricing keeps its plans and FAQ, says the plans are not sold here, and answers the trial and billing questions for this installation', async () => {
    stubAppConfig({ billing: false });
    renderAt('/pricing', <PricingPage />);
    screen.getByRole('heading', { name: 'Simple, transparent pricing' });
    expect(screen.getAllByTestId('plan-card')).toHaveLength(4);
    expect(notes()).toEqual([`${SELF_HOSTED} The plans are not sold here: no plan limits apply and nothing is billed.`]);
    const answer = async (question: string) => {
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: question }));
      });
      return screen.getByRole('region', { name: question }).textContent;
    };
    expect(await answer('Is there a free trial?')).toBe(
      'Yes: a free 14-day trial, no credit card required. Cancel anytime. On this installation there is no trial to run out: it is self-hosted, and every feature is included.',
    );
    expect(await answer('Can I cancel, upgrade or downgrade at any time?')).toContain(
      'On this installation there is no subscription: it is self-hosted, nothing is billed, and every feature is included.',
    );
  });

  it('on an installation that bills, the pages show the spec’s text alone', async () => {
    stubAppConfig({ billing: true });
    renderAt('/', <LandingPage />);
    expect(notes()).toEqual([]);
    cleanup();
    renderAt('/pricing', <PricingPage />);
    expect(notes()).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Is there a free trial?' }));
    });
    expect(within(screen.getByRole('region', { name: 'Is there a free trial?' })).queryByText(/self-hosted/)).toBeNull();
  });
});
